"""Business orders (业务办理): 补电, 换表, 过户 and 销户, each reviewed before it is carried out.

An order is created unreviewed (the spec's State 5: 1) and in progress (State 6: 0). Passing it
(State 5: 2) carries it out in the same transaction and completes it (State 6: 1); refusing it
(State 5: 3) voids it (State 6: 2). What each type does when passed:

- 补电 (repair): credits the account with the amount (an adjustment "补电").
- 换表 (meter change): records the meter change on the device (the energy roll-ups are recounted
  around it and stay continuous) and charges the account up to the corrected totals.
- 过户 (transfer): settles the old holder first (use charged to now, the balance refunded to them),
  then the account carries on under the new holder with a zero balance. The review is refused while
  the use to now leaves a debt, until the old holder has paid it: the new holder never starts owing.
- 销户 (close): final charge to now, the balance refunded (or, owed, left on the closed account),
  pending power actions cancelled, the account closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.billing import charging, ledger
from powerportal.billing.models import (
    ADJUSTMENT,
    BUSINESS_TYPES,
    CLOSE,
    CLOSED,
    COMPLETED,
    DONE_STATES,
    METER_CHANGE,
    NOT_PASSED,
    OPEN,
    PASSED,
    PREPAY,
    REFUND,
    REPAIR,
    REVIEW_STATES,
    TRANSFER,
    UNREVIEWED,
    VOIDED,
    BillingAccount,
    BusinessOrder,
)
from powerportal.billing.schemas import METHODS, OrderCreate, OrderQuery, OrderReview
from powerportal.billing.service import owned_account
from powerportal.control.commands import person
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import parse_display, to_display, utcnow
from powerportal.devices.models import Device
from powerportal.energy.service import record_meter_change
from powerportal.logs import recording as logs
from powerportal.projects.access import owned_projects, sees


def _details(body: OrderCreate) -> dict[str, object]:
    """What the order's type needs, checked; a missing part is a clear error."""
    kind = body.business_type
    if kind == REPAIR:
        if body.amount is None:
            raise ApiError("补电需填写补电金额")
        return {"amount": body.amount}
    if kind == METER_CHANGE:
        if body.old_final is None or body.new_initial is None or not body.change_time:
            raise ApiError("换表需填写旧表止码、新表起码和换表时间")
        # checked as the review will check it: an order that can only be refused is not taken
        try:
            changed = parse_display(body.change_time)
        except ValueError as exc:  # no such day (02-30), or out of range (year 1)
            raise ApiError("换表时间无效") from exc
        if changed > utcnow():
            raise ApiError("换表时间不能晚于当前时间")
        return {"old_final": body.old_final, "new_initial": body.new_initial, "change_time": body.change_time}
    if kind == TRANSFER:
        if not body.new_holder_name:
            raise ApiError("过户需填写新户主姓名")
        return {"new_holder_name": body.new_holder_name, "new_holder_mobile": body.new_holder_mobile}
    return {"method": body.method or "cash"}


def summary(kind: int, details: dict[str, Any]) -> str:
    """One line saying what the order does."""
    if kind == REPAIR:
        return f"补电 {float(str(details.get('amount'))):.2f} 元"
    if kind == METER_CHANGE:
        return (
            f"{details.get('change_time')} 换表，旧表止码 {details.get('old_final')}，"
            f"新表起码 {details.get('new_initial')}"
        )
    if kind == TRANSFER:
        return f"过户给 {details.get('new_holder_name')}"
    return f"销户，余额以{METHODS.get(str(details.get('method')), '现金')}退还"


async def create_order(
    *, session: AsyncSession, customer: Customer, body: OrderCreate, ip: str | None
) -> dict[str, Any]:
    """Open an order on an account of the customer's; it waits for review."""
    # held: two orders sent at once take turns, and the second sees the first waiting
    account = await owned_account(session, customer, body.account_sysno, lock=True)
    if account.state != OPEN:
        raise ApiError("账户已销户")
    waiting = await session.scalar(
        select(BusinessOrder.sysno).where(
            BusinessOrder.account_sysno == account.sysno, BusinessOrder.review_state == UNREVIEWED
        )
    )
    if waiting is not None:
        raise ApiError("该账户已有待审核的业务单，请先审核", 409)
    order = BusinessOrder(
        account_sysno=account.sysno,
        customer_sysno=account.customer_sysno,
        business_type=body.business_type,
        review_state=UNREVIEWED,
        done_state=0,
        details=_details(body),
        remark=body.remark,
        creator=person(customer),
        create_time=utcnow(),
    )
    session.add(order)
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"业务办理：{account.holder_name} {summary(order.business_type, order.details)}（待审核）",
        ip=ip,
    )
    await session.commit()
    return await get_order(session=session, customer=customer, sysno=order.sysno)


