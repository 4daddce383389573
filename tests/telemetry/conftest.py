"""A running MQTT side (embedded broker or the machine's Mosquitto) on a fresh database, and gateways."""

from __future__ import annotations

import contextlib
import secrets
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiomqtt
import pytest

from powerportal.accounts import service as accounts
from powerportal.core.context import AppContext
from powerportal.gateways import service as gateways
from powerportal.mqtt import codec
from powerportal.projects.models import Building, Project
from powerportal.telemetry import runtime as telemetry_runtime
from powerportal.telemetry.runtime import TelemetryRuntime
from tests.conftest import make_settings, require_service

MOSQUITTO = ("127.0.0.1", 1883)


def _mosquitto_up() -> bool:
    with contextlib.suppress(OSError), socket.create_connection(MOSQUITTO, timeout=2):
        return True
    return False


MOSQUITTO_UP = _mosquitto_up()


@dataclass
class Site:
    """A running MQTT side and the sites registered in its database."""

    ctx: AppContext
    runtime: TelemetryRuntime
    kind: str
    project_sysno: int
    building_sysno: int

    async def gateway(self, sn: str | None = None, name: str = "测试网关") -> tuple[str, str, int]:
        """Register a gateway; returns its serial number, secret and sysno."""
        sn = sn or f"T{secrets.token_hex(6).upper()}"
        async with self.ctx.sessions() as session:
            gateway, secret = await gateways.create_gateway(
                session=session,
                ctx=self.ctx,
                project_sysno=self.project_sysno,
                building_sysno=self.building_sysno,
                sn=sn,
                name=name,
            )
            await session.commit()
            return sn, secret, gateway.sysno

    def client(self, sn: str, secret: str | None, *, will: bool = True, **kwargs: Any) -> aiomqtt.Client:
        """An MQTT client logged in as a gateway, with the offline status as its last will."""
        address = self.runtime.gateway_address
        return aiomqtt.Client(
            address.host,
            address.port,
            username=sn,
            password=secret,
            identifier=f"{sn}-{secrets.token_hex(3)}",
            will=self.last_will(sn) if will else None,
            **kwargs,
        )

    @staticmethod
    def last_will(sn: str) -> aiomqtt.Will:
        """The retained offline status a gateway leaves with the broker."""
        return aiomqtt.Will(
            codec.topic_for(sn, "status"), codec.encode_status(online=False), qos=1, retain=True
        )

    async def settle(self) -> None:
        """Wait until what was published has been received and written."""
        ingest = self.runtime.ingest
        # Messages travel through the broker first; wait until the count stops moving, then drain.
        # (Others' traffic on a shared Mosquitto can keep the count moving, hence the cap.)
        seen = -1
        for _ in range(10):
            if seen == ingest.stats.messages:
                break
            seen = ingest.stats.messages
            await _sleep(0.3)
        await ingest.drain()


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


@pytest.fixture(params=["embedded", "mosquitto"])
def broker_kind(request: pytest.FixtureRequest) -> str:
    """Which broker the MQTT side runs on."""
    if request.param == "mosquitto":
        require_service(MOSQUITTO_UP, "Mosquitto on 127.0.0.1:1883")
    return str(request.param)


def mosquitto_settings() -> dict[str, Any]:
    """Settings for the shared Mosquitto, with a subscription group and client id of the test's own.

    A parallel test run on the same broker then cannot take the test's messages.
    """
    return {
        "mqtt_url": "mqtt://127.0.0.1:1883",
        "mqtt_shared_group": f"t{secrets.token_hex(4)}",
        "mqtt_client_id": f"test-ingest-{secrets.token_hex(4)}",
        "mqtt_ingest_session_seconds": 30,
    }


async def start_site(database_url: str, broker_kind: str, **overrides: Any) -> AsyncIterator[Site]:
    """Start the MQTT side on a database with one customer, project and building."""
    values: dict[str, Any] = {"mqtt_port": 18830, "ingest_batch_ms": 50}
    if broker_kind == "mosquitto":
        values.update(mosquitto_settings())
    values.update(overrides)
    ctx = AppContext.build(make_settings(database_url, **values))
    try:
        async with ctx.sessions() as session:
            customer = await accounts.create_customer(
                session=session, ctx=ctx, mobile="13900000001", password="secret123", name="测试"
            )
            project = Project(customer_sysno=customer.sysno, name="测试项目")
            session.add(project)
            await session.flush()
            building = Building(project_sysno=project.sysno, name="1号楼")
            session.add(building)
            await session.commit()
        runtime = await telemetry_runtime.start(ctx)
        assert runtime.link.connected.is_set()
        try:
            yield Site(
                ctx=ctx,
                runtime=runtime,
                kind=broker_kind,
                project_sysno=project.sysno,
                building_sysno=building.sysno,
            )
        finally:
            await runtime.stop()
    finally:
        await ctx.close()


@pytest.fixture
async def site(database_url: str, broker_kind: str) -> AsyncIterator[Site]:
    """The MQTT side on a fresh database."""
    async for s in start_site(database_url, broker_kind):
        yield s
