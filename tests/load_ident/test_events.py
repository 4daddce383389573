"""The load event's wire shape: anything else is refused with a Chinese message, never an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from powerportal.load_ident.events import LoadEventError, parse_event

ISSUE_EXAMPLE = {
    "device": "3",
    "ts": 1763700000000,
    "type": "load",
    "code": "appliance_on",
    "detail": {
        "delta_power": 1850.0,
        "power_series": {"start_ms": -10000, "step_ms": 1000, "active_power": [12.0, 12.1, None, 1862.0]},
        "features": {"power_factor": 0.99, "reactive_power": 12.0, "thd_current": 2.1},
        "waveform": {
            "sample_rate_hz": 6400,
            "mains_hz": 50,
            "current_a": [0.1, 0.4] * 64,
            "voltage_v": [3.1, 45.0] * 64,
        },
    },
}


def with_detail(**changes: Any) -> str:
    event = json.loads(json.dumps(ISSUE_EXAMPLE))
    for key, value in changes.items():
        if value is None:
            event["detail"].pop(key)
        else:
            event["detail"][key] = value
    return json.dumps(event)


def refusal(raw: str) -> str:
    with pytest.raises(LoadEventError) as caught:
        parse_event(raw)
    message = str(caught.value)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message), message
    return message


def test_the_issue_example_is_accepted() -> None:
    event = parse_event(json.dumps(ISSUE_EXAMPLE))
    assert event.detail.delta_power == 1850.0
    assert event.detail.power_series is not None
    assert event.detail.power_series.active_power[2] is None


def test_delta_power_alone_is_enough() -> None:
    event = parse_event(with_detail(power_series=None, features=None, waveform=None))
    assert event.detail.power_series is None and event.detail.waveform is None


def test_missing_delta_power_is_refused() -> None:
    assert "detail.delta_power" in refusal(with_detail(delta_power=None))


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (with_detail(delta_power="1850"), "delta_power"),
        (with_detail(delta_power=True), "delta_power"),
        (with_detail(delta_power=1e9), "delta_power"),
        (
            with_detail(power_series={"start_ms": 0, "step_ms": 1000, "active_power": [1.0] * 601}),
            "active_power",
        ),
        (with_detail(power_series={"start_ms": 0, "step_ms": 0, "active_power": [1.0]}), "step_ms"),
        (with_detail(power_series={"start_ms": 0, "step_ms": 1000, "active_power": ["a"]}), "active_power"),
        (with_detail(features={"pf": 0.99}), "pf"),
        (with_detail(features={"power_factor": 1.5}), "power_factor"),
        (with_detail(extra=1), "extra"),
        (
            with_detail(
                waveform={
                    "sample_rate_hz": 6400,
                    "mains_hz": 50,
                    "current_a": [0.0] * 8193,
                    "voltage_v": [0.0] * 8193,
                }
            ),
            "current_a",
        ),
        (
            with_detail(
                waveform={
                    "sample_rate_hz": 6400,
                    "mains_hz": 50,
                    "current_a": [0.0] * 200,
                    "voltage_v": [0.0],
                }
            ),
            "voltage_v",
        ),
    ],
)
def test_bad_shapes_are_refused_naming_the_field(raw: str, field: str) -> None:
    assert field in refusal(raw)


def test_waveforms_must_pair_and_cover_a_cycle() -> None:
    unequal = {"sample_rate_hz": 6400, "mains_hz": 50, "current_a": [0.0] * 200, "voltage_v": [0.0] * 199}
    assert "相同" in refusal(with_detail(waveform=unequal))
    short = {"sample_rate_hz": 6400, "mains_hz": 50, "current_a": [0.0] * 64, "voltage_v": [0.0] * 64}
    assert "周期" in refusal(with_detail(waveform=short))


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(number: str) -> None:
    raw = with_detail(delta_power=0.0).replace('"delta_power": 0.0', f'"delta_power": {number}')
    assert "有限" in refusal(raw)
    raw = with_detail(power_series={"start_ms": 0, "step_ms": 1000, "active_power": [0.0]})
    assert "有限" in refusal(raw.replace('"active_power": [0.0]', f'"active_power": [{number}]'))


@pytest.mark.parametrize(
    "raw", ["", "garbage", "[]", "null", '{"type": "alarm"}', "{" * 10000, '{"device": "3"', "\udcff"]
)
def test_garbage_is_refused(raw: str) -> None:
    refusal(raw)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.text(max_size=8),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=8), c),
    )
)
def test_any_json_is_accepted_or_refused_but_never_raises_otherwise(value: object) -> None:
    try:
        parse_event(
            json.dumps({"device": "3", "ts": 1, "type": "load", "code": "appliance_on", "detail": value})
        )
    except LoadEventError:
        pass
