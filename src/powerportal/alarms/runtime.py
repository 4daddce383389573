"""Puts the alarm engine on a running ingest, with the alarm texts it feeds."""

from __future__ import annotations

from dataclasses import dataclass

from powerportal.alarms.engine import AlarmEngine, AlarmEngineConfig
from powerportal.alarms.texting import AlarmTexter
from powerportal.brands.service import all_brands
from powerportal.core.context import AppContext
from powerportal.telemetry.ingest import Ingest


@dataclass
class AlarmRuntime:
    """The alarm engine observing this process's ingest, and the sender of its texts."""

    engine: AlarmEngine
    texter: AlarmTexter | None

    async def stop(self) -> None:
        """Stop sending alarm texts."""
        if self.texter is not None:
            await self.texter.stop()


def attach(ctx: AppContext, ingest: Ingest) -> AlarmRuntime | None:
    """Observe the ingest's batches with the alarm rules, where the settings turn them on."""
    if not ctx.settings.alarms:
        return None
    texter: AlarmTexter | None = None
    if all_brands()[ctx.settings.brand].flags.SmsConfig:
        texter = AlarmTexter(ctx)
        texter.start()
    engine = AlarmEngine(
        AlarmEngineConfig(
            hysteresis=ctx.settings.alarm_hysteresis, min_seconds=ctx.settings.alarm_min_seconds
        ),
        on_opened=texter.enqueue if texter is not None else None,
    )
    ingest.observers.append(engine)
    return AlarmRuntime(engine=engine, texter=texter)
