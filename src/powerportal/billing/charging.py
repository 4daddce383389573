"""Charging consumption to prepaid accounts from the energy roll-ups.

An account is charged what its device used from the quarter-hour it opened in, at the price in
force: the cost of those quarters (each at the tariff of its instant, as the energy issue prices
it) or their kWh at the account's flat price. Each charge posts the difference between that total,
rounded to the fen, and what was charged so far: readings that arrive late, a meter change's
recount, a corrected quarter, all end up charged exactly once, and rounding never drifts (the
charges add up to the rounded total); readings of quarters before the opening (a gateway's backlog
sent later) are never the account's. ``base_*`` hold the totals of the last change of price and
what the use until then came to at the old price, so that a new flat price applies from then on
only: a post-paid account's use since its last bill is billed at the old price all the same.

The use since opening is the device's whole history (its year roll-ups) less what lies before the
opening: the years before the opening's local year, that year's months before its month, that
month's days before its day, and that day's quarters before its quarter (``opened_*``, kept on the
account). Five grouped reads whatever the number of accounts, each a few rows an account.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.billing import ledger, power
from powerportal.billing.models import CHARGE, OPEN, PREPAY, BillingAccount, BillingRule
from powerportal.energy.counting import quarter_of
from powerportal.energy.models import DAY, DEVICE, MONTH, YEAR, EnergyInterval, EnergyRollup
from powerportal.projects.models import Project

OPERATOR = "系统自动扣费"
_KWH = EnergyRollup.kwh_0 + EnergyRollup.kwh_1 + EnergyRollup.kwh_2 + EnergyRollup.kwh_3 + EnergyRollup.kwh_4
_COST = (
    EnergyRollup.cost_0
    + EnergyRollup.cost_1
    + EnergyRollup.cost_2
    + EnergyRollup.cost_3
    + EnergyRollup.cost_4
)


@dataclass(frozen=True, slots=True)
class Totals:
    """Consumption and cost."""

    kwh: float = 0.0
    cost: float = 0.0


def opening(at: datetime, zone: ZoneInfo) -> dict[str, datetime]:
    """The starts (UTC) of the quarter-hour and the local day, month and year an account opens in."""
    local = at.astimezone(zone)
    return {
        "opened_quarter": quarter_of(at),
        "opened_day": datetime(local.year, local.month, local.day, tzinfo=zone).astimezone(UTC),
        "opened_month": datetime(local.year, local.month, 1, tzinfo=zone).astimezone(UTC),
        "opened_year": datetime(local.year, 1, 1, tzinfo=zone).astimezone(UTC),
    }


def _rolled(grain: int, since: Any = None, until: Any = None) -> Select[int, float, float]:
    """Per account, its device's roll-ups of a grain starting from ``since`` to before ``until``."""
    r, a = EnergyRollup, BillingAccount
    on = [r.scope == DEVICE, r.grain == grain, r.owner_sysno == a.device_sysno]
    if since is not None:
        on.append(r.start >= since)
    if until is not None:
        on.append(r.start < until)
    return select(a.sysno, func.sum(_KWH), func.sum(_COST)).join(r, and_(*on))


# The whole history, less the years, months, days and quarters before the opening: (sign, statement).
_EARLIER_QUARTERS = select(
    BillingAccount.sysno, func.sum(EnergyInterval.kwh), func.sum(EnergyInterval.cost)
).join(
    EnergyInterval,
    and_(
        EnergyInterval.device_sysno == BillingAccount.device_sysno,
        EnergyInterval.start >= BillingAccount.opened_day,
        EnergyInterval.start < BillingAccount.opened_quarter,
    ),
)
_PARTS = (
    (1, _rolled(YEAR)),
    (-1, _rolled(YEAR, until=BillingAccount.opened_year)),
    (-1, _rolled(MONTH, BillingAccount.opened_year, BillingAccount.opened_month)),
    (-1, _rolled(DAY, BillingAccount.opened_month, BillingAccount.opened_day)),
    (-1, _EARLIER_QUARTERS),
)


async def used(session: AsyncSession, accounts: Sequence[BillingAccount]) -> dict[int, Totals]:
    """Each account's use since the quarter-hour it opened in, by account."""
    ids = sorted({a.sysno for a in accounts})
    kwh: dict[int, float] = dict.fromkeys(ids, 0.0)
    cost: dict[int, float] = dict.fromkeys(ids, 0.0)
    if not ids:
        return {}
    for sign, statement in _PARTS:
        found = await session.execute(
            statement.where(BillingAccount.sysno.in_(ids)).group_by(BillingAccount.sysno)
        )
        for sysno, k, c in found:
            kwh[sysno] += sign * float(k or 0.0)
            cost[sysno] += sign * float(c or 0.0)
    return {sysno: Totals(kwh[sysno], cost[sysno]) for sysno in ids}


