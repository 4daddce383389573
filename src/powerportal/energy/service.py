"""Reading consumption: the chart, ranking and table of 能耗统计, and the records that shape counting.

Every figure is a sum of the same intervals (through their roll-ups), so the day, month, year,
ranking and table agree. A customer sees a project's consumption while it may see the project;
rows are kept per project, so a device moved elsewhere shows only what it used here.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from operator import add, sub
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    and_,
    bindparam,
    delete,
    func,
    select,
    union_all,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import BindParameter

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.database import hold_rows, utc_hour
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import ForIds
from powerportal.core.reads import AnySelect
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
    YEAR,
    Departure,
    EnergyInterval,
    EnergyRollup,
    IncomingMain,
    MeterChange,
    ProjectTariff,
    TariffPlan,
    TariffVersion,
)
from powerportal.energy.schemas import (
    EnergyScope,
    IncomingMainWrite,
    MeterChangeWrite,
    QuarterQuery,
    RankingQuery,
)
from powerportal.energy.tariffs import zone
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned, in_view, limited_projects, sees, visible_projects
from powerportal.projects.models import Building, Project
from powerportal.telemetry.models import Reading

MAX_RANGE_DAYS = 366
_KWH = [getattr(EnergyRollup, f"kwh_{i}") for i in range(5)]
_COST = [getattr(EnergyRollup, f"cost_{i}") for i in range(5)]
_FLAGS = [EnergyRollup.n_estimated, EnergyRollup.n_reset, EnergyRollup.n_implausible]


# Sums over a span, as the roll-up columns are read: the kWh of the five tariff periods, their ¥,
# and the counts of estimated, reset and implausible intervals. A plain tuple: a year chart by day
# handles 365 of them, straight from the rows.
Sums = tuple[float, ...]
NOTHING: Sums = (0.0,) * 13


def _plus(a: Sums, b: Sums) -> Sums:
    return tuple(map(add, a, b))


def _minus(a: Sums, b: Sums) -> Sums:
    return tuple(map(sub, a, b))


def _kwh(sums: Sums) -> float:
    """All periods' kWh."""
    return sum(sums[:5])


def _cost(sums: Sums) -> float:
    """All periods' ¥."""
    return sum(sums[5:10])


@dataclass(frozen=True, slots=True)
class ProjectRef:
    """The project a query counts: its number, owner, clock and name."""

    sysno: int
    owner: int
    timezone: str
    name: str


@dataclass
class Scope:
    """Whose consumption: the project's own roll-ups, or some of its devices'.

    A building's 总进线 measures its branches again: within a project or building scope it is a
    reference (``mains``: in the table and its 公摊/损耗, not in totals or rankings), so nothing is
    counted twice. Devices picked one by one all count.
    """

    project: ProjectRef
    devices: list[int] | None  # None: the whole project (its roll-ups less the mains')
    mains: list[int] = field(default_factory=list)

    @property
    def tz(self) -> Any:
        """The project's time zone."""
        return zone(self.project.timezone)


@dataclass(frozen=True)
class Period:
    """A local period and its buckets."""

    start: datetime  # local, aware
    end: datetime
    grain: int  # QUARTER, DAY or MONTH
    view: str


# -- statements ---------------------------------------------------------------------------------
# Built once, with bind parameters, and read outside the ORM session (core/reads.Reader): a chart
# is half a dozen index-bounded reads, each far cheaper there than through a session.

_PROJECT_ID: BindParameter[int] = bindparam("project")
_GRAIN: BindParameter[int] = bindparam("grain")
_LO: BindParameter[datetime] = bindparam("lo")
_HI: BindParameter[datetime] = bindparam("hi")
_ROLLUP_SUMS = [func.coalesce(func.sum(c), 0) for c in (*_KWH, *_COST, *_FLAGS)]

_VIEWER: BindParameter[int] = bindparam("customer")
# The project, and whether the viewer sees only some of its buildings (a share limited to them).
_VISIBLE_PROJECT = select(
    Project.sysno,
    Project.customer_sysno,
    Project.timezone,
    Project.name,
    Project.sysno.in_(limited_projects(_VIEWER)),
).where(Project.sysno == _PROJECT_ID, Project.sysno.in_(visible_projects(_VIEWER)))
_DEVICE_IN_VIEW = in_view(_VIEWER, project=Device.project_sysno, gateway=Device.gateway_sysno)
_PICKED = ForIds(
    lambda ids: select(Device.sysno).where(
        Device.sysno.in_(ids), Device.project_sysno == _PROJECT_ID, _DEVICE_IN_VIEW
    )
)
_BUILDING = select(Building.sysno).where(
    Building.sysno == bindparam("building"),
    Building.project_sysno == _PROJECT_ID,
    in_view(_VIEWER, project=Building.project_sysno, building=Building.sysno),
)
_MEMBERS = (
    select(Device.sysno, IncomingMain.device_sysno)
    .join(Gateway, Gateway.sysno == Device.gateway_sysno)
    .outerjoin(IncomingMain, IncomingMain.device_sysno == Device.sysno)
    .where(Device.project_sysno == _PROJECT_ID)
)
_BUILDING_MEMBERS = _MEMBERS.where(Gateway.building_sysno == bindparam("building"))
# What a viewer limited to some buildings sees of the project: their devices.
_MEMBERS_IN_VIEW = _MEMBERS.where(_DEVICE_IN_VIEW)


