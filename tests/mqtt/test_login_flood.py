"""A flood of wrong secrets from one address keeps no other gateway from logging in."""

from __future__ import annotations

import asyncio
import time

from powerportal.mqtt import packets as p
from tests.mqtt.private import free_port
from tests.security.rawmqtt import connect_packet
from tests.telemetry.conftest import start_site

ATTACKER, GATEWAY = "127.0.0.1", "127.0.0.2"


async def login(port: int, source: str, sn: str, secret: str) -> int:
    """The CONNACK code of a raw login from ``source`` (-1: no answer within 10 s)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(connect_packet(sn, sn, secret))
        async with asyncio.timeout(10):
            kind, _flags, body = await p.read_packet(reader, 1024)
        assert kind == p.CONNACK
        return body[1]
    except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
        return -1
    finally:
        writer.transport.abort()


async def test_a_flood_of_wrong_secrets_does_not_starve_other_logins(database_url: str) -> None:
    # Each wrong secret cost an argon2 check, four at a time: 300 of them queued every other login behind
    # them until it timed out unanswered, without the attacker knowing any secret.
    slow = {"mqtt_port": free_port(), "password_hash_profile": "default"}  # argon2 as in production
    async for site in start_site(database_url, "embedded", **slow):
        sn, secret, _ = await site.gateway()
        port = site.runtime.gateway_address.port
        flood = [asyncio.create_task(login(port, ATTACKER, sn, "wrong")) for _ in range(300)]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        assert await login(port, GATEWAY, sn, secret) == 0
        assert time.monotonic() - started < 5
        codes = await asyncio.gather(*flood)
        refused_at_once = codes.count(p.CONNACK_311["unavailable"])
        assert refused_at_once >= 250 and set(codes) <= {3, 5}
