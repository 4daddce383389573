"""Energy wire shapes: the chart, ranking and table of 能耗统计, meter changes and tariff plans."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from powerportal.core.schemas import SYSNO_ITEMS, PageQuery, Reply, Schema, Sysno, list_rules

DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
SLOTS = r"^[0-4]{48}$"
View = Literal["day", "month", "year", "range"]


class EnergyScope(Schema):
    """What to count: a project, one of its buildings, or some of its devices; and when.

    ``view`` day (``date``; ``resolution`` quarter = 96 quarter-hours or hour = 24 hours), month
    (the month of ``date``, by day), year (the year of ``date``, by month) or range (``date`` to
    ``end_date``, by day, at most 366 days). Dates are the project's local dates.
    """

    project_sysno: Sysno
    building_sysno: Sysno | None = None
    device_sysnos: list[int] | None = Field(
        default=None, max_length=200, json_schema_extra=list_rules(SYSNO_ITEMS, unique=True)
    )
    view: View = "day"
    date: str = Field(pattern=DATE, max_length=10)
    end_date: str | None = Field(default=None, pattern=DATE, max_length=10)
    resolution: Literal["quarter", "hour"] = "hour"

    @model_validator(mode="after")
    def _ids(self) -> EnergyScope:
        ids = self.device_sysnos
        if ids is not None and (any(not 1 <= s <= 2**53 - 1 for s in ids) or len(set(ids)) != len(ids)):
            raise ValueError("设备编号无效或重复")
        return self


class RankingQuery(EnergyScope):
    """A top-N of devices or buildings of the scope over its period."""

    by: Literal["device", "building"] = "device"
    top: int = Field(default=10, ge=1, le=100)


class PeriodSums(Reply):
    """kWh and ¥ split by tariff period (尖, 峰, 平, 谷, 深谷 in that order)."""

    kwh: list[float]
    cost: list[float]


class ChartPoint(PeriodSums):
    """One bar: a quarter, hour, day or month."""

    label: str
    start: str
    total_kwh: float
    total_cost: float
    estimated: bool
    reset: bool
    implausible: bool


class Comparison(Reply):
    """The period against an earlier one of the same length (partial periods aligned)."""

    label: str
    start: str
    end: str
    kwh: float
    cost: float
    # whether consumption was recorded for all of the earlier period (the project's records began
    # before it); the changes are null where it was not, or where the earlier period used nothing
    complete: bool
    # change in percent
    kwh_change: float | None
    cost_change: float | None


class EnergyChart(Reply):
    """The chart of 能耗统计 with its totals and comparisons."""

    view: View
    start: str
    end: str
    # the period ends in the future (today, this month): only its elapsed part is compared
    partial: bool
    periods: list[str]
    priced: bool
    points: list[ChartPoint]
    total_kwh: float
    total_cost: float
    total: PeriodSums
    yoy: Comparison
    mom: Comparison


class RankingRow(Reply):
    """A device or building and what it used."""

    sysno: int
    name: str
    kwh: float
    cost: float
    share: float


class DeviceEnergyRow(Reply):
    """A device's counter at the start and end of the period, what it used and cost."""

    device_sysno: int
    name: str
    building_sysno: int | None
    building_name: str | None
    incoming_main: bool
    start_reading: float | None
    end_reading: float | None
    kwh: float
    cost: float
    estimated: bool
    reset: bool
    implausible: bool


class BuildingLoss(Reply):
    """A building whose incoming main is measured: main minus the sum of the other devices."""

    building_sysno: int
    building_name: str
    main_kwh: float
    branch_kwh: float
    loss_kwh: float
    loss_ratio: float | None


class EnergyTable(Reply):
    """The per-device table of the period, its sum and the buildings' shared use and losses (公摊/损耗)."""

    rows: list[DeviceEnergyRow]
    total_kwh: float
    total_cost: float
    losses: list[BuildingLoss]


class QuarterQuery(Schema):
    """One device's quarter-hours of one local day."""

    device_sysno: Sysno
    date: str = Field(pattern=DATE, max_length=10)


class QuarterRead(Reply):
    """A quarter-hour of a device."""

    start: str
    period: int
    kwh: float
    cost: float
    estimated: bool
    reset: bool
    implausible: bool


class IncomingMainWrite(Schema):
    """Mark (or unmark) a device as its building's incoming main (总进线)."""

    device_sysno: Sysno
    incoming_main: bool