def mains_of(projects: Any) -> CompoundSelect[int, int]:
    """The 总进线 of the projects (``in_`` takes them), as (device, project) rows.

    A project's history keeps its mains: those marked in it now, and those that left it (moved or
    deleted) marked (``energy_departure``). Their consumption there is a reference wherever they are now.
    """
    return union_all(
        select(Device.sysno.label("device"), Device.project_sysno.label("project"))
        .join(IncomingMain, IncomingMain.device_sysno == Device.sysno)
        .where(Device.project_sysno.in_(projects)),
        select(Departure.device_sysno, Departure.project_sysno).where(
            Departure.project_sysno.in_(projects), Departure.incoming_main.is_(True)
        ),
    )


_MAINS_HERE = mains_of([_PROJECT_ID]).subquery()
_PROJECT_MAINS = select(_MAINS_HERE.c.device).distinct().order_by(_MAINS_HERE.c.device)
# The project's devices with their buildings, and whether each is a 总进线.
_PROJECT_DEVICES = (
    select(Device.sysno, Device.name, Building.sysno, Building.name, IncomingMain.device_sysno)
    .join(Gateway, Gateway.sysno == Device.gateway_sysno)
    .outerjoin(Building, Building.sysno == Gateway.building_sysno)
    .outerjoin(IncomingMain, IncomingMain.device_sysno == Device.sysno)
    .where(Device.project_sysno == _PROJECT_ID)
)
# The plan a project's costs use has versions (its own plan, else its owner's default).
_PRICED = select(func.count(TariffVersion.sysno)).where(
    TariffVersion.plan_sysno
    == func.coalesce(
        select(ProjectTariff.plan_sysno).where(ProjectTariff.project_sysno == _PROJECT_ID).scalar_subquery(),
        select(TariffPlan.sysno)
        .where(TariffPlan.customer_sysno == bindparam("owner"), TariffPlan.is_default.is_(True))
        .limit(1)
        .scalar_subquery(),
    )
)
# A project's records begin with its first day roll-up.
_FIRST_DAY = select(func.min(EnergyRollup.start)).where(
    EnergyRollup.project_sysno == _PROJECT_ID, EnergyRollup.scope == PROJECT, EnergyRollup.grain == DAY
)


def _rollups_within(*owner: ColumnElement[bool]) -> list[ColumnElement[bool]]:
    return [
        *owner,
        EnergyRollup.grain == _GRAIN,
        EnergyRollup.project_sysno == _PROJECT_ID,
        EnergyRollup.start >= _LO,
        EnergyRollup.start < _HI,
    ]


def _rollup_sums(owner: tuple[ColumnElement[bool], ...], by_start: bool) -> AnySelect:
    """Roll-ups' sums over a span: per start, or (``by_start`` false) in all."""
    if not by_start:
        return select(*_ROLLUP_SUMS).where(*_rollups_within(*owner))
    return (
        select(EnergyRollup.start, *_ROLLUP_SUMS).where(*_rollups_within(*owner)).group_by(EnergyRollup.start)
    )


def _interval_sums(ids: list[BindParameter[Any]], *keys: Any, ordered: bool = False) -> AnySelect:
    """Devices' intervals over the span summed per ``keys`` (the last one the tariff period).

    ``ordered``: in the order of the other keys.
    """
    summed = (
        select(
            *keys,
            func.sum(EnergyInterval.kwh),
            func.sum(EnergyInterval.cost),
            func.sum(EnergyInterval.n_estimated),
            func.sum(EnergyInterval.n_reset),
            func.sum(EnergyInterval.n_implausible),
        )
        .where(
            EnergyInterval.device_sysno.in_(ids),
            EnergyInterval.project_sysno == _PROJECT_ID,
            EnergyInterval.start >= _LO,
            EnergyInterval.start < _HI,
        )
        .group_by(*keys)
    )
    return summed.order_by(*keys[:-1]) if ordered else summed


_PROJECT_OWNER = (EnergyRollup.scope == PROJECT, EnergyRollup.owner_sysno == _PROJECT_ID)
_PROJECT_SUMS = {
    # A project has one roll-up per grain and start: its rows are the sums already.
    True: select(EnergyRollup.start, *_KWH, *_COST, *_FLAGS).where(*_rollups_within(*_PROJECT_OWNER)),
    False: _rollup_sums(_PROJECT_OWNER, by_start=False),
}


def _device_sums(by_start: bool) -> ForIds:
    return ForIds(
        lambda ids: _rollup_sums((EnergyRollup.scope == DEVICE, EnergyRollup.owner_sysno.in_(ids)), by_start)
    )


