"""Reading consumption: the chart, ranking and table of 能耗统计, and the records that shape counting.

Every figure is a sum of the same intervals (through their roll-ups), so the day, month, year,
ranking and table agree. A customer sees a project's consumption while it may see the project;
rows are kept per project, so a device moved elsewhere shows only what it used here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.timeutil import parse_display, to_display, utcnow
from powerportal.devices.models import Device
from powerportal.energy import counting, store
from powerportal.energy.models import (
    DAY,
    DEVICE,
    MONTH,
    PERIOD_LABELS,
    PROJECT,
    QUARTER,
    EnergyInterval,
    EnergyRollup,
    IncomingMain,
    MeterChange,
)
from powerportal.energy.schemas import (
    EnergyScope,
    IncomingMainWrite,
    MeterChangeWrite,
    QuarterQuery,
    RankingQuery,
)
from powerportal.energy.tariffs import Pricing, zone
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned, get_visible_project
from powerportal.projects.models import Building, Project
from powerportal.telemetry.models import Reading

MAX_RANGE_DAYS = 366
_KWH = [getattr(EnergyRollup, f"kwh_{i}") for i in range(5)]
_COST = [getattr(EnergyRollup, f"cost_{i}") for i in range(5)]
_FLAGS = [EnergyRollup.n_estimated, EnergyRollup.n_reset, EnergyRollup.n_implausible]


@dataclass
class Sums:
    """kWh and ¥ by period, and flag counts."""

    kwh: list[float] = field(default_factory=lambda: [0.0] * 5)
    cost: list[float] = field(default_factory=lambda: [0.0] * 5)
    flags: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, other: Sums, sign: int = 1) -> None:
        """Add (or with ``sign`` -1 take away) another's figures."""
        for i in range(5):
            self.kwh[i] += sign * other.kwh[i]
            self.cost[i] += sign * other.cost[i]
        for i in range(3):
            self.flags[i] += sign * other.flags[i]

    @property
    def total_kwh(self) -> float:
        """All periods' kWh."""
        return sum(self.kwh)

    @property
    def total_cost(self) -> float:
        """All periods' ¥."""
        return sum(self.cost)


@dataclass
class Scope:
    """Whose consumption: the project's own roll-ups, or some of its devices'.

    A building's 总进线 measures its branches again: within a project or building scope it is a
    reference (``mains``: in the table and its 公摊/损耗, not in totals or rankings), so nothing is
    counted twice. Devices picked one by one all count.
    """

    project: Project
    devices: list[int] | None  # None: the whole project (its roll-ups less the mains')
    mains: list[int] = field(default_factory=list)

    @property
    def tz(self) -> Any:
        """The project's time zone."""
        return zone(self.project.timezone)


@dataclass
class Period:
    """A local period and its buckets."""

    start: datetime  # local, aware
    end: datetime
    grain: int  # QUARTER, DAY or MONTH
    view: str


# -- scope and periods --------------------------------------------------------------------------


async def _scope(session: AsyncSession, customer: Customer, query: EnergyScope) -> Scope:
    project = await get_visible_project(session=session, customer=customer, sysno=query.project_sysno)
    if query.device_sysnos:
        found = (
            await session.scalars(
                select(Device.sysno).where(
                    Device.sysno.in_(query.device_sysnos), Device.project_sysno == project.sysno
                )
            )
        ).all()
        if len(found) != len(set(query.device_sysnos)):
            raise NotFound("设备")
        return Scope(project, sorted(found))
    if query.building_sysno is not None:
        building = await session.scalar(
            select(Building.sysno).where(
                Building.sysno == query.building_sysno, Building.project_sysno == project.sysno
            )
        )
        if building is None:
            raise NotFound("建筑")
        members = await session.execute(
            select(Device.sysno, IncomingMain.device_sysno)
            .join(Gateway, Gateway.sysno == Device.gateway_sysno)
            .outerjoin(IncomingMain, IncomingMain.device_sysno == Device.sysno)
            .where(Gateway.building_sysno == building, Device.project_sysno == project.sysno)
        )
        rows = members.all()
        return Scope(project, [d for d, m in rows if m is None], [d for d, m in rows if m is not None])
    mains = await session.scalars(
        select(IncomingMain.device_sysno)
        .join(Device, Device.sysno == IncomingMain.device_sysno)
        .where(Device.project_sysno == project.sysno)
    )
    return Scope(project, None, sorted(mains))


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise ApiError("日期无效") from exc


