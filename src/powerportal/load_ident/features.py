"""What the classifier reads from a load event: the power step's shape, the chip's features, the waveform.

Every function works on a batch (one row per event) so that training and the live path share one code.
Absent data is NaN; the trees route NaN on their own, so an event with a delta alone still classifies.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from powerportal.load_ident.events import MAX_POWER_W, LoadEvent, LoadFeatures, PowerSeries, Waveform

Array = npt.NDArray[np.float64]

BEFORE_S = 10
AFTER_S = 120
# A forbidden load must be decided within this many seconds of the step (issue 19).
DECISION_S = 10
# Harmonics reported from a waveform: odd ones carry a rectifier's and a motor's signature, the second a
# half-wave load's (a hair dryer's low setting, a microwave oven's doubler).
HARMONICS = (2, 3, 5, 7, 9, 11)

SHAPE_NAMES = (
    "delta_w",
    "log_delta",
    "peak_w",
    "log_peak",
    "settled_w",
    "mean_long_w",
    "max_long_w",
    "delta_vs_peak",
    "high_10s",
    "pulses_long",
    "above_300w_long",
    "spread_w",
    "first_s",
    "peak_10s",
    "peak_at_s",
    "mean_10s",
    "std_10s",
    "min_10s",
    "final_10s",
    "unsettled_10s",
    "slope_10s",
    "missing_10s",
    "mean_long",
    "std_long",
    "min_long",
    "max_long",
    "on_share_long",
    "switches_per_min",
    "on_for_s",
    "slope_long",
    "level_30s",
    "level_60s",
    "level_110s",
    "jump_long",
    "ripple",
    "missing_long",
    "seen_s",
    "held_w",
)
CHIP_NAMES = ("power_factor", "reactive_ratio", "reactive_var", "thd_current")


@contextmanager
def _quiet() -> Iterator[None]:
    """NaN-aware reductions warn on an all-NaN row; such a row simply gives NaN."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def power_grid(series: PowerSeries | None) -> tuple[Array, Array]:
    """The series averaged into 1 s bins: 10 s before the step and 120 s after it, NaN where unseen."""
    before = np.full(BEFORE_S, np.nan)
    after = np.full(AFTER_S, np.nan)
    if series is None:
        return before, after
    values = np.array([np.nan if v is None else v for v in series.active_power], dtype=np.float64)
    times = series.start_ms + series.step_ms * np.arange(values.size)
    bins = np.floor_divide(times, 1000) + BEFORE_S
    keep = (bins >= 0) & (bins < BEFORE_S + AFTER_S) & ~np.isnan(values)
    sums = np.bincount(bins[keep], weights=values[keep], minlength=BEFORE_S + AFTER_S)
    counts = np.bincount(bins[keep], minlength=BEFORE_S + AFTER_S)
    with _quiet():
        grid = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return grid[:BEFORE_S], grid[BEFORE_S:]


def step_of(before: Array, after: Array) -> Array:
    """The step as a meter measures it: settled level over the first 10 s minus the level before."""
    with _quiet():
        return np.asarray(np.nanmedian(after[:, 1:DECISION_S], axis=1) - np.nanmedian(before, axis=1))


def _slope(values: Array) -> Array:
    """Least-squares slope per row, per second, over the seen points."""
    seen = ~np.isnan(values)
    t = np.broadcast_to(np.arange(values.shape[1], dtype=np.float64), values.shape)
    n = seen.sum(axis=1)
    with _quiet():
        t_mean = np.where(seen, t, 0).sum(axis=1) / n
        y_mean = np.nansum(values, axis=1) / n
        dt = np.where(seen, t - t_mean[:, None], 0)
        dy = np.where(seen, values - y_mean[:, None], 0)
        slope = (dt * dy).sum(axis=1) / (dt * dt).sum(axis=1)
    return np.asarray(np.where(n >= 3, slope, np.nan))


