"""The text balance: charged sending, usage records and recharge orders confirmed by a brand administrator.

A charged send takes one text per recipient from the customer's balance and records the use in
one short transaction, commits, and only then talks to the SMS provider: nothing holds the
balance row's lock while a provider is slow. The outcome of each text is written afterwards.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, during, export_list, filters_shown
from powerportal.core.listing import During, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.sms import SmsSendError
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.sms.models import SmsAccount, SmsOutbox, SmsRecharge, SmsUsage
from powerportal.sms.schemas import (
    RechargeCreate,
    RechargeQuery,
    SmsAccountRead,
    UsageQuery,
)

log = logging.getLogger("powerportal.sms")

# Yuan per text; recharge orders are priced with it (no payment gateway is in scope).
PRICE_PER_TEXT = 0.05
MAX_PENDING_RECHARGES = 5
USAGE_STATUS = {"sending": "发送中", "sent": "已发送", "failed": "发送失败", "no_balance": "余额不足"}
RECHARGE_STATE = {0: "待确认", 1: "已到账", 2: "已拒绝"}


# -- charged sending -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChargedText:
    """One text to send on a customer's balance."""

    mobile: str
    content: str


@dataclass(frozen=True, slots=True)
class ChargedSend:
    """What a charged send did: texts sent, and whether the balance has just run out (tell the customer)."""

    sent: int
    ran_out: bool


async def send_charged(
    *,
    ctx: AppContext,
    customer_sysno: int,
    texts: list[ChargedText],
    purpose: str,
    params: dict[str, str],
    alarm_sysno: int | None,
    now: datetime | None = None,
) -> ChargedSend:
    """Send texts on the customer's balance, one text each; those the balance cannot pay are recorded."""
    now = now or utcnow()
    reserved: list[tuple[int, ChargedText]] = []
    async with ctx.sessions() as session:
        ran_out = False
        for text in texts:
            paid = await _take_one(session, customer_sysno)
            usage = SmsUsage(
                customer_sysno=customer_sysno,
                alarm_sysno=alarm_sysno,
                mobile=text.mobile,
                content=text.content,
                status="sending" if paid else "no_balance",
                create_time=now,
            )
            session.add(usage)
            if paid:
                await session.flush()
                reserved.append((usage.sysno, text))
            else:
                ran_out = await _mark_empty(session, customer_sysno) or ran_out
        await session.commit()
    outcomes = []
    for usage_sysno, text in reserved:
        status, error = "sent", None
        try:
            await ctx.sms.send(mobile=text.mobile, content=text.content, params=params)
        except (SmsSendError, OSError) as exc:
            status, error = "failed", str(exc)[:255]
            log.warning("%s SMS to %s failed: %s", purpose, text.mobile, exc)
        outcomes.append((usage_sysno, text, status, error))
    if outcomes:
        async with ctx.sessions() as session:
            await session.execute(
                update(SmsUsage),
                [{"sysno": sysno, "status": status, "error": error} for sysno, _t, status, error in outcomes],
            )
            session.add_all(
                SmsOutbox(
                    mobile=text.mobile,
                    purpose=purpose,
                    content=text.content,
                    provider=ctx.sms.name,
                    status=status,
                    error=error,
                )
                for _sysno, text, status, error in outcomes
            )
            await session.commit()
    return ChargedSend(sent=sum(1 for *_rest, status, _e in outcomes if status == "sent"), ran_out=ran_out)


async def _take_one(session: AsyncSession, customer_sysno: int) -> bool:
    """Take one text from the balance; false when it is empty."""
    taken = await session.execute(
        update(SmsAccount)
        .where(SmsAccount.customer_sysno == customer_sysno, SmsAccount.balance > 0)
        .values(balance=SmsAccount.balance - 1)
        .returning(SmsAccount.balance)
    )
    return taken.first() is not None


async def _mark_empty(session: AsyncSession, customer_sysno: int) -> bool:
    """Note that a text went unpaid; true the first time since the last recharge."""
    account_row = await session.get(SmsAccount, customer_sysno)
    if account_row is None:
        account_row = SmsAccount(customer_sysno=customer_sysno, balance=0, empty_noticed=0)
        session.add(account_row)
    if account_row.empty_noticed:
        return False
    account_row.empty_noticed = 1
    return True


# -- balance and usage -----------------------------------------------------------------------------