async def review_order(
    *, session: AsyncSession, customer: Customer, body: OrderReview, ip: str | None
) -> dict[str, Any]:
    """Pass (and carry out) or refuse an order, once (its account held: two reviews take turns)."""
    account_sysno = await session.scalar(
        select(BusinessOrder.account_sysno)
        .join(BillingAccount, BillingAccount.sysno == BusinessOrder.account_sysno)
        .where(
            BusinessOrder.sysno == body.sysno,
            BillingAccount.project_sysno.in_(owned_projects(customer.sysno)),
        )
    )
    if account_sysno is None:
        raise NotFound("业务单")
    account = await owned_account(session, customer, account_sysno, lock=True)
    order = await session.scalar(
        select(BusinessOrder)
        .where(BusinessOrder.sysno == body.sysno)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if order is None:
        raise NotFound("业务单")
    if order.review_state != UNREVIEWED:
        raise ApiError("该业务单已审核", 409)
    order.reviewer, order.review_remark, order.review_time = person(customer), body.remark, utcnow()
    if not body.approve:
        order.review_state, order.done_state = NOT_PASSED, VOIDED
    else:
        if account.state != OPEN:
            raise ApiError("账户已销户")
        await _carry_out(session, customer, order, account)
        order.review_state, order.done_state = PASSED, COMPLETED
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"业务审核：{account.holder_name} {summary(order.business_type, order.details)}，"
        + ("通过并已办理" if body.approve else "未通过"),
        ip=ip,
    )
    await session.commit()
    return await get_order(session=session, customer=customer, sysno=order.sysno)


async def _carry_out(
    session: AsyncSession, customer: Customer, order: BusinessOrder, account: BillingAccount
) -> None:
    details = order.details
    who = person(customer)
    if order.business_type == REPAIR:
        amount = ledger.fen_of_yuan(float(str(details["amount"])))
        ledger.post(
            session,
            account,
            kind=ADJUSTMENT,
            amount_fen=amount,
            operator=who,
            remark=f"补电（业务单 {order.sysno}）",
        )
    elif order.business_type == METER_CHANGE:
        device = await session.get(Device, account.device_sysno)
        if device is None:
            raise NotFound("设备")
        await record_meter_change(
            session,
            device,
            change_time=str(details["change_time"]),
            old_final=float(str(details["old_final"])),
            new_initial=float(str(details["new_initial"])),
            remark=f"业务单 {order.sysno}",
        )
        await charging.charge(session, device_sysnos=[account.device_sysno])
    elif order.business_type == TRANSFER:
        await _charge_to_now(session, account, who)
        if account.balance_fen < 0:  # the old holder's: never the new holder's first debt
            raise ApiError(
                f"结算至今账户欠费 {ledger.yuan(-account.balance_fen):.2f} 元，"
                "请先为原户主充值结清（多充的部分过户时退还）后再审核过户"
            )
        _refund(session, account, who, method="cash", why=f"过户前结清（业务单 {order.sysno}）")
        account.holder_name = str(details["new_holder_name"])
        mobile = details.get("new_holder_mobile")
        account.holder_mobile = str(mobile) if mobile else None
    elif order.business_type == CLOSE:
        await _charge_to_now(session, account, who)
        _refund(
            session,
            account,
            who,
            method=str(details.get("method") or "cash"),
            why=f"销户退款（业务单 {order.sysno}）",
        )  # a debt stays on the closed account
        account.state, account.close_time = CLOSED, utcnow()
    await charging.review(session, account)


