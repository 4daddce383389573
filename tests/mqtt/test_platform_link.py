"""The platform's link to an external broker: what it could not store comes again, even when last."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import aiomqtt

from powerportal.mqtt.transport import BrokerAddress, PlatformLink
from tests.mqtt.private import private_mosquitto


async def test_a_store_failing_on_the_last_message_brings_it_again(tmp_path: Path) -> None:
    """No message follows the failed one: the link still ends its session and the broker resends."""
    with private_mosquitto(tmp_path) as mosquitto:
        link = PlatformLink(
            BrokerAddress.from_url(mosquitto.url), subscribe="pp-link-test/#", client_id="pp-link-test"
        )
        deliveries: list[bytes] = []
        second = asyncio.Event()

        async def handler(_topic: str, payload: bytes) -> asyncio.Future[None]:
            deliveries.append(payload)
            stored = asyncio.get_running_loop().create_future()
            if len(deliveries) == 1:  # the database is away: the batch fails a moment later
                asyncio.get_running_loop().call_later(
                    0.2, stored.set_exception, ConnectionError("database away")
                )
            else:
                stored.set_result(None)
                second.set()
            return stored

        running = asyncio.create_task(link.run(handler))
        try:
            await asyncio.wait_for(link.connected.wait(), 10)
            async with aiomqtt.Client("127.0.0.1", mosquitto.port, identifier="pp-link-gw") as gateway:
                await gateway.publish("pp-link-test/one", b"reading", qos=1)
            await asyncio.wait_for(second.wait(), 15)
            assert deliveries == [b"reading", b"reading"]
            assert link.connects == 2
            await asyncio.sleep(1.5)  # acknowledged the second time: the broker does not send it a third
            assert len(deliveries) == 2
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
