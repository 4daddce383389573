"""The two loads a power-band-and-power-factor meter gets wrong, made by hand (no draw the model learnt).

tracebase has neither an induction cooker nor an air conditioner; the model learns them from
``appliances.py``'s synthetic kinds. These events are written here, not drawn from those programs.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from powerportal.load_ident import appliances, service
from powerportal.load_ident.events import parse_event


def _event(delta: float, after: list[float] | None, before: float = 5.0, **features: float) -> str:
    detail: dict[str, Any] = {"delta_power": delta}
    if after is not None:
        detail["power_series"] = {"start_ms": -10000, "step_ms": 1000, "active_power": [before] * 10 + after}
    if features:
        detail["features"] = features
    return json.dumps({"device": "3", "ts": 1, "type": "load", "code": "appliance_on", "detail": detail})


RAMP = [300.0 + 8 * i if i < 100 else 1100.0 for i in range(120)]
SOFT_START = [round(1200 - 950 * math.exp(-i / 60), 1) for i in range(120)]
HOB = [1600.0 + (i % 7) * 20 for i in range(120)]


@pytest.mark.parametrize(
    "line",
    [
        _event(1600.0, None, power_factor=0.7, reactive_power=400.0, thd_current=45.0),
        _event(1600.0, HOB, power_factor=0.95, reactive_power=-300.0, thd_current=15.0),
        _event(1600.0, HOB),
    ],
    ids=["pf-0.7-alone", "pf-0.95-leading", "1-hz-alone"],
)
def test_an_induction_cooker_is_forbidden_whatever_its_power_factor(line: str) -> None:
    assert service.classify(parse_event(line)).forbidden


@pytest.mark.parametrize(
    "line",
    [
        _event(340.0, RAMP, power_factor=0.99, reactive_power=60.0, thd_current=8.0),
        _event(300.0, SOFT_START, before=2.0),
        _event(
            1100.0, [1540.0] + [1100.0 + i for i in range(119)], 2.0, power_factor=0.8, reactive_power=800.0
        ),
    ],
    ids=["inverter-pf-0.99", "inverter-1-hz-alone", "fixed-speed"],
)
def test_an_air_conditioner_starting_up_is_allowed(line: str) -> None:
    answer = service.classify(parse_event(line))
    assert not answer.forbidden
    assert answer.appliance == "空调"


def test_the_synthetic_kinds_are_devices_of_their_own_and_other_seeds_draw_other_devices() -> None:
    power, labels, devices = appliances.switch_ons(1)
    _, _, others = appliances.switch_ons(2)
    assert power.shape == (len(labels), 130) and bool((power >= 0).all())
    assert set(labels) == set(appliances.KINDS) and bool(appliances.is_synthetic(labels).all())
    assert len(set(devices)) == len(appliances.KINDS) * appliances.DEVICES_PER_KIND
    assert not set(devices) & set(others)
