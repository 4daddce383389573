"""Gateways on a real Mosquitto whose logins and ACLs are its dynamic security plugin's, kept by the platform.

Each test runs a private Mosquitto (its own port, started and stopped by process id) initialised with
``mosquitto_ctrl dynsec init``; two customers register gateways through the API, and the gateways and an
attacker connect with stock and raw MQTT clients. The platform's ingest account is created as
docs/deployment.md says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiomqtt
import pytest
from sqlalchemy import func, select

from powerportal.gateways import broker_accounts
from powerportal.gateways import service as gateways
from powerportal.mqtt.dynsec import Dynsec, put_gateway
from powerportal.telemetry.models import Reading
from tests.conftest import Harness, make_settings, start_harness
from tests.factories import Account, make_account, make_project
from tests.mqtt.private import DynsecMosquitto, free_port, private_dynsec_mosquitto
from tests.security.conftest import reading
from tests.security.rawmqtt import RawClient
from tests.telemetry.conftest import start_site

GATEWAYS = "/api/CustomerGateway"
NOT_AUTHORISED = 5
SUBACK_FAILURE = 128
PLATFORM = ("powerportal-ingest", "ingest-password-0123456789")


def platform_account() -> list[dict[str, Any]]:
    """The platform's ingest account, as docs/deployment.md creates it with mosquitto_ctrl."""
    return [
        {
            "command": "createRole",
            "rolename": "powerportal-platform",
            "acls": [
                {"acltype": "publishClientSend", "topic": "gateways/#", "allow": True},
                {"acltype": "subscribePattern", "topic": "gateways/#", "allow": True},
                # Mosquitto 2.0 checks a shared subscription with its $share/<group>/ prefix.
                {"acltype": "subscribePattern", "topic": "$share/+/gateways/#", "allow": True},
            ],
        },
        {
            "command": "createClient",
            "username": PLATFORM[0],
            "password": PLATFORM[1],
            "roles": [{"rolename": "powerportal-platform"}],
        },
    ]


@dataclass
class Gw:
    sysno: int
    sn: str
    secret: str


@dataclass
class World:
    """The API, a private Mosquitto with the plugin, and two customers: A with two projects, B with one."""

    h: Harness
    mosquitto: DynsecMosquitto
    a: Account
    b: Account
    a_project: int
    a_project2: int
    b_project: int

    @property
    def port(self) -> int:
        return self.mosquitto.broker.port

    async def register(self, who: Account, project: int, sn: str | None = None) -> Gw:
        sn = sn or f"DS{secrets.token_hex(4).upper()}"
        added = await self.h.post(
            f"{GATEWAYS}/AddGateway", {"sn": sn, "name": f"网关{sn}", "project_sysno": project}, who.token
        )
        assert added["statusCode"] == 200, added
        return Gw(sysno=added["data"]["sysno"], sn=sn, secret=added["data"]["secret"])

    async def login(self, sn: str, secret: str, client_id: str | None = None) -> tuple[RawClient, int]:
        """A raw MQTT 3.1.1 login: the client and the CONNACK code."""
        return await RawClient.login(
            "127.0.0.1", self.port, client_id or f"{sn}-{secrets.token_hex(3)}", sn, secret
        )

    async def refused(self, sn: str, secret: str) -> bool:
        client, code = await self.login(sn, secret)
        await client.close()
        return code == NOT_AUTHORISED

    def client(self, username: str, password: str) -> aiomqtt.Client:
        return aiomqtt.Client(
            "127.0.0.1",
            self.port,
            username=username,
            password=password,
            identifier=f"{username}-{secrets.token_hex(3)}",
        )


@pytest.fixture
async def world(database_url: str) -> AsyncIterator[World]:
    with private_dynsec_mosquitto() as mosquitto:
        admin = Dynsec.from_url(mosquitto.admin_url)
        assert admin is not None
        await admin.check(platform_account())
        settings = make_settings(database_url, mosquitto_dynsec_url=mosquitto.admin_url)
        async for h in start_harness(settings):
            a, b = await make_account(h, "13900000001"), await make_account(h, "13900000002")
            yield World(
                h=h,
                mosquitto=mosquitto,
                a=a,
                b=b,
                a_project=await make_project(h, a.sysno),
                a_project2=await make_project(h, a.sysno),
                b_project=await make_project(h, b.sysno),
            )


@contextlib.asynccontextmanager
async def collecting(client: aiomqtt.Client) -> AsyncIterator[list[tuple[str, bytes]]]:
    """The messages a connected client receives, gathered in the background."""
    received: list[tuple[str, bytes]] = []

    async def gather() -> None:
        async for message in client.messages:
            payload = message.payload
            received.append(
                (message.topic.value, bytes(payload) if isinstance(payload, bytes | bytearray) else b"")
            )

    task = asyncio.create_task(gather())
    try:
        yield received
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await task


