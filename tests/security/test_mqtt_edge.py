"""The MQTT edge tried as an attacker would: two customers, every gateway lifecycle event, stock clients.

Each test asserts what the other customer sees (nothing) and what the rightful owner sees (everything).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from datetime import UTC, datetime, timedelta

import aiomqtt
import orjson
import pytest

from powerportal.core.context import AppContext
from powerportal.gateways import service as gateways
from powerportal.gateways.models import Gateway
from powerportal.mqtt import codec
from powerportal.mqtt import packets as p
from powerportal.telemetry.runtime import flush_refusals
from tests.conftest import make_settings
from tests.security.conftest import Edge, Registered, reading, within
from tests.security.rawmqtt import RawClient, RawWill, connect_packet, publish_packet

NOT_AUTHORISED = 5


async def login(
    edge: Edge, gw: Registered, secret: str | None = None, client_id: str | None = None, **kw: object
) -> tuple[RawClient, int]:
    """A raw login as a gateway; returns the client and the CONNACK code."""
    return await RawClient.login(
        "127.0.0.1", edge.port, client_id if client_id is not None else gw.sn, gw.sn,
        gw.secret if secret is None else secret, **kw,
    )  # fmt: skip


async def stored_after_publish(edge: Edge, gw: Registered, secret: str, project: int) -> int:
    """Publish one reading with a stock client and return the project's readings once it is stored."""
    async with edge.client(gw.sn, secret) as client:
        await client.publish(*reading(gw.sn), qos=1)
    await edge.settle()
    return await edge.readings_in(project)


