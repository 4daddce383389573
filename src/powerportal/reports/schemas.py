"""Report wire shapes: the energy report (报表统计 · 能耗报表) and its export."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator

from powerportal.core.schemas import PageQuery, Reply, Schema, Sysno, list_rules
from powerportal.energy.schemas import DATE, ChartPoint, Comparison, EnergyScope, PeriodSums, View

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


# -- the report centre ----------------------------------------------------------------------------

ReportKindKey = Literal["energy", "alarm", "availability", "control"]
JobStatus = Literal["queued", "running", "done", "failed"]
Frequency = Literal["day", "week", "month"]
EMAIL = r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"


MAX_QUERY_FIELDS = 32


def _few_fields(value: dict[str, Any]) -> dict[str, Any]:
    if len(value) > MAX_QUERY_FIELDS:
        raise ValueError(f"最多 {MAX_QUERY_FIELDS} 个字段")
    return value


class ReportJobCreate(Schema):
    """A report file to generate in the background: the report's kind and its query (with ``format``)."""

    kind: ReportKindKey
    query: dict[str, Any] = Field(json_schema_extra={"maxProperties": MAX_QUERY_FIELDS})

    _query = field_validator("query")(_few_fields)


class JobQuery(PageQuery):
    """The caller's report files, by status and kind."""

    status: JobStatus | None = None
    kind: ReportKindKey | None = None


class ReportJobRead(Reply):
    """A report file in the report centre: its progress, then its file until it expires."""

    sysno: int
    kind: str
    kind_name: str
    format: str
    title: str
    status: str
    status_name: str
    progress: int
    file_name: str | None
    size: int | None
    detail: str | None
    subscription_sysno: int | None
    period: str | None
    create_time: str | None
    end_time: str | None
    expire_time: str | None


class JobId(Schema):
    """A report file to download."""

    sysno: Sysno


class JobIds(Schema):
    """Report files to delete."""

    sysnos: list[Sysno] = Field(min_length=1, max_length=100)


class SubscriptionSave(Schema):
    """A scheduled report: new without ``sysno``, else replaces that one.

    ``query`` is the report's query without its period (``view``, ``date`` and ``end_date`` are set
    for each period: the day before, the week Monday to Sunday, the month before, in the project's
    time zone); ``format`` is the file's.
    """

    sysno: Sysno | None = None
    name: str = Field(title="订阅名称", min_length=1, max_length=64)
    kind: ReportKindKey
    frequency: Frequency
    query: dict[str, Any] = Field(json_schema_extra={"maxProperties": MAX_QUERY_FIELDS})
    emails: list[str] = Field(
        default_factory=list,
        max_length=10,
        json_schema_extra=list_rules({"pattern": EMAIL, "maxLength": 254}),
    )
    enabled: bool = True

    _query = field_validator("query")(_few_fields)

    @field_validator("emails")
    @classmethod
    def _emails(cls, value: list[str]) -> list[str]:
        for address in value:
            if len(address) > 254 or not re.fullmatch(EMAIL, address):
                raise ValueError(f"中的 {address[:40]} 格式不正确")
        return list(dict.fromkeys(a.lower() for a in value))


class SubscriptionQuery(PageQuery):
    """The caller's scheduled reports."""

    kind: ReportKindKey | None = None


class SubscriptionRead(Reply):
    """A scheduled report and its last delivery."""

    sysno: int
    name: str
    kind: str
    kind_name: str
    frequency: str
    frequency_name: str
    format: str
    project_sysno: int
    project_name: str | None  # null once the caller no longer sees the project: no report is made then
    query: dict[str, Any]
    emails: list[str]
    enabled: bool
    last_period: str | None  # the newest period made (2026-11-25, 2026-W47, 2026-11)
    create_time: str | None
    update_time: str | None


# -- the alarm, availability and control reports --------------------------------------------------


class EventReportQuery(Schema):
    """A report of a project's alarms, offline spells or commands, maybe one building's, over a period.

    The period is the energy report's: ``view`` day, month or year (of ``date``) or range (``date`` to
    ``end_date``, at most 366 days), local dates of the project. ``format``: the export's file, an
    Excel workbook or an A4 PDF.
    """

    project_sysno: Sysno
    building_sysno: Sysno | None = None
    view: View = "day"
    date: str = Field(pattern=DATE, max_length=10)
    end_date: str | None = Field(default=None, pattern=DATE, max_length=10)
    format: Format = "xlsx"


class AlarmReportQuery(EventReportQuery):
    """The alarms that began in the period: counts, durations, processing, the longest still open."""


class AvailabilityReportQuery(EventReportQuery):
    """Each gateway's and device's offline spells and online rate over the period."""


class ControlReportQuery(EventReportQuery):
    """The commands sent in the period: by kind and outcome, per gateway, and the timed tasks' runs."""


class ReportHeader(Reply):
    """What a report covers: the project, the building (null: all) and the local period (end exclusive)."""

    project_name: str
    building_name: str | None
    view: str
    start: str
    end: str
    partial: bool


