"""Load identification, measured on appliances the model never saw (issue 19).

tracebase is split by device (GroupKFold, 5 folds): every figure comes from devices held out of
training, and each fold's forbidden thresholds are chosen on its own training devices only. The
waveform figures are SYNTHETIC: circuit-model waveforms (``load_ident/circuits.py``) of each event's
appliance kind, learnt on 220 V 50 Hz and tested on 230 V 50 Hz and 120 V 60 Hz. Run:

    uv run python bench/load_ident_eval.py [DATA_DIR]      (about 8 minutes, one thread)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import lightgbm as lgb
import numpy as np
from sklearn.model_selection import GroupKFold

from powerportal.load_ident import circuits
from powerportal.load_ident import train as tr
from powerportal.load_ident.features import WAVEFORM_NAMES, load_power
from powerportal.load_ident.model import (
    CATEGORIES,
    DEFAULT_POLICY,
    HEATING_AND_COOKING,
    KIND_NAMES,
    WAVE_INPUT,
    decide,
)

TARGET_RECALL, TARGET_FALSE_ALARMS, TARGET_PLAID = 0.93, 0.02, 0.93
TARGET_WAVE_RECALL, TARGET_WAVE_FALSE_ALARMS = 0.98, 0.01
# (name, view, synthesised chip features, synthetic waveform bank: None or its mains)
CASES = (
    ("1 Hz power alone, 120 s", "long", False, None),
    ("1 Hz power alone, first 10 s", "head", False, None),
    ("delta_power alone", "delta", False, None),
    ("120 s + chip features (synthesised)", "long", True, None),
    ("10 s + chip features (synthesised)", "head", True, None),
    ("120 s + waveform (SYNTHETIC, 230 V 50 Hz)", "long_wave", False, "230 V 50 Hz"),
    ("first 10 s + waveform (SYNTHETIC, 230 V 50 Hz)", "head_wave", False, "230 V 50 Hz"),
    ("120 s + waveform (SYNTHETIC, 120 V 60 Hz)", "long_wave", False, "120 V 60 Hz"),
    ("first 10 s + waveform (SYNTHETIC, 120 V 60 Hz)", "head_wave", False, "120 V 60 Hz"),
    ("delta_power + waveform (SYNTHETIC, 230 V 50 Hz)", "delta_wave", False, "230 V 50 Hz"),
)
TEST_MAINS = {"230 V 50 Hz": circuits.Mains(230.0, 50.0), "120 V 60 Hz": circuits.Mains(120.0, 60.0)}


def verdicts(
    model: tr.LoadModel,
    data: tr.Tracebase,
    index: tr.Index,
    view: str,
    chip: bool,
    wave: np.ndarray | None = None,
) -> tuple:
    """Forbidden verdict and named category of each held-out event."""
    rng = np.random.default_rng(7)
    features = tr.synthesise_chip(data, index, rng) if chip else None
    rows = tr.view_rows(data, index, view, features, None if wave is None else wave[index])
    probs, p_forbidden = model.probabilities(rows), model.forbidden_probability(rows)
    forbidden, named = np.zeros(len(index), dtype=bool), np.zeros(len(index), dtype=np.int64)
    for row, (p, pf, power) in enumerate(zip(probs, p_forbidden, load_power(rows), strict=True)):
        threshold = model.thresholds[view]
        verdict = decide(p, p_forbidden=pf, power_w=power, threshold=threshold, policy=DEFAULT_POLICY)
        forbidden[row], named[row] = verdict.forbidden, CATEGORIES.index(verdict.appliance)
    return forbidden, named


def report(name: str, data: tr.Tracebase, flagged: np.ndarray, named: np.ndarray, *, wave: bool) -> None:
    truth = data.forbidden
    recall = flagged[truth].mean()
    false_alarms = flagged[~truth].mean()
    devices = np.unique(data.device)
    per_device_recall = [flagged[(data.device == d)].mean() for d in devices if truth[data.device == d][0]]
    per_device_fa = [flagged[(data.device == d)].mean() for d in devices if not truth[data.device == d][0]]
    target_recall = TARGET_WAVE_RECALL if wave else TARGET_RECALL
    target_fa = TARGET_WAVE_FALSE_ALARMS if wave else TARGET_FALSE_ALARMS
    ok = "meets" if recall >= target_recall and false_alarms <= target_fa else "SHORT of"
    print(f"\n## {name}")
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


POWER = np.zeros(0)


def tracebase(data_dir: Path) -> None:
    global POWER
    data = tr.load_tracebase(data_dir)
    POWER = tr.event_power(data)
    print(
        f"tracebase: {len(data.delta)} switch-ons of {len(np.unique(data.device))} devices,"
        " GroupKFold(5) by device"
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
        name: (np.zeros(len(data.delta), bool), np.zeros(len(data.delta), np.int64)) for name, *_ in CASES
    }
    started = time.monotonic()
    # One synthetic waveform per event for training (220 V 50 Hz), others on other mains for testing.
    waveform = tr.fit_waveform()
    bank = tr.waveform_bank(data, tr.TRAINING_MAINS, tr.SEED)
    test_banks = {
        label: tr.waveform_bank(data, mains, seed) for seed, (label, mains) in enumerate(TEST_MAINS.items())
    }
    print(f"synthetic waveforms: {time.monotonic() - started:.0f} s")
    thresholds = []
    for fold, (train, test) in enumerate(GroupKFold(n_splits=5).split(data.delta, groups=data.device)):
        started = time.monotonic()
        model = tr.fit_model(data, train, bank, waveform)
        thresholds.append(model.thresholds)
        for name, view, chip, mains in CASES:
            wave = None if mains is None else test_banks[mains]
            flagged, named = verdicts(model, data, test, view, chip, wave)
            results[name][0][test], results[name][1][test] = flagged, named
        print(
            f"fold {fold + 1}: {len(np.unique(data.device[test]))} held-out devices,"
            f" {time.monotonic() - started:.0f} s"
        )
    print(
        "thresholds chosen on training folds: "
        + "; ".join(", ".join(f"{k} {v:.2f}" for k, v in t.items()) for t in thresholds)
    )
    for name, view, *_ in CASES:
        report(name, data, *results[name], wave=view.endswith("_wave"))


def envelope_features(series: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Shape of a current envelope relative to its settled level, and its levels.

    The set was chosen by 5-fold cross-validation on PLAID's train split alone (0.864 → 0.888 with the
    per-eighth statistics and slope quantiles), never on its test split.
    """
    rows = []
    for values, length in zip(series, lengths, strict=True):
        s = values[:length].astype(np.float64)
        settled = np.median(s[-max(length // 4, 1) :])
        scale = max(abs(settled), 1e-6)
        grid = np.interp(np.linspace(0, length - 1, 48), np.arange(length), s)
        steps = np.abs(np.diff(s))
        relative = s / scale
        slopes = np.diff(relative)
        segments = [
            f(part) for part in np.array_split(relative, 8) for f in (np.mean, np.std, np.max, np.min)
        ]
        rows.append(
            np.r_[
                segments,
                np.mean(np.diff(np.sign(slopes)) != 0),
                np.quantile(slopes, [0.01, 0.1, 0.5, 0.9, 0.99]),
                np.log10(scale),
                np.log10(max(s.max(), 1e-6)),
                grid / scale,
                grid,
                np.quantile(s, [0.05, 0.25, 0.5, 0.75, 0.95]),
                settled,
                s.max(),
                s.max() / scale,
                np.argmax(s) / length,
                s.std() / scale,
                steps.mean() / scale,
                steps.max() / scale,
                length,
                s[: length // 10].mean() / scale,
                np.std(s[-length // 4 :]) / scale,
            ]
        )
    return np.array(rows)


def plaid(data_dir: Path) -> None:
    """PLAID's fixed split (UCR archive): the envelope model, with settings chosen on the train split only."""
    with np.load(data_dir / "plaid_ucr.npz") as f:
        x_train, n_train, y_train = f["x_train"], f["len_train"], f["y_train"]
        x_test, n_test, y_test = f["x_test"], f["len_test"], f["y_test"]
        names = [str(n) for n in f["class_names"]]
    params = {
        "objective": "multiclass",
        "num_class": len(names),
        "learning_rate": 0.05,
        "num_leaves": 15,
        "min_data_in_leaf": 5,
        "feature_fraction": 0.5,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "num_threads": 1,
        "verbose": -1,
        "seed": 1,
    }
    booster = lgb.train(params, lgb.Dataset(envelope_features(x_train, n_train), y_train), 300)
    predicted = booster.predict(envelope_features(x_test, n_test)).argmax(axis=1)
    accuracy = np.mean(predicted == y_test)
    ok = "meets" if accuracy >= TARGET_PLAID else "SHORT of"
    print(
        f"\n## PLAID fixed split, current-envelope model: accuracy {accuracy:.1%}"
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
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else tr.DEFAULT_DATA
    plaid(data_dir)
    tracebase(data_dir)
    waveforms()


if __name__ == "__main__":
    main()
