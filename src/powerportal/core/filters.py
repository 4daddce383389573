"""Building blocks of list filters shared by every domain."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_

from powerportal.core.envelope import ApiError
from powerportal.core.timeutil import TIME_RANGE, TimeOutOfRange, parse_display, utcnow

DATE_ONLY = len("YYYY-MM-DD")


def contains_pattern(text: str) -> str:
    """A LIKE pattern matching the text anywhere, its wildcards taken literally (escape with backslash)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def keyword_filter(pattern: Any, *columns: Any) -> Any:
    """Rows where any column contains the text (``pattern``: from ``contains_pattern``, or its parameter)."""
    return or_(*(column.ilike(pattern, escape="\\") for column in columns))


def time_bounds(start: str | None, end: str | None) -> tuple[datetime | None, datetime | None]:
    """Inclusive bounds ``start <= t <= end`` in the customer's time; a bare end date covers that day."""
    if not start and not end:
        return None, None
    try:
        since = parse_display(start) if start else None
        until = parse_display(end) if end else None
    except TimeOutOfRange as exc:
        raise ApiError(f"时间超出范围，应在 {TIME_RANGE} 之间") from exc
    except ValueError as exc:
        raise ApiError("时间格式不正确，应为 YYYY-MM-DD HH:mm:ss") from exc
    if until is not None and end is not None and len(end) == DATE_ONLY:
        until += timedelta(days=1) - timedelta(microseconds=1)
    return since, until


def stat_bounds(
    start: str | None, end: str | None, *, default_days: int = 30, max_days: int = 366
) -> tuple[datetime, datetime]:
    """A statistics range: ``time_bounds``, the end now and the start ``default_days`` before it by default.

    Refused when it runs backwards or spans more than ``max_days``.
    """
    since, until = time_bounds(start, end)
    until = until or utcnow()
    since = since or until - timedelta(days=default_days)
    if since > until:
        raise ApiError("开始时间不能晚于结束时间")
    if until - since > timedelta(days=max_days):
        raise ApiError(f"统计时间范围不能超过 {max_days} 天")
    return since, until


def time_range(column: Any, start: str | None, end: str | None) -> list[Any]:
    """Conditions keeping ``column`` within ``time_bounds(start, end)``."""
    since, until = time_bounds(start, end)
    conditions = []
    if since is not None:
        conditions.append(column >= since)
    if until is not None:
        conditions.append(column <= until)
    return conditions
