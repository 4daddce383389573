"""Charging consumption to prepaid accounts from the energy roll-ups.

An account is charged what its device used since the account opened, at the price in force: the
device's total cost from the roll-ups (every quarter at the tariff of its instant, as the energy
issue prices it) or its total kWh at the account's flat price. Each charge posts the difference
between that total, rounded to the fen, and what was charged so far: readings that arrive late, a
meter change's recount, a corrected quarter, all end up charged exactly once, and rounding never
drifts (the charges add up to the rounded total). ``base_*`` hold the totals of the last change of
price, so that a new flat price applies from then on only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.billing import ledger, power
from powerportal.billing.models import CHARGE, OPEN, PREPAY, BillingAccount, BillingRule
from powerportal.energy.models import DEVICE, YEAR, EnergyRollup
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
    """A device's consumption and cost over its whole history."""

    kwh: float = 0.0
    cost: float = 0.0


async def totals(session: AsyncSession, device_sysnos: Iterable[int]) -> dict[int, Totals]:
    """Each device's total kWh and cost, from its year roll-ups (a few rows a device)."""
    ids = sorted(set(device_sysnos))
    if not ids:
        return {}
    rows = await session.execute(
        select(EnergyRollup.owner_sysno, func.sum(_KWH), func.sum(_COST))
        .where(EnergyRollup.scope == DEVICE, EnergyRollup.grain == YEAR, EnergyRollup.owner_sysno.in_(ids))
        .group_by(EnergyRollup.owner_sysno)
    )
    return {device: Totals(float(kwh or 0.0), float(cost or 0.0)) for device, kwh, cost in rows}


def target(account: BillingAccount, found: Totals) -> tuple[int, float]:
    """What the account's charges should add up to now: (fen, kWh)."""
    used = found.kwh - account.base_kwh
    if account.flat_price_e4 is None:
        fen = account.base_fen + ledger.fen_of_cost(found.cost - account.base_cost)
    else:
        fen = account.base_fen + ledger.fen_of_cost(used * account.flat_price_e4 / 10_000)
    return fen, account.base_charged_kwh + used


def rebase(account: BillingAccount, found: Totals) -> None:
    """Start pricing afresh from the device's current totals (what was charged stays charged)."""
    account.base_kwh, account.base_cost = found.kwh, found.cost
    account.base_fen, account.base_charged_kwh = account.charged_fen, account.charged_kwh


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
    found = await totals(session, [a.device_sysno for a in accounts])
    tz = await zones(session, [a.project_sysno for a in accounts])
    rules = await quiet_rules(session, [a.customer_sysno for a in accounts])
    for account in accounts:
        fen, kwh = target(account, found.get(account.device_sysno, Totals()))
        due = fen - account.charged_fen
        if due == 0:
            continue
        ledger.post(
            session,
            account,
            kind=CHARGE,
            amount_fen=-due,
            kwh=round(kwh - account.charged_kwh, 6),
            operator=OPERATOR,
        )
        account.charged_fen, account.charged_kwh = fen, kwh
        out.entries += 1
        decided = await power.review(
            session, account, quiet=rules[account.customer_sysno], zone=tz[account.project_sysno], now=now
        )
        if decided.warned:
            out.warnings.append(account.sysno)  # type: ignore[union-attr]
        out.actions += decided.action is not None
    return out
