"""The threshold state machine: minimum duration, hysteresis, recovery."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from powerportal.alarms.rules import RULE_BY_TYPE, RuleState, event_alarm_type, step, worst
from powerportal.telemetry import service

T0 = datetime(2026, 11, 21, 2, 0, tzinfo=UTC)


def run(
    values: list[float], *, direction: str = "above", threshold: float = 40.0, every: float = 5.0
) -> list[str]:
    state = RuleState()
    out = []
    for i, value in enumerate(values):
        change = step(
            state,
            direction=direction,  # type: ignore[arg-type]
            value=value,
            threshold=threshold,
            at=T0 + timedelta(seconds=i * every),
            hysteresis=0.05,
            min_seconds=10,
        )
        out.append(change or "-")
    return out


def test_opens_only_after_the_minimum_duration() -> None:
    assert run([45, 45, 45, 45]) == ["-", "-", "open", "-"]


def test_a_short_spike_opens_nothing() -> None:
    assert run([30, 45, 45, 30, 45, 30]) == ["-"] * 6


def test_hovering_at_the_limit_makes_one_alarm_not_a_storm() -> None:
    # Open, then values dance between 39 and 41: inside the 5 % band (38) nothing closes.
    changes = run([45, 45, 45, 39, 41, 39.5, 40.5, 39, 41])
    assert changes.count("open") == 1 and "close" not in changes


def test_recovery_closes_after_the_minimum_duration_below_the_band() -> None:
    changes = run([45, 45, 45, 37, 37, 37, 37])
    assert changes == ["-", "-", "open", "-", "-", "close", "-"]


def test_recovery_interrupted_starts_again() -> None:
    changes = run([45, 45, 45, 37, 37, 45, 37, 37, 37])
    assert changes == ["-", "-", "open", "-", "-", "-", "-", "-", "close"]


def test_below_rules_and_the_change_time_is_the_start_of_the_run() -> None:
    state = RuleState()
    times = [T0 + timedelta(seconds=5 * i) for i in range(4)]
    results = [
        step(state, direction="below", value=v, threshold=190, at=t, hysteresis=0.03, min_seconds=10)
        for v, t in zip([180, 181, 182, 183], times, strict=True)
    ]
    assert results == [None, None, "open", None]
    assert state.changed_at == times[0] and state.peak == 180


def test_worst_picks_the_phase_that_matters_and_ignores_no_supply() -> None:
    row = service.reading_row(
        device_sysno=1,
        ts=T0,
        values={
            "voltage_a": 230.0,
            "voltage_b": 0.0,
            "voltage_c": 180.0,
            "current_a": 12.0,
            "current_b": 55.0,
        },
        extra={},
    )
    assert worst(RULE_BY_TYPE["over_current"], row) == 55.0
    assert worst(RULE_BY_TYPE["over_voltage"], row) == 230.0
    assert worst(RULE_BY_TYPE["under_voltage"], row) == 180.0
    assert worst(RULE_BY_TYPE["leakage"], row) is None


def test_event_codes_map_to_types() -> None:
    assert event_alarm_type("over_current") == "over_current"
    assert event_alarm_type("arc_fault") == "arc_fault"
    assert event_alarm_type("something_new") == "device_fault"
    assert event_alarm_type(None) == "device_fault"
    assert event_alarm_type("offline") == "device_fault"