def _device_intervals(by_start: bool) -> ForIds:
    """Devices' intervals summed per tariff period: per quarter, or (``by_start`` false) over the span."""
    keys = (EnergyInterval.start, EnergyInterval.period) if by_start else (EnergyInterval.period,)
    return ForIds(lambda ids: _interval_sums(ids, *keys))


_DEVICE_SUMS = {by: _device_sums(by) for by in (True, False)}
_DEVICE_INTERVALS = {by: _device_intervals(by) for by in (True, False)}


# Each device's sums over a span (the table and the reports).
def _device_totals(*owner: ColumnElement[bool]) -> AnySelect:
    return (
        select(EnergyRollup.owner_sysno, *_ROLLUP_SUMS)
        .where(*_rollups_within(EnergyRollup.scope == DEVICE, *owner))
        .group_by(EnergyRollup.owner_sysno)
    )


# Devices' day or month roll-ups one by one, in device and time order: the reports' 明细.
_DEVICE_ROLLUPS = ForIds(
    lambda ids: (
        select(EnergyRollup.owner_sysno, EnergyRollup.start, *_KWH, *_COST, *_FLAGS)
        .where(*_rollups_within(EnergyRollup.scope == DEVICE, EnergyRollup.owner_sysno.in_(ids)))
        .order_by(EnergyRollup.owner_sysno, EnergyRollup.start)
    )
)
# Each device's quarters (or, ``_DEVICE_HOURS``, its intervals summed by the UTC hour: the hours of
# a clock whose offsets are whole hours) in device and time order, per tariff period: the 明细.
_DEVICE_QUARTERS = ForIds(
    lambda ids: _interval_sums(
        ids, EnergyInterval.device_sysno, EnergyInterval.start, EnergyInterval.period, ordered=True
    )
)
_HOUR = utc_hour(EnergyInterval.start)
_DEVICE_HOURS = ForIds(
    lambda ids: _interval_sums(ids, EnergyInterval.device_sysno, _HOUR, EnergyInterval.period, ordered=True)
)
_EVERY_DEVICE = _device_totals()
_EACH_DEVICE = ForIds(lambda ids: _device_totals(EnergyRollup.owner_sysno.in_(ids)))


def _ranked(by_building: bool, *owner: ColumnElement[bool]) -> AnySelect:
    """The top ``top`` devices (or buildings) by kWh: key, name, kWh, ¥ and the kWh of all ranked.

    The database sums, orders and cuts, and names only the rows kept: a project of thousands of
    devices sends back ``top`` rows. A device no longer in the project ranks by number (no name);
    by building, only devices still in one of the project's buildings count.
    """
    kwh = func.sum(sum(_KWH[1:], _KWH[0]))
    grouped = select(kwh.label("kwh"), func.sum(sum(_COST[1:], _COST[0])).label("cost"))
    grouped = grouped.add_columns(func.sum(kwh).over().label("whole")).where(
        *_rollups_within(EnergyRollup.scope == DEVICE, *owner)
    )
    if by_building:
        grouped = (
            grouped.add_columns(Gateway.building_sysno.label("key"))
            .join(Device, and_(Device.sysno == EnergyRollup.owner_sysno, Device.project_sysno == _PROJECT_ID))
            .join(Gateway, Gateway.sysno == Device.gateway_sysno)
            .where(Gateway.building_sysno.is_not(None))
            .group_by(Gateway.building_sysno)
        )
    else:
        grouped = grouped.add_columns(EnergyRollup.owner_sysno.label("key")).group_by(
            EnergyRollup.owner_sysno
        )
    every = grouped.subquery()
    kept = select(every).order_by(every.c.kwh.desc(), every.c.key).limit(bindparam("top")).subquery()
    named = (
        and_(Building.sysno == kept.c.key, Building.project_sysno == _PROJECT_ID)
        if by_building
        else and_(Device.sysno == kept.c.key, Device.project_sysno == _PROJECT_ID)
    )
    return (
        select(
            kept.c.key, Building.name if by_building else Device.name, kept.c.kwh, kept.c.cost, kept.c.whole
        )
        .outerjoin(Building if by_building else Device, named)
        .order_by(kept.c.kwh.desc(), kept.c.key)
    )


# The whole project ranks every device but its 总进线; a building or picked devices rank their own.
_NOT_MAIN = EnergyRollup.owner_sysno.not_in(select(_MAINS_HERE.c.device))
_RANK_EVERY = {by: _ranked(by, _NOT_MAIN) for by in (False, True)}


def _rank_each(by_building: bool) -> ForIds:
    return ForIds(lambda ids: _ranked(by_building, EnergyRollup.owner_sysno.in_(ids)))


_RANK_EACH = {by: _rank_each(by) for by in (False, True)}


def _reading(last: bool, since: BindParameter[datetime] = _LO) -> Any:
    """A project device's first (or last) counter reading of the period (from ``since``): one index seek."""
    return (
        select(Reading.energy)
        .where(
            Reading.device_sysno == Device.sysno,
            Reading.ts >= since,
            Reading.ts < _HI,
            Reading.energy.is_not(None),
        )
        .order_by(Reading.ts.desc() if last else Reading.ts.asc())
        .limit(1)
        .scalar_subquery()
    )


