"""A site whose breakers send load events straight into an ingest with the load observer on it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import select

from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.control.commands import Commander
from powerportal.core.timeutil import utcnow
from powerportal.load_ident.actions import LoadActions
from powerportal.load_ident.models import LoadEvent
from powerportal.load_ident.observer import LoadObserver
from powerportal.mqtt import codec
from powerportal.telemetry.ingest import Ingest
from tests.conftest import Harness
from tests.factories import Account, make_account, make_building, make_device, make_gateway, make_project

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "load_ident" / "tracebase-held-out.jsonl"
_LINES = [json.loads(line) for line in FIXTURES.read_text().splitlines()]
# Real switch-ons of two appliances the shipped model never saw.
KETTLES = _LINES[:3]
LAPTOPS = _LINES[3:]


def load_event(template: dict[str, Any], at: datetime, device_id: str = "1", **detail: Any) -> dict[str, Any]:
    """A fixture's event, at ``at`` on device ``device_id`` (detail keys replaced or, with None, removed)."""
    event: dict[str, Any] = json.loads(json.dumps(template))
    event["device"], event["ts"] = device_id, int(at.timestamp() * 1000)
    for key, value in detail.items():
        if value is None:
            event["detail"].pop(key, None)
        else:
            event["detail"][key] = value
    return event


@dataclass
class Site:
    """One customer's project with a building, a gateway and two rooms, an ingest and the load observer."""

    h: Harness
    me: Account
    project: int
    building: int
    gateway: int
    sn: str
    room: int
    other_room: int
    ingest: Ingest
    observer: LoadObserver
    actions: LoadActions

    async def send(self, *events: dict[str, Any]) -> None:
        """Publish events as the gateway would, and wait until they are written."""
        await self.ingest.submit(codec.topic_for(self.sn, "events"), orjson.dumps(list(events)))
        await self.ingest.drain()

    async def send_raw(self, payload: bytes) -> None:
        """Publish any payload on the gateway's events topic."""
        await self.ingest.submit(codec.topic_for(self.sn, "events"), payload)
        await self.ingest.drain()

    async def rows(self) -> list[LoadEvent]:
        """Every identified event, oldest first."""
        async with self.h.ctx.sessions() as session:
            return list((await session.scalars(select(LoadEvent).order_by(LoadEvent.sysno))).all())

    async def alarms(self) -> list[Alarm]:
        """Every alarm, oldest first."""
        async with self.h.ctx.sessions() as session:
            return list((await session.scalars(select(Alarm).order_by(Alarm.sysno))).all())

    async def notices(self) -> list[CustomerNotice]:
        """Every notice, oldest first."""
        async with self.h.ctx.sessions() as session:
            return list((await session.scalars(select(CustomerNotice).order_by(CustomerNotice.sysno))).all())

    async def policy(self, **body: Any) -> dict[str, Any]:
        """Save the project's policy (or with ``building_sysno`` the building's) through the API."""
        values = {"forbidden": ["电水壶"], "power_limit": 2000, "action": "alarm", "reclose_minutes": 30,
                  "max_reclose": 3, **body}  # fmt: skip
        return await self.h.post(
            "/api/CustomerLoadIdentify/SaveLoadPolicy",
            {"project_sysno": self.project, **values},
            token=self.me.token,
        )


@contextlib.asynccontextmanager
async def load_site(h: Harness, *, online: bool = True) -> AsyncIterator[Site]:
    """A site with a running ingest, the load observer and an action worker without an MQTT link."""
    me = await make_account(h)
    project = await make_project(h, me.sysno, name="阳光学院")
    building = await make_building(h, project, name="1号宿舍楼")
    sn = f"LDI{me.sysno:05d}"
    gateway = await make_gateway(
        h, project, building, sn=sn, name="宿舍网关", online=online, last_seen=utcnow()
    )
    room = await make_device(h, gateway, project, device_id="1", name="101宿舍", online=int(online))
    other_room = await make_device(h, gateway, project, device_id="2", name="102宿舍", online=int(online))
    ingest = Ingest(sessions=h.ctx.sessions, settings=h.ctx.settings)
    actions = LoadActions(h.ctx, Commander(h.ctx))
    observer = LoadObserver(on_trips=actions.wake)
    ingest.observers.append(observer)
    task = asyncio.create_task(ingest.run())
    try:
        yield Site(h, me, project, building, gateway, sn, room, other_room, ingest, observer, actions)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def ago(minutes: float) -> datetime:
    """A recent instant in whole milliseconds."""
    at = utcnow() - timedelta(minutes=minutes)
    return at.replace(microsecond=at.microsecond // 1000 * 1000)