async def account(*, session: AsyncSession, customer: Customer) -> SmsAccountRead:
    """Balance and counts of texts sent."""
    balance = await session.scalar(
        select(SmsAccount.balance).where(SmsAccount.customer_sysno == customer.sysno)
    )
    month_start = utcnow().astimezone(CUSTOMER_TZ).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    sent = [SmsUsage.customer_sysno == customer.sysno, SmsUsage.status == "sent"]
    total = await session.scalar(select(func.count()).select_from(SmsUsage).where(*sent))
    month = await session.scalar(
        select(func.count()).select_from(SmsUsage).where(*sent, SmsUsage.create_time >= month_start)
    )
    return SmsAccountRead(
        balance=balance or 0,
        sent_total=total or 0,
        sent_this_month=month or 0,
        price=PRICE_PER_TEXT,
        can_confirm=int(customer.is_brand_admin),
    )


USAGE = Listing(
    select(
        SmsUsage.sysno,
        SmsUsage.alarm_sysno,
        SmsUsage.mobile,
        SmsUsage.content,
        SmsUsage.status,
        SmsUsage.error,
        SmsUsage.create_time,
    ),
    filters={
        "customer": lambda p: SmsUsage.customer_sysno == p,
        "time": During(SmsUsage.create_time),
        "mobile": lambda p: SmsUsage.mobile == p,
    },
    # By time, as the (customer, time) index serves it; sysno breaks ties in the same direction.
    orders={"create_time": SmsUsage.create_time},
    default_order="create_time",
    tie=SmsUsage.sysno,
)


def _usage(row: Row) -> dict[str, Any]:
    """One text in the shape of ``UsageRead``."""
    sysno, alarm_sysno, mobile, content, status, error, create_time = row
    return {
        "sysno": sysno,
        "alarm_sysno": alarm_sysno,
        "mobile": mobile,
        "content": content,
        "status": status,
        "status_name": USAGE_STATUS.get(status, status),
        "error": error,
        "create_time": to_display(create_time),
    }


def _usage_values(customer: Customer, query: UsageQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "time": (query.start_time, query.end_time),
        "mobile": query.mobile or None,
    }


async def list_usage(*, ctx: AppContext, customer: Customer, query: UsageQuery) -> PageData:
    """The customer's texts, newest first."""
    return await USAGE.page(ctx, query=query, values=_usage_values(customer, query), render=_usage)


USAGE_COLUMNS = (
    Column("时间", "create_time", 20),
    Column("手机号", "mobile", 14),
    Column("短信内容", "content", 60),
    Column("状态", "status_name", 10),
    Column("失败原因", "error", 24),
)


async def export_usage(*, ctx: AppContext, customer: Customer, query: UsageQuery) -> tuple[Path, str]:
    """Every text of the customer's the filters keep, as a workbook: its path and file name."""
    filters = filters_shown(("时间", during(query.start_time, query.end_time)), ("手机号", query.mobile))
    return await export_list(
        ctx,
        name="短信发送记录",
        listing=USAGE,
        query=query,
        values=_usage_values(customer, query),
        columns=USAGE_COLUMNS,
        filters=filters,
        render=_usage,
    )


# -- recharge orders -------------------------------------------------------------------------------


async def add_recharge(*, session: AsyncSession, customer: Customer, body: RechargeCreate) -> dict[str, Any]:
    """Order more texts; the order waits for a brand administrator."""
    pending = await session.scalar(
        select(func.count())
        .select_from(SmsRecharge)
        .where(SmsRecharge.customer_sysno == customer.sysno, SmsRecharge.state == 0)
    )
    if (pending or 0) >= MAX_PENDING_RECHARGES:
        raise ApiError("待确认的充值订单过多，请等待管理员确认后再下单")
    order = SmsRecharge(
        customer_sysno=customer.sysno,
        quantity=body.quantity,
        amount=round(body.quantity * PRICE_PER_TEXT, 2),
        state=0,
        remark=body.remark or None,
        create_time=utcnow(),
    )
    session.add(order)
    await session.flush()
    return _recharge_read(order, customer.mobile)


