"""Operation-log wire shapes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from powerportal.core.schemas import DisplayTime, PageQuery, Schema, Sysno


class OperationLogQuery(PageQuery):
    """Filters of the operation-log list."""

    operate_type: int | None = Field(default=None, ge=0, le=10_000)
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime


class OperationLogRead(Schema):
    """One row of the operation log."""

    sysno: int
    operate_type: int
    operate_type_name: str
    detail: str
    ip: str | None
    is_success: int
    create_time: str | None


class OperationTypeRead(Schema):
    """One option of the type filter."""

    value: int
    label: str


class OfflineLogQuery(PageQuery):
    """Filters of the offline log; times are local ``YYYY-MM-DD[ HH:mm:ss]`` on ``offline_time``."""

    project_sysno: Sysno | None = None
    gateway_sysno: Sysno | None = None
    kind: Literal["gateway", "device"] | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    keyword: str | None = Field(default=None, max_length=64)


class OfflineLogRead(Schema):
    """One spell offline of a gateway or a device."""

    sysno: int
    kind: Literal["gateway", "device"]
    target_name: str
    project_sysno: int
    project_name: str
    gateway_sysno: int
    gateway_sn: str
    gateway_name: str
    device_sysno: int | None
    device_id: str | None
    reason: str
    reason_name: str
    offline_time: str | None
    online_time: str | None
    recovered: int
    duration_seconds: int
    duration: str


class StatusLogQuery(PageQuery):
    """Filters of the status log; times are local ``YYYY-MM-DD[ HH:mm:ss]`` on ``create_time``."""

    project_sysno: Sysno | None = None
    gateway_sysno: Sysno | None = None
    status_type: str | None = Field(default=None, max_length=32)
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    keyword: str | None = Field(default=None, max_length=64)


class StatusLogRead(Schema):
    """One state change."""

    sysno: int
    project_sysno: int
    project_name: str
    gateway_sysno: int
    gateway_sn: str
    device_sysno: int | None
    target_name: str
    status_type: str
    status_type_name: str
    detail: str
    create_time: str | None


class StatusTypeRead(Schema):
    """One option of the status-type filter."""

    value: str
    label: str