async def _charge_to_now(session: AsyncSession, account: BillingAccount, who: str) -> None:
    """Charge what was used to now (post-paid: the use since the last bill)."""
    if account.charge_type == PREPAY:
        await charging.charge(session, device_sysnos=[account.device_sysno])
    else:
        found = (await charging.used(session, [account]))[account.sysno]
        charging.post_use(session, account, found, operator=who, remark="结算至今用电")


def _refund(session: AsyncSession, account: BillingAccount, who: str, *, method: str, why: str) -> None:
    """Pay out what is left on the account (nothing when it is owed)."""
    if account.balance_fen > 0:
        ledger.post(
            session,
            account,
            kind=REFUND,
            amount_fen=-account.balance_fen,
            operator=who,
            method=method,
            remark=why,
        )


ORDERS = Listing(
    select(
        BusinessOrder.sysno,
        BusinessOrder.account_sysno,
        BillingAccount.holder_name,
        Device.name,
        BusinessOrder.business_type,
        BusinessOrder.review_state,
        BusinessOrder.done_state,
        BusinessOrder.details,
        BusinessOrder.remark,
        BusinessOrder.creator,
        BusinessOrder.reviewer,
        BusinessOrder.review_remark,
        BusinessOrder.review_time,
        BusinessOrder.create_time,
    )
    .join(BillingAccount, BillingAccount.sysno == BusinessOrder.account_sysno)
    .join(Device, Device.sysno == BillingAccount.device_sysno),
    filters={
        "customer": lambda p: sees(
            p, project=BillingAccount.project_sysno, device=BillingAccount.device_sysno
        ),
        "account": lambda p: BusinessOrder.account_sysno == p,
        "type": lambda p: BusinessOrder.business_type == p,
        "review": lambda p: BusinessOrder.review_state == p,
        "sysno": lambda p: BusinessOrder.sysno == p,
    },
    orders={"create_time": BusinessOrder.sysno},
    default_order="create_time",
    tie=BusinessOrder.sysno,
)


def _order(row: Row) -> dict[str, Any]:
    (
        sysno,
        account,
        holder,
        device,
        kind,
        review,
        done,
        details,
        remark,
        creator,
        reviewer,
        review_remark,
        reviewed,
        created,
    ) = row
    return {
        "sysno": sysno,
        "account_sysno": account,
        "holder_name": holder,
        "device_name": device,
        "business_type": kind,
        "business_type_name": BUSINESS_TYPES.get(kind, str(kind)),
        "review_state": review,
        "review_state_name": REVIEW_STATES.get(review, str(review)),
        "done_state": done,
        "done_state_name": DONE_STATES.get(done, "进行中"),
        "details": details,
        "summary": summary(kind, details),
        "remark": remark,
        "creator": creator,
        "reviewer": reviewer,
        "review_remark": review_remark,
        "review_time": to_display(reviewed),
        "create_time": to_display(created),
    }


def _values(customer: Customer, query: OrderQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "account": query.account_sysno,
        "type": query.business_type,
        "review": query.review_state,
    }


async def list_orders(*, ctx: AppContext, customer: Customer, query: OrderQuery) -> PageData:
    """Business orders, newest first."""
    return await ORDERS.page(ctx, query=query, values=_values(customer, query), render=_order)


async def get_order(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One order the customer sees."""
    row = await ORDERS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("业务单")
    return _order(row)


ORDER_EXPORT = (
    Column("提交时间", "create_time", 20),
    Column("户主", "holder_name", 12),
    Column("设备", "device_name", 16),
    Column("业务类型", "business_type_name", 10),
    Column("内容", "summary", 36),
    Column("审核状态", "review_state_name", 10),
    Column("办理状态", "done_state_name", 10),
    Column("提交人", "creator", 20),
    Column("审核人", "reviewer", 20),
    Column("审核时间", "review_time", 20),
)


async def export_orders(*, ctx: AppContext, customer: Customer, query: OrderQuery) -> tuple[Path, str]:
    """Every order the filters keep, as a workbook."""
    return await export_list(
        ctx,
        name="业务办理",
        listing=ORDERS,
        query=query,
        values=_values(customer, query),
        columns=ORDER_EXPORT,
        filters=filters_shown(("业务类型", BUSINESS_TYPES.get(query.business_type or 0))),
        render=_order,
    )