def shape_features(before: Array, after: Array, delta_power: Array) -> Array:
    """The step's size and shape, normalised by its size, over the first 10 s and up to 120 s."""
    with _quiet():
        delta = np.abs(delta_power)
        base = np.nanmedian(before, axis=1)
        # With nothing before the step, the level before is what the step says it was.
        base = np.where(np.isnan(base), np.nanmedian(after[:, 1:DECISION_S], axis=1) - delta, base)
        rise = after - base[:, None]
        # Shapes are relative to the highest level of the first seconds, which a short pulse (a coffee
        # machine's pump and heater) has although its settled step is nil; without a series, the delta.
        peak = np.nanmax(rise[:, :DECISION_S], axis=1)
        held = held_level(rise[:, :DECISION_S])
        scale = np.where(np.isnan(peak), np.maximum(delta, 1.0), np.maximum(peak, 1.0))
        rel = rise / scale[:, None]
        head, tail = rel[:, :DECISION_S], rel[:, DECISION_S:]
        seen = ~np.isnan(rel)
        seen_s = np.where(seen.any(axis=1), AFTER_S - np.argmax(seen[:, ::-1], axis=1), 0).astype(np.float64)
        head_seen = (~np.isnan(head)).any(axis=1)
        peak_at = np.where(head_seen, np.argmax(np.where(np.isnan(head), -np.inf, head), axis=1), np.nan)
        final = np.nanmedian(head[:, 5:], axis=1)
        unsettled = (np.abs(head - final[:, None]) > 0.1).sum(axis=1).astype(np.float64)
        on = np.where(np.isnan(rel), np.nan, (rel > 0.5).astype(np.float64))
        flips = np.abs(np.diff(on, axis=1))
        switches = np.nansum(flips, axis=1) / np.maximum((~np.isnan(flips)).sum(axis=1), 1) * 60.0
        off = np.where(np.isnan(rel), False, rel < 0.3)
        on_for = np.where(off.any(axis=1), np.argmax(off, axis=1), seen_s).astype(np.float64)
        steps = np.abs(np.diff(rel, axis=1))
        long_seen = (~np.isnan(tail)).any(axis=1)

        def long(values: Array) -> Array:
            return np.where(long_seen, values, np.nan)

        columns = [
            delta,
            np.log10(np.maximum(delta, 1.0)),
            peak,
            np.log10(np.maximum(peak, 1.0)),
            np.nanmedian(rise[:, 1:DECISION_S], axis=1),
            long(np.nanmean(rise[:, DECISION_S:], axis=1)),
            long(np.nanmax(rise[:, DECISION_S:], axis=1)),
            delta / scale,
            np.where(head_seen, (head > 0.5).sum(axis=1), np.nan),
            long(np.nansum(np.diff(np.where(np.isnan(rise), 0, rise) > 300, axis=1), axis=1) / 2),
            long(np.nanmean(np.where(np.isnan(tail), np.nan, rise[:, DECISION_S:] > 300), axis=1)),
            np.nanmax(rise, axis=1) - np.nanmin(rise, axis=1),
            rel[:, 0],
            np.nanmax(head, axis=1),
            peak_at,
            np.nanmean(head, axis=1),
            np.nanstd(head, axis=1),
            np.nanmin(head, axis=1),
            final,
            np.where(head_seen, unsettled, np.nan),
            _slope(head),
            np.isnan(head).mean(axis=1),
            long(np.nanmean(tail, axis=1)),
            long(np.nanstd(tail, axis=1)),
            long(np.nanmin(tail, axis=1)),
            long(np.nanmax(tail, axis=1)),
            long(np.nanmean(on[:, DECISION_S:], axis=1)),
            np.where(seen_s > 1, switches, np.nan),
            np.where(seen_s > 0, on_for, np.nan),
            long(_slope(tail)),
            np.nanmedian(rel[:, 25:35], axis=1),
            np.nanmedian(rel[:, 55:65], axis=1),
            np.nanmedian(rel[:, 105:], axis=1),
            long(np.nanmax(steps[:, DECISION_S:], axis=1)),
            np.nanmedian(steps, axis=1),
            np.isnan(tail).mean(axis=1),
            seen_s,
            held,
        ]
    return np.column_stack(columns).astype(np.float64)


def held_level(rise: Array) -> Array:
    """The highest level held for two seconds (the second highest reading; the only one if one is seen).

    A compressor's or a motor's start draws several times its running current for a fraction of a
    second, which a 1 Hz reading averages into one high second: that is no load above the limit.
    """
    ordered = -np.sort(np.where(np.isnan(rise), np.inf, -rise), axis=1)  # highest first, NaN last
    seen = (~np.isnan(rise)).sum(axis=1)
    return np.asarray(np.where(seen >= 2, ordered[:, 1], np.where(seen == 1, ordered[:, 0], np.nan)))


def chip_features(
    power_factor: Array, reactive_power: Array, thd_current: Array, delta_power: Array
) -> Array:
    """The metering chip's power factor, reactive power (also relative to the step) and current THD."""
    scale = np.maximum(np.abs(delta_power), 1.0)
    return np.column_stack([power_factor, reactive_power / scale, reactive_power, thd_current])


