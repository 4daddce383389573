"""Identify appliances from load events: the one path the classify command and the ingest use."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from powerportal.load_ident.events import LoadEvent, LoadEventError, parse_event
from powerportal.load_ident.features import decision_view, event_vector, load_power
from powerportal.load_ident.model import (
    DEFAULT_POLICY,
    Identification,
    LoadModel,
    Policy,
    decide,
    default_model,
)


def classify(
    event: LoadEvent, *, policy: Policy = DEFAULT_POLICY, model: LoadModel | None = None
) -> Identification:
    """Identify the appliance of one load event and whether the policy forbids it."""
    model = model or default_model()
    row = event_vector(event)[None, :]
    return decide(
        model.probabilities(row)[0],
        p_forbidden=float(model.forbidden_probability(row)[0]),
        power_w=float(load_power(row)[0]),
        threshold=model.thresholds[decision_view(event)],
        policy=policy,
    )


def power_of(event: LoadEvent) -> float:
    """What the load draws as the policy weighs it; a switch-off, the power it took away."""
    if event.code == "appliance_off":
        return abs(event.detail.delta_power)
    return float(load_power(event_vector(event)[None, :])[0])


def classify_lines(lines: Iterable[str], *, policy: Policy = DEFAULT_POLICY) -> Iterator[dict[str, Any]]:
    """One answer per line of JSON-lines load events, in order; a bad line answers with its error."""
    for number, line in enumerate(lines, start=1):
        try:
            if not line.strip():
                raise LoadEventError("空行，不是负荷事件")
            yield classify(parse_event(line), policy=policy).as_line()
        except LoadEventError as exc:
            yield {"line": number, "error": str(exc)}


def dumps(answer: dict[str, Any]) -> str:
    """One answer as a line of output."""
    return json.dumps(answer, ensure_ascii=False)