def _local(day: date, tz: Any) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=tz)


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _period(query: EnergyScope, tz: Any) -> Period:
    day = _day(query.date)
    if query.view == "day":
        start = _local(day, tz)
        return Period(start, _local(day + timedelta(days=1), tz), QUARTER, "day")
    if query.view == "month":
        first = day.replace(day=1)
        return Period(_local(first, tz), _local(_add_months(first, 1), tz), DAY, "month")
    if query.view == "year":
        first = date(day.year, 1, 1)
        return Period(_local(first, tz), _local(date(day.year + 1, 1, 1), tz), MONTH, "year")
    end = _day(query.end_date) if query.end_date else day
    if end < day:
        raise ApiError("结束日期不能早于开始日期")
    if (end - day).days + 1 > MAX_RANGE_DAYS:
        raise ApiError(f"自定义范围最多 {MAX_RANGE_DAYS} 天")
    return Period(_local(day, tz), _local(end + timedelta(days=1), tz), DAY, "range")


def _buckets(period: Period, resolution: str) -> list[tuple[datetime, datetime, str]]:
    """The local buckets of a period with their labels."""
    out: list[tuple[datetime, datetime, str]] = []
    at = period.start
    tz = period.start.tzinfo
    while at < period.end:
        if period.grain == QUARTER:
            step = counting.QUARTER if resolution == "quarter" else timedelta(hours=1)
            nxt = (at.astimezone(UTC) + step).astimezone(tz)
            out.append((at, nxt, at.strftime("%H:%M")))
        elif period.grain == DAY:
            d = at.date() + timedelta(days=1)
            nxt = _local(d, tz)
            out.append((at, nxt, at.strftime("%m-%d" if period.view == "month" else "%Y-%m-%d")))
        else:
            nxt = _local(_add_months(at.date(), 1), tz)
            out.append((at, nxt, at.strftime("%Y-%m")))
        at = nxt
    return out


# -- reading the sums ---------------------------------------------------------------------------


def _rollup_where(scope: Scope, grain: int, lo: datetime, hi: datetime) -> list[ColumnElement[bool]]:
    project = scope.project.sysno
    where = [
        EnergyRollup.grain == grain,
        EnergyRollup.start >= lo,
        EnergyRollup.start < hi,
        EnergyRollup.project_sysno == project,
    ]
    if scope.devices is None:
        return [EnergyRollup.scope == PROJECT, EnergyRollup.owner_sysno == project, *where]
    return [EnergyRollup.scope == DEVICE, EnergyRollup.owner_sysno.in_(scope.devices or [0]), *where]


def _sums(row: Any, offset: int = 0) -> Sums:
    values = list(row)[offset:]
    return Sums(
        [float(v or 0) for v in values[0:5]],
        [float(v or 0) for v in values[5:10]],
        [int(v or 0) for v in values[10:13]],
    )


async def _by_start(
    session: AsyncSession, scope: Scope, grain: int, lo: datetime, hi: datetime
) -> dict[datetime, Sums]:
    """Sums per roll-up start (quarters of devices come from their intervals)."""
    if scope.devices is None and scope.mains:  # the project's sums less its mains'
        whole = await _by_start(session, Scope(scope.project, None), grain, lo, hi)
        for start, sums in (
            await _by_start(session, Scope(scope.project, scope.mains), grain, lo, hi)
        ).items():
            whole.setdefault(start, Sums()).add(sums, -1)
        return whole
    if grain == QUARTER and scope.devices is not None:
        rows = await session.execute(
            select(
                EnergyInterval.start,
                EnergyInterval.period,
                func.sum(EnergyInterval.kwh),
                func.sum(EnergyInterval.cost),
                func.sum(EnergyInterval.n_estimated),
                func.sum(EnergyInterval.n_reset),
                func.sum(EnergyInterval.n_implausible),
            )
            .where(
                EnergyInterval.device_sysno.in_(scope.devices or [0]),
                EnergyInterval.project_sysno == scope.project.sysno,
                EnergyInterval.start >= lo,
                EnergyInterval.start < hi,
            )
            .group_by(EnergyInterval.start, EnergyInterval.period)
        )
        out: dict[datetime, Sums] = defaultdict(Sums)
        for start, period, kwh, cost, est, rst, imp in rows:
            sums = out[start]
            sums.kwh[period] += float(kwh or 0)
            sums.cost[period] += float(cost or 0)
            sums.flags[0] += int(est or 0)
            sums.flags[1] += int(rst or 0)
            sums.flags[2] += int(imp or 0)
        return out
    columns = [func.sum(c) for c in (*_KWH, *_COST, *_FLAGS)]
    rows = await session.execute(
        select(EnergyRollup.start, *columns)
        .where(*_rollup_where(scope, grain, lo, hi))
        .group_by(EnergyRollup.start)
    )
    return {row[0]: _sums(row, 1) for row in rows}


