"""The trained classifier, the category vocabulary and the default policy."""

from __future__ import annotations

import functools
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np

from powerportal.load_ident.circuits import KINDS
from powerportal.load_ident.features import CHIP_NAMES, FEATURE_NAMES, SHAPE_NAMES, WAVEFORM_NAMES, Array

CATEGORIES = (
    "电水壶",
    "电热器/取暖器",
    "电磁炉",
    "电饭煲",
    "电吹风",
    "微波炉",
    "热水器",
    "电熨斗",
    "笔记本电脑",
    "台式电脑",
    "显示器",
    "电视",
    "照明",
    "冰箱",
    "空调",
    "洗衣机",
    "风扇",
    "其他",
)
HEATING_AND_COOKING = frozenset(
    {"电水壶", "电热器/取暖器", "电磁炉", "电饭煲", "电吹风", "微波炉", "热水器", "电熨斗"}
)
# The thresholds' views: 2 minutes of 1 Hz power, its first 10 s, the delta alone; with a waveform or not.
VIEWS = ("long", "head", "delta", "long_wave", "head_wave", "delta_wave")
MODEL_DIR = Path(__file__).resolve().parent / "model"
# What ``bench/load_ident_eval.py --save`` measured on devices the trees never saw; the screen shows it.
ACCURACY_FILE = MODEL_DIR / "accuracy.json"
CATEGORY_FILE = "categories.txt.gz"
FORBIDDEN_FILE = "forbidden.txt.gz"
WAVEFORM_FILE = "waveform.txt.gz"
META_FILE = "meta.json"
# The circuit kinds the waveform trees tell apart (``circuits.KINDS``), from the waveform's shape alone: its
# power is left out (the step gives it), so a kind is learnt whatever the appliance's rating.
KIND_NAMES = tuple(KINDS)
WAVE_INPUT = tuple(name for name in WAVEFORM_NAMES if name != "log_power")
_WAVE_COLUMNS = [FEATURE_NAMES.index(f"wave_{name}") for name in WAVE_INPUT]
_BASE_COLUMNS = [FEATURE_NAMES.index(name) for name in SHAPE_NAMES + CHIP_NAMES]
# Circuit kinds that, in the vocabulary, only one cooking or heating appliance has. The data sets hold
# (almost) none of them, so the trees cannot learn them from a label: the waveform trees' probability of
# such a kind goes straight to its category and to the forbidden verdict.
KIND_CATEGORY = {"induction_cooker": "电磁炉", "hair_dryer": "电吹风", "magnetron": "微波炉"}
_SPECIFIC = [(KIND_NAMES.index(kind), CATEGORIES.index(category)) for kind, category in KIND_CATEGORY.items()]
# What the category and forbidden trees read: the shape, the chip, and the circuit kind's probabilities.
MODEL_FEATURES = SHAPE_NAMES + CHIP_NAMES + tuple(f"kind_{kind}" for kind in KIND_NAMES)


@dataclass(frozen=True)
class Policy:
    """Which loads a project forbids: some categories, and any single load above a power limit."""

    forbidden: frozenset[str] = HEATING_AND_COOKING
    # A dormitory socket circuit is commonly 10 A (2.2 kW): one load above 2 kW is refused whatever it is.
    power_limit_w: float = 2000.0
    # Below this a load is never forbidden for its category: a 30 W pulse is no fire risk, whatever made it.
    min_power_w: float = 100.0


DEFAULT_POLICY = Policy()


@dataclass(frozen=True)
class Identification:
    """What the classifier says of one event."""

    appliance: str
    forbidden: bool
    confidence: float
    forbidden_probability: float

    def as_line(self) -> dict[str, Any]:
        """The classify command's JSON object."""
        return {
            "appliance": self.appliance,
            "forbidden": self.forbidden,
            "confidence": round(self.confidence, 3),
        }


def kind_rows(waveform: lgb.Booster, rows: Array) -> Array:
    """The circuit kind's probabilities of each row that has a waveform's physics; NaN for the others."""
    out = np.full((len(rows), len(KIND_NAMES)), np.nan)
    physics = rows[:, _WAVE_COLUMNS]
    present = ~np.isnan(physics).all(axis=1)
    if present.any():
        raw = np.asarray(waveform.predict(physics[present], num_threads=1), dtype=np.float64)
        out[present] = raw.reshape(int(present.sum()), len(KIND_NAMES))
    return out


