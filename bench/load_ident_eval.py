"""Load identification, measured on appliances the model never saw (issue 19).

tracebase is split by device (GroupKFold, 5 folds): every figure comes from devices held out of
training, and each fold's forbidden thresholds are chosen on its own training devices only. The
waveform figures are SYNTHETIC: circuit-model waveforms (``load_ident/circuits.py``) of each event's
appliance kind, learnt on 220 V 50 Hz and tested on 230 V 50 Hz and 120 V 60 Hz. Every fold also
learns the SYNTHETIC appliances tracebase lacks (``load_ident/appliances.py``); other draws of them are
scored apart. Run:

    uv run python bench/load_ident_eval.py [DATA_DIR] [--save]   (about 9 minutes, one thread)
    uv run python bench/load_ident_eval.py --plaid-cv      (PLAID's train split by 5-fold CV, 5 minutes)
"""

from __future__ import annotations

import datetime
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from sklearn.linear_model import RidgeClassifierCV
from sklearn.model_selection import GroupKFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from powerportal.load_ident import appliances, circuits
from powerportal.load_ident import train as tr
from powerportal.load_ident.features import WAVEFORM_NAMES, load_power, step_of
from powerportal.load_ident.model import (
    ACCURACY_FILE,
    CATEGORIES,
    DEFAULT_POLICY,
    HEATING_AND_COOKING,
    KIND_NAMES,
    WAVE_INPUT,
    decide,
)

TARGET_RECALL, TARGET_FALSE_ALARMS, TARGET_PLAID = 0.93, 0.02, 0.93
TARGET_WAVE_RECALL, TARGET_WAVE_FALSE_ALARMS = 0.98, 0.01
# The switch-ons the data set's README calls allowed: computers, monitors, lamps, televisions, audio,
# refrigerators (it has no printers or chargers).
README_ALLOWED = (
    "PC-Laptop",
    "MacBookPro_13in",
    "PC-Desktop",
    "Monitor-TFT",
    "Monitor_19in",
    "Monitor_24in",
    "Lamp",
    "XmasLights",
    "TV",
    "TV-LCD",
    "TV-CRT",
    "Amplifier",
    "HifiAmplifier",
    "Subwoofer",
    "Refrigerator",
    "Freezer",
)
# Other draws of the synthetic appliances than those the model learns (devices of other ratings and habits).
UNSEEN_SEED = 101


class Case(NamedTuple):
    """One input the evaluation measures."""

    name: str
    chinese: str  # its label on the load-identify screen (``--save``)
    view: str
    chip: bool  # synthesised chip features
    mains: str | None  # the synthetic waveform bank's mains, or no waveform
    room: bool = False  # on top of a room's other loads (a SYNTHETIC base the series did not have)


CASES = (
    Case("1 Hz power alone, 120 s", "1 Hz 功率，接入后 120 秒", "long", False, None),
    Case("1 Hz power alone, first 10 s", "1 Hz 功率，接入后 10 秒", "head", False, None),
    Case("delta_power alone", "仅功率阶跃", "delta", False, None),
    Case(
        "1 Hz power, 120 s, on a room's other loads (SYNTHETIC base)",
        "1 Hz 功率，120 秒，叠加房间其他负荷",
        "long",
        False,
        None,
        room=True,
    ),
    Case(
        "1 Hz power, first 10 s, on a room's other loads (SYNTHETIC base)",
        "1 Hz 功率，10 秒，叠加房间其他负荷",
        "head",
        False,
        None,
        room=True,
    ),
    Case("120 s + chip features (synthesised)", "120 秒 + 芯片特征", "long", True, None),
    Case("10 s + chip features (synthesised)", "10 秒 + 芯片特征", "head", True, None),
    Case(
        "120 s + waveform (SYNTHETIC, 230 V 50 Hz)",
        "120 秒 + 波形（230 V 50 Hz）",
        "long_wave",
        False,
        "230 V 50 Hz",
    ),
    Case(
        "first 10 s + waveform (SYNTHETIC, 230 V 50 Hz)",
        "10 秒 + 波形（230 V 50 Hz）",
        "head_wave",
        False,
        "230 V 50 Hz",
    ),
    Case(
        "120 s + waveform (SYNTHETIC, 120 V 60 Hz)",
        "120 秒 + 波形（120 V 60 Hz）",
        "long_wave",
        False,
        "120 V 60 Hz",
    ),
    Case(
        "first 10 s + waveform (SYNTHETIC, 120 V 60 Hz)",
        "10 秒 + 波形（120 V 60 Hz）",
        "head_wave",
        False,
        "120 V 60 Hz",
    ),
    Case(
        "delta_power + waveform (SYNTHETIC, 230 V 50 Hz)",
        "功率阶跃 + 波形（230 V 50 Hz）",
        "delta_wave",
        False,
        "230 V 50 Hz",
    ),
)
TEST_MAINS = {"230 V 50 Hz": circuits.Mains(230.0, 50.0), "120 V 60 Hz": circuits.Mains(120.0, 60.0)}