_READINGS = select(Device.sysno, _reading(last=False), _reading(last=True)).where(
    Device.project_sysno == _PROJECT_ID
)
# Devices that came to the project within the period, and when they last did: their readings here
# begin then (those before were taken in another project). Few: read apart, then each one's readings
# again (a bound joined per device cost PostgreSQL a probe and a partition pruning per device: the
# readings of a project of 1,000 devices took 1.7 times as long).
_ARRIVALS = (
    select(Departure.device_sysno, func.max(Departure.left_at))
    .where(Departure.to_project_sysno == _PROJECT_ID, Departure.left_at > _LO)
    .group_by(Departure.device_sysno)
)
_SINCE: BindParameter[datetime] = bindparam("since")
_READINGS_SINCE = select(_reading(last=False, since=_SINCE), _reading(last=True, since=_SINCE)).where(
    Device.sysno == bindparam("device")
)
_VISIBLE_DEVICE = (
    select(Device.project_sysno, Project.timezone)
    .join(Project, Project.sysno == Device.project_sysno)
    .where(Device.sysno == bindparam("device"), Project.sysno.in_(visible_projects(_VIEWER)), _DEVICE_IN_VIEW)
)
_QUARTERS = (
    select(
        EnergyInterval.start,
        EnergyInterval.period,
        EnergyInterval.kwh,
        EnergyInterval.cost,
        EnergyInterval.n_estimated,
        EnergyInterval.n_reset,
        EnergyInterval.n_implausible,
    )
    .where(
        EnergyInterval.device_sysno == bindparam("device"),
        EnergyInterval.project_sysno == _PROJECT_ID,
        EnergyInterval.start >= _LO,
        EnergyInterval.start < _HI,
    )
    .order_by(EnergyInterval.start)
)


# -- scope and periods --------------------------------------------------------------------------


async def _scope(ctx: AppContext, customer: Customer, query: EnergyScope) -> Scope:
    found = await ctx.reads.all(
        _VISIBLE_PROJECT, {"project": query.project_sysno, "customer": customer.sysno}
    )
    if not found:
        raise NotFound("项目")
    sysno, owner, timezone, name, limited = found[0]
    project = ProjectRef(sysno, owner, timezone, name)
    if query.device_sysnos:
        picked = await _PICKED.all(ctx, query.device_sysnos, project=project.sysno, customer=customer.sysno)
        if len(picked) != len(query.device_sysnos):
            raise NotFound("设备")
        return Scope(project, sorted(row[0] for row in picked))
    if query.building_sysno is not None or limited:
        at = {"project": project.sysno, "building": query.building_sysno, "customer": customer.sysno}
        if query.building_sysno is None:
            rows = await ctx.reads.all(_MEMBERS_IN_VIEW, at)
        elif await ctx.reads.scalar(_BUILDING, at) is None:
            raise NotFound("建筑")
        else:
            rows = await ctx.reads.all(_BUILDING_MEMBERS, at)
        return Scope(project, [d for d, m in rows if m is None], [d for d, m in rows if m is not None])
    mains = await ctx.reads.all(_PROJECT_MAINS, {"project": project.sysno})
    return Scope(project, None, [row[0] for row in mains])


async def check_scope(ctx: AppContext, customer: Customer, query: EnergyScope) -> None:
    """Refuse, as every energy read would, a project, building or device the caller may not see."""
    await _scope(ctx, customer, query)


# Dates a period may name: beyond them its end, its UTC bounds or its 同比 leave what a date holds.
FIRST_DAY, LAST_DAY = date(1970, 1, 1), date(9998, 12, 31)


def _day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError as exc:
        raise ApiError("日期无效") from exc
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ApiError("日期无效")
    return day


def _local(day: date, tz: Any) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=tz)


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


class PeriodFields(Protocol):
    """What names a period (an energy scope, a report's query): the view, a date and a range's end."""

    @property
    def view(self) -> str:
        """day, month, year or range."""

    @property
    def date(self) -> str:
        """The day (of the month or year) shown, or a range's first day."""

    @property
    def end_date(self) -> str | None:
        """A range's last day."""


def _period(query: PeriodFields, tz: Any) -> Period:
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


@lru_cache(maxsize=256)
def _buckets(period: Period, resolution: str) -> tuple[tuple[datetime, datetime, str, str | None], ...]:
    """The local buckets of a period with their labels and starts as shown (the same for every viewer).

    Each bucket's bounds are UTC, as roll-up starts are read: they compare without time-zone sums.
    """
    out: list[tuple[datetime, datetime, str, str | None]] = []
    at = period.start
    tz = period.start.tzinfo
    while at < period.end:
        if period.grain == QUARTER:
            step = counting.QUARTER if resolution == "quarter" else timedelta(hours=1)
            nxt = (at.astimezone(UTC) + step).astimezone(tz)
            label = at.strftime("%H:%M")
        elif period.grain == DAY:
            nxt = _local(at.date() + timedelta(days=1), tz)
            label = at.strftime("%m-%d" if period.view == "month" else "%Y-%m-%d")
        else:
            nxt = _local(_add_months(at.date(), 1), tz)
            label = at.strftime("%Y-%m")
        out.append((at.astimezone(UTC), nxt.astimezone(UTC), label, to_display(at)))
        at = nxt
    return tuple(out)