async def _total(session: AsyncSession, scope: Scope, lo: datetime, hi: datetime) -> Sums:
    """The sums from ``lo`` to ``hi`` (local instants on quarter boundaries): whole days from day roll-ups."""
    tz = lo.tzinfo
    first_day = lo.date() if lo == _local(lo.date(), tz) else lo.date() + timedelta(days=1)
    last_day = hi.date()  # days before this one are whole
    out = Sums()
    if first_day < last_day:
        day_lo, day_hi = _local(first_day, tz), _local(last_day, tz)
        for sums in (await _by_start(session, scope, DAY, day_lo, day_hi)).values():
            out.add(sums)
        pieces = [(lo, min(day_lo, hi)), (max(day_hi, lo), hi)]
    else:
        pieces = [(lo, hi)]
    for a, b in pieces:
        if a < b:
            for sums in (await _by_start(session, scope, QUARTER, a, b)).values():
                out.add(sums)
    return out


def _shift(at: datetime, period: Period, back: str) -> datetime:
    tz = at.tzinfo
    local = at.replace(tzinfo=None)
    if back == "year":
        try:
            moved = local.replace(year=local.year - 1)
        except ValueError:  # 29 February
            moved = local.replace(year=local.year - 1, day=28)
        return moved.replace(tzinfo=tz)
    if period.view == "day":
        return (local - timedelta(days=1)).replace(tzinfo=tz)
    if period.view == "month":
        first = _add_months(local.date().replace(day=1), -1)
        day = min(local.day, 28 if first.month == 2 else 30) if local.day > 28 else local.day
        return datetime.combine(first.replace(day=day), local.time()).replace(tzinfo=tz)
    if period.view == "year":
        return _shift(at, period, "year")
    length = period.end.replace(tzinfo=None) - period.start.replace(tzinfo=None)
    return (local - length).replace(tzinfo=tz)


async def _compare(
    session: AsyncSession, scope: Scope, period: Period, until: datetime, current: Sums, back: str
) -> dict[str, Any]:
    lo = _shift(period.start, period, back)
    elapsed = until.replace(tzinfo=None) - period.start.replace(tzinfo=None)
    hi = (lo.replace(tzinfo=None) + elapsed).replace(tzinfo=lo.tzinfo)
    if until >= period.end:
        hi = _shift(period.end, period, back) if period.view != "range" else hi
    earlier = await _total(session, scope, lo, hi)
    # A project's records begin with its first day roll-up: a period before that is no base (a year
    # of history against the first weeks of records would give +2,000,000 %).
    first = await session.scalar(
        select(func.min(EnergyRollup.start)).where(
            EnergyRollup.project_sysno == scope.project.sysno,
            EnergyRollup.scope == PROJECT,
            EnergyRollup.grain == DAY,
        )
    )
    complete = first is not None and first <= lo

    def change(now: float, then: float) -> float | None:
        return round((now - then) / then * 100, 2) if then > 1e-9 and complete else None

    return {
        "label": "同比" if back == "year" else "环比",
        "start": to_display(lo),
        "end": to_display(hi),
        "kwh": round(earlier.total_kwh, 3),
        "cost": round(earlier.total_cost, 2),
        "complete": complete,
        "kwh_change": change(current.total_kwh, earlier.total_kwh),
        "cost_change": change(current.total_cost, earlier.total_cost),
    }


def _quarter_up(at: datetime) -> datetime:
    """The end of the quarter holding ``at`` (local)."""
    return (counting.quarter_of(at) + counting.QUARTER).astimezone(at.tzinfo)


