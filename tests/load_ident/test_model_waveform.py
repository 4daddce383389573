"""The waveform trees: a waveform in a load event is read, on any mains, and decides what a step cannot."""

from __future__ import annotations

import json

import numpy as np
import pytest

from powerportal.load_ident import circuits, service
from powerportal.load_ident.events import parse_event
from powerportal.load_ident.features import FEATURE_NAMES, WAVEFORM_NAMES, decision_view, event_vector
from powerportal.load_ident.model import HEATING_AND_COOKING, KIND_NAMES, VIEWS, LoadModel, kind_rows
from powerportal.load_ident.train import fit_waveform


def _event(delta: float, kind: str | None, mains: circuits.Mains, seed: int = 3) -> str:
    """A switch-on of ``delta`` W, with no power series, and a synthetic waveform of a circuit kind."""
    detail: dict[str, object] = {"delta_power": delta}
    if kind is not None:
        current, voltage = circuits.synthesise(kind, mains, np.random.default_rng(seed), power=delta)
        detail["waveform"] = {
            "sample_rate_hz": mains.sample_rate_hz,
            "mains_hz": mains.hertz,
            "current_a": [round(float(x), 4) for x in current],
            "voltage_v": [round(float(x), 2) for x in voltage],
        }
    return json.dumps({"device": "7", "ts": 1, "type": "load", "code": "appliance_on", "detail": detail})


def test_the_shipped_model_has_waveform_trees_and_thresholds_for_every_view() -> None:
    model = LoadModel.load()
    assert model.waveform is not None
    assert set(model.thresholds) == set(VIEWS)
    assert all(0.0 < t < 1.0 for t in model.thresholds.values())


@pytest.mark.parametrize(
    "mains",
    [circuits.Mains(220.0, 50.0), circuits.Mains(120.0, 60.0), circuits.Mains(230.0, 50.0, 3200.0)],
    ids=["220V50Hz", "120V60Hz", "230V50Hz-3k2"],
)
def test_the_waveform_names_the_circuit_kind_on_any_mains(mains: circuits.Mains) -> None:
    model = LoadModel.load()
    assert model.waveform is not None
    for seed, kind in enumerate(KIND_NAMES):
        row = event_vector(parse_event(_event(900.0, kind, mains, seed=seed)))[None, :]
        kinds = kind_rows(model.waveform, row)[0]
        assert KIND_NAMES[int(np.argmax(kinds))] == kind, (kind, kinds.round(2).tolist())


def test_a_waveform_decides_what_the_step_alone_cannot() -> None:
    # 1.2 kW with nothing but the step: a heater, a microwave oven, a vacuum cleaner or a fridge's inrush.
    mains = circuits.Mains(220.0, 50.0)
    heater = service.classify(parse_event(_event(1200.0, "resistive_heater", mains)))
    cooker = service.classify(parse_event(_event(1200.0, "induction_cooker", mains)))
    oven = service.classify(parse_event(_event(1200.0, "magnetron", mains)))
    motor = service.classify(parse_event(_event(1200.0, "universal_motor", mains)))
    compressor = service.classify(parse_event(_event(1200.0, "compressor", mains)))
    supply = service.classify(parse_event(_event(400.0, "pfc_supply", mains)))
    assert heater.forbidden and heater.appliance in HEATING_AND_COOKING
    assert cooker.forbidden and oven.forbidden
    assert not motor.forbidden and motor.appliance not in HEATING_AND_COOKING
    assert not compressor.forbidden and compressor.appliance not in HEATING_AND_COOKING
    assert not supply.forbidden
    # The same step without a waveform is weighed by its threshold of the delta alone.
    assert decision_view(parse_event(_event(1200.0, None, mains))) == "delta"
    assert decision_view(parse_event(_event(1200.0, "magnetron", mains))) == "delta_wave"


def test_the_physics_columns_are_the_waveform_s_own() -> None:
    # The chip's power factor and the waveform's are different columns: a chip's figure never feeds the
    # waveform trees, a waveform's never hides behind a chip's.
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    event = json.loads(_event(1000.0, "compressor", circuits.Mains(220.0, 50.0)))
    event["detail"]["features"] = {"power_factor": 0.2, "reactive_power": 5.0}
    row = event_vector(parse_event(json.dumps(event)))
    assert row[FEATURE_NAMES.index("power_factor")] == 0.2
    assert 0.5 < row[FEATURE_NAMES.index("wave_power_factor")] < 0.95
    assert row[FEATURE_NAMES.index("wave_reactive_ratio")] > 0.3  # lagging: a motor


def test_an_event_without_a_waveform_has_no_kind() -> None:
    model = LoadModel.load()
    assert model.waveform is not None
    row = event_vector(parse_event(_event(800.0, None, circuits.Mains(220.0, 50.0))))
    assert np.isnan(row[[FEATURE_NAMES.index(f"wave_{n}") for n in WAVEFORM_NAMES]]).all()
    assert np.isnan(kind_rows(model.waveform, row[None, :])).all()


def test_the_waveform_trees_train_deterministically() -> None:
    first = fit_waveform(per_kind=12, seed=5).model_to_string()
    second = fit_waveform(per_kind=12, seed=5).model_to_string()
    assert first == second
    assert fit_waveform(per_kind=12, seed=6).model_to_string() != first