class AlarmLevelCount(Reply):
    """Alarms of one level (1 提示, 2 重要, 3 紧急)."""

    level: int
    label: str
    count: int
    active: int


class AlarmTypeCount(Reply):
    """Alarms of one type, how many are still active, and how long they lasted (open ones until now)."""

    alarm_type: str
    label: str
    count: int
    active: int
    duration_seconds: int
    avg_duration_seconds: int | None


class AlarmBuildingCount(Reply):
    """Alarms of the gateways of one building (``building_sysno`` null: gateways in no building)."""

    building_sysno: int | None
    name: str
    count: int
    active: int
    unprocessed: int


class AlarmPoint(Reply):
    """Alarms that began within one bucket (hour, day or month), by level 提示, 重要, 紧急."""

    label: str
    start: str | None
    count: int
    levels: list[int]


class AlarmReportRow(Reply):
    """One device's (or, for offline alarms, one gateway's) alarms of the period."""

    key: str
    gateway_sysno: int
    device_sysno: int | None
    name: str
    device_id: str
    gateway_sn: str
    gateway_name: str
    building_name: str | None
    count: int
    levels: list[int]
    active: int
    unprocessed: int
    duration_seconds: int
    longest_seconds: int
    avg_process_seconds: int | None


class OpenAlarm(Reply):
    """An alarm of the period still active, with how long it has been open."""

    sysno: int
    target_name: str
    device_id: str
    gateway_sn: str
    alarm_type: str
    alarm_type_name: str
    level: int
    level_name: str
    detail: str
    start_time: str | None
    duration_seconds: int
    process_state: int


class AlarmReport(ReportHeader):
    """告警报表: the period's alarms counted every way the screen and the export show them."""

    total: int
    active: int
    recovered: int
    unprocessed: int
    processed: int
    duration_seconds: int
    avg_duration_seconds: int | None
    avg_process_seconds: int | None
    max_process_seconds: int | None
    by_level: list[AlarmLevelCount]
    by_type: list[AlarmTypeCount]
    by_building: list[AlarmBuildingCount]
    points: list[AlarmPoint]
    rows: list[AlarmReportRow]
    longest_open: list[OpenAlarm]


class AvailabilityRow(Reply):
    """A gateway or a device over the period: its offline spells and its online rate (in %)."""

    key: str
    kind: Literal["gateway", "device"]
    gateway_sysno: int
    device_sysno: int | None
    name: str
    device_id: str | None
    gateway_sn: str
    gateway_name: str
    building_name: str | None
    online: int
    observed_seconds: int
    offline_count: int
    offline_seconds: int
    longest_seconds: int
    online_rate: float | None
    last_offline_time: str | None


class AvailabilityPoint(Reply):
    """Offline spells that began within one bucket, of gateways and of devices."""

    label: str
    start: str | None
    gateway: int
    device: int


class AvailabilityReport(ReportHeader):
    """在线率报表: online rates and offline spells of every gateway and device of the scope."""

    gateway_count: int
    device_count: int
    gateway_rate: float | None
    device_rate: float | None
    gateway_offline_count: int
    device_offline_count: int
    gateway_offline_seconds: int
    device_offline_seconds: int
    gateways_offline_now: int
    devices_offline_now: int
    points: list[AvailabilityPoint]
    gateways: list[AvailabilityRow]
    devices: list[AvailabilityRow]


class CommandCounts(Reply):
    """Commands by outcome; ``success_rate`` in % of those that ended (null: none ended)."""

    total: int
    succeeded: int
    failed: int
    timeout: int
    offline: int
    pending: int
    success_rate: float | None


class CommandKindCount(CommandCounts):
    """Commands of one action (合闸, 分闸 …) or one source (手动, 定时任务, 分组控制)."""

    key: str
    label: str


class ControlGatewayRow(CommandCounts):
    """One gateway's commands; ``avg_response_ms``: from sending to the gateway's answer."""

    gateway_sysno: int
    gateway_sn: str
    gateway_name: str
    building_name: str | None
    avg_response_ms: int | None


class ControlTaskRow(Reply):
    """One timed task's runs over the period and its commands to the scope's devices."""

    key: str
    task_sysno: int | None
    name: str
    runs: int
    skipped: int
    commands: int
    succeeded: int
    unsuccessful: int
    pending: int
    success_rate: float | None
    last_run: str | None


class ControlPoint(Reply):
    """Commands created within one bucket: succeeded, not succeeded, still waiting."""

    label: str
    start: str | None
    succeeded: int
    unsuccessful: int
    pending: int


class ControlReport(ReportHeader, CommandCounts):
    """控制报表: the period's commands by kind and outcome, per gateway, and the timed tasks' runs."""

    avg_response_ms: int | None
    by_action: list[CommandKindCount]
    by_source: list[CommandKindCount]
    points: list[ControlPoint]
    gateways: list[ControlGatewayRow]
    tasks: list[ControlTaskRow]