async def chart(*, session: AsyncSession, customer: Customer, query: EnergyScope) -> dict[str, Any]:
    """The 能耗统计 chart: buckets stacked by period, totals, 同比 and 环比."""
    scope = await _scope(session, customer, query)
    tz = scope.tz
    period = _period(query, tz)
    buckets = _buckets(period, query.resolution)
    grain = period.grain
    found = await _by_start(session, scope, grain, period.start, period.end)
    points = []
    total = Sums()
    ordered = sorted(found)  # each bucket takes the roll-ups starting within it: one pass
    at = 0
    for lo, hi, label in buckets:
        sums = Sums()
        while at < len(ordered) and ordered[at] < lo:
            at += 1
        while at < len(ordered) and ordered[at] < hi:
            sums.add(found[ordered[at]])
            at += 1
        total.add(sums)
        points.append(_point(label, lo, sums))
    now = utcnow().astimezone(tz)
    partial = now < period.end
    until = min(_quarter_up(now), period.end) if partial else period.end
    prices = await store.pricings(session, [scope.project.sysno])
    pricing: Pricing | None = prices.get(scope.project.sysno)
    return {
        "view": period.view,
        "start": to_display(period.start),
        "end": to_display(period.end),
        "partial": partial,
        "periods": list(PERIOD_LABELS),
        "priced": bool(pricing and pricing.priced),
        "points": points,
        "total_kwh": round(total.total_kwh, 3),
        "total_cost": round(total.total_cost, 2),
        "total": _rounded(total),
        "yoy": await _compare(session, scope, period, until, total, "year"),
        "mom": await _compare(session, scope, period, until, total, "previous"),
    }


def _rounded(sums: Sums) -> dict[str, list[float]]:
    return {"kwh": [round(v, 3) for v in sums.kwh], "cost": [round(v, 2) for v in sums.cost]}


def _point(label: str, start: datetime, sums: Sums) -> dict[str, Any]:
    return {
        "label": label,
        "start": to_display(start),
        **_rounded(sums),
        "total_kwh": round(sums.total_kwh, 3),
        "total_cost": round(sums.total_cost, 2),
        "estimated": sums.flags[0] > 0,
        "reset": sums.flags[1] > 0,
        "implausible": sums.flags[2] > 0,
    }


# -- ranking and table ---------------------------------------------------------------------------


async def _per_device(session: AsyncSession, scope: Scope, period: Period) -> dict[int, Sums]:
    """Each device's sums over the period (year: from month roll-ups, else days)."""
    grain = MONTH if period.view == "year" else DAY
    where = [
        EnergyRollup.scope == DEVICE,
        EnergyRollup.grain == grain,
        EnergyRollup.project_sysno == scope.project.sysno,
        EnergyRollup.start >= period.start,
        EnergyRollup.start < period.end,
    ]
    if scope.devices is not None:
        where.append(EnergyRollup.owner_sysno.in_(scope.devices or [0]))
    columns = [func.sum(c) for c in (*_KWH, *_COST, *_FLAGS)]
    rows = await session.execute(
        select(EnergyRollup.owner_sysno, *columns).where(*where).group_by(EnergyRollup.owner_sysno)
    )
    return {row[0]: _sums(row, 1) for row in rows}


async def _devices(
    session: AsyncSession, project: int, sysnos: list[int]
) -> dict[int, tuple[str, int | None, str | None]]:
    """Names and buildings of the project's devices among ``sysnos``."""
    rows = await session.execute(
        select(Device.sysno, Device.name, Building.sysno, Building.name)
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .outerjoin(Building, Building.sysno == Gateway.building_sysno)
        .where(Device.sysno.in_(sysnos or [0]), Device.project_sysno == project)
    )
    return {s: (n, b, bn) for s, n, b, bn in rows}


def _gone(sysno: int) -> str:
    return f"已移除的设备 #{sysno}"


async def ranking(*, session: AsyncSession, customer: Customer, query: RankingQuery) -> list[dict[str, Any]]:
    """The top devices or buildings by consumption over the period."""
    scope = await _scope(session, customer, query)
    period = _period(query, scope.tz)
    per_device = await _per_device(session, scope, period)
    names = await _devices(session, scope.project.sysno, list(per_device))
    totals: dict[int, list[Any]] = {}
    for device, sums in per_device.items():
        if device in scope.mains:
            continue
        name, building, building_name = names.get(device, (_gone(device), None, None))
        if query.by == "building":
            if building is None:
                continue
            key, label = building, building_name or ""
        else:
            key, label = device, name
        entry = totals.setdefault(key, [label, 0.0, 0.0])
        entry[1] += sums.total_kwh
        entry[2] += sums.total_cost
    whole = sum(v[1] for v in totals.values())
    ordered = sorted(totals.items(), key=lambda kv: (-kv[1][1], kv[0]))[: query.top]
    return [
        {
            "sysno": key,
            "name": label,
            "kwh": round(kwh, 3),
            "cost": round(cost, 2),
            "share": round(kwh / whole * 100, 2) if whole > 1e-9 else 0.0,
        }
        for key, (label, kwh, cost) in ordered
    ]


