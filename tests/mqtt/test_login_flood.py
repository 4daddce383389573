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
    # argon2 as in production; every connection may wait for its login (the cap is the next test's).
    slow = {
        "mqtt_port": free_port(),
        "password_hash_profile": "default",
        "mqtt_logins_waiting_per_address": 1000,
        "mqtt_slow_logins_burst": 5,  # the default is 20
    }
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
        assert refused_at_once >= 285 and set(codes) <= {3, 5}


async def test_idle_connections_from_one_address_are_capped_and_others_still_log_in(
    database_url: str,
) -> None:
    # A connection that sent nothing was held 10 s, however many one address opened: a stock client
    # opening idle sockets by the thousand used up the file descriptors the API and database share.
    async for site in start_site(database_url, "embedded", mqtt_port=free_port()):
        sn, secret, _ = await site.gateway()
        port = site.runtime.gateway_address.port
        broker = site.runtime.broker
        assert broker is not None
        idle = [
            await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0)) for _ in range(100)
        ]

        async def closed_at_once(reader: asyncio.StreamReader) -> bool:
            try:
                async with asyncio.timeout(1):
                    return await reader.read(1) == b""
            except TimeoutError:
                return False  # still waiting for its login

        closed = await asyncio.gather(*(closed_at_once(reader) for reader, _writer in idle))
        assert sum(closed) == 100 - 64 and broker.stats.refused_waiting == 100 - 64
        assert await login(port, GATEWAY, sn, secret) == 0  # another address is not held back
        assert await login(port, ATTACKER, sn, secret) == -1  # closed at once, unanswered
        for _reader, writer in idle:
            writer.transport.abort()
        await asyncio.sleep(0.2)
        assert await login(port, ATTACKER, sn, secret) == 0  # once they are gone, its turn again
