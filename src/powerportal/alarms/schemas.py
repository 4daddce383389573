"""Wire shapes of alarms and customer notices (spellings as the spec gives them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from powerportal.core.schemas import MAX_SYSNO, PageQuery, Schema, Sysno

DisplayTime = Field(default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$")


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
    custmoer_notice_type: list[int] | None = Field(default=None, max_length=20)
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
    notice_detail: str
    create_time: str | None
    is_read: int
    notice_type: int
    source_sysno: int | None


class BatchReadNotice(Schema):
    """Mark notices read: ``is_read`` must be 1."""

    notice_sysno: list[int] = Field(min_length=1, max_length=500)
    is_read: Literal[1] = 1

    @field_validator("notice_sysno")
    @classmethod
    def _ids_in_range(cls, value: list[int]) -> list[int]:
        if any(n < 1 or n > MAX_SYSNO for n in value):
            raise ValueError("消息编号不正确")
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

    sysno: list[int] = Field(min_length=1, max_length=200)
    remark: str = Field(default="", max_length=200)

    @field_validator("sysno")
    @classmethod
    def _ids_in_range(cls, value: list[int]) -> list[int]:
        if any(n < 1 or n > MAX_SYSNO for n in value):
            raise ValueError("告警编号不正确")
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