def on_room_load(data: tr.Tracebase, index: tr.Index, rng: np.random.Generator) -> tr.Tracebase:
    """The switch-ons as a room's breaker sees them: on top of other loads (a laptop, a lamp, a fridge).

    tracebase measured each appliance at its own plug, so the level before a step is the appliance's own
    standby; a breaker's is whatever else the room runs. Each event gets a level of 20–500 W, wandering
    by a few watts a second, and on one event in four a fridge-like 100 W that cycles on or off.
    """
    count = len(data.delta)
    light = rng.random(count) < 0.5
    level = np.where(light, rng.uniform(20.0, 150.0, count), rng.uniform(150.0, 500.0, count))
    seconds = data.before.shape[1] + data.after.shape[1]
    wander = np.cumsum(rng.normal(0.0, 2.0, (count, seconds)), axis=1)
    wander += rng.normal(0.0, 3.0, (count, seconds))
    fridge = np.zeros((count, seconds))
    cycling = rng.random(count) < 0.25
    at = rng.integers(0, seconds, count)
    on_first = rng.random(count) < 0.5
    time = np.arange(seconds)[None, :]
    fridge[cycling] = 100.0 * ((time < at[:, None]) == on_first[:, None])[cycling]
    base = np.maximum(level[:, None] + wander + fridge, 0.0)
    mine = np.zeros(count, dtype=bool)
    mine[index] = True
    base[~mine] = 0.0
    split = data.before.shape[1]
    before, after = data.before + base[:, :split], data.after + base[:, split:]
    return tr.Tracebase(
        before,
        after,
        np.where(mine, step_of(before, after), data.delta),
        data.label,
        data.device,
        data.category,
    )


def verdicts(
    model: tr.LoadModel,
    data: tr.Tracebase,
    index: tr.Index,
    view: str,
    chip: bool,
    wave: np.ndarray | None = None,
    room: bool = False,
) -> tuple:
    """Forbidden verdict and named category of each held-out event."""
    rng = np.random.default_rng(7)
    if room:
        data = on_room_load(data, index, rng)
    features = tr.synthesise_chip(data, index, rng) if chip else None
    rows = tr.view_rows(data, index, view, features, None if wave is None else wave[index])
    probs, p_forbidden = model.probabilities(rows), model.forbidden_probability(rows)
    forbidden, named = np.zeros(len(index), dtype=bool), np.zeros(len(index), dtype=np.int64)
    for row, (p, pf, power) in enumerate(zip(probs, p_forbidden, load_power(rows), strict=True)):
        threshold = model.thresholds[view]
        verdict = decide(p, p_forbidden=pf, power_w=power, threshold=threshold, policy=DEFAULT_POLICY)
        forbidden[row], named[row] = verdict.forbidden, CATEGORIES.index(verdict.appliance)
    return forbidden, named


