"""Two customers on one running server (API, embedded broker, ingest), each with their own gateways."""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import aiomqtt
import httpx
import pytest
from sqlalchemy import func, select

from powerportal.accounts.models import Customer
from powerportal.app import create_app
from powerportal.devices.models import Device
from powerportal.logs.models import OfflineLog
from powerportal.mqtt import codec
from powerportal.mqtt.broker import EmbeddedBroker
from powerportal.projects.models import Project
from powerportal.telemetry.ingest import Ingest
from powerportal.telemetry.models import Reading
from tests.conftest import Harness, login, make_settings
from tests.factories import Account, make_account, make_project
from tests.mqtt.private import free_port

GATEWAYS = "/api/CustomerGateway"


@dataclass
class Registered:
    """A gateway as its owner registered it."""

    sysno: int
    sn: str
    secret: str


@dataclass
class Edge:
    """A running server and two customers: A with two projects, B with one."""

    h: Harness
    a: Account
    b: Account
    a_project: int
    a_project2: int
    b_project: int

    @property
    def broker(self) -> EmbeddedBroker:
        """The embedded broker."""
        runtime = self.h.runtime.telemetry
        assert runtime is not None and runtime.broker is not None
        return runtime.broker

    @property
    def ingest(self) -> Ingest:
        """The ingest."""
        runtime = self.h.runtime.telemetry
        assert runtime is not None
        return runtime.ingest

    @property
    def port(self) -> int:
        """Where gateways connect."""
        return self.broker.port

    async def register(self, who: Account, project: int, sn: str | None = None) -> Registered:
        """Register a gateway through the API, as its owner would."""
        sn = sn or f"SEC{secrets.token_hex(4).upper()}"
        added = await self.h.post(
            f"{GATEWAYS}/AddGateway",
            {"sn": sn, "name": f"网关{sn}", "project_sysno": project},
            token=who.token,
        )
        assert added["statusCode"] == 200, added
        return Registered(sysno=added["data"]["sysno"], sn=sn, secret=added["data"]["secret"])

    async def reset(self, who: Account, gateway: Registered) -> Registered:
        """ResetGatewaySecret through the API."""
        answer = await self.h.post(
            f"{GATEWAYS}/ResetGatewaySecret", {"sysno": gateway.sysno}, token=who.token
        )
        assert answer["statusCode"] == 200, answer
        return Registered(sysno=gateway.sysno, sn=gateway.sn, secret=answer["data"]["secret"])

    async def delete(self, who: Account, gateway: Registered) -> None:
        """DeleteGateway through the API."""
        answer = await self.h.call(
            "DELETE", f"{GATEWAYS}/DeleteGateway", token=who.token, params={"sysno": gateway.sysno}
        )
        assert answer["statusCode"] == 200, answer

    async def move(self, who: Account, gateway: Registered, project: int) -> None:
        """MoveGateway through the API."""
        answer = await self.h.put(
            f"{GATEWAYS}/MoveGateway", {"sysno": gateway.sysno, "project_sysno": project}, token=who.token
        )
        assert answer["statusCode"] == 200, answer

    def client(
        self,
        sn: str,
        secret: str | None,
        *,
        client_id: str | None = None,
        will: aiomqtt.Will | None = None,
        **kw: Any,
    ) -> aiomqtt.Client:
        """A stock MQTT client logged in as a gateway."""
        return aiomqtt.Client(
            "127.0.0.1",
            self.port,
            username=sn,
            password=secret,
            identifier=client_id if client_id is not None else f"{sn}-{secrets.token_hex(3)}",
            will=will,
            **kw,
        )

    async def readings_in(self, project: int) -> int:
        """Readings stored for a project's devices."""
        async with self.h.ctx.sessions() as session:
            return int(
                await session.scalar(
                    select(func.count())
                    .select_from(Reading)
                    .join(Device, Device.sysno == Reading.device_sysno)
                    .where(Device.project_sysno == project)
                )
                or 0
            )

    async def devices_in(self, project: int) -> list[Device]:
        """A project's devices."""
        async with self.h.ctx.sessions() as session:
            return list(await session.scalars(select(Device).where(Device.project_sysno == project)))

    async def offline_spells(self, gateway_sysno: int) -> int:
        """Offline spells logged for a gateway itself."""
        async with self.h.ctx.sessions() as session:
            return int(
                await session.scalar(
                    select(func.count())
                    .select_from(OfflineLog)
                    .where(OfflineLog.gateway_sysno == gateway_sysno, OfflineLog.device_sysno.is_(None))
                )
                or 0
            )

    async def settle(self) -> None:
        """Wait until the ingest has written what reached it."""
        await asyncio.sleep(0.2)
        await self.ingest.drain()


_instants = itertools.count()


def reading(sn: str, device: str = "1", voltage: float = 221.0) -> tuple[str, bytes]:
    """A telemetry message of one reading at an instant no other reading of the test has.

    Now, moved on a millisecond per call: never before the gateway was registered
    (``before_registration``), and never the same instant twice.
    """
    at = datetime.now(UTC) + timedelta(milliseconds=1 + next(_instants))
    return codec.topic_for(sn, "telemetry"), codec.encode_telemetry(
        {device: [(at, {"voltage": voltage, "current": 1.0})]}
    )


async def within(seconds: float, check: Callable[[], Awaitable[bool]]) -> bool:
    """Whether ``check`` turns true within ``seconds``."""
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.02)
    return True


async def start_edge(database_url: str, *, fresh: bool = True, **overrides: Any) -> AsyncIterator[Edge]:
    """The server on the database with customers A and B (created when ``fresh``, else logged in again)."""
    values: dict[str, Any] = {
        "mqtt_port": free_port(),
        "mqtt_tls_port": 0,
        "ingest_batch_ms": 20,
        "scheduler": False,
        "seed_demo": False,
        "demo_simulator": False,
        "command_timeout_seconds": 2,
    }
    values.update(overrides)
    app = create_app(make_settings(database_url, **values), background=True)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver", timeout=30) as client:
            h = Harness(app=app, ctx=app.state.ctx, client=client)
            if fresh:
                a = await make_account(h, mobile="13900000001")
                b = await make_account(h, mobile="13900000002")
                projects = [
                    await make_project(h, a.sysno, name="甲的项目"),
                    await make_project(h, a.sysno, name="甲的第二个项目"),
                    await make_project(h, b.sysno, name="乙的项目"),
                ]
            else:
                a, b = await _again(h, "13900000001"), await _again(h, "13900000002")
                async with h.ctx.sessions() as session:
                    projects = list(await session.scalars(select(Project.sysno).order_by(Project.sysno)))
            yield Edge(h=h, a=a, b=b, a_project=projects[0], a_project2=projects[1], b_project=projects[2])


async def _again(h: Harness, mobile: str) -> Account:
    async with h.ctx.sessions() as session:
        sysno = await session.scalar(select(Customer.sysno).where(Customer.mobile == mobile))
    assert sysno is not None
    return Account(sysno=sysno, token=await login(h, mobile=mobile), mobile=mobile)


@pytest.fixture
async def edge(database_url: str) -> AsyncIterator[Edge]:
    """Customers A and B on the embedded broker."""
    async for e in start_edge(database_url):
        yield e
