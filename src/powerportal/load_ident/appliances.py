"""SYNTHETIC 1 Hz switch-ons of the appliances tracebase lacks, for training beside the real ones.

tracebase holds no air conditioner, induction cooker, hair dryer, rice cooker, room heater or fan,
yet those are a dormitory's commonest loads, and the two that a power-band-and-power-factor meter gets
wrong are among them: it misses the induction cooker and trips the inverter air conditioner. Each
kind here is a small program of how its power moves in the first two minutes (an inverter compressor's
soft start, a fixed-speed one's inrush after the fan, an induction hob's pulsed low settings, a hair
dryer's short use and switched settings, a rice cooker's keep-warm cycling, a PTC heater's decay),
drawn as a few devices of their own, each with its own rating and habits, so that they are learnt —
and evaluated — by device like the real ones. They teach the trees the kinds; they are no
measurement, and every figure that comes from them says SYNTHETIC.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from powerportal.load_ident.features import BEFORE_S, Array

AFTER_S = 120
Draw = Callable[[np.random.Generator, float], Array]


def _noisy(rng: np.random.Generator, level: Array) -> Array:
    """What a smart plug reports of a level: a share of it and a floor of noise, never below zero."""
    share = rng.uniform(0.003, 0.02)
    return np.maximum(level * (1 + rng.normal(0, share, level.shape)) + rng.normal(0, 0.8, level.shape), 0.0)


def inverter_air_conditioner(rng: np.random.Generator, rating: float) -> Array:
    """The indoor fan (or not: the compressor's start is a switch-on of its own), then a soft start.

    From a few hundred watts towards the rating over minutes.
    """
    t = np.arange(AFTER_S, dtype=np.float64)
    fan = int(rng.integers(1, 40)) if rng.random() < 0.3 else 0
    start = rng.uniform(120.0, 400.0)
    tau = rng.uniform(25.0, 150.0)
    ramp = rating - (rating - start) * np.exp(-np.maximum(t - fan, 0) / tau)
    wander = 1 + rng.uniform(0, 0.03) * np.sin(2 * np.pi * t / rng.uniform(20, 90) + rng.uniform(0, 6.3))
    return np.where(t < fan, rng.uniform(20.0, 80.0), ramp * wander)


def fixed_air_conditioner(rng: np.random.Generator, rating: float) -> Array:
    """The indoor fan for a while (or not), then the compressor: a second of inrush, a slowly rising level."""
    t = np.arange(AFTER_S, dtype=np.float64)
    fan = int(rng.integers(1, 60)) if rng.random() < 0.3 else 0
    level = rating * (1 + rng.uniform(0, 0.08) * (t - fan) / AFTER_S)
    out = np.where(t < fan, rng.uniform(20.0, 80.0), level)
    out[fan] = rating * rng.uniform(1.3, 2.2)  # a second's mean of the locked-rotor current
    return out


def induction_cooker(rng: np.random.Generator, rating: float) -> Array:
    """A pan check, then full power with the inverter's ripple, a pulsed low setting, or level changes."""
    t = np.arange(AFTER_S, dtype=np.float64)
    check = int(rng.integers(0, 3))
    mode = rng.random()
    if mode < 0.4:  # a high setting: steady, with the inverter's ripple
        period = rng.uniform(3.0, 10.0)
        out = rating * (1 + rng.uniform(0.01, 0.08) * np.abs(np.sin(np.pi * t / period)))
    elif mode < 0.75:  # a low setting: full power for a few seconds, then a pause
        on, off = rng.integers(2, 9), rng.integers(2, 11)
        out = np.where((t % (on + off)) < on, rating, rng.uniform(5.0, 40.0))
    else:  # the user turns the level up or down now and then
        out = np.full(AFTER_S, rating)
        for change in np.sort(rng.integers(5, AFTER_S, size=int(rng.integers(1, 4)))):
            out[change:] = rating * rng.uniform(0.4, 1.0)
    out[:check] = rng.uniform(20.0, 100.0)
    return out


def hair_dryer(rng: np.random.Generator, rating: float) -> Array:
    """On for a minute or a few, settings switched between full and half (the half-wave diode)."""
    out = np.full(AFTER_S, rating)
    for change in np.sort(rng.integers(3, AFTER_S, size=int(rng.integers(0, 3)))):
        out[change:] = rating * (0.5 if out[change - 1] == rating else 1.0)
    used = int(rng.integers(15, 400))
    out[used:] = 0.0
    return out


def rice_cooker(rng: np.random.Generator, rating: float) -> Array:
    """Cooking at full power for many minutes, or keeping warm: the element pulsed by its thermostat."""
    t = np.arange(AFTER_S, dtype=np.float64)
    if rng.random() < 0.7:
        return rating * (1 - rng.uniform(0, 0.03) * t / AFTER_S)
    on, off = rng.integers(3, 16), rng.integers(15, 60)
    return np.where((t % (on + off)) < on, rating, rng.uniform(0.0, 5.0))


def room_heater(rng: np.random.Generator, rating: float) -> Array:
    """A PTC fan heater's inrush decaying to its rating, or an oil or quartz heater's steady level."""
    t = np.arange(AFTER_S, dtype=np.float64)
    if rng.random() < 0.5:
        return rating * (1 + rng.uniform(0.1, 0.5) * np.exp(-t / rng.uniform(10.0, 60.0)))
    out = np.full(AFTER_S, rating)
    cut = int(rng.integers(60, 400))  # the thermostat opens
    out[cut:] = 0.0
    return out


def fan(rng: np.random.Generator, rating: float) -> Array:
    """An electric fan: a steady few tens of watts, a speed changed now and then."""
    out = np.full(AFTER_S, rating)
    for change in np.sort(rng.integers(5, AFTER_S, size=int(rng.integers(0, 3)))):
        out[change:] = rating * rng.uniform(0.6, 1.2)
    return out


# label → (how its power moves, its rating range in W)
KINDS: dict[str, tuple[Draw, tuple[float, float]]] = {
    "syn_inverter_air_conditioner": (inverter_air_conditioner, (500.0, 2200.0)),
    "syn_fixed_air_conditioner": (fixed_air_conditioner, (600.0, 1800.0)),
    "syn_induction_cooker": (induction_cooker, (800.0, 2200.0)),
    "syn_hair_dryer": (hair_dryer, (600.0, 2000.0)),
    "syn_rice_cooker": (rice_cooker, (300.0, 1000.0)),
    "syn_room_heater": (room_heater, (600.0, 2200.0)),
    "syn_fan": (fan, (15.0, 80.0)),
}
DEVICES_PER_KIND = 3
EVENTS_PER_DEVICE = 60


def is_synthetic(labels: np.ndarray) -> np.ndarray:
    """Which labels are these synthetic appliances'."""
    return np.char.startswith(labels.astype(str), "syn_")


def switch_ons(seed: int) -> tuple[Array, np.ndarray, np.ndarray]:
    """Power around each synthetic switch-on (10 s before, 120 s after, as tracebase), labels, devices."""
    rng = np.random.default_rng(seed)
    rows, labels, devices = [], [], []
    for label, (draw, (low, high)) in KINDS.items():
        for d in range(DEVICES_PER_KIND):
            rating = rng.uniform(low, high)
            standby = rng.uniform(0.0, 3.0)
            for _ in range(EVENTS_PER_DEVICE):
                before = np.full(BEFORE_S, standby)
                after = draw(rng, rating * rng.uniform(0.95, 1.05))
                rows.append(_noisy(rng, np.concatenate([before, standby + after])))
                labels.append(label)
                devices.append(f"{label}_{seed}_{d}")
    return np.array(rows), np.array(labels), np.array(devices)