def target(account: BillingAccount, found: Totals) -> tuple[int, float]:
    """What the account's charges should add up to now: (fen, kWh)."""
    used = found.kwh - account.base_kwh
    if account.flat_price_e4 is None:
        fen = account.base_fen + ledger.fen_of_cost(found.cost - account.base_cost)
    else:
        fen = account.base_fen + ledger.fen_of_cost(used * account.flat_price_e4 / 10_000)
    return fen, account.base_charged_kwh + used


def rebase(account: BillingAccount, found: Totals) -> None:
    """Start pricing afresh from the account's use so far, which stays priced as before.

    The use to now is fixed at the old price whether it was charged or not: a post-paid account's use
    since its last bill is in its next bill (or its closing) at that price, not written off.
    """
    fen, kwh = target(account, found)
    account.base_kwh, account.base_cost = found.kwh, found.cost
    account.base_fen, account.base_charged_kwh = fen, kwh


@dataclass
class Charged:
    """What a charge did, for the worker and the benchmark."""

    accounts: int = 0
    entries: int = 0
    warnings: list[int] | None = None
    actions: int = 0


async def zones(session: AsyncSession, project_sysnos: Iterable[int]) -> dict[int, ZoneInfo]:
    """Each project's time zone."""
    ids = sorted(set(project_sysnos))
    if not ids:
        return {}
    rows = await session.execute(select(Project.sysno, Project.timezone).where(Project.sysno.in_(ids)))
    return {sysno: ZoneInfo(tz or "Asia/Shanghai") for sysno, tz in rows}


async def quiet_rules(session: AsyncSession, customer_sysnos: Iterable[int]) -> dict[int, power.Quiet]:
    """Each customer's quiet times for cut-offs."""
    ids = sorted(set(customer_sysnos))
    if not ids:
        return {}
    rules = (await session.scalars(select(BillingRule).where(BillingRule.customer_sysno.in_(ids)))).all()
    found = {rule.customer_sysno: power.Quiet.of(rule) for rule in rules}
    return {c: found.get(c, power.Quiet()) for c in ids}


async def review(
    session: AsyncSession, account: BillingAccount, *, now: datetime | None = None
) -> power.Review:
    """``power.review`` of one account, with its project's zone and its owner's quiet times."""
    zone = (await zones(session, [account.project_sysno]))[account.project_sysno]
    quiet = (await quiet_rules(session, [account.customer_sysno]))[account.customer_sysno]
    return await power.review(session, account, quiet=quiet, zone=zone, now=now)


def post_use(
    session: AsyncSession,
    account: BillingAccount,
    found: Totals,
    *,
    operator: str,
    remark: str | None = None,
    bill_sysno: int | None = None,
) -> int:
    """Post the use not charged yet (``found``: the account's use so far); return the fen charged."""
    fen, kwh = target(account, found)
    due = fen - account.charged_fen
    if due:
        ledger.post(
            session,
            account,
            kind=CHARGE,
            amount_fen=-due,
            kwh=round(kwh - account.charged_kwh, 6),
            operator=operator,
            remark=remark,
            bill_sysno=bill_sysno,
        )
        account.charged_fen, account.charged_kwh = fen, kwh
    return due


async def charge(
    session: AsyncSession, *, device_sysnos: Sequence[int] | None = None, now: datetime | None = None
) -> Charged:
    """Charge the open prepaid accounts of the devices (all of them with None) up to their totals.

    In the caller's transaction: the accounts stay locked until it ends.
    """
    where = [BillingAccount.state == OPEN, BillingAccount.charge_type == PREPAY]
    if device_sysnos is not None:
        if not device_sysnos:
            return Charged(warnings=[])
        where.append(BillingAccount.device_sysno.in_(sorted(set(device_sysnos))))
    accounts = await ledger.hold(session, *where)
    out = Charged(accounts=len(accounts), warnings=[])
    if not accounts:
        return out
    found = await used(session, accounts)
    tz = await zones(session, [a.project_sysno for a in accounts])
    rules = await quiet_rules(session, [a.customer_sysno for a in accounts])
    for account in accounts:
        if not post_use(session, account, found[account.sysno], operator=OPERATOR):
            continue
        out.entries += 1
        decided = await power.review(
            session, account, quiet=rules[account.customer_sysno], zone=tz[account.project_sysno], now=now
        )
        if decided.warned:
            out.warnings.append(account.sysno)  # type: ignore[union-attr]
        out.actions += decided.action is not None
    return out