def report(case: Case, data: tr.Tracebase, flagged: np.ndarray, named: np.ndarray) -> dict[str, Any]:
    """Print one case's figures; answer the headline ones for ``--save``."""
    wave = case.mains is not None
    truth = data.forbidden
    recall = flagged[truth].mean()
    false_alarms = flagged[~truth].mean()
    devices = np.unique(data.device)
    per_device_recall = [flagged[(data.device == d)].mean() for d in devices if truth[data.device == d][0]]
    per_device_fa = [flagged[(data.device == d)].mean() for d in devices if not truth[data.device == d][0]]
    target_recall = TARGET_WAVE_RECALL if wave else TARGET_RECALL
    target_fa = TARGET_WAVE_FALSE_ALARMS if wave else TARGET_FALSE_ALARMS
    ok = "meets" if recall >= target_recall and false_alarms <= target_fa else "SHORT of"
    print(f"\n## {case.name}")
    print(
        f"forbidden recall {recall:6.1%}  false alarms {false_alarms:5.1%}  (by event; {ok} target"
        f" ≥ {target_recall:.0%} at ≤ {target_fa:.0%})"
    )
    # A forbidden appliance's switch-on below the policy's minimum power (a coffee machine's 50 W pump, a
    # microwave oven's lamp) is never flagged by design; the recall over the others says what is left.
    drawing = truth & (POWER >= DEFAULT_POLICY.min_power_w)
    print(
        f"recall over forbidden switch-ons drawing ≥ {DEFAULT_POLICY.min_power_w:.0f} W:"
        f" {flagged[drawing].mean():6.1%} ({drawing.sum()} of {truth.sum()} switch-ons);"
        f" false alarms from the {DEFAULT_POLICY.power_limit_w:.0f} W limit alone:"
        f" {(flagged & ~truth & (POWER > DEFAULT_POLICY.power_limit_w)).sum()} of {(~truth).sum()}"
    )
    # The data set's README lists what is allowed (computers, monitors, lamps, TVs, audio, fridges); the
    # washing machines, dishwashers, dryers and vacuum cleaners it names neither way count as allowed here,
    # and their heaters and motors take most of the false-alarm budget.
    listed = np.isin(data.label, README_ALLOWED)
    unnamed = ~truth & ~listed
    print(
        f"false alarms on the README's allowed list {flagged[listed].mean():5.2%} ({listed.sum()} events),"
        f" on the appliances it names neither way {flagged[unnamed].mean():5.2%} ({unnamed.sum()}): "
        + ", ".join(
            f"{x} {flagged[data.label == x].mean():.0%}"
            for x in np.unique(data.label[unnamed])
            if flagged[data.label == x].any()
        )
    )
    print(
        f"device-averaged: recall {np.mean(per_device_recall):6.1%}"
        f" over {len(per_device_recall)} forbidden devices,"
        f" false alarms {np.mean(per_device_fa):5.1%} over {len(per_device_fa)} allowed devices"
    )
    cells = []
    for c in np.unique(data.category):
        mine = data.category == c
        cells.append(
            f"{CATEGORIES[c]} {np.mean(named[mine] == c):.0%} ({len(np.unique(data.device[mine]))}台)"
        )
    print("per-category accuracy: " + ", ".join(cells))
    labels = np.unique(data.label[truth])
    print(
        "forbidden recall per label: "
        + ", ".join(f"{x} {flagged[data.label == x].mean():.0%}" for x in labels)
    )
    noisy = [x for x in np.unique(data.label[~truth]) if flagged[data.label == x].mean() >= 0.01]
    print(
        "false alarms ≥ 1 % per label: "
        + ", ".join(f"{x} {flagged[data.label == x].mean():.0%}" for x in noisy)
    )
    return {
        "input": case.chinese,
        "synthetic": case.chip or case.room or case.mains is not None,
        "recall": round(float(recall), 6),
        "false_alarms": round(float(false_alarms), 6),
        "recall_min_power": round(float(flagged[drawing].mean()), 6),
        "target_recall": target_recall,
        "target_false_alarms": target_fa,
    }


POWER = np.zeros(0)


