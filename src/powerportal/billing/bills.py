"""Monthly bills of post-paid accounts (types 2 and 3).

At the start of each local month the worker bills every open post-paid account for what its device
used since the last bill, priced as prepaid charges are (``charging.target``: the same exact,
drift-free totals). The bill shows the month's consumption by tariff period from the device's
month roll-up. A type-2 account pays from its prestore at once (the bill is settled, the balance
may fall into the overdraft, and below it the account is cut like a prepaid one); a type-3 bill
stays unsettled until a payment covers it (``settle``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.billing import charging, ledger
from powerportal.billing.models import (
    OPEN,
    POSTPAY,
    PRESTORE,
    Bill,
    BillingAccount,
)
from powerportal.billing.schemas import BillQuery
from powerportal.core.context import AppContext
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.energy.models import DEVICE, MONTH, PERIOD_LABELS, EnergyRollup
from powerportal.projects.access import sees

SETTLED, UNSETTLED = 1, 2
BILL_STATUS = {SETTLED: "已结清", UNSETTLED: "未结清"}
OPERATOR = "系统月度账单"


def previous_month(now: datetime, zone: ZoneInfo) -> tuple[str, datetime]:
    """The local month before ``now``'s: its ``YYYY-MM`` and the instant it began."""
    local = now.astimezone(zone)
    year, month = (local.year, local.month - 1) if local.month > 1 else (local.year - 1, 12)
    return f"{year:04d}-{month:02d}", datetime(year, month, 1, tzinfo=zone)


async def _periods(session: AsyncSession, device: int, start: datetime) -> list[dict[str, float]]:
    row = await session.scalar(
        select(EnergyRollup).where(
            EnergyRollup.scope == DEVICE,
            EnergyRollup.grain == MONTH,
            EnergyRollup.owner_sysno == device,
            EnergyRollup.start == start,
        )
    )
    return [
        {
            "kwh": round(getattr(row, f"kwh_{i}") if row else 0.0, 3),
            "cost": round(getattr(row, f"cost_{i}") if row else 0.0, 2),
        }
        for i in range(5)
    ]


async def bill_account(
    session: AsyncSession, account: BillingAccount, *, now: datetime | None = None
) -> Bill | None:
    """Bill a locked post-paid account for last month, unless it was billed already."""
    now = now or utcnow()
    zone = (await charging.zones(session, [account.project_sysno]))[account.project_sysno]
    month, start = previous_month(now, zone)
    if account.create_time.astimezone(zone) >= datetime.combine(
        now.astimezone(zone).date().replace(day=1), datetime.min.time(), zone
    ):
        return None  # opened this month: nothing of last month to bill
    exists = await session.scalar(
        select(Bill.sysno).where(Bill.account_sysno == account.sysno, Bill.month == month)
    )
    if exists is not None:
        return None
    found = (await charging.used(session, [account]))[account.sysno]
    fen, kwh = charging.target(account, found)
    amount = fen - account.charged_fen
    bill = Bill(
        account_sysno=account.sysno,
        customer_sysno=account.customer_sysno,
        month=month,
        kwh=round(kwh - account.charged_kwh, 3),
        periods=await _periods(session, account.device_sysno, start),
        amount_fen=amount,
        status=UNSETTLED,
        create_time=now,
    )
    session.add(bill)
    await session.flush()
    charging.post_use(
        session, account, found, operator=OPERATOR, remark=f"{month} 账单", bill_sysno=bill.sysno
    )
    if account.charge_type == PRESTORE or account.balance_fen >= 0:
        bill.status, bill.settle_time = SETTLED, now
    await charging.review(session, account, now=now)
    return bill


async def issue_due(ctx: AppContext, now: datetime | None = None) -> int:
    """Bill every open post-paid account not yet billed for last month; return the bills written."""
    async with ctx.sessions() as session:
        sysnos = (
            await session.scalars(
                select(BillingAccount.sysno).where(
                    BillingAccount.state == OPEN, BillingAccount.charge_type.in_([PRESTORE, POSTPAY])
                )
            )
        ).all()
    written = 0
    for sysno in sysnos:
        async with ctx.sessions() as session:
            account = await ledger.locked(session, sysno)
            if account is not None and account.state == OPEN:
                written += await bill_account(session, account, now=now) is not None
            await session.commit()
    return written


