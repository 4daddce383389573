"""Ingest end to end over a real MQTT connection: readings, idempotency, garbage, offline spells."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import func, select

from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.gateways.refusals import refusals_of
from powerportal.logs.models import OfflineLog, StatusLog
from powerportal.mqtt import codec
from powerportal.mqtt.transport import PlatformLink
from powerportal.telemetry.models import Reading
from powerportal.telemetry.runtime import flush_refusals
from tests.mqtt.private import private_mosquitto
from tests.telemetry.conftest import Site, start_site

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gateway"


def fixture_payload(name: str, sn: str, **replace: Any) -> tuple[str, bytes]:
    """An example message of the protocol doc, addressed to another gateway, with fresh instants."""
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    text = json.dumps(data["payload"]).replace("GW2026000001", sn)
    for old, new in replace.items():
        text = text.replace(old, str(new))
    return data["topic"].replace("GW2026000001", sn), text.encode()


def fresh(name: str, sn: str, offset_s: float = 0) -> tuple[str, bytes]:
    """An example message with its instants moved to now."""
    return fixture_payload(name, sn, **{"1763700000000": now_ms(offset_s)})


def now_ms(offset_s: float = 0) -> int:
    return int((datetime.now(UTC) + timedelta(seconds=offset_s)).timestamp() * 1000)


async def count(site: Site, model: Any, *where: Any) -> int:
    async with site.ctx.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def test_announce_and_telemetry_land_in_the_database(site: Site) -> None:
    sn, secret, gateway_sysno = await site.gateway()
    ts = now_ms(-5)
    async with site.client(sn, secret) as gw:
        await gw.publish(*fixture_payload("status-online-announce", sn), qos=1, retain=True)
        await gw.publish(*fixture_payload("telemetry-single-phase", sn, **{"1763700000000": ts}), qos=1)
        await gw.publish(*fixture_payload("telemetry-three-phase", sn, **{"1763700000000": ts}), qos=1)
        await site.settle()
        async with site.ctx.sessions() as session:
            devices = {d.device_id: d for d in (await session.scalars(select(Device))).all()}
            gateway = await session.get(Gateway, gateway_sysno)
        assert set(devices) == {"1", "2", "10"}
        assert devices["1"].name == "101宿舍" and devices["1"].model == "PB-63"
        assert devices["10"].phases == 3 and devices["2"].name == "设备2"
        assert devices["1"].online == 1 and devices["1"].switch_state == 1 and devices["2"].switch_state == 0
        assert devices["1"].latest is not None and devices["1"].latest["voltage"] == 221.4
        assert devices["10"].latest is not None and devices["10"].latest["harmonic_thd"] == 3.1
        assert gateway is not None and gateway.online and gateway.firmware == "2.4.1" and gateway.last_seen
        assert await count(site, Reading) == 3
        async with site.ctx.sessions() as session:
            three = await session.get(Reading, (devices["10"].sysno, datetime.fromtimestamp(ts / 1000, UTC)))
        assert (
            three is not None
            and three.voltage_b == 231.2
            and three.extra
            == {
                "reactive_power": 1210.0,
                "harmonic_thd": 3.1,
            }
        )
        latest = site.runtime.ingest.latest.get(devices["1"].sysno)
        assert latest is not None and latest.values["energy"] == 1532.27
        assert await count(site, StatusLog, StatusLog.status_type == "online") == 4  # gateway + 3 devices
        await gw.publish(codec.topic_for(sn, "status"), b"", retain=True)


async def test_the_same_message_twice_is_stored_once(site: Site) -> None:
    sn, secret, _ = await site.gateway()
    topic, payload = fixture_payload("telemetry-backfill", sn)
    async with site.client(sn, secret) as gw:
        await gw.publish(topic, payload, qos=1)
        await site.settle()
        await gw.publish(topic, payload, qos=1)
        await site.settle()
    assert await count(site, Reading) == 3
    stats = site.runtime.ingest.stats
    assert stats.readings_written == 3 and stats.readings_duplicate == 3


async def test_garbage_in_a_batch_loses_no_valid_reading(site: Site) -> None:
    sn, secret, gateway_sysno = await site.gateway()
    stats = site.runtime.ingest.stats
    sent = 0
    async with site.client(sn, secret) as gw:
        for i in range(40):
            ts = now_ms(-100 + i)
            await gw.publish(codec.topic_for(sn, "telemetry"), b"\x00garbage", qos=1)
            await gw.publish(
                codec.topic_for(sn, "telemetry"),
                orjson.dumps({"7": [{"ts": ts, "values": {"voltage": 220 + i % 5, "current": 1.5}}]}),
                qos=1,
            )
            sent += 1
            await gw.publish(codec.topic_for(sn, "telemetry"), b'{"1": [{"values": 5}]}', qos=1)
            await gw.publish(codec.topic_for(sn, "firmware"), b"{}", qos=1)
        oversize = b"[" + b" " * codec.MAX_PAYLOAD_BYTES + b"]"
        await gw.publish(codec.topic_for(sn, "telemetry"), oversize, qos=1)
        await site.settle()
    assert await count(site, Reading) == sent
    # This gateway's own counts (a shared Mosquitto also carries other test runs' gateways).
    await flush_refusals(site.ctx, site.runtime.ingest)
    async with site.ctx.sessions() as session:
        refused = {
            row.reason: row.count for row in await refusals_of(session=session, gateway_sysno=gateway_sysno)
        }
    assert refused.get("garbage") == 80 and refused.get("oversize") == 1
    # The embedded broker refuses a topic outside the protocol itself; from Mosquitto the ingest does.
    assert refused.get("acl_denied" if site.kind == "embedded" else "wrong_topic") == 40
    assert stats.batch_failures == 0 and stats.messages_lost == 0


async def test_a_device_id_of_the_longest_length_gets_a_name_that_fits(site: Site) -> None:
    # "设备" and a 64-character id made a 66-character name: PostgreSQL refused the device, the message
    # was lost and the gateway's connection closed unacknowledged, again at every resend.
    sn, secret, _ = await site.gateway()
    longest = "9" * 64
    async with site.client(sn, secret) as gw:
        await gw.publish(
            codec.topic_for(sn, "telemetry"),
            orjson.dumps({longest: {"ts": now_ms(-1), "values": {"voltage": 220}}}),
            qos=1,
        )
        await site.settle()
    async with site.ctx.sessions() as session:
        device = await session.scalar(select(Device).where(Device.device_id == longest))
    assert device is not None and device.name == longest
    assert await count(site, Reading) == 1
    assert site.runtime.ingest.stats.messages_lost == 0


async def test_new_keys_in_every_reading_do_not_grow_the_latest_values(site: Site) -> None:
    # Each reading's other keys were merged into the device's latest values for good: a firmware naming
    # a register in its keys grew them (and every save of the device) by 32 keys a message, without end.
    sn, secret, _ = await site.gateway()
    async with site.client(sn, secret) as gw:
        await gw.publish(
            codec.topic_for(sn, "telemetry"),
            orjson.dumps({"1": {"ts": now_ms(-60), "values": {"voltage": 220, "reactive_power": 5}}}),
            qos=1,
        )
        for m in range(10):
            registers = {f"reg_{m}_{k}": k for k in range(codec.MAX_EXTRA_KEYS)}
            await gw.publish(
                codec.topic_for(sn, "telemetry"),
                orjson.dumps({"1": {"ts": now_ms(-50 + m), "values": {"current": 1.5, **registers}}}),
                qos=1,
            )
        await site.settle()
    async with site.ctx.sessions() as session:
        device = await session.scalar(select(Device).where(Device.device_id == "1"))
    assert device is not None and device.latest is not None
    expected = {"voltage": 220, "reactive_power": 5, "current": 1.5}  # the key table's are all kept
    expected |= {f"reg_9_{k}": k for k in range(codec.MAX_EXTRA_KEYS)}
    assert {k: v for k, v in device.latest.items() if k != "ts"} == expected
    held = site.runtime.ingest.latest.get(device.sysno)
    assert held is not None and held.values == expected


async def test_unregistered_gateway_is_counted_and_dropped(site: Site) -> None:
    if site.kind != "mosquitto":
        return  # the embedded broker does not even let it in (see the ACL tests)
    stats = site.runtime.ingest.stats
    before = stats.unknown_gateway
    sn = "NOTREGISTERED01"
    async with site.client(sn, None, will=False) as gw:
        await gw.publish(*fresh("telemetry-single-phase", sn), qos=1)
        await site.settle()
    assert stats.unknown_gateway > before
    assert await count(site, Reading) == 0


async def test_last_will_marks_gateway_and_devices_offline_and_back(site: Site) -> None:
    sn, secret, gateway_sysno = await site.gateway()
    gw = site.client(sn, secret, keepalive=60)
    await gw.__aenter__()
    await gw.publish(*fixture_payload("status-online-announce", sn), qos=1, retain=True)
    await gw.publish(*fresh("telemetry-single-phase", sn, -1), qos=1)
    await site.settle()
    # Cut the connection without DISCONNECT, as a power cut would: the broker publishes the will.
    sock = gw._client.socket()  # noqa: SLF001
    assert sock is not None
    sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(Exception):
        await gw.__aexit__(None, None, None)
    await wait_for(lambda: offline_spells(site, gateway_sysno), lambda n: n >= 1)
    async with site.ctx.sessions() as session:
        gateway = await session.get(Gateway, gateway_sysno)
        devices = (await session.scalars(select(Device))).all()
        spell = await session.scalar(select(OfflineLog).where(OfflineLog.device_sysno.is_(None)))
    assert gateway is not None and not gateway.online
    assert devices and all(d.online == 0 for d in devices)
    assert spell is not None and spell.reason == "last_will" and spell.online_time is None
    reported = [d for d in devices if d.last_report_time is not None]  # device 10 was announced only
    assert len(reported) == 2
    assert await count(site, OfflineLog, OfflineLog.device_sysno.is_not(None)) == len(reported)

    async with site.client(sn, secret) as again:
        await again.publish(*fixture_payload("status-online-announce", sn), qos=1, retain=True)
        await again.publish(*fresh("telemetry-single-phase", sn), qos=1)
        await site.settle()
        async with site.ctx.sessions() as session:
            spells = (await session.scalars(select(OfflineLog))).all()
            gateway = await session.get(Gateway, gateway_sysno)
        assert gateway is not None and gateway.online
        assert all(s.online_time is not None and s.duration_seconds is not None for s in spells)
        assert await count(site, StatusLog, StatusLog.status_type == "offline") == 1 + len(reported)
        await again.publish(codec.topic_for(sn, "status"), b"", retain=True)


async def offline_spells(site: Site, gateway_sysno: int) -> int:
    gateway_only = OfflineLog.device_sysno.is_(None)
    return await count(site, OfflineLog, OfflineLog.gateway_sysno == gateway_sysno, gateway_only)


async def wait_for(probe: Any, done: Any, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not done(await probe()):
            await asyncio.sleep(0.1)


async def test_silence_marks_gateway_and_devices_offline(database_url: str, broker_kind: str) -> None:
    sites: AsyncIterator[Site] = start_site(
        database_url, broker_kind, gateway_offline_seconds=1.0, device_offline_seconds=1.0
    )
    site = await anext(sites)
    try:
        sn, secret, gateway_sysno = await site.gateway()
        async with site.client(sn, secret) as gw:
            await gw.publish(*fresh("telemetry-single-phase", sn), qos=1)
            # Gateway and both devices came online (and may already be offline again, 1 s later).
            await wait_for(
                lambda: count(site, StatusLog, StatusLog.status_type == "online"), lambda n: n == 3
            )
            await wait_for(lambda: offline_spells(site, gateway_sysno), lambda n: n >= 1)
            await site.runtime.ingest.drain()
            async with site.ctx.sessions() as session:
                reasons = sorted((await session.scalars(select(OfflineLog.reason))).all())
            assert reasons == ["no_data", "no_data", "silence"] or reasons == [
                "gateway_offline",
                "gateway_offline",
                "silence",
            ]
            assert await count(site, Device, Device.online == 1) == 0
    finally:
        await sites.aclose()


async def test_ingest_reconnects_when_the_broker_comes_back(database_url: str, tmp_path: Path) -> None:
    with private_mosquitto(tmp_path) as mosquitto:
        sites = start_site(database_url, "mosquitto", mqtt_url=mosquitto.url)
        site = await anext(sites)
        try:
            link = site.runtime.link
            assert isinstance(link, PlatformLink)
            mosquitto.stop()
            await wait_for(lambda: _false_if_connected(site), lambda gone: gone)
            mosquitto.start()
            await asyncio.wait_for(link.connected.wait(), 15)
            assert link.connects == 2
            sn, secret, _ = await site.gateway()
            async with site.client(sn, secret) as gw:
                await gw.publish(*fresh("telemetry-single-phase", sn), qos=1)
                await site.settle()
            assert await count(site, Reading) == 2
        finally:
            await sites.aclose()


async def test_embedded_broker_serves_again_after_a_restart(database_url: str) -> None:
    sites = start_site(database_url, "embedded")
    site = await anext(sites)
    try:
        broker = site.runtime.broker
        assert broker is not None
        port = broker.port
        await broker.stop()
        broker.requested_port = port
        assert await broker.start() == port
        sn, secret, _ = await site.gateway()
        async with site.client(sn, secret) as gw:
            await gw.publish(*fresh("telemetry-single-phase", sn), qos=1)
            await site.settle()
        assert await count(site, Reading) == 2
    finally:
        await sites.aclose()


async def _false_if_connected(site: Site) -> bool:
    return not site.runtime.link.connected.is_set()
