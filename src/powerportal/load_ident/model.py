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

from powerportal.load_ident.features import FEATURE_NAMES, Array

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
VIEWS = ("long", "head", "delta")
MODEL_DIR = Path(__file__).resolve().parent / "model"
CATEGORY_FILE = "categories.txt.gz"
FORBIDDEN_FILE = "forbidden.txt.gz"
META_FILE = "meta.json"


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


class LoadModel:
    """Gradient-boosted trees: one over the categories, one for the default policy's forbidden verdict.

    The verdict has its own trees because "heating or cooking" is learnt from every such appliance at
    once, where the categories split the same few devices into many small classes.
    """

    def __init__(
        self,
        categories: lgb.Booster,
        forbidden: lgb.Booster,
        *,
        classes: list[str],
        thresholds: dict[str, float],
    ) -> None:
        self.categories = categories
        self.forbidden = forbidden
        self.classes = classes
        self.thresholds = thresholds
        self._columns = [CATEGORIES.index(c) for c in classes]

    def probabilities(self, rows: Array) -> Array:
        """Probability of every category (``CATEGORIES`` order) for each row."""
        raw = np.asarray(self.categories.predict(rows, num_threads=1), dtype=np.float64)
        full = np.zeros((len(rows), len(CATEGORIES)))
        full[:, self._columns] = raw.reshape(len(rows), -1)
        return full

    def forbidden_probability(self, rows: Array) -> Array:
        """Probability that each row is a heating or cooking load."""
        return np.asarray(self.forbidden.predict(rows, num_threads=1), dtype=np.float64).reshape(len(rows))

    def save(self, directory: Path, *, about: dict[str, Any]) -> None:
        """Write the trees as LightGBM text (gzip) and the classes and thresholds as JSON."""
        directory.mkdir(parents=True, exist_ok=True)
        for name, booster in ((CATEGORY_FILE, self.categories), (FORBIDDEN_FILE, self.forbidden)):
            text = booster.model_to_string(num_iteration=-1).encode()
            (directory / name).write_bytes(gzip.compress(text, mtime=0))
        meta = {"classes": self.classes, "thresholds": self.thresholds, "features": list(FEATURE_NAMES)}
        meta |= about
        (directory / META_FILE).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def load(cls, directory: Path = MODEL_DIR) -> LoadModel:
        """Read a model written by ``save``."""
        meta = json.loads((directory / META_FILE).read_text())
        if meta["features"] != list(FEATURE_NAMES):
            raise ValueError("负荷识别模型与特征定义不一致，请重新训练")

        def booster(name: str) -> lgb.Booster:
            text = gzip.decompress((directory / name).read_bytes()).decode()
            return lgb.Booster(model_str=text)

        return cls(
            booster(CATEGORY_FILE),
            booster(FORBIDDEN_FILE),
            classes=list(meta["classes"]),
            thresholds=dict(meta["thresholds"]),
        )


@functools.cache
def default_model() -> LoadModel:
    """The model shipped in the package."""
    return LoadModel.load()


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
    ``p_forbidden`` is the forbidden trees' answer, which holds for the default categories; a policy
    forbidding others sums the probabilities of its categories instead.
    """
    forbidden_mask = np.array([c in policy.forbidden for c in CATEGORIES])
    if policy.forbidden != HEATING_AND_COOKING:
        p_forbidden = float(probabilities[forbidden_mask].sum())
    by_category = p_forbidden >= threshold and power_w >= policy.min_power_w
    forbidden = by_category or power_w > policy.power_limit_w
    # The named appliance agrees with the verdict: the likeliest category of the side it falls on.
    if forbidden and not by_category:
        candidates = np.ones(len(CATEGORIES), dtype=bool)
    else:
        candidates = forbidden_mask if by_category else ~forbidden_mask
    best = int(np.argmax(np.where(candidates, probabilities, -1.0)))
    # P(appliance) = P(its side of the verdict) x P(appliance | that side), the two trees combined.
    side = float(probabilities[candidates].sum())
    within = float(probabilities[best]) / side if side > 0 else 0.0
    if forbidden and not by_category:
        confidence = float(probabilities[best])
    else:
        confidence = (p_forbidden if by_category else 1.0 - p_forbidden) * within
    return Identification(
        appliance=CATEGORIES[best],
        forbidden=forbidden,
        confidence=confidence,
        forbidden_probability=p_forbidden,
    )