async def settle(session: AsyncSession, account: BillingAccount, *, now: datetime | None = None) -> int:
    """Mark the account's unsettled bills settled, oldest first, as far as its balance covers them."""
    now = now or utcnow()
    if account.balance_fen < 0:
        owing = -account.balance_fen
    else:
        owing = 0
    bills = (
        await session.scalars(
            select(Bill)
            .where(Bill.account_sysno == account.sysno, Bill.status == UNSETTLED)
            .order_by(Bill.month.desc())
        )
    ).all()
    settled = 0
    # The newest bills are what the balance still owes; older ones are paid.
    for bill in bills:
        if owing > 0:
            owing -= bill.amount_fen
            continue
        bill.status, bill.settle_time = SETTLED, now
        settled += 1
    return settled


BILLS = Listing(
    select(
        Bill.sysno,
        Bill.account_sysno,
        BillingAccount.holder_name,
        Device.name,
        Bill.month,
        Bill.kwh,
        Bill.periods,
        Bill.amount_fen,
        Bill.status,
        Bill.settle_time,
        Bill.create_time,
    )
    .join(BillingAccount, BillingAccount.sysno == Bill.account_sysno)
    .join(Device, Device.sysno == BillingAccount.device_sysno),
    filters={
        "customer": lambda p: sees(
            p, project=BillingAccount.project_sysno, device=BillingAccount.device_sysno
        ),
        "account": lambda p: Bill.account_sysno == p,
        "status": lambda p: Bill.status == p,
        "month": lambda p: Bill.month == p,
    },
    orders={"create_time": Bill.sysno, "month": Bill.month},
    default_order="create_time",
    tie=Bill.sysno,
)


def _bill(row: Row) -> dict[str, Any]:
    sysno, account, holder, device, month, kwh, periods, amount, status, settled, created = row
    return {
        "sysno": sysno,
        "account_sysno": account,
        "holder_name": holder,
        "device_name": device,
        "month": month,
        "kwh": round(kwh, 3),
        "periods": periods,
        "amount": ledger.yuan(amount),
        "status": status,
        "status_name": BILL_STATUS.get(status, str(status)),
        "settle_time": to_display(settled),
        "create_time": to_display(created),
    }


def _values(customer: Customer, query: BillQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "account": query.account_sysno,
        "status": query.status,
        "month": query.month,
    }


async def list_bills(*, ctx: AppContext, customer: Customer, query: BillQuery) -> PageData:
    """Bills, newest first."""
    return await BILLS.page(ctx, query=query, values=_values(customer, query), render=_bill)


def _period_kwh(index: int) -> Callable[[dict[str, Any]], float]:
    """A bill row's kWh in one tariff period."""
    return lambda row: float(row["periods"][index]["kwh"])


BILL_EXPORT = (
    Column("月份", "month", 10),
    Column("户主", "holder_name", 12),
    Column("设备", "device_name", 16),
    Column("电量（kWh）", "kwh", 12, "number"),
    *(Column(f"{label}电量（kWh）", _period_kwh(i), 12, "number") for i, label in enumerate(PERIOD_LABELS)),
    Column("金额（元）", "amount", 12, "number"),
    Column("状态", "status_name", 10),
    Column("结清时间", "settle_time", 20),
)


async def export_bills(*, ctx: AppContext, customer: Customer, query: BillQuery) -> tuple[Path, str]:
    """Every bill the filters keep, as a workbook."""
    return await export_list(
        ctx,
        name="电费账单",
        listing=BILLS,
        query=query,
        values=_values(customer, query),
        columns=BILL_EXPORT,
        filters=filters_shown(("月份", query.month), ("状态", BILL_STATUS.get(query.status or 0))),
        render=_bill,
    )