def local_period(query: PeriodFields, tz: Any) -> Period:
    """The local day, month, year or range (at most 366 days) a query names, or a Chinese refusal."""
    return _period(query, tz)


def period_buckets(period: Period) -> tuple[tuple[datetime, datetime, str, str | None], ...]:
    """A period's buckets as the energy chart has them (hours, days or months): UTC bounds and labels."""
    return _buckets(period, "hour")


# -- reading the sums ---------------------------------------------------------------------------


def sum_all(items: Iterable[Sums]) -> Sums:
    """The sums of many, column by column."""
    return tuple(map(sum, zip(*items, strict=True))) or NOTHING


async def _by_start(
    ctx: AppContext, scope: Scope, grain: int, lo: datetime, hi: datetime
) -> dict[datetime, Sums]:
    """Sums per roll-up start."""
    return await _read_sums(ctx, scope, grain, lo, hi, by_start=True)


async def _sum_over(ctx: AppContext, scope: Scope, grain: int, lo: datetime, hi: datetime) -> Sums:
    """The sums of the roll-ups starting from ``lo`` to ``hi``."""
    return (await _read_sums(ctx, scope, grain, lo, hi, by_start=False)).get(None) or NOTHING


async def _read_sums(
    ctx: AppContext, scope: Scope, grain: int, lo: datetime, hi: datetime, *, by_start: bool
) -> dict[Any, Sums]:
    """Sums per roll-up start, or (``by_start`` false) in all under the key None.

    Quarters of devices come from their intervals.
    """
    at: dict[str, Any] = {"project": scope.project.sysno, "grain": grain, "lo": lo, "hi": hi}
    key = 1 if by_start else 0  # where the sums begin in a row
    out: dict[Any, Sums]
    if scope.devices is None:  # the project's sums less its mains'
        rows = await ctx.reads.all(_PROJECT_SUMS[by_start], at)
        out = {row[0] if by_start else None: row[key:] for row in rows}
        if scope.mains:
            mains = Scope(scope.project, scope.mains)
            for start, sums in (await _read_sums(ctx, mains, grain, lo, hi, by_start=by_start)).items():
                out[start] = _minus(out.get(start, NOTHING), sums)
        return out
    if not scope.devices:
        return {}
    if grain != QUARTER:
        picked = await _DEVICE_SUMS[by_start].all(ctx, scope.devices, **at)
        return {row[0] if by_start else None: tuple(row[key:]) for row in picked}
    summed: dict[Any, list[float]] = {}
    for row in await _DEVICE_INTERVALS[by_start].all(ctx, scope.devices, **at):
        period, kwh, cost, est, rst, imp = row[key:]
        adding = summed.setdefault(row[0] if by_start else None, list(NOTHING))
        adding[period] += float(kwh or 0)
        adding[5 + period] += float(cost or 0)
        adding[10] += int(est or 0)
        adding[11] += int(rst or 0)
        adding[12] += int(imp or 0)
    return {k: tuple(v) for k, v in summed.items()}


async def _total(ctx: AppContext, scope: Scope, lo: datetime, hi: datetime) -> Sums:
    """The sums from ``lo`` to ``hi`` (local instants on quarter boundaries): whole days from day roll-ups."""
    tz = lo.tzinfo
    first_day = lo.date() if lo == _local(lo.date(), tz) else lo.date() + timedelta(days=1)
    last_day = hi.date()  # days before this one are whole
    out = NOTHING
    if first_day < last_day:
        day_lo, day_hi = _local(first_day, tz), _local(last_day, tz)
        out = await _sum_over(ctx, scope, DAY, day_lo, day_hi)
        pieces = [(lo, min(day_lo, hi)), (max(day_hi, lo), hi)]
    else:
        pieces = [(lo, hi)]
    for a, b in pieces:
        if a < b:
            out = _plus(out, await _sum_over(ctx, scope, QUARTER, a, b))
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
    ctx: AppContext,
    scope: Scope,
    period: Period,
    until: datetime,
    current: Sums,
    back: str,
    first: datetime | None,
) -> dict[str, Any]:
    """The same span a year or a period earlier (``first``: the project's first day of records)."""
    lo = _shift(period.start, period, back)
    elapsed = until.replace(tzinfo=None) - period.start.replace(tzinfo=None)
    hi = (lo.replace(tzinfo=None) + elapsed).replace(tzinfo=lo.tzinfo)
    if until >= period.end:
        hi = _shift(period.end, period, back) if period.view != "range" else hi
    # Nothing of the project is counted before its first day of records: no read needed.
    earlier = await _total(ctx, scope, lo, hi) if first is not None and hi > first else NOTHING
    # A project's records begin with its first day roll-up: a period before that is no base (a year
    # of history against the first weeks of records would give +2,000,000 %).
    complete = first is not None and first <= lo

    def change(now: float, then: float) -> float | None:
        return round((now - then) / then * 100, 2) if then > 1e-9 and complete else None

    return {
        "label": "同比" if back == "year" else "环比",
        "start": to_display(lo),
        "end": to_display(hi),
        "kwh": wh(_kwh(earlier)),
        "cost": fen(_cost(earlier)),
        "complete": complete,
        "kwh_change": change(_kwh(current), _kwh(earlier)),
        "cost_change": change(_cost(current), _cost(earlier)),
    }


