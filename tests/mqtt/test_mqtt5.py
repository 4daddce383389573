"""An MQTT 5 gateway (paho, as the ThingsBoard client runs it) speaks the whole protocol, on both brokers."""

from __future__ import annotations

import asyncio
import secrets

import aiomqtt
import orjson
from sqlalchemy import func, select

from powerportal.logs.models import StatusLog
from powerportal.mqtt import codec
from powerportal.telemetry.models import Reading
from tests.telemetry.conftest import Site
from tests.telemetry.test_ingest import fixture_payload, fresh, now_ms


async def test_an_mqtt5_gateway_runs_the_whole_protocol(site: Site) -> None:
    sn, secret, _ = await site.gateway()
    address = site.runtime.gateway_address
    async with aiomqtt.Client(
        address.host,
        address.port,
        username=sn,
        password=secret,
        identifier=f"{sn}-v5",
        protocol=aiomqtt.ProtocolVersion.V5,
        will=site.last_will(sn),
        timeout=5,
    ) as gw:
        await gw.subscribe(codec.topic_for(sn, codec.RPC_REQUEST), qos=1)
        await gw.publish(*fixture_payload("status-online-announce", sn), qos=1, retain=True)
        await gw.publish(*fresh("telemetry-single-phase", sn, -2), qos=1)
        # Breaker 2 reported off; now it was switched on by hand.
        switched_on = {"1763700000000": now_ms(-1), '"value": 0': '"value": 1'}
        await gw.publish(*fixture_payload("events-switch", sn, **switched_on), qos=1)
        await site.settle()
        # A switch command, answered as a gateway does.
        call = asyncio.create_task(
            site.runtime.rpc.call(sn=sn, device_id="1", method="switch", params={"on": False}, timeout=10)
        )
        async with asyncio.timeout(10):
            async for message in gw.messages:
                payload = message.payload if isinstance(message.payload, bytes) else b""
                request_id, device, method, params = codec.decode_rpc_request(payload)
                assert (device, method, params) == ("1", "switch", {"on": False})
                answer = {"id": request_id, "ok": True, "result": {"switch": 0}}
                await gw.publish(codec.topic_for(sn, "rpc/response"), orjson.dumps(answer), qos=1)
                break
        response = await call
    assert response.ok and response.result == {"switch": 0}
    async with site.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Reading)) == 2
        switched = await session.scalar(
            select(func.count()).select_from(StatusLog).where(StatusLog.status_type == "switch_on")
        )
        assert switched == 1


async def test_an_unknown_protocol_level_gets_an_answer_at_once(site: Site) -> None:
    if site.kind != "embedded":
        return  # Mosquitto's own answer is its business
    reader, writer = await asyncio.open_connection(
        site.runtime.gateway_address.host, site.runtime.gateway_address.port
    )
    body = b"\x00\x04MQTT\x06\x02\x00\x3c" + b"\x00\x04" + secrets.token_hex(2).encode()
    writer.write(bytes([0x10, len(body)]) + body)
    async with asyncio.timeout(1):
        answer = await reader.readexactly(4)
    assert answer == b"\x20\x02\x00\x01"  # CONNACK, "unacceptable protocol version"
    writer.close()
