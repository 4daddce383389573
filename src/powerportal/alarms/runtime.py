"""Puts the alarm engine on a running ingest, with the alarm texts it feeds."""

from __future__ import annotations

from powerportal.alarms.engine import AlarmEngine, AlarmEngineConfig
from powerportal.brands.service import all_brands
from powerportal.core.context import AppContext
from powerportal.sms.notification import AlarmTexter
from powerportal.telemetry.ingest import Ingest

EXTRAS_KEY = "alarms"
TEXTER_KEY = "alarm_texts"


def attach(ctx: AppContext, ingest: Ingest) -> AlarmEngine | None:
    """Observe the ingest's batches with the alarm rules, where the settings turn them on."""
    if not ctx.settings.alarms:
        return None
    texter: AlarmTexter | None = None
    if all_brands()[ctx.settings.brand].flags.SmsConfig:
        texter = AlarmTexter(ctx)
        texter.start()
        ctx.extras[TEXTER_KEY] = texter
    engine = AlarmEngine(
        AlarmEngineConfig(
            hysteresis=ctx.settings.alarm_hysteresis, min_seconds=ctx.settings.alarm_min_seconds
        ),
        on_opened=texter.enqueue if texter is not None else None,
    )
    ingest.observers.append(engine)
    ctx.extras[EXTRAS_KEY] = engine
    return engine


async def detach(ctx: AppContext) -> None:
    """Stop sending alarm texts."""
    texter = ctx.extras.pop(TEXTER_KEY, None)
    if isinstance(texter, AlarmTexter):
        await texter.stop()
