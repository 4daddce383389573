"""Answers to commands a gateway was never sent: dropped, counted, and logged without flooding the log."""

from __future__ import annotations

import asyncio
import logging

import orjson
import pytest

from powerportal.mqtt import codec
from tests.telemetry.conftest import Site


async def test_made_up_answers_are_counted_and_logged_sparingly(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    # Each answer to no waiting request was logged in full: a gateway sending them as fast as it may
    # wrote that many lines into the server's log.
    caplog.set_level(logging.INFO, logger="powerportal.mqtt.rpc")
    sn, secret, _ = await site.gateway()
    async with site.client(sn, secret) as gw:
        for i in range(50):
            answer = {"id": f"{i:016x}", "ok": True, "result": {"switch": 1}}
            await gw.publish(codec.topic_for(sn, "rpc/response"), orjson.dumps(answer), qos=1)
        async with asyncio.timeout(10):  # through Mosquitto they may trail the publishes
            while site.runtime.rpc.unmatched < 50:
                await asyncio.sleep(0.05)
        await site.settle()
    assert site.runtime.rpc.unmatched == 50
    logged = [r for r in caplog.records if "matches no waiting request" in r.getMessage()]
    assert len(logged) <= 10  # the budget is per process and minute: earlier tests may have used it
