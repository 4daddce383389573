"""A breaker measures the whole room: a kettle is a kettle whatever else runs beside it.

tracebase measured each appliance at its own plug, so the level before its steps is its own standby.
The shipped model once read that level: a 1.8 kW kettle switched on while a 150 W desktop ran was
named 其他 and allowed. These events are made by hand, on top of a room's other loads.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from powerportal.load_ident import service
from powerportal.load_ident.events import parse_event

ROOM_LOADS_W = (0.0, 40.0, 150.0, 300.0, 450.0)


def _on_room(load: list[float], room_w: float, seed: int = 3) -> str:
    """A switch-on of ``load`` (120 s after the step) over a room drawing ``room_w``, wandering a little."""
    rng = np.random.default_rng(seed)
    room = (
        room_w + np.cumsum(rng.normal(0.0, 1.5, 130)) + rng.normal(0.0, 2.0, 130) if room_w else np.zeros(130)
    )
    series = np.concatenate([np.zeros(10), np.asarray(load)]) + np.maximum(room, 0.0)
    delta = float(np.median(series[11:20]) - np.median(series[:10]))
    detail = {
        "delta_power": round(delta, 1),
        "power_series": {
            "start_ms": -10000,
            "step_ms": 1000,
            "active_power": [round(float(x), 1) for x in series],
        },
    }
    return json.dumps({"device": "3", "ts": 1, "type": "load", "code": "appliance_on", "detail": detail})


KETTLE = [1800.0 - 0.5 * i for i in range(120)]
HEATER = [1200.0 * (1 + 0.08 * np.exp(-i / 20)) for i in range(120)]
IRON = [1000.0 if (i // 15) % 2 == 0 else 0.0 for i in range(120)]
TV = [95.0 + (i % 5) for i in range(120)]
DESK_FAN = [45.0 + (i % 3) for i in range(120)]


@pytest.mark.parametrize("load", [KETTLE, HEATER, IRON], ids=["kettle", "heater", "iron"])
@pytest.mark.parametrize("room_w", ROOM_LOADS_W)
def test_a_heating_load_is_forbidden_whatever_else_the_room_runs(load: list[float], room_w: float) -> None:
    assert service.classify(parse_event(_on_room(load, room_w))).forbidden


@pytest.mark.parametrize("load", [TV, DESK_FAN], ids=["tv", "fan"])
@pytest.mark.parametrize("room_w", ROOM_LOADS_W)
def test_a_small_load_is_allowed_whatever_else_the_room_runs(load: list[float], room_w: float) -> None:
    assert not service.classify(parse_event(_on_room(load, room_w))).forbidden
