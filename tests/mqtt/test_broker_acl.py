"""The embedded broker: gateways log in with their own secret and stay under their own prefix."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import aiomqtt
import orjson
import pytest
from sqlalchemy import func, select

from powerportal.mqtt import codec
from powerportal.mqtt.auth import Authority, GatewayRef, client_id_allowed, may_publish, may_subscribe
from powerportal.mqtt.broker import EmbeddedBroker
from powerportal.telemetry.models import Reading
from tests.telemetry.conftest import Site, start_site


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    async for s in start_site(database_url, "embedded"):
        yield s


def test_acl_rule() -> None:
    assert may_publish("GW1", "gateways/GW1/telemetry")
    assert may_publish("GW1", "gateways/GW1/rpc/response")
    assert not may_publish("GW1", "gateways/GW1/rpc/request")  # commands come from the platform only
    assert not may_publish("GW1", "gateways/GW2/telemetry")
    assert not may_publish("GW1", "gateways/GW1")
    assert not may_publish("GW1", "gateways/GW1/telemetry/x")
    assert may_subscribe("GW1", "gateways/GW1/rpc/request")
    assert may_subscribe("GW1", "gateways/GW1/#")
    assert not may_subscribe("GW1", "gateways/+/rpc/request")
    assert not may_subscribe("GW1", "gateways/GW1/rp#")
    assert not may_subscribe("GW1", "#")
    assert not may_subscribe("GW1", "gateways/GW10/#")


def test_client_ids_belong_to_one_gateway() -> None:
    assert client_id_allowed("GW1", "GW1")
    assert client_id_allowed("GW1", "GW1-edge-2")
    assert not client_id_allowed("GW1", "GW10")
    assert not client_id_allowed("GW1", "GW10-x")
    assert not client_id_allowed("GW1", "x-GW1")
    assert not client_id_allowed("GW1", "GW1-" + "x" * 200)


async def test_wrong_secret_and_unknown_gateway_are_refused(site: Site) -> None:
    sn, secret, _ = await site.gateway()
    for username, password in ((sn, secret + "x"), ("NOSUCHGATEWAY", secret), (sn, None), ("GW+1", secret)):
        with pytest.raises(aiomqtt.MqttError):
            async with site.client(username, password, will=False):
                pass
    async with site.client(sn, secret, will=False):
        pass


async def test_gateway_cannot_publish_or_listen_under_another_prefix(site: Site) -> None:
    sn_a, secret_a, _ = await site.gateway(name="A")
    sn_b, secret_b, _ = await site.gateway(name="B")
    forged = orjson.dumps({"1": [{"values": {"voltage": 220.0}}]})
    async with site.client(sn_a, secret_a) as a, site.client(sn_b, secret_b) as b:
        granted = await a.subscribe(codec.topic_for(sn_b, "rpc/request"), qos=1)
        assert [int(getattr(code, "value", code)) for code in granted] == [128]
        await a.subscribe(codec.topic_for(sn_a, "rpc/request"), qos=1)
        await a.publish(codec.topic_for(sn_b, "telemetry"), forged, qos=1)
        await site.settle()
        async with site.ctx.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Reading)) == 0
        # B's own message gets through, and A does not receive B's commands.
        await b.publish(codec.topic_for(sn_b, "telemetry"), forged, qos=1)
        await site.settle()
        async with site.ctx.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Reading)) == 1


async def test_port_taken_moves_to_the_next() -> None:
    async def never(sn: str, secret: str) -> GatewayRef | None:
        return None

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        broker = EmbeddedBroker(authority=Authority(never), host="127.0.0.1", port=port)
        used = await broker.start()
        try:
            assert used > port
            await asyncio.sleep(0)
        finally:
            await broker.stop()


async def test_retained_messages_of_other_gateways_are_not_replayed(site: Site) -> None:
    sn_a, secret_a, _ = await site.gateway(name="A")
    sn_b, secret_b, _ = await site.gateway(name="B")
    async with site.client(sn_a, secret_a) as a:
        await a.publish(codec.topic_for(sn_a, "status"), codec.encode_status(online=True), qos=1, retain=True)
        await site.settle()
    async with site.client(sn_b, secret_b, will=False) as b:
        await b.subscribe(codec.topic_for(sn_b, "rpc/request"), qos=1)
        received = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                async for message in b.messages:
                    received.append(message.topic.value)
        assert received == []