async def test_reset_secret_ends_old_logins_and_sessions_at_once(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    live, code = await login(edge, gw)
    assert code == 0
    fresh = await edge.reset(edge.a, gw)
    assert await live.closed_within(1.0), "the old session outlived the secret reset"
    _, code = await login(edge, gw)  # the old secret, once cached as good
    assert code == NOT_AUTHORISED
    assert await stored_after_publish(edge, gw, fresh.secret, edge.a_project) == 1
    assert await edge.readings_in(edge.b_project) == 0


async def test_delete_then_reregistration_by_another_customer_stays_apart(edge: Edge) -> None:
    # A's gateway X reports, so the broker, the login cache and the ingest all know it.
    old = await edge.register(edge.a, edge.a_project, sn="SHAREDSN01")
    assert await stored_after_publish(edge, old, old.secret, edge.a_project) == 1
    live, code = await login(edge, old, client_id="SHAREDSN01-live")
    assert code == 0
    await edge.delete(edge.a, old)
    assert await live.closed_within(1.0), "the deleted gateway's session stayed open"
    _, code = await login(edge, old)
    assert code == NOT_AUTHORISED
    # B registers the same serial number and reports at once, before any cache could expire.
    new = await edge.register(edge.b, edge.b_project, sn="SHAREDSN01")
    assert new.sysno > old.sysno, "a deleted gateway's id was handed out again"
    assert await stored_after_publish(edge, new, new.secret, edge.b_project) == 1
    assert await edge.readings_in(edge.a_project) == 0
    assert await edge.devices_in(edge.a_project) == []
    b_devices = await edge.devices_in(edge.b_project)
    assert [d.gateway_sysno for d in b_devices] == [new.sysno]
    # A's old secret does not open B's gateway either.
    _, code = await login(edge, new, secret=old.secret)
    assert code == NOT_AUTHORISED


async def test_a_message_of_the_former_owner_never_lands_with_the_new_one(database_url: str) -> None:
    from tests.security.conftest import start_edge

    # Revocations read only every 2 s here: the ingest's own check must hold without them.
    async for edge in start_edge(database_url, revocation_poll_seconds=1):
        old = await edge.register(edge.a, edge.a_project, sn="SHAREDSN02")
        async with edge.client(old.sn, old.secret) as a_client:
            await a_client.publish(*reading(old.sn), qos=1)
            await edge.settle()
            await edge.delete(edge.a, old)
            new = await edge.register(edge.b, edge.b_project, sn="SHAREDSN02")
            # A's session, not yet ended, publishes under the serial number B now owns.
            with contextlib.suppress(aiomqtt.MqttError):
                await a_client.publish(*reading(old.sn, voltage=999.0), qos=1, timeout=2)
        await edge.settle()
        assert await edge.readings_in(edge.b_project) == 0, "A's reading landed in B's project"
        assert await stored_after_publish(edge, new, new.secret, edge.b_project) == 1


async def test_a_serial_registered_again_takes_nothing_of_its_former_owner(edge: Edge) -> None:
    """Neither the backlog the physical gateway still holds nor the refusals A's sessions earned reach B.

    B registers the serial number A deleted and configures the gateway; the gateway then sends what it
    buffered while it was A's (dated before A deleted it), and then a reading of B's own. A serial
    number registered for the first time keeps what it buffered before.
    """
    old = await edge.register(edge.a, edge.a_project, sn="SHAREDSN04")
    async with edge.client(old.sn, old.secret) as client:
        await client.publish(codec.topic_for(old.sn, "telemetry"), b"not json", qos=1)
        await client.publish("gateways/OTHER/telemetry", b"{}", qos=1)
    await edge.settle()
    await edge.delete(edge.a, old)
    async with edge.h.ctx.sessions() as session:  # a day later: the deletion is still known
        await gateways.prune_revocations(session=session, before=datetime.now(UTC) + timedelta(days=1))
        await session.commit()
    buffered = codec.encode_telemetry(
        {"1": [(datetime.now(UTC) - timedelta(minutes=10), {"voltage": 230.0, "current": 9.0})]}
    )
    new = await edge.register(edge.b, edge.b_project, sn="SHAREDSN04")
    first = await edge.register(edge.b, edge.b_project, sn="FIRSTSN04")
    for gw in (new, first):
        async with edge.client(gw.sn, gw.secret) as client:
            await client.publish(codec.topic_for(gw.sn, "telemetry"), buffered, qos=1)
            await client.publish(*reading(gw.sn), qos=1)
    await edge.settle()
    assert await edge.readings_in(edge.b_project) == 3, "A's buffered reading landed in B's project"
    assert edge.ingest.stats.before_registration == 1
    await flush_refusals(edge.h.ctx, edge.ingest)
    answer = await edge.h.call(
        "GET", "/api/CustomerGateway/GetGatewayRefusals", token=edge.b.token, params={"sysno": new.sysno}
    )
    assert answer["statusCode"] == 200, answer
    assert {row["reason"]: row["count"] for row in answer["data"]} == {"before_registration": 1}


async def test_move_ends_sessions_and_readings_follow_the_gateway(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    assert await stored_after_publish(edge, gw, gw.secret, edge.a_project) == 1
    live, code = await login(edge, gw)
    assert code == 0
    await edge.move(edge.a, gw, edge.a_project2)
    assert await live.closed_within(1.0)
    # The secret did not change: the gateway reconnects, and its next reading is the new project's.
    assert await stored_after_publish(edge, gw, gw.secret, edge.a_project2) == 2
    # Moving to another customer's project is refused, and changes nothing.
    refused = await edge.h.put(
        "/api/CustomerGateway/MoveGateway",
        {"sysno": gw.sysno, "project_sysno": edge.b_project},
        token=edge.a.token,
    )
    assert refused["statusCode"] == 404
    assert await edge.readings_in(edge.b_project) == 0


async def test_a_change_made_by_another_process_ends_sessions_within_a_second(
    edge: Edge, database_url: str
) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    live, code = await login(edge, gw)
    assert code == 0
    # Another API worker (its own context and connections) resets the secret.
    other = AppContext.build(make_settings(database_url))
    try:
        async with other.sessions() as session:
            row = await session.get(Gateway, gw.sysno)
            assert row is not None
            gateways.revoke(session=session, gateway=row)
            row.secret_hash = await other.passwords.hash("another-secret-0123456789")
            await session.commit()
    finally:
        await other.close()
    assert await live.closed_within(1.0), "a reset made by another process did not reach the broker"
    _, code = await login(edge, gw)
    assert code == NOT_AUTHORISED


async def test_a_foreign_client_id_is_refused_and_the_owner_keeps_its_session(edge: Edge) -> None:
    a_gw = await edge.register(edge.a, edge.a_project, sn="OWNERGW01")
    b_gw = await edge.register(edge.b, edge.b_project)
    received: list[bytes] = []
    async with edge.client(a_gw.sn, a_gw.secret, client_id="OWNERGW01") as owner:
        await owner.subscribe(codec.topic_for(a_gw.sn, "rpc/request"), qos=1)
        # B's gateway, a wrong secret and no secret each present A's client id.
        _, code = await RawClient.login("127.0.0.1", edge.port, "OWNERGW01", b_gw.sn, b_gw.secret)
        assert code == NOT_AUTHORISED
        _, code = await RawClient.login("127.0.0.1", edge.port, "OWNERGW01", a_gw.sn, "wrong-secret")
        assert code == NOT_AUTHORISED
        _, code = await RawClient.login("127.0.0.1", edge.port, "OWNERGW01-x", b_gw.sn, b_gw.secret)
        assert code == NOT_AUTHORISED
        assert edge.broker.stats.refused_client_id == 2 and edge.broker.stats.taken_over == 0
        # A still gets its commands.
        await edge.broker.publish(codec.topic_for(a_gw.sn, "rpc/request"), b'{"id":"x1"}')
        async with asyncio.timeout(2):
            async for message in owner.messages:
                received.append(message.payload if isinstance(message.payload, bytes) else b"")
                break
    assert received == [b'{"id":"x1"}']


async def test_a_second_session_of_the_same_gateway_takes_over_without_side_effects(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    status = RawWill(codec.topic_for(gw.sn, "status"), codec.encode_status(online=False), retain=True)
    first, code = await login(edge, gw, will=status)
    assert code == 0
    await _report(edge, gw, first)
    second, code = await login(edge, gw, will=status)
    assert code == 0
    assert await first.closed_within(1.0)
    await edge.settle()
    assert await edge.offline_spells(gw.sysno) == 0, (
        "the taken-over session's will marked the gateway offline"
    )
    second.drop()
    await within(10, lambda: _offline(edge, gw))


async def _report(edge: Edge, gw: Registered, client: RawClient) -> None:
    """A reading over a raw session, waited for until stored (so the gateway is online).

    A QoS 0 message still unread when its connection is taken over or dropped is lost, as MQTT allows:
    waiting a fixed while was not enough on a loaded machine.
    """
    before = await edge.readings_in(edge.a_project)
    client.send(publish_packet(*reading(gw.sn), qos=0))
    await within(5, lambda: _readings_are(edge, before + 1))


async def _readings_are(edge: Edge, count: int) -> bool:
    await edge.ingest.drain()
    return await edge.readings_in(edge.a_project) == count


async def _one_will_suppressed(edge: Edge) -> bool:
    return edge.broker.stats.wills_suppressed == 1


async def _offline(edge: Edge, gw: Registered) -> bool:
    await edge.ingest.drain()
    return await edge.offline_spells(gw.sysno) == 1


@pytest.mark.parametrize(
    "topic",
    [
        "gateways/{other}/telemetry", "gateways/{other}/rpc/request", "gateways/{other}/status",
        "outside/anything", "$SYS/broker/x", "gateways/{own}/rpc/request", "gateways/+/status",
    ],
)  # fmt: skip
async def test_wills_outside_the_gateway_prefix_are_refused(edge: Edge, topic: str) -> None:
    attacker = await edge.register(edge.a, edge.a_project)
    victim = await edge.register(edge.b, edge.b_project)
    async with edge.client(victim.sn, victim.secret) as v:
        await v.publish(*reading(victim.sn), qos=1)
    await edge.settle()
    will = RawWill(topic.format(other=victim.sn, own=attacker.sn), b'{"1":{"values":{"voltage":999}}}')
    client, code = await login(edge, attacker, will=will)
    assert code == NOT_AUTHORISED
    client.drop()
    await edge.settle()
    assert edge.broker.stats.refused_will == 1
    assert await edge.readings_in(edge.b_project) == 1
    assert await edge.offline_spells(victim.sysno) == 0


async def test_a_second_sessions_will_does_not_mark_the_gateway_offline(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    will = RawWill(codec.topic_for(gw.sn, "status"), codec.encode_status(online=False), retain=True)
    first, _ = await login(edge, gw, client_id=f"{gw.sn}-one", will=will)
    await _report(edge, gw, first)
    second, code = await login(edge, gw, client_id=f"{gw.sn}-two", will=will)
    assert code == 0
    second.drop()
    await within(5, lambda: _one_will_suppressed(edge))
    await edge.settle()
    assert await edge.offline_spells(gw.sysno) == 0
    first.drop()
    await within(10, lambda: _offline(edge, gw))


async def test_a_dollar_topic_closes_the_connection_and_frees_its_session(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    client, code = await login(edge, gw, clean=False)
    assert code == 0
    client.send(publish_packet("$SYS/anything", b"x", qos=1))
    assert await client.closed_within(1.0)
    assert edge.broker.stats.dollar_topic == 1
    assert gw.sn not in edge.broker._sessions
    # The gateway reconnects and works.
    assert await stored_after_publish(edge, gw, gw.secret, edge.a_project) == 1


async def test_subscriptions_outside_the_prefix_are_refused(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    other = await edge.register(edge.b, edge.b_project)
    async with edge.client(gw.sn, gw.secret) as client:
        for topic_filter in (
            codec.topic_for(other.sn, "rpc/request"), "#", "gateways/+/rpc/request", "$SYS/#",
            f"$share/g/gateways/{gw.sn}/#", "gateways/#",
        ):  # fmt: skip
            granted = await client.subscribe(topic_filter, qos=1)
            assert [_code(c) for c in granted] == [0x80], topic_filter
        granted = await client.subscribe(codec.topic_for(gw.sn, "rpc/request"), qos=1)
        assert [_code(c) for c in granted] == [1]


def _code(granted: object) -> int:
    return int(getattr(granted, "value", granted))  # type: ignore[call-overload]


async def test_an_oversize_packet_is_refused_before_its_body_arrives(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    client, code = await login(edge, gw)
    assert code == 0
    # Announce 20 MB and send only the first bytes: the broker must not wait for (or buffer) the rest.
    header = bytes([p.PUBLISH << 4 | 0x02]) + p.varint(20 * 1024 * 1024)
    client.send(header + p.string(codec.topic_for(gw.sn, "telemetry")) + b"\x00\x01" + b"x" * 1000)
    assert await client.closed_within(1.0)
    assert edge.broker.stats.oversize == 1
    assert await stored_after_publish(edge, gw, gw.secret, edge.a_project) == 1


async def test_only_status_is_retained(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    async with edge.client(gw.sn, gw.secret) as client:
        await client.publish(
            codec.topic_for(gw.sn, "status"), codec.encode_status(online=True), qos=1, retain=True
        )
        for _ in range(5):
            await client.publish(*reading(gw.sn), qos=1, retain=True)
    assert edge.broker.stats.retain_refused == 5
    async with edge.client(gw.sn, gw.secret) as client:
        await client.subscribe(f"gateways/{gw.sn}/#", qos=1)
        topics = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.5):
                async for message in client.messages:
                    topics.append(message.topic.value)
    assert topics == [codec.topic_for(gw.sn, "status")]
    await edge.delete(edge.a, gw)
    await asyncio.sleep(0.5)
    assert gw.sysno not in edge.broker._retained


async def test_devices_per_gateway_are_limited(database_url: str) -> None:
    from tests.security.conftest import start_edge

    async for edge in start_edge(database_url, max_devices_per_gateway=5):
        gw = await edge.register(edge.a, edge.a_project)
        many = [codec.AnnouncedDevice(device_id=str(n)) for n in range(1, 9)]
        async with edge.client(gw.sn, gw.secret) as client:
            await client.publish(
                codec.topic_for(gw.sn, "status"), codec.encode_status(online=True, devices=many), qos=1
            )
            for n in range(10, 14):
                await client.publish(*reading(gw.sn, device=str(n)), qos=1)
        await edge.settle()
        assert len(await edge.devices_in(edge.a_project)) == 5
        assert edge.ingest.stats.device_limit == 7


async def test_connections_per_gateway_are_limited(database_url: str) -> None:
    from tests.security.conftest import start_edge

    async for edge in start_edge(database_url, mqtt_connections_per_gateway=2):
        gw = await edge.register(edge.a, edge.a_project)
        first, one = await login(edge, gw, client_id=f"{gw.sn}-1")
        second, two = await login(edge, gw, client_id=f"{gw.sn}-2")
        third, three = await login(edge, gw, client_id=f"{gw.sn}-3")
        assert (one, two, three) == (0, 0, 3)
        assert edge.broker.stats.refused_connection_limit == 1
        # A reconnect under a client id already held is a takeover, not a third connection.
        again, code = await login(edge, gw, client_id=f"{gw.sn}-2")
        assert code == 0 and await second.closed_within(1.0)
        for client in (first, again, third):
            await client.close()


async def test_an_acknowledged_reading_is_already_stored(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    async with edge.client(gw.sn, gw.secret) as client:
        for n in range(1, 21):
            await client.publish(*reading(gw.sn), qos=1)  # returns on PUBACK
            assert await edge.readings_in(edge.a_project) == n


async def test_platform_figures_are_for_operators_only(edge: Edge) -> None:
    refused = await edge.h.call("GET", "/api/system/IngestStats", token=edge.a.token)
    assert refused["statusCode"] == 403 and refused["data"] is None
    async with edge.h.ctx.sessions() as session:
        from powerportal.accounts.models import Customer

        admin = await session.get(Customer, edge.b.sysno)
        assert admin is not None
        admin.is_brand_admin = True
        await session.commit()
    allowed = await edge.h.call("GET", "/api/system/IngestStats", token=edge.b.token)
    assert allowed["statusCode"] == 200 and allowed["data"]["brokerStats"]["connections"] >= 0


async def test_garbage_connects_never_disturb_a_working_gateway(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    # A connection that never finishes its CONNECT is ended after the connect timeout.
    edge.broker.limits = dataclasses.replace(edge.broker.limits, connect_timeout_seconds=0.5)
    async with edge.client(gw.sn, gw.secret) as good:
        for junk in (
            b"\x00\x00", b"\x10\xff\xff\xff\xff\x7f", b"GET / HTTP/1.1\r\n\r\n", b"",
            connect_packet("x", None, None)[:5],
            bytes([p.CONNECT << 4]) + p.varint(10) + b"\x00\x04MQTT\x09\x02\x00\x3c",
            connect_packet(gw.sn, gw.sn, gw.secret) + publish_packet(gw.sn + "/#", b"", qos=0),
        ):  # fmt: skip
            raw = await RawClient.open("127.0.0.1", edge.port)
            raw.send(junk)
            assert await raw.closed_within(2.0), junk
        await good.publish(*reading(gw.sn), qos=1)
    await edge.settle()
    assert await edge.readings_in(edge.a_project) == 1
    assert edge.broker.stats.refused_version == 1


async def test_the_owner_reads_what_was_refused_of_the_gateway_and_it_survives_a_restart(
    database_url: str,
) -> None:
    from tests.security.conftest import start_edge

    sn = "LEDGERGW01"
    async for edge in start_edge(database_url):
        gw = await edge.register(edge.a, edge.a_project, sn=sn)
        async with edge.client(gw.sn, gw.secret) as client:
            await client.publish(codec.topic_for(gw.sn, "telemetry"), b"\x00garbage", qos=1)
            await client.publish(
                codec.topic_for(gw.sn, "status"), b'{"state":"online","firmware":"v\\u0001"}', qos=1
            )
            await client.publish("gateways/OTHER/telemetry", b"{}", qos=1)
        _, code = await login(edge, gw, secret="wrong")
        assert code == NOT_AUTHORISED
        await edge.settle()
    # A new server process on the same database: the counts are still there, for the owner only.
    async for edge in start_edge(database_url, fresh=False):
        answer = await edge.h.call(
            "GET", "/api/CustomerGateway/GetGatewayRefusals", token=edge.a.token, params={"sysno": gw.sysno}
        )
        assert answer["statusCode"] == 200, answer
        counts = {row["reason"]: row["count"] for row in answer["data"]}
        assert counts == {"garbage": 1, "cleaned_text": 1, "acl_denied": 1, "refused_login": 1}
        names = {row["reason_name"] for row in answer["data"]}
        async with edge.h.ctx.sessions() as session:
            from powerportal.gateways.refusals import refusal_totals

            assert await refusal_totals(session=session) == counts
        assert "主题越权" in names and "登录被拒（密钥错误）" in names
        foreign = await edge.h.call(
            "GET", "/api/CustomerGateway/GetGatewayRefusals", token=edge.b.token, params={"sysno": gw.sysno}
        )
        assert foreign["statusCode"] == 404 and foreign["data"] is None


async def test_a_message_delivered_again_opens_no_second_alarm(edge: Edge) -> None:
    from sqlalchemy import func, select

    from powerportal.alarms.models import Alarm, CustomerNotice

    gw = await edge.register(edge.a, edge.a_project)
    alarm = {
        "device": "1",
        "ts": int(time.time() * 1000) - 60_000,
        "type": "alarm",
        "code": "leakage",
        "value": 35.0,
    }
    cleared = {**alarm, "type": "fault_cleared", "ts": alarm["ts"] + 10_000}
    async with edge.client(gw.sn, gw.secret) as client:
        for event in (alarm, alarm, cleared, alarm):  # the first again, before and after it was cleared
            await client.publish(codec.topic_for(gw.sn, "events"), orjson.dumps(event), qos=1)
    await edge.settle()
    async with edge.h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Alarm)) == 1
        assert await session.scalar(select(func.count()).select_from(CustomerNotice)) == 1