def _quarter_up(at: datetime) -> datetime:
    """The end of the quarter holding ``at`` (local)."""
    return (counting.quarter_of(at) + counting.QUARTER).astimezone(at.tzinfo)


async def chart(*, ctx: AppContext, customer: Customer, query: EnergyScope) -> dict[str, Any]:
    """The 能耗统计 chart: buckets stacked by period, totals, 同比 and 环比."""
    scope = await _scope(ctx, customer, query)
    tz = scope.tz
    period = _period(query, tz)
    buckets = _buckets(period, query.resolution)
    found = await _by_start(ctx, scope, period.grain, period.start, period.end)
    points = []
    total = sum_all(found.values())  # the buckets cover the period: every roll-up read
    ordered = sorted(found)
    for lo, hi, label, begins in buckets:
        if period.grain != QUARTER or query.resolution == "quarter":
            sums = found.get(lo, NOTHING)  # a bucket is one roll-up
        else:  # an hour takes the quarters starting within it
            within = ordered[bisect_left(ordered, lo) : bisect_left(ordered, hi)]
            sums = sum_all(found[start] for start in within)
        points.append(_point(label, begins, sums))
    now = utcnow().astimezone(tz)
    partial = now < period.end
    until = min(_quarter_up(now), period.end) if partial else period.end
    project = {"project": scope.project.sysno}
    priced = await ctx.reads.scalar(_PRICED, project | {"owner": scope.project.owner})
    first = await ctx.reads.scalar(_FIRST_DAY, project)
    return {
        "view": period.view,
        "start": to_display(period.start),
        "end": to_display(period.end),
        "partial": partial,
        "periods": list(PERIOD_LABELS),
        "priced": bool(priced),
        "points": points,
        "total_kwh": wh(_kwh(total)),
        "total_cost": fen(_cost(total)),
        "total": _rounded(total),
        "yoy": await _compare(ctx, scope, period, until, total, "year", first),
        "mom": await _compare(ctx, scope, period, until, total, "previous", first),
    }


def _rounded(sums: Sums) -> dict[str, list[float]]:
    return {"kwh": _kwh_shown(sums[:5]), "cost": _cost_shown(sums[5:10])}


def wh(kwh: float) -> float:
    """Energy as shown: kWh to the Wh.

    Scaled rounding costs a third of ``round(kwh, 3)``, and a year chart rounds thousands of figures.
    """
    return round(kwh * 1000) / 1000


def fen(yuan: float) -> float:
    """Money as shown: ¥ to the fen."""
    return round(yuan * 100) / 100


# As wh and fen, inline (a year by day rounds 3,650 figures). A plan uses two or three of the five
# periods: the others' zeros need no rounding.
def _kwh_shown(values: Sequence[float]) -> list[float]:
    return [round(v * 1000) / 1000 if v else 0.0 for v in values]


def _cost_shown(values: Sequence[float]) -> list[float]:
    return [round(v * 100) / 100 if v else 0.0 for v in values]


def shown(sums: Sums) -> dict[str, Any]:
    """Sums as every energy figure shows them: kWh to the Wh and ¥ to the fen, per period and in all."""
    kwh, cost = sums[:5], sums[5:10]
    return {
        "kwh": _kwh_shown(kwh),
        "cost": _cost_shown(cost),
        "total_kwh": wh(sum(kwh)),
        "total_cost": fen(sum(cost)),
        "estimated": sums[10] > 0,
        "reset": sums[11] > 0,
        "implausible": sums[12] > 0,
    }


def _point(label: str, start: str | None, sums: Sums) -> dict[str, Any]:
    """A bucket of the chart (a year by day makes 365: no merged dicts)."""
    point = shown(sums)
    point["label"] = label
    point["start"] = start
    return point


# -- ranking and table ---------------------------------------------------------------------------


def _per_device_at(scope: Scope, period: Period) -> dict[str, Any]:
    """Where devices' sums over the period lie: one year or month roll-up each, else day roll-ups."""
    return {
        "project": scope.project.sysno,
        "grain": {"year": YEAR, "month": MONTH}.get(period.view, DAY),
        "lo": period.start,
        "hi": period.end,
    }


async def _per_device(ctx: AppContext, scope: Scope, period: Period) -> dict[int, Sums]:
    """Each device's sums over the period."""
    at = _per_device_at(scope, period)
    rows: Sequence[Sequence[Any]] = (
        await ctx.reads.all(_EVERY_DEVICE, at)
        if scope.devices is None
        else await _EACH_DEVICE.all(ctx, scope.devices, **at)
    )
    return {row[0]: tuple(row[1:]) for row in rows}


