"""An ingest with the alarm engine on it, fed directly (no broker), for the alarm tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import select

from powerportal.alarms.engine import AlarmEngine, AlarmEngineConfig
from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.core.timeutil import utcnow
from powerportal.mqtt import codec
from powerportal.telemetry.ingest import Ingest
from tests.conftest import Harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project


@dataclass
class Field:
    """A customer's site with one gateway and one device, an ingest and the engine observing it."""

    h: Harness
    me: Account
    project: int
    gateway: int
    sn: str
    device: int
    ingest: Ingest
    engine: AlarmEngine

    async def telemetry(self, at: datetime, device_id: str = "1", **values: float) -> None:
        """One reading of the device, written."""
        body = {device_id: [{"ts": int(at.timestamp() * 1000), "values": values}]}
        await self.ingest.submit(codec.topic_for(self.sn, "telemetry"), orjson.dumps(body))
        await self.ingest.drain()

    async def event(self, at: datetime, kind: str, code: str | None, value: float | None = None) -> None:
        """One device event, written."""
        event: dict[str, Any] = {"device": "1", "ts": int(at.timestamp() * 1000), "type": kind}
        if code is not None:
            event["code"] = code
        if value is not None:
            event["value"] = value
        await self.ingest.submit(codec.topic_for(self.sn, "events"), orjson.dumps([event]))
        await self.ingest.drain()

    async def alarms(self) -> list[Alarm]:
        """Every alarm, oldest first."""
        async with self.h.ctx.sessions() as session:
            return list((await session.scalars(select(Alarm).order_by(Alarm.sysno))).all())

    async def notices(self) -> list[CustomerNotice]:
        """Every notice, oldest first."""
        async with self.h.ctx.sessions() as session:
            return list((await session.scalars(select(CustomerNotice).order_by(CustomerNotice.sysno))).all())


@contextlib.asynccontextmanager
async def alarm_field(
    h: Harness,
    *,
    min_seconds: float = 10,
    hysteresis: float = 0.05,
    mobile: str = "13900000001",
    **thresholds: float,
) -> AsyncIterator[Field]:
    """A site whose device 1 has the given thresholds, with a running ingest and engine."""
    me = await make_account(h, mobile=mobile)
    project = await make_project(h, me.sysno, name="一号园区")
    sn = f"ALM{me.sysno:05d}"
    gateway = await make_gateway(h, project, sn=sn, name="配电房网关", online=True, last_seen=utcnow())
    device = await make_device(h, gateway, project, device_id="1", name="101宿舍", online=1, **thresholds)
    ingest = Ingest(sessions=h.ctx.sessions, settings=h.ctx.settings)
    engine = AlarmEngine(AlarmEngineConfig(hysteresis=hysteresis, min_seconds=min_seconds))
    ingest.observers.append(engine)
    task = asyncio.create_task(ingest.run())
    try:
        yield Field(
            h=h, me=me, project=project, gateway=gateway, sn=sn, device=device, ingest=ingest, engine=engine
        )
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def seconds(base: datetime, s: float) -> datetime:
    """``base`` plus ``s`` seconds."""
    return base + timedelta(seconds=s)


def base(minutes_ago: float = 5) -> datetime:
    """A recent instant with whole milliseconds (the protocol's resolution)."""
    at = utcnow() - timedelta(minutes=minutes_ago)
    return at.replace(microsecond=at.microsecond // 1000 * 1000)