class LoadModel:
    """Gradient-boosted trees: the waveform's circuit kind, the category, and the default policy's verdict.

    The verdict has its own trees because "heating or cooking" is learnt from every such appliance at
    once, where the categories split the same few devices into many small classes. The waveform trees
    (learnt on synthetic circuit waveforms, ``circuits.py``) turn a waveform's physics into the probability
    of each circuit kind, which the other two read beside the step's shape.
    """

    def __init__(
        self,
        categories: lgb.Booster,
        forbidden: lgb.Booster,
        *,
        classes: list[str],
        thresholds: dict[str, float],
        waveform: lgb.Booster | None = None,
    ) -> None:
        self.categories = categories
        self.forbidden = forbidden
        self.waveform = waveform
        self.classes = classes
        self.thresholds = thresholds
        self._columns = [CATEGORIES.index(c) for c in classes]

    def kinds(self, rows: Array) -> Array:
        """The circuit kind's probabilities of each row (``KIND_NAMES``), NaN where no waveform came."""
        if self.waveform is None:
            return np.full((len(rows), len(KIND_NAMES)), np.nan)
        return kind_rows(self.waveform, rows)

    def model_rows(self, rows: Array) -> Array:
        """Event rows (``FEATURE_NAMES``) as the trees read them (``MODEL_FEATURES``)."""
        return np.hstack([rows[:, _BASE_COLUMNS], self.kinds(rows)])

    def probabilities(self, rows: Array) -> Array:
        """Probability of every category (``CATEGORIES`` order) for each row."""
        raw = np.asarray(self.categories.predict(self.model_rows(rows), num_threads=1), dtype=np.float64)
        full = np.zeros((len(rows), len(CATEGORIES)))
        full[:, self._columns] = raw.reshape(len(rows), -1)
        kinds = np.nan_to_num(self.kinds(rows))
        specific = kinds[:, [k for k, _ in _SPECIFIC]].sum(axis=1)
        full *= (1.0 - specific)[:, None]
        for kind, category in _SPECIFIC:
            full[:, category] += kinds[:, kind]
        return full

    def forbidden_probability(self, rows: Array) -> Array:
        """Probability that each row is a heating or cooking load."""
        raw = self.forbidden.predict(self.model_rows(rows), num_threads=1)
        trees = np.asarray(raw, dtype=np.float64).reshape(len(rows))
        specific = np.nan_to_num(self.kinds(rows))[:, [k for k, _ in _SPECIFIC]].sum(axis=1)
        return np.asarray(trees * (1.0 - specific) + specific)

    def save(self, directory: Path, *, about: dict[str, Any]) -> None:
        """Write the trees as LightGBM text (gzip) and the classes and thresholds as JSON."""
        directory.mkdir(parents=True, exist_ok=True)
        boosters = [(CATEGORY_FILE, self.categories), (FORBIDDEN_FILE, self.forbidden)]
        if self.waveform is not None:
            boosters.append((WAVEFORM_FILE, self.waveform))
        for name, booster in boosters:
            text = booster.model_to_string(num_iteration=-1).encode()
            (directory / name).write_bytes(gzip.compress(text, mtime=0))
        meta = {
            "classes": self.classes,
            "thresholds": self.thresholds,
            "features": list(FEATURE_NAMES),
            "kinds": list(KIND_NAMES),
        }
        meta |= about
        (directory / META_FILE).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def load(cls, directory: Path = MODEL_DIR) -> LoadModel:
        """Read a model written by ``save``."""
        meta = json.loads((directory / META_FILE).read_text())
        if meta["features"] != list(FEATURE_NAMES) or meta.get("kinds") != list(KIND_NAMES):
            raise ValueError("负荷识别模型与特征定义不一致，请重新训练")

        def booster(name: str) -> lgb.Booster:
            text = gzip.decompress((directory / name).read_bytes()).decode()
            return lgb.Booster(model_str=text)

        return cls(
            booster(CATEGORY_FILE),
            booster(FORBIDDEN_FILE),
            classes=list(meta["classes"]),
            thresholds=dict(meta["thresholds"]),
            waveform=booster(WAVEFORM_FILE),
        )


@functools.cache
def default_model() -> LoadModel:
    """The model shipped in the package."""
    return LoadModel.load()


@functools.cache
def measured_accuracy() -> dict[str, Any]:
    """The evaluation's figures as it saved them beside the model."""
    return dict(json.loads(ACCURACY_FILE.read_text(encoding="utf-8")))


def decide(
    probabilities: Array,
    *,
    p_forbidden: float,
    power_w: float,
    threshold: float,
    policy: Policy = DEFAULT_POLICY,
) -> Identification:
    """Turn one event's category probabilities and forbidden probability into a verdict under a policy.

    ``power_w`` is what the load draws (``features.load_power``), weighed against the policy's limits.
    ``p_forbidden`` is the forbidden trees' answer: heating or cooking, at the view's ``threshold``. The
    named appliance is the likeliest category on the side it falls on (of all, over the power limit), so
    it never says 显示器 and forbidden by category; a policy forbids the load when that named category is
    on its list (a kettle-only policy lets a heater pass, a policy listing 空调 catches one).
    ``forbidden_probability`` is the probability of the policy's categories: P(side) x P(listed
    categories | side), summed over both sides.
    """
    heating = np.array([c in HEATING_AND_COOKING for c in CATEGORIES])
    listed = np.array([c in policy.forbidden for c in CATEGORIES])
    heat_side = p_forbidden >= threshold
    over_limit = power_w > policy.power_limit_w
    # Over the limit the load is forbidden whatever it is: it is named the likeliest of all categories,
    # not 其他 because the forbidden trees doubt a 2.1 kW kettle the category trees are sure of.
    side = heating if heat_side else ~heating
    if over_limit:
        side = np.ones(len(CATEGORIES), dtype=bool)
    best = int(np.argmax(np.where(side, probabilities, -1.0)))

    def share(mask: Array) -> float:
        total = float(probabilities[mask].sum())
        return float(probabilities[mask & listed].sum()) / total if total > 0 else 0.0

    p_policy = p_forbidden * share(heating) + (1.0 - p_forbidden) * share(~heating)
    by_category = bool(listed[best]) and power_w >= policy.min_power_w
    forbidden = by_category or over_limit
    # P(appliance) = P(its side of the verdict) x P(appliance | that side), the two trees combined.
    side_total = float(probabilities[side].sum())
    within = float(probabilities[best]) / side_total if side_total > 0 else 0.0
    confidence = within if over_limit else (p_forbidden if heat_side else 1.0 - p_forbidden) * within
    p_forbidden = p_policy
    return Identification(
        appliance=CATEGORIES[best],
        forbidden=forbidden,
        confidence=confidence,
        forbidden_probability=p_forbidden,
    )