@dataclass(frozen=True)
class WaveformPhysics:
    """What a few cycles of current and voltage say about the added load, on any mains."""

    active_power_w: float
    # Positive when the current lags (a motor), negative when it leads (a supply's input capacitor).
    reactive_power_var: float
    power_factor: float
    displacement_pf: float
    distortion_pf: float
    thd_current: float
    harmonic_ratio: tuple[float, ...]
    harmonic_phase: tuple[float, ...]
    crest_factor: float
    vi_area: float
    vi_spread: float
    # The current's share beyond the harmonics measured: a switching supply's or an inverter's ripple.
    ripple_share: float = 0.0

    def as_row(self) -> list[float]:
        """The measures as model features, in ``WAVEFORM_NAMES`` order (phases as cosine and sine)."""
        phases = [f(p) for p in self.harmonic_phase for f in (math.cos, math.sin)]
        return [
            math.log10(max(abs(self.active_power_w), 1.0)),
            self.reactive_power_var / max(abs(self.active_power_w), 1.0),
            self.power_factor,
            self.displacement_pf,
            self.distortion_pf,
            self.thd_current,
            *self.harmonic_ratio,
            *phases,
            self.crest_factor,
            self.vi_area,
            self.vi_spread,
            self.ripple_share,
        ]


WAVEFORM_NAMES = (
    "log_power",
    "reactive_ratio",
    "power_factor",
    "displacement_pf",
    "distortion_pf",
    "thd_current",
    *(f"h{k}_ratio" for k in HARMONICS),
    *(f"h{k}_{part}" for k in HARMONICS for part in ("cos", "sin")),
    "crest_factor",
    "vi_area",
    "vi_spread",
    "ripple_share",
)
# One event's row: the step's shape, the chip's features, and a waveform's physics (NaN where absent). The
# model turns the physics into the circuit kind's probabilities before its trees read the row.
# (The physics' names carry a prefix: the chip's power factor, reactive ratio and THD have theirs.)
WAVE_FEATURE_NAMES = tuple(f"wave_{name}" for name in WAVEFORM_NAMES)
FEATURE_NAMES = SHAPE_NAMES + CHIP_NAMES + WAVE_FEATURE_NAMES


def waveform_physics(waveform: Waveform) -> WaveformPhysics:
    """Real and reactive power, power factors, harmonics, crest factor and V-I trajectory of a waveform."""
    return physics_of(
        np.asarray(waveform.current_a, dtype=np.float64),
        np.asarray(waveform.voltage_v, dtype=np.float64),
        sample_rate_hz=waveform.sample_rate_hz,
        mains_hz=waveform.mains_hz,
    )


@functools.lru_cache(maxsize=32)
def _basis(n: int, sample_rate_hz: float, mains_hz: float, top: int) -> Array:
    """Every harmonic's phasor at once: cosines over sines of the mains' multiples, per sample."""
    t = np.arange(n) / sample_rate_hz
    angle = 2 * np.pi * mains_hz * np.arange(1, top + 1)[:, None] * t[None, :]
    return np.vstack([np.cos(angle), -np.sin(angle)])


