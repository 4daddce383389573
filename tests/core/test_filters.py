"""The time filters every list and the statistics range every statistics screen share."""

from __future__ import annotations

from datetime import timedelta

import pytest

from powerportal.core.envelope import ApiError
from powerportal.core.filters import stat_bounds, time_bounds
from powerportal.core.timeutil import TimeOutOfRange, parse_display
from tests.conftest import Harness
from tests.factories import make_account

OUT_OF_RANGE = "时间超出范围，应在 1970-01-01 至 9998-12-31 之间"


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


@pytest.mark.parametrize(
    "text",
    ["0001-01-01", "0001-01-01 00:00:00", "0001-01-02", "1969-12-31 23:59:59", "9999-01-01", "9999-12-31"],
)
def test_a_time_out_of_range_is_a_bad_time_not_an_overflow(text: str) -> None:
    # year 1 in Shanghai is before the first UTC instant; year 9999's last day has no next day
    with pytest.raises(TimeOutOfRange):
        parse_display(text)
    with pytest.raises(ValueError, match="outside"):
        parse_display(text)
    for start, end in ((text, None), (None, text)):
        with pytest.raises(ApiError) as refused:
            time_bounds(start, end)
        assert refused.value.message == OUT_OF_RANGE
        with pytest.raises(ApiError) as refused:
            stat_bounds(start, end)
        assert refused.value.message == OUT_OF_RANGE


def test_the_first_and_last_times_are_taken_with_room_around_them() -> None:
    first, last = time_bounds("1970-01-01", "9998-12-31")
    assert first is not None and last is not None
    assert (first.year, first.month, first.day, first.hour) == (1969, 12, 31, 16)  # Shanghai is UTC+8
    assert last == parse_display("9998-12-31 23:59:59").replace(microsecond=999_999)
    start, end = stat_bounds(None, "1970-01-01")  # the default 30 days before still fit
    assert end - start == timedelta(days=30) and start.year == 1969
    start, end = stat_bounds("9998-01-01", "9998-12-31", max_days=366)
    assert end.year == 9998


TIME_FILTERED = [
    "/api/CustomerLoadIdentify/GetLoadEventList",
    "/api/CustomerLoadIdentify/ExportLoadEventList",
    "/api/CustomerLoadIdentify/GetLoadStatistics",
    "/api/CustomerElectricity/GetLedgerList",
    "/api/CustomerElectricity/ExportLedgerList",
    "/api/CustomerAlarm/GetAlarmStatistics",
]


async def test_lists_and_statistics_refuse_times_out_of_range_in_chinese(harness: Harness) -> None:
    h = harness
    me = await make_account(h, "13900000051")
    ranges = [
        {"start_time": "0001-01-01"},
        {"start_time": "0001-01-01 00:00:00"},
        {"end_time": "0001-01-01"},
        {"start_time": "0001-01-01", "end_time": "0001-01-02"},
        {"start_time": "9999-01-01", "end_time": "9999-12-31"},
        {"start_time": "9999-12-31 00:00:00"},
    ]
    for path in TIME_FILTERED:
        for body in ranges:
            answer = await h.post(path, body, me.token)  # never a 500
            assert answer["statusCode"] == 400 and answer["message"] == OUT_OF_RANGE, (path, body, answer)
        fine = {"start_time": "2026-01-01", "end_time": "2026-06-30"}
        answered = await h.client.post(path, json=fine, headers={"SYSTOKEN": me.token})
        assert answered.status_code == 200, (path, answered.text[:200])  # a page, or a workbook
