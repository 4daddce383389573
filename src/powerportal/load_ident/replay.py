"""Real appliance switch-ons for the simulator: a small tracebase sample, replayed as ``load`` events."""

from __future__ import annotations

import functools
import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from powerportal.load_ident.circuits import Mains, synthesise

SAMPLE = Path(__file__).resolve().parent / "samples" / "tracebase-sample.jsonl"
# The circuit each category's waveform is drawn from (where the brand has loadWaveform).
CIRCUIT_OF = {
    "电水壶": "resistive_heater",
    "电热器/取暖器": "resistive_heater",
    "电熨斗": "resistive_heater",
    "微波炉": "magnetron",
    "电磁炉": "induction_cooker",
    "笔记本电脑": "rectifier",
    "显示器": "rectifier",
    "电视": "rectifier",
    "照明": "rectifier",
    "冰箱": "compressor",
}
# A breaker reports the switch-on once it has the 2 minutes after the step.
REPORT_AFTER = timedelta(seconds=120)


@functools.cache
def sample() -> dict[str, list[dict[str, Any]]]:
    """The sample's event details by category."""
    found: dict[str, list[dict[str, Any]]] = {}
    for line in SAMPLE.read_text().splitlines():
        item = json.loads(line)
        found.setdefault(item["category"], []).append(item["detail"])
    return found


def categories() -> list[str]:
    """The categories the sample holds."""
    return list(sample())


def switch_on(
    category: str, device_id: str, now: datetime, rng: random.Random, *, waveform: bool = False
) -> tuple[dict[str, Any], float]:
    """A real switch-on of the category as the breaker reports it now, and the power it added (W)."""
    detail = json.loads(json.dumps(rng.choice(sample()[category])))
    power = max(float(detail["delta_power"]), 1.0)
    if waveform:
        detail["waveform"] = synthetic_waveform(category, power, rng)
    step = now - REPORT_AFTER
    return {
        "device": device_id,
        "ts": int(step.timestamp() * 1000),
        "type": "load",
        "code": "appliance_on",
        "detail": detail,
    }, power


def switch_off(device_id: str, power: float, now: datetime) -> dict[str, Any]:
    """The appliance switching off again: a step down by the power it added."""
    return {
        "device": device_id,
        "ts": int(now.timestamp() * 1000),
        "type": "load",
        "code": "appliance_off",
        "detail": {"delta_power": round(-power, 1)},
    }


def synthetic_waveform(category: str, power: float, rng: random.Random) -> dict[str, Any]:
    """Four cycles of 50 Hz current and voltage from the category's circuit model, drawing ``power``."""
    mains = Mains(volts=220.0, hertz=50.0)
    current, voltage = synthesise(
        CIRCUIT_OF.get(category, "resistive_heater"), mains, np.random.default_rng(rng.randrange(2**32))
    )
    drawn = float(np.mean(current * voltage))
    current = current * (power / drawn if drawn > 1e-6 else 1.0)
    return {
        "sample_rate_hz": mains.sample_rate_hz,
        "mains_hz": mains.hertz,
        "current_a": [round(float(v), 3) for v in np.clip(current, -999, 999)],
        "voltage_v": [round(float(v), 1) for v in np.clip(voltage, -999, 999)],
    }