async def _reading(
    session: AsyncSession, device: int, lo: datetime, hi: datetime, last: bool
) -> float | None:
    """The first (or last) counter reading of a device within the period: one index seek."""
    order = Reading.ts.desc() if last else Reading.ts.asc()
    value = await session.scalar(
        select(Reading.energy)
        .where(Reading.device_sysno == device, Reading.ts >= lo, Reading.ts < hi, Reading.energy.is_not(None))
        .order_by(order)
        .limit(1)
    )
    return float(value) if value is not None else None


async def table(*, session: AsyncSession, customer: Customer, query: EnergyScope) -> dict[str, Any]:
    """Each device's readings, consumption and cost; buildings' 公摊/损耗 where a main is marked."""
    scope = await _scope(session, customer, query)
    period = _period(query, scope.tz)
    listed = scope if scope.devices is None else Scope(scope.project, [*scope.devices, *scope.mains])
    per_device = await _per_device(session, listed, period)
    members = listed.devices
    if members is None:
        members = list(
            (
                await session.scalars(select(Device.sysno).where(Device.project_sysno == scope.project.sysno))
            ).all()
        )
    every = sorted(set(members) | set(per_device))
    names = await _devices(session, scope.project.sysno, every)
    mains = set(
        (
            await session.scalars(
                select(IncomingMain.device_sysno).where(IncomingMain.device_sysno.in_(every or [0]))
            )
        ).all()
    )
    rows: list[dict[str, Any]] = []
    for device in every:
        sums = per_device.get(device, Sums())
        name, building, building_name = names.get(device, (_gone(device), None, None))
        present = device in names
        start = await _reading(session, device, period.start, period.end, last=False) if present else None
        end = await _reading(session, device, period.start, period.end, last=True) if present else None
        rows.append(
            {
                "device_sysno": device,
                "name": name,
                "building_sysno": building,
                "building_name": building_name,
                "incoming_main": device in mains,
                "start_reading": start,
                "end_reading": end,
                "kwh": round(sums.total_kwh, 3),
                "cost": round(sums.total_cost, 2),
                "estimated": sums.flags[0] > 0,
                "reset": sums.flags[1] > 0,
                "implausible": sums.flags[2] > 0,
            }
        )
    losses = []
    by_building: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if isinstance(row["building_sysno"], int):
            by_building[row["building_sysno"]].append(row)
    for building, items in sorted(by_building.items()):
        main = [r for r in items if r["incoming_main"]]
        if not main:
            continue
        main_kwh = sum(r["kwh"] for r in main)
        branch = sum(r["kwh"] for r in items if not r["incoming_main"])
        losses.append(
            {
                "building_sysno": building,
                "building_name": items[0]["building_name"] or "",
                "main_kwh": round(main_kwh, 3),
                "branch_kwh": round(branch, 3),
                "loss_kwh": round(main_kwh - branch, 3),
                "loss_ratio": round((main_kwh - branch) / main_kwh * 100, 2) if main_kwh > 1e-9 else None,
            }
        )
    counted = [r for r in rows if r["device_sysno"] not in scope.mains]
    return {
        "rows": rows,
        "total_kwh": round(sum(r["kwh"] for r in counted), 3),
        "total_cost": round(sum(r["cost"] for r in counted), 2),
        "losses": losses,
    }


async def device_quarters(
    *, session: AsyncSession, customer: Customer, query: QuarterQuery
) -> list[dict[str, Any]]:
    """One device's quarter-hours of a local day."""
    device = await _visible_device(session, customer, query.device_sysno)
    project = await session.get(Project, device.project_sysno)
    tz = zone(project.timezone if project else "Asia/Shanghai")
    day = _day(query.date)
    lo, hi = _local(day, tz), _local(day + timedelta(days=1), tz)
    rows = await session.execute(
        select(EnergyInterval)
        .where(
            EnergyInterval.device_sysno == device.sysno,
            EnergyInterval.project_sysno == device.project_sysno,
            EnergyInterval.start >= lo,
            EnergyInterval.start < hi,
        )
        .order_by(EnergyInterval.start)
    )
    return [
        {
            "start": to_display(r.start),
            "period": r.period,
            "kwh": round(r.kwh, 4),
            "cost": round(r.cost, 4),
            "estimated": r.n_estimated > 0,
            "reset": r.n_reset > 0,
            "implausible": r.n_implausible > 0,
        }
        for r in rows.scalars()
    ]


