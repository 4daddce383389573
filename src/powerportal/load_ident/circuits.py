"""A few mains cycles of current and voltage from circuit models of appliance kinds.

Synthetic stand-ins for what a breaker with ``loadWaveform`` records, since no shared data holds 50 Hz
waveforms: the evaluation checks the waveform physics on them, on mains and kinds the model did not
learn from. Each model is the textbook circuit, with the voltage's own distortion and the meter's noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from powerportal.load_ident.features import Array

# kind → (category it stands for, low and high power in W)
KINDS = {
    "resistive_heater": ("电热器/取暖器", 600.0, 2500.0),
    "induction_cooker": ("电磁炉", 800.0, 2200.0),
    "hair_dryer": ("电吹风", 600.0, 2000.0),
    "magnetron": ("微波炉", 900.0, 1500.0),
    "rectifier": ("笔记本电脑", 15.0, 300.0),
    "pfc_supply": ("台式电脑", 80.0, 800.0),
    "universal_motor": ("其他", 300.0, 1400.0),
    "compressor": ("冰箱", 80.0, 1500.0),
}


@dataclass(frozen=True)
class Mains:
    """The supply a waveform is recorded on."""

    volts: float
    hertz: float
    sample_rate_hz: float = 6400.0
    cycles: int = 4


def synthesise(
    kind: str, mains: Mains, rng: np.random.Generator, *, power: float | None = None
) -> tuple[Array, Array]:
    """Current (A) and voltage (V) of one appliance of a kind, switched on and settled.

    ``power`` (W) is what it draws, else a power drawn from the kind's range. The recording starts anywhere
    in the cycle, the grid is a little off its nominal frequency and voltage, and the meter adds noise.
    """
    _, low, high = KINDS[kind]
    power = rng.uniform(low, high) if power is None else max(float(power), 1.0)
    n = round(mains.cycles * mains.sample_rate_hz / mains.hertz)
    hertz = mains.hertz * (1.0 + rng.uniform(-0.004, 0.004))
    start = rng.uniform(0, 2 * np.pi)
    phase: Array = start + 2 * np.pi * hertz * np.arange(n, dtype=np.float64) / mains.sample_rate_hz
    peak = mains.volts * rng.uniform(0.93, 1.07) * np.sqrt(2)
    # Flat-topped mains: the third and fifth harmonics that the building's rectifiers put on it.
    voltage = peak * (
        np.sin(phase)
        + rng.uniform(0, 0.04) * np.sin(3 * phase + rng.uniform(-0.3, 0.3) + np.pi)
        + rng.uniform(0, 0.03) * np.sin(5 * phase + rng.uniform(-0.3, 0.3))
    )
    unit = voltage / peak
    shape = _shape(kind, unit, phase, rng)
    # Scale the current so that the load draws its power.
    drawn = float(np.mean(shape * voltage))
    current = shape * power / max(drawn, 1e-9)
    rms = float(np.sqrt(np.mean(current**2)))
    # The meter's noise: a share of the signal and a floor (a small load is mostly noise at 6.4 kHz).
    current = current + rng.normal(0, rng.uniform(0.002, 0.01) * rms + 0.005, n)
    voltage = voltage + rng.normal(0, 0.002 * peak, n)
    return current, voltage


def _lagging(phase: Array, angle: float) -> Array:
    return np.asarray(np.sin(phase - angle))


def _shape(kind: str, unit: Array, phase: Array, rng: np.random.Generator) -> Array:
    """The current's shape for a unit voltage, before scaling to the load's power."""
    if kind == "resistive_heater":
        return unit
    if kind == "induction_cooker":
        # Bridge rectifier into a small film capacitor: the current follows the voltage but stops near
        # the zero crossings, plus the input filter's leading current and the inverter's ripple.
        dead = rng.uniform(0.1, 0.3)
        body = np.where(np.abs(unit) > dead, unit - np.sign(unit) * dead, 0.0)
        filter_current = rng.uniform(0.05, 0.3) * np.cos(phase)
        ripple = rng.uniform(0.02, 0.08) * np.sin(phase * rng.integers(150, 300))
        return np.asarray(body + filter_current + ripple * np.abs(unit))
    if kind == "hair_dryer":
        heater = unit.copy()
        if rng.random() < 0.4:  # the low setting: a diode in series, half-wave
            heater = np.where(unit > 0, unit, 0.0)
        return np.asarray(heater + 0.08 * _lagging(phase, rng.uniform(0.3, 0.7)))
    if kind == "magnetron":
        # Half-wave voltage doubler behind a leakage transformer: one half-cycle conducts hard.
        transformer = 0.25 * _lagging(phase, np.pi / 2)
        conduct = np.where(unit > rng.uniform(0.3, 0.6), unit, 0.0)
        return np.asarray(transformer + conduct * rng.uniform(1.5, 2.5) + 0.1 * unit)
    if kind == "rectifier":
        # Capacitor-input rectifier: narrow pulses at the voltage peaks.
        knee = rng.uniform(0.85, 0.95)
        pulse = np.clip(np.abs(unit) - knee, 0.0, None) ** rng.uniform(0.8, 1.3)
        return np.asarray(np.sign(unit) * pulse + 0.01 * np.cos(phase))
    if kind == "pfc_supply":
        # Active PFC: sinusoidal current, a little leading (EMI capacitor), switching ripple.
        return np.asarray(
            unit + rng.uniform(0.02, 0.12) * np.cos(phase) + 0.03 * np.sin(phase * rng.integers(100, 200))
        )
    if kind == "universal_motor":
        # Series motor: lagging, with the commutator's odd harmonics and brush noise.
        angle = rng.uniform(0.25, 0.6)
        harmonics = rng.uniform(0.05, 0.15) * np.sin(3 * phase - 3 * angle)
        return np.asarray(_lagging(phase, angle) + harmonics + rng.normal(0, 0.03, phase.size))
    if kind == "compressor":
        # Induction motor with a run capacitor or none: lagging, magnetising current peaked by saturation.
        angle = rng.uniform(0.5, 0.95)
        saturation = rng.uniform(0.03, 0.1) * np.sin(3 * phase - 3 * angle + np.pi)
        return np.asarray(_lagging(phase, angle) + saturation)
    raise ValueError(kind)
