"""The counting rules on their own: each rule of energy/counting.py with a stream that breaks it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from powerportal.energy import counting
from powerportal.energy.counting import MeterChange, Point

T0 = datetime(2026, 11, 20, 0, 0, tzinfo=UTC)
KW = counting.max_kw(63, 1)  # 23.6 kW


def stream(*values: float, step: float = 60, start: datetime = T0) -> list[Point]:
    return [Point(start + timedelta(seconds=step * i), v) for i, v in enumerate(values)]


def total(points: list[Point], changes: list[MeterChange] | None = None) -> tuple[float, int]:
    pairs = list(counting.pairs(points, changes or [], KW))
    flags = 0
    for p in pairs:
        flags |= p.flags
    return sum(p.kwh for p in pairs), flags


def test_in_order_counter_counts_its_increase() -> None:
    kwh, flags = total(stream(100.0, 100.1, 100.25, 100.3))
    assert kwh == pytest.approx(0.3)
    assert flags == 0


def test_a_drop_to_zero_that_recovers_counts_nothing_twice() -> None:
    kwh, flags = total(stream(100.0, 100.1, 0.0, 100.2, 100.3))
    assert kwh == pytest.approx(0.3)
    assert flags == 0
    # several readings of 0 in a row, within SPAN
    kwh, _ = total(stream(100.0, 100.1, 0.0, 0.0, 0.0, 100.2, 100.3))
    assert kwh == pytest.approx(0.3)


def test_a_reset_counts_the_new_rise_from_zero_and_is_flagged() -> None:
    kwh, flags = total(stream(100.0, 100.1, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6))
    assert kwh == pytest.approx(0.1 + 0.6)
    assert flags & counting.RESET


def test_an_implausible_jump_is_not_counted_and_flagged() -> None:
    # a spike that comes back is an outlier
    kwh, flags = total(stream(100.0, 100.1, 9_000_000.0, 100.2))
    assert kwh == pytest.approx(0.2)
    # a step that stays (an unrecorded meter swap) is implausible: not counted, flagged
    kwh, flags = total(stream(100.0, 100.1, 5000.0, 5000.1, 5000.2, 5000.3, 5000.4, 5000.5, 5000.6))
    assert kwh == pytest.approx(0.1 + 0.6)
    assert flags & counting.IMPLAUSIBLE


def test_a_gap_is_spread_over_its_quarters_in_proportion_and_estimated() -> None:
    points = [Point(T0, 10.0), Point(T0 + timedelta(hours=1), 14.0)]
    quarters = counting.quarters(points, [], KW, T0, T0 + timedelta(minutes=45))
    assert [round(q.kwh, 9) for q in quarters.values()] == [1.0, 1.0, 1.0, 1.0]
    assert all(q.estimated == 1 for q in quarters.values())
    # a pair within one quarter boundary is split without being estimated
    points = [Point(T0 + timedelta(minutes=10), 10.0), Point(T0 + timedelta(minutes=20), 11.0)]
    quarters = counting.quarters(points, [], KW, T0, T0 + timedelta(minutes=15))
    assert quarters[T0].kwh == pytest.approx(0.5)
    assert quarters[T0 + timedelta(minutes=15)].kwh == pytest.approx(0.5)
    assert not any(q.estimated for q in quarters.values())


def test_a_meter_change_keeps_totals_continuous() -> None:
    old = stream(500.0, 500.2, 500.4)
    new = stream(3.0, 3.2, 3.5, start=T0 + timedelta(minutes=10))
    change = MeterChange(T0 + timedelta(minutes=5), old_final=500.5, new_initial=2.9)
    kwh, flags = total(old + new, [change])
    assert kwh == pytest.approx(0.5 + 0.6)
    assert flags == 0


def test_changed_equals_recounting_everything() -> None:
    points = stream(*(100 + 0.05 * i for i in range(40)))
    before = list(counting.pairs(points[:30], [], KW))
    after = list(counting.pairs(points, [], KW))
    delta = counting.changed(before, after)
    whole = counting.spread(after)
    part = counting.spread(before)
    for q, quarter in delta.items():
        assert part.get(q, counting.Quarter()).kwh + quarter.kwh == pytest.approx(whole[q].kwh)


@settings(max_examples=300, deadline=None)
@given(
    steps=st.lists(st.floats(min_value=-0.5, max_value=0.5), min_size=2, max_size=30),
    gaps=st.lists(st.integers(min_value=1, max_value=2000), min_size=30, max_size=30),
    split=st.integers(min_value=0, max_value=30),
    change_before=st.booleans(),
    new_initial=st.floats(min_value=0, max_value=200),
)
def test_appended_equals_comparing_all_pairs(
    steps: list[float], gaps: list[int], split: int, change_before: bool, new_initial: float
) -> None:
    """The in-order shortcut gives what comparing the pairs before and after the new readings gives."""
    values = [100.0]
    for step in steps:
        values.append(round(max(values[-1] + step, 0.0), 3))
    ts = [T0]
    for gap in gaps[: len(values) - 1]:
        ts.append(ts[-1] + timedelta(seconds=gap))
    points = [Point(t, v) for t, v in zip(ts, values, strict=True)]
    changes = [MeterChange(T0 - timedelta(minutes=1), 50.0, new_initial)] if change_before else []
    old, new = points[: min(split, len(points) - 1)], points[min(split, len(points) - 1) :]
    fast = counting.appended(old, new, changes, KW, complete=True)
    assert fast is not None  # all the readings: nothing to recount
    slow = counting.changed(counting.pairs(old, changes, KW), counting.pairs(points, changes, KW))
    for q in fast.keys() | slow.keys():
        a, b = fast.get(q, counting.Quarter()), slow.get(q, counting.Quarter())
        assert a.kwh == pytest.approx(b.kwh, abs=1e-9)
        assert (a.estimated, a.reset, a.implausible) == (b.estimated, b.reset, b.implausible)