async def _visible_device(session: AsyncSession, customer: Customer, sysno: int) -> Device:
    device = await session.get(Device, sysno)
    if device is None:
        raise NotFound("设备")
    await get_visible_project(session=session, customer=customer, sysno=device.project_sysno)
    return device


# -- what shapes the counting -------------------------------------------------------------------


async def set_incoming_main(
    *, session: AsyncSession, customer: Customer, body: IncomingMainWrite, ip: str | None
) -> None:
    """Mark or unmark a device as its building's incoming main."""
    device = await get_owned(
        session=session, customer=customer, model=Device, sysno=body.device_sysno, what="设备"
    )
    await session.execute(delete(IncomingMain).where(IncomingMain.device_sysno == device.sysno))
    if body.incoming_main:
        session.add(IncomingMain(device_sysno=device.sysno))
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.DEVICE,
        detail=f"{'设为' if body.incoming_main else '取消'}总进线：{device.name}",
        ip=ip,
    )
    await session.commit()


def _change_read(row: MeterChange) -> dict[str, Any]:
    return {
        "sysno": row.sysno,
        "device_sysno": row.device_sysno,
        "change_time": to_display(row.change_time),
        "old_final": row.old_final,
        "new_initial": row.new_initial,
        "remark": row.remark,
        "create_time": to_display(row.create_time),
    }


async def meter_changes(
    *, session: AsyncSession, customer: Customer, device_sysno: int
) -> list[dict[str, Any]]:
    """A device's meter changes, newest first."""
    device = await _visible_device(session, customer, device_sysno)
    rows = await session.scalars(
        select(MeterChange)
        .where(MeterChange.device_sysno == device.sysno)
        .order_by(MeterChange.change_time.desc())
    )
    return [_change_read(r) for r in rows]


async def _recount_around(session: AsyncSession, device: Device, at: datetime) -> None:
    """Count the quarters around a meter change again, holding the device's row so the ingest waits."""
    await session.execute(update(Device).where(Device.sysno == device.sysno).values(sysno=Device.sysno))
    meter = (await store.meters(session, [device.sysno]))[device.sysno]
    changes = (await store.meter_changes(session, [device.sysno])).get(device.sysno, [])
    out = await store.recount(session, meter, changes, since=at, until=at)
    await store.write(session, out, await store.pricings(session, {c.project_sysno for c in out}))


async def add_meter_change(
    *, session: AsyncSession, customer: Customer, body: MeterChangeWrite, ip: str | None
) -> dict[str, Any]:
    """Record a meter change and count the consumption around it again."""
    device = await get_owned(
        session=session, customer=customer, model=Device, sysno=body.device_sysno, what="设备"
    )
    try:
        at = parse_display(body.change_time)
    except ValueError as exc:
        raise ApiError("换表时间无效") from exc
    if at > utcnow():
        raise ApiError("换表时间不能晚于当前时间")
    clash = await session.scalar(
        select(MeterChange.sysno).where(
            MeterChange.device_sysno == device.sysno, MeterChange.change_time == at
        )
    )
    if clash is not None:
        raise ApiError("该时间已有换表记录", 409)
    row = MeterChange(
        device_sysno=device.sysno,
        change_time=at,
        old_final=body.old_final,
        new_initial=body.new_initial,
        remark=body.remark,
    )
    session.add(row)
    await session.flush()
    await _recount_around(session, device, at)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.DEVICE,
        detail=f"换表记录：{device.name} {body.change_time} 旧表止码 {body.old_final} "
        f"新表起码 {body.new_initial}",
        ip=ip,
    )
    await session.commit()
    return _change_read(row)


async def delete_meter_change(
    *, session: AsyncSession, customer: Customer, sysno: int, ip: str | None
) -> None:
    """Remove a meter change and count the consumption around it again."""
    row = await session.get(MeterChange, sysno)
    if row is None:
        raise NotFound("换表记录")
    device = await get_owned(
        session=session, customer=customer, model=Device, sysno=row.device_sysno, what="换表记录"
    )
    at = row.change_time
    await session.delete(row)
    await session.flush()
    await _recount_around(session, device, at)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.DEVICE,
        detail=f"删除换表记录：{device.name} {to_display(at)}",
        ip=ip,
    )
    await session.commit()