def physics_of(current: Array, voltage: Array, *, sample_rate_hz: float, mains_hz: float) -> WaveformPhysics:
    """``waveform_physics`` on arrays: whole mains cycles of the current and voltage, on any mains."""
    per_cycle = sample_rate_hz / mains_hz
    cycles = max(1, int(current.size // per_cycle))
    n = min(current.size, round(cycles * per_cycle))
    current, voltage = current[:n] - current[:n].mean(), voltage[:n] - voltage[:n].mean()
    top = max(2, min(40, int(sample_rate_hz / mains_hz / 2) - 1))
    basis = _basis(n, float(sample_rate_hz), float(mains_hz), top)
    parts = 2.0 / n * (basis @ np.column_stack([current, voltage]))
    i_phasors = parts[:top, 0] + 1j * parts[top:, 0]
    v1 = complex(parts[0, 1], parts[top, 1])
    i1 = complex(i_phasors[0])

    def phasor(order: int) -> complex:
        return complex(i_phasors[order - 1])

    i_rms = float(np.sqrt(np.mean(current**2)))
    v_rms = float(np.sqrt(np.mean(voltage**2)))
    active = float(np.mean(current * voltage))
    shift = float(np.angle(v1) - np.angle(i1))
    i1_rms = abs(i1) / math.sqrt(2)
    higher = np.abs(i_phasors[1:])
    harmonic_power = float(np.sum(np.abs(i_phasors) ** 2)) / 2.0
    fundamental = max(abs(i1), 1e-12)
    tiny = i_rms < 1e-6
    ratios = tuple(abs(phasor(k)) / fundamental if k <= top else 0.0 for k in HARMONICS)
    phases = tuple(
        float(np.angle(phasor(k) * np.exp(-1j * k * np.angle(i1)))) if k <= top else 0.0 for k in HARMONICS
    )
    v_norm = voltage / max(float(np.max(np.abs(voltage))), 1e-12)
    i_norm = current / max(float(np.max(np.abs(current))), 1e-12)
    area = 0.5 * abs(float(np.sum(v_norm * np.roll(i_norm, -1) - np.roll(v_norm, -1) * i_norm))) / cycles
    return WaveformPhysics(
        active_power_w=active,
        reactive_power_var=abs(v1) / math.sqrt(2) * i1_rms * math.sin(shift),
        power_factor=0.0 if tiny else active / max(v_rms * i_rms, 1e-12),
        displacement_pf=math.cos(shift),
        distortion_pf=0.0 if tiny else i1_rms / i_rms,
        thd_current=100.0 * float(np.sqrt(np.sum(higher * higher))) / fundamental,
        harmonic_ratio=ratios,
        harmonic_phase=phases,
        crest_factor=0.0 if tiny else float(np.max(np.abs(current))) / i_rms,
        vi_area=area,
        vi_spread=float(np.max(np.abs(i_norm - v_norm))),
        ripple_share=0.0 if tiny else max(0.0, 1.0 - harmonic_power / i_rms**2),
    )


def _chip_of(event: LoadEvent, physics: WaveformPhysics | None) -> tuple[float, float, float]:
    """The chip's features, or the same quantities worked out from the waveform when the chip sent none."""
    chip = event.detail.features or LoadFeatures()
    values = [chip.power_factor, chip.reactive_power, chip.thd_current]
    if physics is not None:
        derived = [physics.power_factor, physics.reactive_power_var, physics.thd_current]
        values = [given if given is not None else made for given, made in zip(values, derived, strict=True)]
    pf, reactive, thd = (math.nan if v is None else float(v) for v in values)
    return abs(pf), abs(reactive), thd


def event_vector(event: LoadEvent) -> Array:
    """The feature row of one event, in ``FEATURE_NAMES`` order."""
    row: Array = event_rows([event])[0]
    return row


def event_rows(events: Sequence[LoadEvent]) -> Array:
    """The feature rows of some events, in ``FEATURE_NAMES`` order, the shapes reckoned all at once."""
    grids = [power_grid(event.detail.power_series) for event in events]
    before, after = np.vstack([b for b, _a in grids]), np.vstack([a for _b, a in grids])
    off = np.array([event.code == "appliance_off" for event in events])
    before[off], after[off] = np.nan, np.nan  # the shape of a switch-off is not what the model learnt
    delta = np.array([event.detail.delta_power for event in events])
    physics = [None if e.detail.waveform is None else waveform_physics(e.detail.waveform) for e in events]
    chips = [_chip_of(event, made) for event, made in zip(events, physics, strict=True)]
    pf, reactive, thd = np.array(chips, dtype=np.float64).T
    wave = np.full((len(events), len(WAVEFORM_NAMES)), np.nan)
    for i, made in enumerate(physics):
        if made is not None:
            wave[i] = made.as_row()
    return np.hstack([shape_features(before, after, delta), chip_features(pf, reactive, thd, delta), wave])


def load_power(rows: Array) -> Array:
    """The power each load draws as the policy weighs it: the step, or the 10 s' highest held level.

    The highest level of the first 10 s held for two seconds (``held_level``).

    At most the protocol's ``MAX_POWER_W``: a peak is read off the level before, and a series from
    −100 kW to +100 kW, each within the protocol, made a 200 kW load no breaker reports.
    """
    delta = rows[:, FEATURE_NAMES.index("delta_w")]
    held = rows[:, FEATURE_NAMES.index("held_w")]
    return np.asarray(np.minimum(np.fmax(delta, held), MAX_POWER_W))


def decision_view(event: LoadEvent) -> str:
    """Which threshold applies: 2 minutes, the first 10 s, or the delta alone; with a waveform or not."""
    wave = "_wave" if event.detail.waveform is not None else ""
    if event.code == "appliance_off" or event.detail.power_series is None:
        return "delta" + wave
    _, after = power_grid(event.detail.power_series)
    seen = np.flatnonzero(~np.isnan(after))
    if seen.size == 0:
        return "delta" + wave
    return ("long" if seen[-1] >= DECISION_S else "head") + wave
