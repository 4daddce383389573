"""Identify appliances from load events: the one path the classify command and the ingest use."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from powerportal.load_ident.events import LoadEvent, LoadEventError, parse_event
from powerportal.load_ident.features import decision_view, event_rows, load_power
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
    return classify_all([(event, policy)], model=model)[0][0]


def classify_all(
    batch: Sequence[tuple[LoadEvent, Policy]], *, model: LoadModel | None = None
) -> list[tuple[Identification, float]]:
    """Each event's identification under its policy, and the power the policy weighed.

    A switch-off's power is the power it took away. The batch's features and trees are reckoned at
    once: one event at a time, a gateway's message of 200 load events held the ingest for seconds.
    """
    if not batch:
        return []
    model = model or default_model()
    rows = event_rows([event for event, _policy in batch])
    probabilities, p_forbidden = model.probabilities(rows), model.forbidden_probability(rows)
    powers = load_power(rows)
    out = []
    for i, (event, policy) in enumerate(batch):
        identification = decide(
            probabilities[i],
            p_forbidden=float(p_forbidden[i]),
            power_w=float(powers[i]),
            threshold=model.thresholds[decision_view(event)],
            policy=policy,
        )
        off = event.code == "appliance_off"
        out.append((identification, abs(event.detail.delta_power) if off else float(powers[i])))
    return out


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
