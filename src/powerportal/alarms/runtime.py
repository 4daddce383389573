"""Puts the alarm engine on a running ingest."""

from __future__ import annotations

from powerportal.alarms.engine import AlarmEngine, AlarmEngineConfig
from powerportal.core.context import AppContext
from powerportal.telemetry.ingest import Ingest

EXTRAS_KEY = "alarms"


def attach(ctx: AppContext, ingest: Ingest) -> AlarmEngine | None:
    """Observe the ingest's batches with the alarm rules, where the settings turn them on."""
    if not ctx.settings.alarms:
        return None
    engine = AlarmEngine(
        AlarmEngineConfig(
            hysteresis=ctx.settings.alarm_hysteresis, min_seconds=ctx.settings.alarm_min_seconds
        )
    )
    ingest.observers.append(engine)
    ctx.extras[EXTRAS_KEY] = engine
    return engine