class MeterChangeWrite(Schema):
    """A replaced meter: when, the old meter's final reading and the new one's initial reading (kWh)."""

    device_sysno: Sysno
    change_time: str = Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$", max_length=19
    )
    old_final: float = Field(ge=0, le=1e12)
    new_initial: float = Field(ge=0, le=1e12)
    remark: str | None = Field(default=None, max_length=500)


class MeterChangeRead(Reply):
    """A recorded meter change."""

    sysno: int
    device_sysno: int
    change_time: str
    old_final: float
    new_initial: float
    remark: str | None
    create_time: str


class Prices(Schema):
    """¥/kWh per period; null for a period the plan does not use."""

    sharp: float | None = Field(default=None, ge=0, le=100)
    peak: float | None = Field(default=None, ge=0, le=100)
    flat: float | None = Field(default=None, ge=0, le=100)
    valley: float | None = Field(default=None, ge=0, le=100)
    deep: float | None = Field(default=None, ge=0, le=100)


class Season(Schema):
    """Months sharing one day's slot table: 48 digits, one per half hour from 00:00 (0 尖 … 4 深谷)."""

    name: str = Field(title="季节名称", min_length=1, max_length=32)
    months: list[int] = Field(
        min_length=1, max_length=12, json_schema_extra=list_rules({"minimum": 1, "maximum": 12}, unique=True)
    )
    slots: str = Field(pattern=SLOTS, min_length=48, max_length=48)

    @model_validator(mode="after")
    def _months(self) -> Season:
        if any(not 1 <= m <= 12 for m in self.months) or len(set(self.months)) != len(self.months):
            raise ValueError("应为 1–12 且不重复")
        return self


class Holidays(Schema):
    """Dates priced by their own slot table."""

    dates: list[str] = Field(max_length=366, json_schema_extra=list_rules({"pattern": DATE, "maxLength": 10}))
    slots: str = Field(pattern=SLOTS, min_length=48, max_length=48)

    @model_validator(mode="after")
    def _dates(self) -> Holidays:
        if any(re.fullmatch(DATE, d) is None for d in self.dates):
            raise ValueError("应为 YYYY-MM-DD 格式的日期")
        return self


class VersionWrite(Schema):
    """A plan's prices from a date on."""

    effective_date: str = Field(pattern=DATE, max_length=10)
    prices: Prices
    seasons: list[Season] = Field(min_length=1, max_length=12)
    holidays: Holidays | None = None


class VersionAdd(VersionWrite):
    """A new version of a plan (it must begin after today)."""

    plan_sysno: Sysno


class PlanAdd(Schema):
    """A new plan with its first version."""

    name: str = Field(title="方案名称", min_length=1, max_length=64)
    remark: str | None = Field(default=None, max_length=500)
    is_default: bool = False
    version: VersionWrite


class PlanUpdate(Schema):
    """A plan's name, remark and whether it is the customer's default."""

    sysno: Sysno
    name: str = Field(title="方案名称", min_length=1, max_length=64)
    remark: str | None = Field(default=None, max_length=500)
    is_default: bool = False


class PricesRead(Reply):
    """¥/kWh per period as stored; null for a period the plan does not use."""

    sharp: float | None
    peak: float | None
    flat: float | None
    valley: float | None
    deep: float | None


class SeasonRead(Reply):
    """A stored season: its months and 48 half-hour period digits."""

    name: str
    months: list[int]
    slots: str


class HolidaysRead(Reply):
    """Stored holiday dates and their slot table."""

    dates: list[str]
    slots: str


class VersionRead(Reply):
    """A version as stored; ``editable`` while it has not begun."""

    sysno: int
    effective_date: str
    prices: PricesRead
    seasons: list[SeasonRead]
    holidays: HolidaysRead | None
    editable: bool


class PlanRead(Reply):
    """A plan with its versions (newest first) and the projects using it."""

    sysno: int
    name: str
    remark: str | None
    is_default: bool
    create_time: str
    versions: list[VersionRead]
    projects: list[str]


class PlanQuery(PageQuery):
    """Plans of the customer; ``name`` matches anywhere."""

    name: str | None = Field(default=None, max_length=64)


class ProjectTariffWrite(Schema):
    """The plan a project's costs use from now on (null: the customer's default plan)."""

    project_sysno: Sysno
    plan_sysno: Sysno | None = None


class ProjectTariffRead(Reply):
    """An owned project and the plan its costs use."""

    project_sysno: int
    project_name: str
    plan_sysno: int | None
    plan_name: str | None
