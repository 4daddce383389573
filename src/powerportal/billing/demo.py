"""The demo's electricity accounts: the dormitory rooms pay in advance, two rooms pay monthly.

Opened, recharged and reviewed through the service, as a dormitory office would have done: every
room of the two dormitory buildings has an account, a few with several recharges, two below their
warning level, one 补电 order passed and one 过户 order waiting for review. Nothing is cut at the
start (every prepaid balance is above its cut-off level).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy import and_, func, select

from powerportal.accounts.models import Customer
from powerportal.alarms.models import CustomerNotice
from powerportal.alarms.notices import BILLING
from powerportal.billing import orders, service
from powerportal.billing.models import BillingAccount, BusinessOrder, LedgerEntry
from powerportal.billing.schemas import AccountCreate, OrderCreate, OrderReview, RechargeCreate
from powerportal.core.context import AppContext
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.logs.models import OperationLog

log = logging.getLogger("powerportal.demo")

DORM_GATEWAYS = ("DEMO-GW-0001", "DEMO-GW-0002")
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许"
GIVEN = ("子涵", "浩然", "欣怡", "梓轩", "雨桐", "宇航", "思远", "佳琪", "俊杰", "诗琪", "一鸣", "若曦")
IP = "127.0.0.1"


async def seed(ctx: AppContext, customer: Customer) -> int:
    """Open the demo's accounts once (none yet); return how many were opened."""
    async with ctx.sessions() as session:
        if await session.scalar(
            select(func.count())
            .select_from(BillingAccount)
            .where(BillingAccount.customer_sysno == customer.sysno)
        ):
            return 0
        rooms = (
            await session.scalars(
                select(Device.sysno)
                .join(Gateway, Gateway.sysno == Device.gateway_sysno)
                .where(Gateway.sn.in_(DORM_GATEWAYS), Device.device_id != "1")  # "1": the building's incomer
                .order_by(Gateway.sn, Device.sysno)
            )
        ).all()
    opened: list[int] = []
    for i, device in enumerate(rooms):
        post_paid = i in (4, 15)
        low = i in (2, 9)
        body = AccountCreate(
            device_sysno=device,
            holder_name=f"{SURNAMES[i % len(SURNAMES)]}{GIVEN[i % len(GIVEN)]}",
            holder_mobile=f"1391234{i:04d}",
            notify_holder=i % 3 == 0,
            charge_type=3 if post_paid else 1,
            flat_price=None if i % 2 else 0.6,
            warn_balance=50.0 if low else 20.0,
            cutoff_balance=0.0,
            keep_power=i == 7,  # a room with a medical fridge: never cut
            opening_balance=0.0 if post_paid else (38.5 if low else 100.0 + 20 * (i % 5)),
            method="wechat" if i % 2 else "cash",
            remark="宿舍电费" if not post_paid else "宿管办公室，月结",
        )
        async with ctx.sessions() as session:
            made = await service.create_account(session=session, customer=customer, body=body, ip=IP)
        opened.append(made["sysno"])
    async with ctx.sessions() as session:
        for k, sysno in enumerate(opened[:8]):
            if k in (2,):
                continue
            await service.recharge(
                session=session,
                customer=customer,
                body=RechargeCreate(
                    account_sysnos=[sysno], amount=50.0 + 10 * k, method="alipay", remark="学期充值"
                ),
                ip=IP,
            )
    if len(opened) > 6:
        async with ctx.sessions() as session:
            repair = await orders.create_order(
                session=session,
                customer=customer,
                body=OrderCreate(account_sysno=opened[5], business_type=1, amount=12.0, remark="停电补偿"),
                ip=IP,
            )
        async with ctx.sessions() as session:
            await orders.review_order(
                session=session,
                customer=customer,
                body=OrderReview(sysno=repair["sysno"], approve=True, remark="已核实"),
                ip=IP,
            )
        async with ctx.sessions() as session:
            await orders.create_order(
                session=session,
                customer=customer,
                body=OrderCreate(
                    account_sysno=opened[6], business_type=3, new_holder_name="新住户", remark="换宿舍"
                ),
                ip=IP,
            )
    async with ctx.sessions() as session:
        # In the story all this happened at the start of term, three weeks ago (nothing at the moment of
        # the seed); the low-balance notices are as old, so none pops up at the first login.
        ago = timedelta(days=21)
        for model, columns, where in (
            (
                BillingAccount,
                ("create_time", "last_recharge_time"),
                BillingAccount.customer_sysno == customer.sysno,
            ),
            (LedgerEntry, ("create_time",), LedgerEntry.customer_sysno == customer.sysno),
            (BusinessOrder, ("create_time", "review_time"), BusinessOrder.customer_sysno == customer.sysno),
            (
                OperationLog,
                ("create_time",),
                and_(
                    OperationLog.customer_sysno == customer.sysno,
                    OperationLog.operate_type == int(logs.OperateType.BILLING),
                ),
            ),
            (
                CustomerNotice,
                ("create_time",),
                and_(CustomerNotice.customer_sysno == customer.sysno, CustomerNotice.notice_type == BILLING),
            ),
        ):
            for row in (await session.scalars(select(model).where(where))).all():
                for column in columns:
                    if getattr(row, column) is not None:
                        setattr(row, column, getattr(row, column) - ago)
                if isinstance(row, CustomerNotice):
                    row.is_push = 1
        await session.commit()
    log.info("demo billing: %d accounts opened", len(opened))
    return len(opened)
