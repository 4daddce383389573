"""A lost MQTT connection is handled where it happens: nothing unobserved reaches the log."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import aiomqtt
import pytest

from powerportal.gateways import service as gateways
from powerportal.gateways.models import Gateway
from powerportal.mqtt.transport import connected
from powerportal.simulator import Behaviour, Simulator, make_fleet
from tests.telemetry.conftest import Site


@contextmanager
def loop_errors() -> Iterator[list[dict[str, Any]]]:
    """What the event loop would log as unhandled (a future or task whose exception nobody read)."""
    loop = asyncio.get_running_loop()
    seen: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    try:
        yield seen
        gc.collect()  # a dropped future reports its unread exception when it is collected
    finally:
        loop.set_exception_handler(previous)


@asynccontextmanager
async def running(simulator: Simulator) -> AsyncIterator[Simulator]:
    simulator.start()
    try:
        yield simulator
    finally:
        await simulator.stop()


async def wait_for(check: Any, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)


async def test_a_gateway_cut_off_leaves_nothing_unobserved(site: Site) -> None:
    sn, secret, _ = await site.gateway()
    with loop_errors() as seen:
        behaviour = Behaviour(fault_chance=0.0, offline_chance=1.0, offline_seconds=(0.1, 0.2))
        async with running(
            Simulator(
                make_fleet([(sn, secret)], 2), site.runtime.gateway_address, interval=0.1, behaviour=behaviour
            )
        ) as sim:
            await wait_for(lambda: sim.stats.spells >= 3)
    assert [c.get("message") for c in seen] == []


async def test_a_write_asked_for_as_the_connection_closes_leaves_nothing_unobserved(site: Site) -> None:
    # paho asks for the socket to be watched for writing (a publish it could not send at once) and the
    # connection is lost before the loop gets to it, as when a gateway publishes into a power cut.
    sn, secret, _ = await site.gateway()
    address = site.runtime.gateway_address
    gateway = aiomqtt.Client(address.host, address.port, username=sn, password=secret)
    with loop_errors() as seen:
        with contextlib.suppress(aiomqtt.MqttError):
            async with connected(gateway) as client:
                paho = client._client
                paho._call_socket_register_write()
                paho._sock_close()
                await asyncio.sleep(0.1)
    assert [c.get("message") for c in seen] == []


async def test_a_session_the_broker_ends_leaves_nothing_unobserved(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    broker = site.runtime.broker
    if broker is None:
        pytest.skip("the embedded broker ends the sessions itself; an external one is configured for that")
    sn, secret, sysno = await site.gateway()
    with loop_errors() as seen:
        behaviour = Behaviour(fault_chance=0.0)
        async with running(
            Simulator(
                make_fleet([(sn, secret)], 2), site.runtime.gateway_address, interval=0.1, behaviour=behaviour
            )
        ) as sim:
            await wait_for(lambda: sn in sim.stats.connected)
            async with site.ctx.sessions() as session:  # as a secret reset or a move does
                gateway = await session.get(Gateway, sysno)
                assert gateway is not None
                gateways.revoke(session=session, gateway=gateway)
                await session.commit()
            await wait_for(lambda: broker.stats.revoked == 1)
            await wait_for(lambda: broker.stats.connections >= 2 and sn in sim.stats.connected)
    assert [c.get("message") for c in seen] == []
    # The simulated gateway takes the ended session in its stride: no task of it failed with a traceback.
    assert [r.getMessage() for r in caplog.records if r.name == "powerportal.core.tasks"] == []