async def arrives(
    received: list[tuple[str, bytes]], topic: str, payload: bytes, seconds: float = 3.0
) -> bool:
    for _ in range(int(seconds / 0.05)):
        if (topic, payload) in received:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_registered_gateways_log_in_wrong_secrets_and_strangers_do_not(world: World) -> None:
    a = await world.register(world.a, world.a_project)
    b = await world.register(world.b, world.b_project)
    client, code = await world.login(a.sn, a.secret)
    assert code == 0
    await client.close()
    assert await world.refused(a.sn, "not-the-secret")
    assert await world.refused(a.sn, b.secret), "B's secret opened A's gateway"
    assert await world.refused(b.sn, a.secret)
    assert await world.refused("STRANGER01", a.secret)
    assert await world.refused("", "")
    # The platform's admin account is not a way in for gateways either.
    assert await world.refused(a.sn + "-x", a.secret)


async def test_a_gateway_stays_inside_its_own_prefix(world: World) -> None:
    a = await world.register(world.a, world.a_project)
    b = await world.register(world.b, world.b_project)
    async with (
        world.client(*PLATFORM) as platform,
        world.client(a.sn, a.secret) as ca,
        world.client(b.sn, b.secret) as cb,
    ):
        await platform.subscribe("gateways/#", qos=1)
        async with collecting(platform) as seen, collecting(ca) as a_got, collecting(cb) as b_got:
            # A subscribes to B's commands and to everything: both refused; its own are granted.
            assert SUBACK_FAILURE in list(await ca.subscribe(f"gateways/{b.sn}/rpc/request", qos=1))
            assert SUBACK_FAILURE in list(await ca.subscribe("gateways/#", qos=1))
            assert SUBACK_FAILURE in list(await ca.subscribe("#", qos=1))
            assert SUBACK_FAILURE not in list(await ca.subscribe(f"gateways/{a.sn}/rpc/request", qos=1))
            assert SUBACK_FAILURE not in list(await cb.subscribe(f"gateways/{b.sn}/rpc/request", qos=1))
            # A publishes as B, forges a command to itself and writes outside the tree; then a marker.
            await ca.publish(f"gateways/{b.sn}/telemetry", b"forged-as-b", qos=1)
            await ca.publish(f"gateways/{a.sn}/rpc/request", b"forged-command", qos=1)
            await ca.publish("elsewhere/topic", b"outside", qos=1)
            await ca.publish(f"gateways/{a.sn}/telemetry", b"marker", qos=1)
            assert await arrives(seen, f"gateways/{a.sn}/telemetry", b"marker")
            assert not [m for m in seen if m[1] in (b"forged-as-b", b"forged-command", b"outside")], seen
            # The platform's command to B reaches B, and only B.
            await platform.publish(f"gateways/{b.sn}/rpc/request", b"command-for-b", qos=1)
            assert await arrives(b_got, f"gateways/{b.sn}/rpc/request", b"command-for-b")
            await asyncio.sleep(0.3)
            assert a_got == [], "A received what was meant for B (or its own forged command)"


async def test_reset_move_and_delete_end_the_old_access_at_once(world: World) -> None:
    gw = await world.register(world.a, world.a_project)
    live, code = await world.login(gw.sn, gw.secret)
    assert code == 0
    reset = await world.h.post(f"{GATEWAYS}/ResetGatewaySecret", {"sysno": gw.sysno}, world.a.token)
    assert reset["statusCode"] == 200, reset
    fresh = reset["data"]["secret"]
    assert await live.closed_within(2.0), "the old secret's connection outlived the reset"
    assert await world.refused(gw.sn, gw.secret)
    live, code = await world.login(gw.sn, fresh)
    assert code == 0
    moved = await world.h.put(
        f"{GATEWAYS}/MoveGateway", {"sysno": gw.sysno, "project_sysno": world.a_project2}, world.a.token
    )
    assert moved["statusCode"] == 200, moved
    assert await live.closed_within(2.0), "the session outlived the move"
    live, code = await world.login(gw.sn, fresh)  # a move keeps the secret
    assert code == 0
    deleted = await world.h.call(
        "DELETE", f"{GATEWAYS}/DeleteGateway", token=world.a.token, params={"sysno": gw.sysno}
    )
    assert deleted["statusCode"] == 200, deleted
    assert await live.closed_within(2.0), "a deleted gateway stayed connected"
    assert await world.refused(gw.sn, fresh)
    # B registers the serial number again: A's last secret does not open it, B's does.
    again = await world.register(world.b, world.b_project, sn=gw.sn)
    assert await world.refused(gw.sn, fresh)
    client, code = await world.login(gw.sn, again.secret)
    assert code == 0
    await client.close()


