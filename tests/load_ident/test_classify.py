"""Classification of real events from devices the shipped model never saw, and the classify command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from powerportal.load_ident import circuits, service
from powerportal.load_ident.events import Waveform, parse_event
from powerportal.load_ident.features import FEATURE_NAMES, event_vector, waveform_physics
from powerportal.load_ident.model import CATEGORIES, DEFAULT_POLICY, HEATING_AND_COOKING, LoadModel, Policy
from powerportal.load_ident.train import LABEL_CATEGORY

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "load_ident"
HELD_OUT = (FIXTURES / "tracebase-held-out.jsonl").read_text().splitlines()


def test_held_out_kettles_are_forbidden_and_laptops_allowed() -> None:
    answers = [service.classify(parse_event(line)) for line in HELD_OUT]
    assert [a.forbidden for a in answers] == [True, True, True, False, False, False]
    assert [a.appliance for a in answers[:3]] == ["电水壶"] * 3
    assert all(a.appliance in CATEGORIES and 0.0 <= a.confidence <= 1.0 for a in answers)


def test_a_load_over_the_power_limit_is_forbidden_whatever_it_is() -> None:
    event = json.loads(HELD_OUT[3])
    event["detail"] = {"delta_power": 2600.0}
    assert service.classify(parse_event(json.dumps(event))).forbidden


def test_the_committed_model_loads_without_the_data_set(tmp_path: Path) -> None:
    script = (
        "from powerportal.load_ident.model import LoadModel; "
        "m = LoadModel.load(); print(sorted(m.thresholds), len(m.classes))"
    )
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split("]")[0] == "['delta', 'delta_wave', 'head', 'head_wave', 'long', 'long_wave'"
    model = LoadModel.load()
    assert set(model.classes) <= set(CATEGORIES)
    assert model.probabilities(np.zeros((1, len(FEATURE_NAMES)))).shape == (1, len(CATEGORIES))


def test_the_labels_map_onto_the_vocabulary() -> None:
    assert set(LABEL_CATEGORY.values()) <= set(CATEGORIES)
    assert HEATING_AND_COOKING < set(CATEGORIES)
    forbidden_in_readme = {"WaterKettle", "WaterBoiler", "Toaster", "Iron", "Cookingstove", "Coffeemaker"}
    forbidden_in_readme |= {"BeanToCupCoffeemaker", "MicrowaveOven"}
    assert {
        label for label, c in LABEL_CATEGORY.items() if c in HEATING_AND_COOKING and label[0].isupper()
    } == (forbidden_in_readme)


def test_the_command_answers_every_line_in_order(tmp_path: Path) -> None:
    lines = [
        HELD_OUT[0],
        "not json",
        HELD_OUT[4],
        '{"device": "3", "ts": 1, "type": "load", "code": "appliance_on"}',
    ]
    source = tmp_path / "events.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "powerportal", "load-ident", "classify", str(source)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 4
    assert answers[0] == {"appliance": "电水壶", "forbidden": True, "confidence": answers[0]["confidence"]}
    assert answers[1] == {"line": 2, "error": "负荷事件不是合法的 JSON"}
    assert answers[2]["forbidden"] is False
    assert answers[3]["line"] == 4 and "detail" in answers[3]["error"]


def _cycles(current: np.ndarray, fs: float = 6400.0) -> Waveform:
    t = np.arange(current.size) / fs
    voltage = 311.0 * np.sin(2 * np.pi * 50 * t)
    return Waveform(sample_rate_hz=fs, mains_hz=50.0, current_a=current.tolist(), voltage_v=voltage.tolist())


def test_waveform_physics_tells_a_heater_from_a_rectifier() -> None:
    t = np.arange(512) / 6400.0
    heater = waveform_physics(_cycles(8.0 * np.sin(2 * np.pi * 50 * t)))
    assert heater.power_factor > 0.99 and heater.thd_current < 1.0
    assert abs(heater.active_power_w - 311.0 * 8.0 / 2) < 5.0
    lagging = waveform_physics(_cycles(8.0 * np.sin(2 * np.pi * 50 * t - np.pi / 3)))
    assert abs(lagging.displacement_pf - 0.5) < 0.01 and lagging.reactive_power_var > 1000
    # A capacitor-input rectifier draws narrow pulses at the voltage peaks.
    pulses = np.where(np.abs(np.sin(2 * np.pi * 50 * t)) > 0.95, 5.0, 0.0) * np.sign(
        np.sin(2 * np.pi * 50 * t)
    )
    rectifier = waveform_physics(_cycles(pulses))
    assert rectifier.thd_current > 80 and rectifier.crest_factor > 2.0
    assert rectifier.displacement_pf > 0.95 and rectifier.distortion_pf < 0.8


def test_a_waveform_fills_in_the_chip_features() -> None:
    event = json.loads(HELD_OUT[0])
    t = np.arange(512) / 6400.0
    current = 9.0 * np.sin(2 * np.pi * 50 * t)
    event["detail"]["waveform"] = {
        "sample_rate_hz": 6400,
        "mains_hz": 50,
        "current_a": current.tolist(),
        "voltage_v": (311.0 * np.sin(2 * np.pi * 50 * t)).tolist(),
    }
    row = event_vector(parse_event(json.dumps(event)))
    assert row[FEATURE_NAMES.index("power_factor")] > 0.99


def test_a_batch_is_judged_as_each_of_its_events_alone() -> None:
    """The ingest judges a message's load events at once; each answer is the one it gets alone."""
    mixed = [json.loads(line) for line in HELD_OUT]
    t = np.arange(512) / 6400.0
    mixed[1]["detail"]["waveform"] = {
        "sample_rate_hz": 6400,
        "mains_hz": 50,
        "current_a": (9.0 * np.sin(2 * np.pi * 50 * t)).tolist(),
        "voltage_v": (311.0 * np.sin(2 * np.pi * 50 * t)).tolist(),
    }
    mixed[2]["code"] = "appliance_off"
    mixed[3]["detail"].pop("power_series", None)
    events = [parse_event(json.dumps(event)) for event in mixed]
    policies = [DEFAULT_POLICY, Policy(forbidden=frozenset({"电水壶"}), power_limit_w=500.0)] * 3
    together = service.classify_all(list(zip(events, policies, strict=True)))
    alone = [service.classify_all([(e, p)])[0] for e, p in zip(events, policies, strict=True)]
    assert together == alone
    assert together[2][1] == abs(events[2].detail.delta_power)  # a switch-off weighs what it took away