def tracebase(data_dir: Path) -> tuple[list[dict[str, Any]], int]:
    global POWER
    # Real switch-ons first, then the SYNTHETIC appliances tracebase lacks: every fold trains on both and
    # is scored on its held-out real devices; other draws of the synthetic kinds are scored apart.
    full = tr.load_tracebase(data_dir, synthetic=tr.SEED)
    real = np.flatnonzero(~appliances.is_synthetic(full.label))
    synthetic = np.flatnonzero(appliances.is_synthetic(full.label))
    data = full.take(real)
    unseen = tr.tracebase_of(*appliances.switch_ons(UNSEEN_SEED))
    POWER = tr.event_power(data)
    print(
        f"tracebase: {len(data.delta)} switch-ons of {len(np.unique(data.device))} devices,"
        f" GroupKFold(5) by device; every fold also learns {len(synthetic)} SYNTHETIC switch-ons of"
        f" {len(np.unique(full.device[synthetic]))} appliances tracebase lacks"
    )
    rule = np.abs(data.delta) >= 500
    print(
        f"baseline rule, settled step ≥ 500 W: recall {rule[data.forbidden].mean():.1%},"
        f" false alarms {rule[~data.forbidden].mean():.1%}"
    )
    with np.errstate(all="ignore"):
        peak = np.nanmax(data.after[:, :10], axis=1) - np.nanmedian(data.before, axis=1)
    rule = peak >= 500
    print(
        f"baseline rule, highest level in the first 10 s ≥ 500 W: recall {rule[data.forbidden].mean():.1%},"
        f" false alarms {rule[~data.forbidden].mean():.1%}"
    )
    results = {
        case.name: (np.zeros(len(data.delta), bool), np.zeros(len(data.delta), np.int64)) for case in CASES
    }
    started = time.monotonic()
    # One synthetic waveform per event for training (220 V 50 Hz), others on other mains for testing.
    waveform = tr.fit_waveform()
    bank = tr.waveform_bank(full, tr.TRAINING_MAINS, tr.SEED)
    test_banks = {
        label: tr.waveform_bank(full, mains, seed) for seed, (label, mains) in enumerate(TEST_MAINS.items())
    }
    unseen_banks = {
        label: tr.waveform_bank(unseen, mains, UNSEEN_SEED) for label, mains in TEST_MAINS.items()
    }
    print(f"synthetic waveforms: {time.monotonic() - started:.0f} s")
    thresholds = []
    unseen_flags = {case.name: np.zeros(len(unseen.delta)) for case in CASES}
    folds = GroupKFold(n_splits=5).split(real, groups=data.device)
    for fold, (train, test) in enumerate(folds):
        started = time.monotonic()
        model = tr.fit_model(full, np.concatenate([real[train], synthetic]), bank, waveform)
        thresholds.append(model.thresholds)
        for case in CASES:
            wave = None if case.mains is None else test_banks[case.mains]
            flagged, named = verdicts(model, full, real[test], case.view, case.chip, wave, case.room)
            results[case.name][0][test], results[case.name][1][test] = flagged, named
            wave = None if case.mains is None else unseen_banks[case.mains]
            everyone = np.arange(len(unseen.delta))
            flags = verdicts(model, unseen, everyone, case.view, case.chip, wave, case.room)[0]
            unseen_flags[case.name] += flags / 5
        print(
            f"fold {fold + 1}: {len(np.unique(data.device[test]))} held-out devices,"
            f" {time.monotonic() - started:.0f} s"
        )
    print(
        "thresholds chosen on training folds: "
        + "; ".join(", ".join(f"{k} {v:.2f}" for k, v in t.items()) for t in thresholds)
    )
    rows = [report(case, data, *results[case.name]) for case in CASES]
    print(
        "\n## SYNTHETIC appliances tracebase lacks: other draws of appliances.py's kinds (devices no fold"
        " learnt), flagged share per kind, the 5 folds' models averaged"
    )
    for case in CASES:
        flagged, truth = unseen_flags[case.name], unseen.forbidden
        print(
            f"{case.name}: recall {flagged[truth].mean():6.1%}, false alarms {flagged[~truth].mean():5.1%} — "
            + ", ".join(
                f"{label.removeprefix('syn_')} {flagged[unseen.label == label].mean():.0%}"
                for label in appliances.KINDS
            )
        )
    return rows, len(np.unique(data.device))


# MiniRocket (Dempster, Schmidt and Webb, KDD 2021): the 84 kernels of nine taps weighing -1 but three
# that weigh 2, at dilations spread over the series' length, each kernel's output summarised by the share
# of it above biases drawn from quantiles of training series. Re-implemented in NumPy: the published
# packages (sktime, aeon) need numba, which does not run with the NumPy the project uses.
KERNELS = np.array(list(itertools.combinations(range(9), 3)))