async def test_resync_removes_the_deleted_reports_the_missing_and_keeps_the_rest(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    kept = await world.register(world.a, world.a_project)
    admin = Dynsec.from_url(world.mosquitto.admin_url)
    assert admin is not None
    # A client left behind by a gateway deleted while the platform could not reach Mosquitto.
    await admin.check(put_gateway("GHOST0001", "ghost-secret-0123456789"))
    # A gateway registered while the plugin was not configured: it has no client yet.
    async with world.h.ctx.sessions() as session:
        missing, missing_secret = await gateways.create_gateway(
            session=session, ctx=world.h.ctx, project_sysno=world.b_project, sn="MISSING01", name="网关"
        )
        await session.commit()
    with caplog.at_level(logging.WARNING, logger="powerportal.gateways.broker"):
        result = await broker_accounts.resync(world.h.ctx)
    assert result is not None
    assert result.removed == ["GHOST0001"] and result.missing == ["MISSING01"] and result.kept == 1
    assert "MISSING01" in caplog.text
    assert await world.refused("GHOST0001", "ghost-secret-0123456789")
    assert await world.refused("MISSING01", missing_secret)
    client, code = await world.login(kept.sn, kept.secret)  # kept as it was: its secret still logs in
    assert code == 0
    await client.close()
    async with world.client(*PLATFORM):  # accounts the platform does not manage are left alone
        pass
    # Resetting the missing gateway's secret gives it a client.
    reset = await world.h.post(f"{GATEWAYS}/ResetGatewaySecret", {"sysno": missing.sysno}, world.b.token)
    client, code = await world.login("MISSING01", reset["data"]["secret"])
    assert code == 0
    await client.close()
    again = await broker_accounts.resync(world.h.ctx)
    assert again is not None and again.removed == [] and again.missing == [] and again.kept == 2


async def test_when_mosquitto_cannot_be_reached_nothing_changes(database_url: str) -> None:
    settings = make_settings(
        database_url,
        mosquitto_dynsec_url=f"mqtt://admin:pw@127.0.0.1:{free_port()}",
        mosquitto_dynsec_timeout_seconds=1,
    )
    async for h in start_harness(settings):
        a = await make_account(h)
        project = await make_project(h, a.sysno)
        added = await h.post(
            f"{GATEWAYS}/AddGateway", {"sn": "NOBROKER1", "name": "网关", "project_sysno": project}, a.token
        )
        assert added["statusCode"] == 503 and "请稍后重试" in added["message"], added
        listed = await h.post(f"{GATEWAYS}/GetGatewayList", {"pageIndex": 1, "pageSize": 10}, a.token)
        assert listed["data"]["totalCount"] == 0, "the refused registration was kept"


async def test_the_ingest_reads_gateways_through_the_platform_account(database_url: str) -> None:
    with private_dynsec_mosquitto() as mosquitto:
        admin = Dynsec.from_url(mosquitto.admin_url)
        assert admin is not None
        await admin.check(platform_account())
        # Left by a gateway deleted while the platform was down: the start's resynchronisation removes it.
        await admin.check(put_gateway("GHOST0002", "ghost-secret-0123456789"))
        async for site in start_site(
            database_url,
            "mosquitto",
            mqtt_url=mosquitto.url(*PLATFORM),
            mosquitto_dynsec_url=mosquitto.admin_url,
        ):
            for _ in range(100):
                if "GHOST0002" not in await admin.gateway_clients():
                    break
                await asyncio.sleep(0.05)
            assert "GHOST0002" not in await admin.gateway_clients(), "the start did not resynchronise"
            sn, secret, _ = await site.gateway()
            other, other_secret, _ = await site.gateway()
            for each, each_secret in ((sn, secret), (other, other_secret)):
                await broker_accounts.issued(settings=site.ctx.settings, sn=each, secret=each_secret)
            async with site.client(sn, secret) as client:
                await client.publish(*reading(sn), qos=1)
                await client.publish(*reading(other, voltage=999.0), qos=1)  # as the other gateway: dropped
            await site.settle()
            async with site.ctx.sessions() as session:
                stored = list(await session.scalars(select(Reading.voltage)))
                assert stored == [221.0], stored
                assert await session.scalar(select(func.count()).select_from(Reading)) == 1