@pytest.mark.parametrize("mains", [circuits.Mains(220.0, 50.0), circuits.Mains(120.0, 60.0)])
def test_every_circuit_model_gives_a_valid_waveform_with_its_physics(mains: circuits.Mains) -> None:
    rng = np.random.default_rng(5)
    measured = {}
    for kind in circuits.KINDS:
        current, voltage = circuits.synthesise(kind, mains, rng)
        waveform = Waveform(
            sample_rate_hz=mains.sample_rate_hz,
            mains_hz=mains.hertz,
            current_a=current.tolist(),
            voltage_v=voltage.tolist(),
        )
        measured[kind] = waveform_physics(waveform)
    assert measured["resistive_heater"].power_factor > 0.98
    assert measured["rectifier"].thd_current > 60 and measured["rectifier"].power_factor < 0.75
    assert measured["compressor"].displacement_pf < 0.9
    assert measured["hair_dryer"].active_power_w > 500


finite = st.floats(min_value=-5000, max_value=5000, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    delta=finite,
    series=st.none() | st.lists(st.none() | finite, min_size=1, max_size=140),
    start=st.integers(-20_000, 5_000),
    step=st.sampled_from([100, 500, 1000, 2000]),
    pf=st.none() | st.floats(-1, 1),
    samples=st.none() | st.lists(st.floats(-50, 50), min_size=200, max_size=400),
    code=st.sampled_from(["appliance_on", "appliance_off"]),
)
def test_any_valid_event_classifies(
    delta: float,
    series: list[float | None] | None,
    start: int,
    step: int,
    pf: float | None,
    samples: list[float] | None,
    code: str,
) -> None:
    detail: dict[str, object] = {"delta_power": delta}
    if series is not None:
        detail["power_series"] = {"start_ms": start, "step_ms": step, "active_power": series}
    if pf is not None:
        detail["features"] = {"power_factor": pf}
    if samples is not None:
        detail["waveform"] = {
            "sample_rate_hz": 6400,
            "mains_hz": 50,
            "current_a": samples,
            "voltage_v": samples,
        }
    event = {"device": "3", "ts": 1, "type": "load", "code": code, "detail": detail}
    answer = service.classify(parse_event(json.dumps(event)))
    assert answer.appliance in CATEGORIES and 0.0 <= answer.confidence <= 1.0
