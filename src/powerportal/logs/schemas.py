"""Operation-log wire shapes."""

from __future__ import annotations

from pydantic import Field

from powerportal.core.schemas import PageQuery, Schema


class OperationLogQuery(PageQuery):
    """Filters of the operation-log list."""

    operate_type: int | None = Field(default=None, ge=0, le=10_000)
    start_time: str | None = Field(
        default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$"
    )
    end_time: str | None = Field(
        default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$"
    )


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