@dataclass(frozen=True, slots=True)
class Member:
    """A device of the project: its name, building and whether it is a 总进线."""

    name: str
    building: int | None
    building_name: str | None
    main: bool


async def _members(ctx: AppContext, project: int) -> dict[int, Member]:
    """The project's devices (one read for every device, however many the scope names)."""
    rows = await ctx.reads.all(_PROJECT_DEVICES, {"project": project})
    return {sysno: Member(name, b, bn, main is not None) for sysno, name, b, bn, main in rows}


def _gone_name(sysno: int) -> str:
    return f"已移除的设备 #{sysno}"


async def ranking(*, ctx: AppContext, customer: Customer, query: RankingQuery) -> list[dict[str, Any]]:
    """The top devices or buildings by consumption over the period."""
    scope = await _scope(ctx, customer, query)
    at = _per_device_at(scope, _period(query, scope.tz)) | {"top": query.top}
    by_building = query.by == "building"
    rows = (
        await ctx.reads.all(_RANK_EVERY[by_building], at)
        if scope.devices is None
        else await _RANK_EACH[by_building].all(ctx, scope.devices, **at)
    )
    return [
        {
            "sysno": key,
            "name": name if name is not None else _gone_name(key),
            "kwh": wh(kwh),
            "cost": fen(cost),
            "share": round(kwh / whole * 100, 2) if whole > 1e-9 else 0.0,
        }
        for key, name, kwh, cost, whole in rows
    ]


@dataclass
class DeviceFigures:
    """Each device of a scope over a period: its sums and first and last counter readings.

    ``devices``: the scope's devices with the 总进线 among them (references), and any device that
    counted in the period but has left the project since.
    """

    scope: Scope
    period: Period
    members: dict[int, Member]
    devices: list[int]
    sums: dict[int, Sums]
    readings: dict[int, tuple[float | None, float | None]]


async def device_figures(*, ctx: AppContext, customer: Customer, query: EnergyScope) -> DeviceFigures:
    """What the 能耗统计 table and the energy report show of each device (one path for both)."""
    scope = await _scope(ctx, customer, query)
    period = _period(query, scope.tz)
    listed = scope if scope.devices is None else Scope(scope.project, [*scope.devices, *scope.mains])
    per_device = await _per_device(ctx, listed, period)
    members = await _members(ctx, scope.project.sysno)
    every = sorted((set(members) if listed.devices is None else set(listed.devices)) | set(per_device))
    # The first and last counter reading of each present device: index seeks, read aside (a project may
    # have thousands of devices).
    at = {"project": scope.project.sysno, "lo": period.start, "hi": period.end}
    found = {sysno: (first, last) for sysno, first, last in await ctx.reads.all(_READINGS, at, inline=False)}
    for device, since in await ctx.reads.all(_ARRIVALS, at):
        if device in found:  # (still here)
            found[device] = (await ctx.reads.all(_READINGS_SINCE, at | {"device": device, "since": since}))[0]
    readings = {
        sysno: (None if first is None else float(first), None if last is None else float(last))
        for sysno, (first, last) in found.items()
    }
    return DeviceFigures(scope, period, members, every, per_device, readings)


async def device_series(
    ctx: AppContext, figures: DeviceFigures, devices: list[int], grain: str
) -> dict[int, list[tuple[datetime, Sums]]]:
    """Some of the figures' devices' sums per ``hour`` (their intervals), ``day`` or ``month``, in time order.

    Hours are summed by the database where the project's clock is a whole number of hours from UTC
    (its hours are UTC hours); else each quarter is returned, for the caller to put in its hour.
    """
    period = figures.period
    at: dict[str, Any] = {"project": figures.scope.project.sysno, "lo": period.start, "hi": period.end}
    out: dict[int, list[tuple[datetime, Sums]]] = {device: [] for device in devices}
    if grain != "hour":
        at["grain"] = DAY if grain == "day" else MONTH
        for row in await _DEVICE_ROLLUPS.all(ctx, devices, inline=False, **at):
            out[row[0]].append((row[1], tuple(row[2:])))
        return out
    whole = all(
        (t.utcoffset() or timedelta()) % timedelta(hours=1) == timedelta() for t in (period.start, period.end)
    )
    rows = await (_DEVICE_HOURS if whole else _DEVICE_QUARTERS).all(ctx, devices, inline=False, **at)
    for device, start, tariff, kwh, cost, est, rst, imp in rows:
        if whole:
            start = _utc_hour(start)
        sums = [0.0] * 13
        sums[tariff] = float(kwh or 0)
        sums[5 + tariff] = float(cost or 0)
        sums[10:13] = (int(est or 0), int(rst or 0), int(imp or 0))
        out[device].append((start, tuple(sums)))
    return out


@lru_cache(maxsize=65536)
def _utc_hour(text: str) -> datetime:
    """``YYYY-MM-DD HH`` (``utc_hour``) as an aware UTC time."""
    return datetime(int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), tzinfo=UTC)


