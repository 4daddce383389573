"""Wire shapes of alarms, customer notices and alarm texts (spellings as the spec gives them)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from powerportal.alarms.rules import BY_CODE
from powerportal.core.schemas import (
    MAX_SYSNO,
    MOBILE_PATTERN,
    MOBILE_RULE,
    SYSNO_ITEMS,
    DisplayTime,
    PageQuery,
    Reply,
    Schema,
    Sysno,
    list_rules,
)

MOBILE = re.compile(MOBILE_PATTERN)
# The alarm types a rule names, as its validator checks them.
ALARM_TYPE_ITEMS = list_rules({"enum": sorted(BY_CODE)})
CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


class NoticePoll(Schema):
    """Answer of the 30-second poll: the unread count and, once, the newest notice not yet pushed."""

    unread_count: int
    is_push: int
    notice_type: int | None = None
    notice_detail: str | None = None
    sysno: int | None = None
    source_sysno: int | None = None


class NoticeQuery(PageQuery):
    """The notice-list request; ``total`` is echoed by the client and ignored, null filters mean none."""

    total: int | None = Field(default=None, ge=0, le=MAX_SYSNO)
    custmoer_notice_type: list[int] | None = Field(
        default=None, max_length=20, json_schema_extra=list_rules({"minimum": 0, "maximum": 99})
    )
    is_read: Literal[0, 1] | None = None

    @field_validator("custmoer_notice_type")
    @classmethod
    def _types_in_range(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and any(t < 0 or t > 99 for t in value):
            raise ValueError("消息类型不正确")
        return value


class NoticeRead(Schema):
    """One row of the notice list."""

    sysno: int
    device_id: str | None
    # The device (or gateway) the alarm or offline record is about and its gateway's name, so the
    # list can say which one a bare bus address means; null for reports and deleted sources.
    device_name: str | None = None
    gateway_name: str | None = None
    notice_detail: str
    create_time: str | None
    is_read: int
    notice_type: int
    source_sysno: int | None


class BatchReadNotice(Schema):
    """Mark notices read: ``is_read`` must be 1."""

    notice_sysno: list[int] = Field(min_length=1, max_length=500, json_schema_extra=list_rules(SYSNO_ITEMS))
    is_read: Literal[1] = 1

    @field_validator("notice_sysno")
    @classmethod
    def _ids_in_range(cls, value: list[int]) -> list[int]:
        if any(n < 1 or n > MAX_SYSNO for n in value):
            raise ValueError("不正确")
        return value


class BatchReadResult(Schema):
    """How many notices changed from unread to read."""

    count: int


class AlarmTypeRead(Schema):
    """One option of the alarm-type filter."""

    value: str
    label: str
    level: int
    level_name: str


class AlarmQuery(PageQuery):
    """Filters of the alarm list; times are local ``YYYY-MM-DD[ HH:mm:ss]`` on ``start_time``."""

    project_sysno: Sysno | None = None
    device_sysno: Sysno | None = None
    alarm_type: str | None = Field(default=None, max_length=32)
    # 0 still active, 1 recovered.
    state: Literal[0, 1] | None = None
    # 0 not yet processed, 1 processed.
    process_state: Literal[0, 1] | None = None
    level: Literal[1, 2, 3] | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    keyword: str | None = Field(default=None, max_length=64)


class AlarmRead(Schema):
    """One alarm."""

    sysno: int
    project_sysno: int
    project_name: str
    gateway_sysno: int
    gateway_sn: str
    gateway_name: str
    device_sysno: int | None
    device_id: str
    target_name: str
    alarm_type: str
    alarm_type_name: str
    level: int
    level_name: str
    source: str
    value: float | None
    threshold: float | None
    unit: str
    detail: str
    start_time: str | None
    end_time: str | None
    state: int
    state_name: str
    duration_seconds: int
    process_state: int
    process_remark: str | None
    process_time: str | None


class ProcessAlarm(Schema):
    """Process one or many alarms with a remark."""

    sysno: list[int] = Field(
        title="告警编号", min_length=1, max_length=200, json_schema_extra=list_rules(SYSNO_ITEMS)
    )
    remark: str = Field(title="处理备注", default="", max_length=200)

    @field_validator("sysno")
    @classmethod
    def _ids_in_range(cls, value: list[int]) -> list[int]:
        if any(n < 1 or n > MAX_SYSNO for n in value):
            raise ValueError("不正确")
        return value


class ProcessResult(Schema):
    """How many alarms changed to processed."""

    count: int


class AlarmStatQuery(Schema):
    """Scope of the statistics: a project (or all) and a time range on ``start_time`` (default 30 days)."""

    project_sysno: Sysno | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime


class CountByType(Schema):
    """Alarms of one type."""

    alarm_type: str
    label: str
    count: int


class CountByDay(Schema):
    """Alarms started on one local day."""

    day: str
    count: int


class CountByProject(Schema):
    """Alarms of one project."""

    project_sysno: int
    project_name: str
    count: int


class CountByDevice(Schema):
    """Alarms of one device (or gateway)."""

    device_sysno: int | None
    device_id: str
    target_name: str
    project_name: str
    count: int


class AlarmStatistics(Schema):
    """Counts for the statistics screen."""

    start_time: str
    end_time: str
    total: int
    active: int
    unprocessed: int
    by_level: list[CountByType]
    by_type: list[CountByType]
    by_day: list[CountByDay]
    by_project: list[CountByProject]
    top_devices: list[CountByDevice]


class NotificationWrite(Schema):
    """Who gets a text for which alarm types in which projects (empty lists: all), and quiet hours."""

    name: str = Field(title="规则名称", min_length=1, max_length=64)
    mobiles: list[str] = Field(
        min_length=1, max_length=10, json_schema_extra=list_rules({"pattern": MOBILE_PATTERN}, unique=True)
    )
    alarm_types: list[str] = Field(default_factory=list, max_length=20, json_schema_extra=ALARM_TYPE_ITEMS)
    project_sysnos: list[int] = Field(
        default_factory=list, max_length=200, json_schema_extra=list_rules(SYSNO_ITEMS)
    )
    quiet_start: str | None = Field(default=None, pattern=CLOCK)
    quiet_end: str | None = Field(default=None, pattern=CLOCK)
    enabled: int = Field(default=1, ge=0, le=1)

    @field_validator("mobiles")
    @classmethod
    def _mobiles(cls, value: list[str]) -> list[str]:
        if any(not MOBILE.match(m) for m in value):
            raise ValueError(MOBILE_RULE)
        if len(set(value)) != len(value):
            raise ValueError("有重复")
        return value

    @field_validator("alarm_types")
    @classmethod
    def _types(cls, value: list[str]) -> list[str]:
        if any(t not in BY_CODE for t in value):
            raise ValueError("不正确")
        return sorted(set(value))

    @field_validator("project_sysnos")
    @classmethod
    def _projects(cls, value: list[int]) -> list[int]:
        if any(p < 1 or p > MAX_SYSNO for p in value):
            raise ValueError("不正确")
        return sorted(set(value))


class NotificationUpdate(NotificationWrite):
    """Replace a rule."""

    sysno: Sysno


class NotificationRead(Reply):
    """One notification rule."""

    sysno: int
    name: str
    mobiles: list[str]
    alarm_types: list[str] = Field(json_schema_extra=ALARM_TYPE_ITEMS)  # the codes the rule was saved with
    alarm_type_names: list[str]
    # The projects the customer still sees; a project it lost (a share ended, a transfer) is only counted:
    # saving the rule drops it, and a rule of lost projects alone matches no alarm until then.
    project_sysnos: list[int]
    project_names: list[str]
    lost_projects: int
    quiet_start: str | None
    quiet_end: str | None
    enabled: int
    create_time: str | None


class TemplateVariable(Schema):
    """A placeholder a template may use."""

    key: str
    label: str
    example: str


class TemplateRead(Reply):
    """One message template, as the customer has it."""

    template_key: str
    name: str
    content: str
    default_content: str
    customized: int
    variables: list[TemplateVariable]


class TemplateUpdate(Schema):
    """Change a template's wording (an empty content restores the built-in one)."""

    template_key: str = Field(max_length=32)
    content: str = Field(default="", max_length=300)


class TemplatePreviewQuery(Schema):
    """Render a template (the stored one, or ``content`` when given) with example values."""

    template_key: str = Field(max_length=32)
    content: str | None = Field(default=None, max_length=300)


class TemplatePreview(Schema):
    """A rendered example and how many messages it takes."""

    text: str
    length: int
    segments: int
