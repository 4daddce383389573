"""The statistics range every statistics screen shares."""

from __future__ import annotations

from datetime import timedelta

import pytest

from powerportal.core.envelope import ApiError
from powerportal.core.filters import stat_bounds
from powerportal.core.timeutil import parse_display


def test_a_bare_end_date_covers_its_day_and_the_start_defaults_to_the_days_before() -> None:
    start, end = stat_bounds(None, "2026-11-20", default_days=30)
    assert end == parse_display("2026-11-21") - timedelta(microseconds=1)
    assert end - start == timedelta(days=30)


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        ("2026-11-20", "2026-11-01", "开始时间不能晚于结束时间"),
        ("2024-01-01", "2026-01-01", "统计时间范围不能超过 366 天"),
        ("2026-13-01", None, "时间格式不正确，应为 YYYY-MM-DD HH:mm:ss"),
    ],
)
def test_backwards_long_or_malformed_ranges_are_refused(start: str, end: str | None, message: str) -> None:
    with pytest.raises(ApiError) as refused:
        stat_bounds(start, end)
    assert refused.value.message == message
