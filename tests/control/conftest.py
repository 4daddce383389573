"""A whole server (API, embedded broker, ingest, scheduler) with simulated gateways answering commands."""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from powerportal.app import create_app
from powerportal.devices.models import Device
from powerportal.gateways import service as gateways
from powerportal.simulator import Behaviour, Simulator, make_fleet
from tests.conftest import Harness, make_settings, require_service
from tests.factories import Account, make_account, make_project
from tests.telemetry.conftest import MOSQUITTO_UP, mosquitto_settings


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Field:
    """A running server, a logged-in owner, and simulated gateways whose devices are online."""

    h: Harness
    owner: Account
    project_sysno: int
    simulator: Simulator
    gateways: list[tuple[str, int]] = field(default_factory=list)  # (sn, sysno)

    async def devices(self) -> list[Device]:
        """The devices, in gateway and address order."""
        async with self.h.ctx.sessions() as session:
            rows = await session.scalars(select(Device).order_by(Device.gateway_sysno, Device.sysno))
            return list(rows)

    async def device(self, sysno: int) -> Device:
        """One device as stored now."""
        async with self.h.ctx.sessions() as session:
            found = await session.get(Device, sysno)
            assert found is not None
            return found

    async def settle(self) -> None:
        """Wait until the ingest has written what reached it."""
        runtime = self.h.runtime.telemetry
        assert runtime is not None
        await asyncio.sleep(0.2)
        await runtime.ingest.drain()


async def start_field(
    database_url: str,
    *,
    gateways_count: int = 1,
    devices_per_gateway: int = 3,
    broker: str = "embedded",
    **overrides: Any,
) -> AsyncIterator[Field]:
    """Start the server on a fresh database and feed it simulated gateways until their devices are online."""
    values: dict[str, Any] = {
        "mqtt_port": free_port(),
        "ingest_batch_ms": 20,
        "command_timeout_seconds": 1.5,
        "scheduler": False,
        "seed_demo": False,
    }
    # On the shared Mosquitto, serial numbers and the subscription group are this test's own.
    prefix = "CTL" if broker == "embedded" else f"CTL{secrets.token_hex(3).upper()}"
    if broker == "mosquitto":
        values.update(mosquitto_settings())
    values.update(overrides)
    app = create_app(make_settings(database_url, **values), background=True)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver", timeout=30) as client:
            h = Harness(app=app, ctx=app.state.ctx, client=client)
            owner = await make_account(h)
            project = await make_project(h, owner.sysno, name="控制测试项目")
            credentials = []
            sysnos = []
            for n in range(gateways_count):
                async with h.ctx.sessions() as session:
                    gateway, secret = await gateways.create_gateway(
                        session=session,
                        ctx=h.ctx,
                        project_sysno=project,
                        building_sysno=None,
                        sn=f"{prefix}{n:04d}",
                        name=f"控制网关{n}",
                    )
                    await session.commit()
                credentials.append((gateway.sn, secret))
                sysnos.append((gateway.sn, gateway.sysno))
            runtime = h.runtime.telemetry
            assert runtime is not None
            simulator = Simulator(
                make_fleet(credentials, devices_per_gateway),
                runtime.gateway_address,
                interval=0.5,
                behaviour=Behaviour(fault_chance=0.0),
                seed=7,
            )
            simulator.start()
            try:
                expected = gateways_count * devices_per_gateway
                async with asyncio.timeout(30):
                    while True:
                        async with h.ctx.sessions() as session:
                            online = (
                                await session.scalars(select(Device.sysno).where(Device.online == 1))
                            ).all()
                        if len(online) >= expected:
                            break
                        await asyncio.sleep(0.1)
                yield Field(h=h, owner=owner, project_sysno=project, simulator=simulator, gateways=sysnos)
            finally:
                await simulator.stop()


@pytest.fixture
async def field_site(database_url: str) -> AsyncIterator[Field]:
    """One simulated gateway with three online breakers, on the embedded broker."""
    async for f in start_field(database_url):
        yield f


@pytest.fixture(params=["embedded", "mosquitto"])
async def any_broker_site(database_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Field]:
    """The same, on the embedded broker and on the machine's Mosquitto."""
    if request.param == "mosquitto":
        require_service(MOSQUITTO_UP, "Mosquitto on 127.0.0.1:1883")
    async for f in start_field(database_url, broker=str(request.param)):
        yield f
