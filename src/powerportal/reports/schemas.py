"""Report wire shapes: the energy report (报表统计 · 能耗报表) and its export."""

from __future__ import annotations

from typing import Literal

from powerportal.core.schemas import Reply
from powerportal.energy.schemas import ChartPoint, Comparison, EnergyScope, PeriodSums

Group = Literal["device", "building", "project"]
Detail = Literal["hour", "day", "month"]
Format = Literal["xlsx", "pdf"]


class EnergyReportQuery(EnergyScope):
    """The energy report of a scope over a period, one row per device, building or the project.

    ``detail`` (the export's 明细 sheet): one row per member and hour, day or month; by default
    hours for a day, days for a month or a range, months for a year. ``format``: the export's file,
    an Excel workbook (汇总 and 明细) or an A4 PDF (the 汇总 and its chart).
    """

    group: Group = "device"
    detail: Detail | None = None
    format: Format = "xlsx"


class EnergyReportRow(Reply):
    """A device, building or the project over the period: readings, kWh and ¥ per tariff period."""

    key: str
    sysno: int
    name: str
    building_name: str | None
    incoming_main: bool
    start_reading: float | None
    end_reading: float | None
    kwh: list[float]
    cost: list[float]
    total_kwh: float
    total_cost: float
    estimated: bool
    reset: bool
    implausible: bool


class EnergyReport(Reply):
    """The report's totals, 同比 and 环比, chart buckets and rows (the figures of 能耗统计)."""

    project_name: str
    group: Group
    view: str
    start: str
    end: str
    partial: bool
    priced: bool
    periods: list[str]
    total_kwh: float
    total_cost: float
    total: PeriodSums
    yoy: Comparison
    mom: Comparison
    points: list[ChartPoint]
    rows: list[EnergyReportRow]
