"""Building blocks of list filters shared by every domain."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from powerportal.core.envelope import ApiError
from powerportal.core.timeutil import parse_display


def contains_pattern(text: str) -> str:
    """A LIKE pattern matching the text anywhere, its wildcards taken literally (escape with backslash)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def time_range(column: Any, start: str | None, end: str | None) -> list[Any]:
    """Conditions for ``start <= column <= end`` in the customer's time; a bare end date covers that day."""
    try:
        conditions = []
        if start:
            conditions.append(column >= parse_display(start))
        if end:
            end_at = parse_display(end)
            conditions.append(column < end_at + timedelta(days=1) if len(end) == 10 else column <= end_at)
        return conditions
    except ValueError as exc:
        raise ApiError("时间格式不正确，应为 YYYY-MM-DD HH:mm:ss") from exc