RECHARGES = Listing(
    select(
        SmsRecharge.sysno,
        SmsRecharge.customer_sysno,
        Customer.mobile,
        SmsRecharge.quantity,
        SmsRecharge.amount,
        SmsRecharge.state,
        SmsRecharge.remark,
        SmsRecharge.confirm_time,
        SmsRecharge.create_time,
    ).join(Customer, Customer.sysno == SmsRecharge.customer_sysno),
    filters={
        "customer": lambda p: SmsRecharge.customer_sysno == p,
        "state": lambda p: SmsRecharge.state == p,
    },
    orders={"sysno": SmsRecharge.sysno},
    default_order="sysno",
    tie=SmsRecharge.sysno,
)


def _recharge(row: Row) -> dict[str, Any]:
    """One recharge order in the shape of ``RechargeRead``."""
    sysno, customer_sysno, mobile, quantity, amount, state, remark, confirm_time, create_time = row
    return {
        "sysno": sysno,
        "customer_sysno": customer_sysno,
        "customer_mobile": mobile,
        "quantity": quantity,
        "amount": amount,
        "state": state,
        "state_name": RECHARGE_STATE.get(state, str(state)),
        "remark": remark,
        "confirm_time": to_display(confirm_time),
        "create_time": to_display(create_time),
    }


def _recharge_read(order: SmsRecharge, mobile: str) -> dict[str, Any]:
    return _recharge(
        (
            order.sysno,
            order.customer_sysno,
            mobile,
            order.quantity,
            order.amount,
            order.state,
            order.remark,
            order.confirm_time,
            order.create_time,
        )
    )


async def list_recharges(*, ctx: AppContext, customer: Customer, query: RechargeQuery) -> PageData:
    """The customer's recharge orders (every customer's for a brand administrator asking for ``all``)."""
    return await RECHARGES.page(ctx, query=query, values=_recharge_values(customer, query), render=_recharge)


def _recharge_values(customer: Customer, query: RechargeQuery) -> dict[str, Any]:
    if query.all and not customer.is_brand_admin:
        raise ApiError("仅品牌管理员可查看全部充值订单", status_code=403)
    return {"customer": None if query.all else customer.sysno, "state": query.state}


RECHARGE_COLUMNS = (
    Column("下单时间", "create_time", 20),
    Column("账号", "customer_mobile", 14),
    Column("充值条数", "quantity", 10, "number"),
    Column("金额（元）", "amount", 12, "amount"),
    Column("备注", "remark", 24),
    Column("状态", "state_name", 10),
    Column("确认时间", "confirm_time", 20),
)


async def export_recharges(*, ctx: AppContext, customer: Customer, query: RechargeQuery) -> tuple[Path, str]:
    """Every recharge order the filters keep (every customer's for ``all``), as a workbook: path and name."""
    values = _recharge_values(customer, query)
    filters = filters_shown(
        ("范围", "全部账号" if query.all else None),
        ("状态", RECHARGE_STATE.get(query.state) if query.state is not None else None),
    )
    return await export_list(
        ctx,
        name="充值订单",
        listing=RECHARGES,
        query=query,
        values=values,
        columns=RECHARGE_COLUMNS,
        filters=filters,
        render=_recharge,
    )


async def confirm_recharge(
    *, session: AsyncSession, admin: Customer, sysno: int, approve: bool
) -> dict[str, Any]:
    """A brand administrator credits (or refuses) a waiting order."""
    if not admin.is_brand_admin:
        raise ApiError("仅品牌管理员可确认充值订单", status_code=403)
    found = (
        await session.execute(
            select(SmsRecharge, Customer.mobile)
            .join(Customer, Customer.sysno == SmsRecharge.customer_sysno)
            .where(SmsRecharge.sysno == sysno)
        )
    ).first()
    if found is None:
        raise NotFound("充值订单")
    order, mobile = found
    if order.state != 0:
        raise ApiError("该订单已处理，不能重复确认")
    order.state = 1 if approve else 2
    order.confirm_time = utcnow()
    order.confirm_customer_sysno = admin.sysno
    if approve:
        await _credit(session, order.customer_sysno, order.quantity)
    await session.flush()
    return _recharge_read(order, mobile)


async def _credit(session: AsyncSession, customer_sysno: int, quantity: int) -> None:
    held = await session.get(SmsAccount, customer_sysno, with_for_update=True)
    if held is None:
        session.add(SmsAccount(customer_sysno=customer_sysno, balance=quantity, empty_noticed=0))
    else:
        held.balance += quantity
        held.empty_noticed = 0
