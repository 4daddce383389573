"""What a report of events covers: a project the caller may see, maybe one of its buildings, a period.

The alarm, availability and control reports count rows of their logs (alarms, offline spells,
commands) over the energy report's periods: a local day, month, year or range of at most 366 days
in the project's time zone (``energy.service.local_period``), with the energy chart's buckets. An
unknown project, or one the caller may not see, is refused alike (``项目不存在或无权访问``); so is
a building that is not the project's. Every statement takes the scope's parameters by name:
``project``, ``building`` (null: every building), ``lo``/``hi`` (the period, UTC, ``hi`` exclusive),
``now`` and ``until`` (the period's end, or now while it runs).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, and_, bindparam, case, or_, select

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.database import UTCDateTime
from powerportal.core.envelope import NotFound
from powerportal.core.timeutil import to_display, utcnow
from powerportal.energy import service as energy
from powerportal.energy.tariffs import zone
from powerportal.gateways.models import Gateway, name_in
from powerportal.projects.access import in_view, visible_projects
from powerportal.projects.models import Building, Project
from powerportal.reports.schemas import EventReportQuery

PROJECT = bindparam("project", type_=BigInteger())
BUILDING = bindparam("building", type_=BigInteger())
LO = bindparam("lo", type_=UTCDateTime())
HI = bindparam("hi", type_=UTCDateTime())
NOW = bindparam("now", type_=UTCDateTime())
UNTIL = bindparam("until", type_=UTCDateTime())

VIEW_LABELS = {"day": "日", "month": "月", "year": "年", "range": "自定义"}
NO_BUILDING = "未分配建筑"

CUSTOMER = bindparam("customer", type_=BigInteger())

_PROJECT = select(Project.name, Project.timezone).where(
    Project.sysno == PROJECT, Project.sysno.in_(visible_projects(CUSTOMER))
)
_BUILDING = select(Building.name).where(
    Building.sysno == BUILDING,
    Building.project_sysno == PROJECT,
    in_view(CUSTOMER, project=Building.project_sysno, building=Building.sysno),
)


# A log row's gateway as the report's project knows it: while the gateway is still in the project. One
# moved on since (maybe into another customer's project, renamed there) lends the report its serial
# number, not its name or building: its rows count under no building.
HERE = Gateway.project_sysno == PROJECT
GATEWAY_NAME = name_in(PROJECT)
BUILDING_HERE = case((HERE, Gateway.building_sysno))
BUILDING_OF_GATEWAY = and_(Building.sysno == Gateway.building_sysno, HERE)


def in_building(gateway_column: Any) -> ColumnElement[bool]:
    """Rows of the scope's building (through their gateway), or of every building when none is chosen.

    Either way only of the part of the project the caller sees (a share limited to buildings).
    """
    return and_(
        or_(
            BUILDING.is_(None),
            gateway_column.in_(select(Gateway.sysno).where(Gateway.building_sysno == BUILDING)),
        ),
        in_view(CUSTOMER, project=PROJECT, gateway=gateway_column),
    )


@dataclass(frozen=True, slots=True)
class Scope:
    """A report's project, building and period, resolved and allowed."""

    customer: int  # who asks: a share limited to buildings narrows every count to them
    project: int
    project_name: str
    building: int | None
    building_name: str | None
    view: str
    start: datetime  # local, aware
    end: datetime  # local, exclusive
    now: datetime  # UTC
    buckets: tuple[tuple[datetime, datetime, str, str | None], ...]

    @property
    def lo(self) -> datetime:
        """The period's first instant, UTC."""
        return self.start.astimezone(UTC)

    @property
    def hi(self) -> datetime:
        """The instant after the period, UTC."""
        return self.end.astimezone(UTC)

    @property
    def until(self) -> datetime:
        """The period's end, or now while it runs (never before its start)."""
        return max(self.lo, min(self.hi, self.now))

    @property
    def partial(self) -> bool:
        """Whether the period is still running."""
        return self.now < self.hi

    @property
    def params(self) -> dict[str, Any]:
        """The statements' parameters."""
        return {
            "customer": self.customer,
            "project": self.project,
            "building": self.building,
            "lo": self.lo,
            "hi": self.hi,
            "now": self.now,
            "until": self.until,
        }

    def header(self) -> dict[str, Any]:
        """What every report's answer begins with: its project, building and period."""
        return {
            "project_name": self.project_name,
            "building_name": self.building_name,
            "view": self.view,
            "start": to_display(self.start),
            "end": to_display(self.end),
            "partial": self.partial,
        }

    def filters(self) -> list[tuple[str, str]]:
        """The document's conditions: the project, the building and the period."""
        last = (self.end - timedelta(days=1)).strftime("%Y-%m-%d")
        return [
            ("项目", self.project_name),
            ("建筑", self.building_name or "全部建筑"),
            ("周期", f"{VIEW_LABELS[self.view]}：{self.start.strftime('%Y-%m-%d')} 至 {last}"),
        ]

    def stem(self, name: str) -> str:
        """A file name without extension: the report, the project and the period's days."""
        first = self.start.strftime("%Y-%m-%d")
        last = (self.end - timedelta(days=1)).strftime("%Y-%m-%d")
        span = first if first == last else f"{first}至{last}"
        building = f"_{self.building_name}" if self.building_name else ""
        return f"{name}_{self.project_name}{building}_{span}"

    @property
    def _starts(self) -> list[datetime]:
        return [lo for lo, *_ in self.buckets]

    def per_bucket(self, rows: Iterable[tuple[Any, ...]], width: int) -> list[list[int]]:
        """Counts by UTC hour (``(hour, slot, n)`` rows) added into the buckets, ``width`` slots each."""
        into = [[0] * width for _ in self.buckets]
        starts = self._starts
        for hour, slot, n in rows:
            at = datetime.strptime(hour, "%Y-%m-%d %H").replace(tzinfo=UTC)
            index = bisect_right(starts, at) - 1
            if 0 <= index and slot is not None and 0 <= slot < width:
                into[index][slot] += int(n)
        return into


async def resolve(ctx: AppContext, customer: Customer, query: EventReportQuery) -> Scope:
    """The query's project (one the caller may see), building (of that project) and period."""
    found = await ctx.reads.all(_PROJECT, {"project": query.project_sysno, "customer": customer.sysno})
    if not found:
        raise NotFound("项目")
    name, timezone = found[0]
    building_name = None
    if query.building_sysno is not None:
        building_name = await ctx.reads.scalar(
            _BUILDING,
            {"project": query.project_sysno, "building": query.building_sysno, "customer": customer.sysno},
        )
        if building_name is None:
            raise NotFound("建筑")
    period = energy.local_period(query, zone(timezone))
    return Scope(
        customer=customer.sysno,
        project=query.project_sysno,
        project_name=name,
        building=query.building_sysno,
        building_name=building_name,
        view=period.view,
        start=period.start,
        end=period.end,
        now=utcnow(),
        buckets=energy.period_buckets(period),
    )


def rate(part: float, whole: float) -> float | None:
    """``part`` of ``whole`` in % with 2 decimals (None when there is no whole)."""
    return round(part / whole * 100, 2) if whole > 0 else None