def dilations_of(length: int, features: int, most: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Dilations spread exponentially up to the series' length, and how many biases each gets."""
    per_kernel = features // len(KERNELS)
    count = min(per_kernel, most)
    exponent = np.log2((length - 1) / 8)
    dilations, per_dilation = np.unique(
        np.logspace(0, exponent, count, base=2).astype(np.int32), return_counts=True
    )
    per_dilation = (per_dilation * per_kernel / count).astype(np.int32)
    for i in range(per_kernel - int(per_dilation.sum())):
        per_dilation[i % len(per_dilation)] += 1
    return dilations, per_dilation


def taps_of(x: np.ndarray, dilation: int) -> np.ndarray:
    """Series (n, length) shifted under each of a kernel's nine taps at a dilation, zero beyond the ends."""
    out = np.zeros((9, *x.shape), dtype=np.float32)
    for tap in range(9):
        shift = (tap - 4) * dilation
        if shift < 0:
            out[tap, :, -shift:] = x[:, :shift]
        elif shift > 0:
            out[tap, :, :-shift] = x[:, shift:]
        else:
            out[tap] = x
    return out


class MiniRocket:
    """About 10,000 features of a set of equal-length series (PLAID's come zero-padded)."""

    def __init__(self, train: np.ndarray, features: int = 10_000, seed: int = 0) -> None:
        x = np.asarray(train, dtype=np.float32)
        rng = np.random.default_rng(seed)
        self.dilations, self.per_dilation = dilations_of(x.shape[1], features)
        total = len(KERNELS) * int(self.per_dilation.sum())
        quantiles = (np.arange(1, total + 1) * ((np.sqrt(5) + 1) / 2)) % 1
        self.biases: list[np.ndarray] = []
        start = 0
        for dilation, count in zip(self.dilations, self.per_dilation, strict=True):
            for kernel in KERNELS:
                taps = taps_of(x[rng.integers(len(x))][None], int(dilation))[:, 0]
                output = 3 * taps[kernel].sum(axis=0) - taps.sum(axis=0)
                self.biases.append(np.quantile(output, quantiles[start : start + count]).astype(np.float32))
                start += count

    def transform(self, series: np.ndarray) -> np.ndarray:
        """Each kernel's share of output above each of its biases; every other kernel skips the padding."""
        x = np.asarray(series, dtype=np.float32)
        columns, biases = [], iter(self.biases)
        for d, dilation in enumerate(self.dilations):
            taps = taps_of(x, int(dilation))
            total, padding = taps.sum(axis=0), 4 * int(dilation)
            for k, kernel in enumerate(KERNELS):
                output = 3 * taps[kernel].sum(axis=0) - total
                if (d + k) % 2:
                    output = output[:, padding:-padding]
                columns.append((output[:, :, None] > next(biases)[None, None, :]).mean(axis=1))
        return np.hstack(columns)


def rocket_accuracy(
    x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, y_test: np.ndarray
) -> tuple[float, np.ndarray]:
    """MiniRocket features and a ridge classifier (alpha by leave-one-out), as its authors use them."""
    rocket = MiniRocket(x_train)
    classifier = make_pipeline(
        StandardScaler(with_mean=False), RidgeClassifierCV(alphas=np.logspace(-3, 3, 10))
    )
    classifier.fit(rocket.transform(x_train), y_train)
    predicted = classifier.predict(rocket.transform(x_test))
    return float(np.mean(predicted == y_test)), predicted


def plaid(data_dir: Path) -> float:
    """PLAID's fixed split (UCR archive): MiniRocket over the zero-padded current envelopes.

    The method was chosen by 5-fold cross-validation on the train split alone (``--plaid-cv``: MiniRocket
    0.92 against 0.898 for the trees over hand-made envelope features it replaced), never on the test split.
    """
    with np.load(data_dir / "plaid_ucr.npz") as f:
        x_train, y_train, x_test, y_test = f["x_train"], f["y_train"], f["x_test"], f["y_test"]
        names = [str(n) for n in f["class_names"]]
    accuracy, predicted = rocket_accuracy(x_train, y_train, x_test, y_test)
    ok = "meets" if accuracy >= TARGET_PLAID else "SHORT of"
    print(
        f"\n## PLAID fixed split, current envelopes, MiniRocket + ridge: accuracy {accuracy:.1%}"
        f" ({ok} target ≥ {TARGET_PLAID:.0%})"
    )
    print(
        "per class: "
        + ", ".join(
            f"{name} ({tr.category_of(name)}) {np.mean(predicted[y_test == i] == i):.0%}"
            for i, name in enumerate(names)
        )
    )
    categories = np.array([tr.category_of(n) for n in names])
    print(f"as vocabulary categories: {np.mean(categories[predicted] == categories[y_test]):.1%}")
    return accuracy


def plaid_cv(data_dir: Path) -> None:
    """MiniRocket by 5-fold cross-validation on PLAID's train split only (how the method was chosen)."""
    with np.load(data_dir / "plaid_ucr.npz") as f:
        x, y = f["x_train"], f["y_train"]
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(x, y)
    scores = [rocket_accuracy(x[a], y[a], x[b], y[b])[0] for a, b in folds]
    print(f"PLAID train split, 5-fold CV, MiniRocket + ridge: {np.mean(scores):.3f} ({np.round(scores, 3)})")


def waveforms() -> None:
    """The waveform trees on SYNTHETIC circuit-model waveforms: learnt on 220 V 50 Hz, tried on others."""
    names = list(KIND_NAMES)
    forbidden = np.array([circuits.KINDS[k][0] in HEATING_AND_COOKING for k in names])
    columns = [WAVEFORM_NAMES.index(name) for name in WAVE_INPUT]
    booster = tr.fit_waveform()
    print("\n## Waveform trees alone (SYNTHETIC: circuit models, not measured appliances), learnt on 220 V")
    for label, mains in (
        ("230 V 50 Hz", circuits.Mains(230.0, 50.0)),
        ("120 V 60 Hz", circuits.Mains(120.0, 60.0)),
        ("100 V 50 Hz, 3.2 kHz sampling", circuits.Mains(100.0, 50.0, sample_rate_hz=3200.0)),
        ("240 V 50 Hz, 12.8 kHz, 2 cycles", circuits.Mains(240.0, 50.0, sample_rate_hz=12800.0, cycles=2)),
    ):
        x_test, y_test = tr.synthetic_kinds(mains, 150, seed=2)
        predicted = booster.predict(x_test[:, columns]).argmax(axis=1)
        flagged, truth = forbidden[predicted], forbidden[y_test]
        ok = "meets" if flagged[truth].mean() >= 0.98 and flagged[~truth].mean() <= 0.01 else "SHORT of"
        print(
            f"{label}: kind accuracy {np.mean(predicted == y_test):.1%};"
            f" heating/cooking kinds recall {flagged[truth].mean():.1%},"
            f" false alarms {flagged[~truth].mean():.1%} ({ok} target ≥ 98 % at ≤ 1 %)"
        )
        print(
            "  per kind: "
            + ", ".join(f"{n} {np.mean(predicted[y_test == i] == i):.0%}" for i, n in enumerate(names))
        )


def main() -> None:
    if sys.argv[1:] == ["--waveforms"]:
        waveforms()
        return
    if sys.argv[1:] == ["--plaid-cv"]:
        plaid_cv(tr.DEFAULT_DATA)
        return
    save = "--save" in sys.argv[1:]
    paths = [a for a in sys.argv[1:] if a != "--save"]
    data_dir = Path(paths[0]) if paths else tr.DEFAULT_DATA
    plaid_accuracy = plaid(data_dir)
    rows, devices = tracebase(data_dir)
    waveforms()
    if save:
        figures = {
            "measured": datetime.date.today().isoformat(),
            "devices": devices,
            "rows": rows,
            "plaid_accuracy": round(plaid_accuracy, 6),
            "target_plaid": TARGET_PLAID,
            "min_power_w": DEFAULT_POLICY.min_power_w,
        }
        ACCURACY_FILE.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"\nsaved to {ACCURACY_FILE}")


if __name__ == "__main__":
    main()