async def scope_series(ctx: AppContext, figures: DeviceFigures, grain: int) -> dict[datetime, Sums]:
    """The figures' scope's sums per quarter, day or month (the chart's path)."""
    return await _by_start(ctx, figures.scope, grain, figures.period.start, figures.period.end)


def member(figures: DeviceFigures, device: int) -> Member:
    """A device of the figures by name (one that left the project by number, a 总进线 still marked as one)."""
    found = figures.members.get(device)
    if found is not None:
        return found
    return Member(_gone_name(device), None, None, device in figures.scope.mains)


async def table(*, ctx: AppContext, customer: Customer, query: EnergyScope) -> dict[str, Any]:
    """Each device's readings, consumption and cost; buildings' 公摊/损耗 where a main is marked."""
    figures = await device_figures(ctx=ctx, customer=customer, query=query)
    scope = figures.scope
    rows: list[dict[str, Any]] = []
    for device in figures.devices:
        sums = figures.sums.get(device, NOTHING)
        found = member(figures, device)
        start, end = figures.readings.get(device, (None, None))
        rows.append(
            {
                "device_sysno": device,
                "name": found.name,
                "building_sysno": found.building,
                "building_name": found.building_name,
                "incoming_main": found.main,
                "start_reading": start,
                "end_reading": end,
                "kwh": wh(_kwh(sums)),
                "cost": fen(_cost(sums)),
                "estimated": sums[10] > 0,
                "reset": sums[11] > 0,
                "implausible": sums[12] > 0,
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
                "main_kwh": wh(main_kwh),
                "branch_kwh": wh(branch),
                "loss_kwh": wh(main_kwh - branch),
                "loss_ratio": round((main_kwh - branch) / main_kwh * 100, 2) if main_kwh > 1e-9 else None,
            }
        )
    mains = set(scope.mains)
    counted = [r for r in rows if r["device_sysno"] not in mains]
    return {
        "rows": rows,
        "total_kwh": wh(sum(r["kwh"] for r in counted)),
        "total_cost": fen(sum(r["cost"] for r in counted)),
        "losses": losses,
    }


async def device_quarters(
    *, ctx: AppContext, customer: Customer, query: QuarterQuery
) -> list[dict[str, Any]]:
    """One device's quarter-hours of a local day."""
    found = await ctx.reads.all(_VISIBLE_DEVICE, {"device": query.device_sysno, "customer": customer.sysno})
    if not found:
        raise NotFound("设备")
    project, timezone = found[0]
    tz = zone(timezone)
    day = _day(query.date)
    at = {
        "device": query.device_sysno,
        "project": project,
        "lo": _local(day, tz),
        "hi": _local(day + timedelta(days=1), tz),
    }
    return [
        {
            "start": to_display(start),
            "period": period,
            "kwh": round(kwh, 4),
            "cost": round(cost, 4),
            "estimated": est > 0,
            "reset": rst > 0,
            "implausible": imp > 0,
        }
        for start, period, kwh, cost, est, rst, imp in await ctx.reads.all(_QUARTERS, at)
    ]


async def _visible_device(session: AsyncSession, customer: Customer, sysno: int) -> Device:
    device = await session.scalar(
        select(Device).where(
            Device.sysno == sysno,
            sees(customer.sysno, project=Device.project_sysno, gateway=Device.gateway_sysno),
        )
    )
    if device is None:
        raise NotFound("设备")
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
    # The mark holds for the device's whole history here, earlier stays included (not for other projects).
    await session.execute(
        update(Departure)
        .where(Departure.device_sysno == device.sysno, Departure.project_sysno == device.project_sysno)
        .values(incoming_main=body.incoming_main)
    )
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
    await hold_rows(session, Device, Device.sysno == device.sysno)
    meters, changes = await store.meters(session, [device.sysno])
    meter = meters[device.sysno]
    out = await store.recount(session, meter, changes.get(device.sysno, []), since=at, until=at)
    await store.write(session, out, await store.pricings(session, {c.project_sysno for c in out}))
    await store.fold(session)  # the screens show the corrected sums as soon as this commits


async def add_meter_change(
    *, session: AsyncSession, customer: Customer, body: MeterChangeWrite, ip: str | None
) -> dict[str, Any]:
    """Record a meter change and count the consumption around it again."""
    device = await get_owned(
        session=session, customer=customer, model=Device, sysno=body.device_sysno, what="设备"
    )
    row = await record_meter_change(
        session,
        device,
        change_time=body.change_time,
        old_final=body.old_final,
        new_initial=body.new_initial,
        remark=body.remark,
    )
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


async def record_meter_change(
    session: AsyncSession,
    device: Device,
    *,
    change_time: str,
    old_final: float,
    new_initial: float,
    remark: str | None,
) -> MeterChange:
    """Add a meter change of a device the caller checked, and recount around it (not committed)."""
    try:
        at = parse_display(change_time)
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
        device_sysno=device.sysno, change_time=at, old_final=old_final, new_initial=new_initial, remark=remark
    )
    session.add(row)
    await session.flush()
    await _recount_around(session, device, at)
    return row


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
