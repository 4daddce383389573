"""The list's remembered next run of a weekly task is the one the schedule works out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from powerportal.control.timed import Schedule, _next_run

TIMES = st.lists(
    st.tuples(st.integers(0, 23), st.integers(0, 59)).map(lambda t: f"{t[0]:02d}:{t[1]:02d}"),
    min_size=1,
    max_size=4,
    unique=True,
)
INSTANTS = st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)
)


@given(
    weekdays=st.integers(0, 127),
    times=TIMES,
    zone=st.sampled_from(["Asia/Shanghai", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC"]),
    instant=INSTANTS,
    seconds=st.lists(st.integers(0, 59), min_size=1, max_size=4),
)
def test_remembered_next_runs_agree_with_the_schedule(
    weekdays: int, times: list[str], zone: str, instant: datetime, seconds: list[int]
) -> None:
    ordered = tuple(sorted(times))
    schedule = Schedule("weekly", weekdays, ordered, None, zone)
    # Several instants within one minute (and on its edges), as the calls of one minute ask.
    start = instant.replace(second=0, microsecond=0)
    for at in [
        start,
        start + timedelta(seconds=59, microseconds=999_999),
        *(start + timedelta(seconds=s) for s in seconds),
    ]:
        assert _next_run("weekly", weekdays, ordered, None, zone, at) == schedule.next_after(at)


def test_one_off_tasks_are_worked_out() -> None:
    at = datetime(2030, 5, 1, 8, 30, tzinfo=UTC)
    assert _next_run("once", 0, (), at, "Asia/Shanghai", at - timedelta(seconds=1)) == at
    assert _next_run("once", 0, (), at, "Asia/Shanghai", at) is None
