"""EMQX's HTTP authenticator and authorizer, called as EMQX calls them, by two customers' gateways.

Real HTTP calls into the application; gateways registered, reset, moved and deleted through the API.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.conftest import Harness, make_settings, start_harness
from tests.factories import Account, make_account, make_project

SECRET = "emqx-shared-secret-0123456789"
PLATFORM = ("powerportal-ingest", "ingest-password-9876")
GATEWAYS = "/api/CustomerGateway"
AUTHN = "/api/BrokerAuth/Authenticate"
AUTHZ = "/api/BrokerAuth/Authorize"


@pytest.fixture
async def h(database_url: str) -> AsyncIterator[Harness]:
    settings = make_settings(
        database_url,
        broker_auth_secret=SECRET,
        mqtt_url=f"mqtt://{PLATFORM[0]}:{PLATFORM[1]}@127.0.0.1:1",
        revocation_poll_seconds=0.1,
    )
    async for harness in start_harness(settings):
        yield harness


async def emqx(h: Harness, path: str, body: dict[str, Any], secret: str | None = SECRET) -> tuple[int, Any]:
    """A call as EMQX makes it: the JSON body template, the shared secret in a header."""
    headers = {"X-Broker-Secret": secret} if secret is not None else {}
    response = await h.client.post(path, json=body, headers=headers)
    assert response.headers["content-type"].startswith("application/json")
    return response.status_code, response.json()


async def login(h: Harness, username: str, password: str, clientid: str | None = None) -> str:
    status, body = await emqx(
        h, AUTHN, {"username": username, "password": password, "clientid": clientid or f"{username}-1"}
    )
    assert status == 200, body
    return str(body["result"])


async def may(h: Harness, username: str, action: str, topic: str, **extra: Any) -> str:
    body = {"username": username, "clientid": f"{username}-1", "topic": topic, "action": action, **extra}
    status, answer = await emqx(h, AUTHZ, body)
    assert status == 200, answer
    return str(answer["result"])


async def register(h: Harness, who: Account, project: int, sn: str) -> tuple[int, str]:
    added = await h.post(
        f"{GATEWAYS}/AddGateway", {"sn": sn, "name": f"网关{sn}", "project_sysno": project}, who.token
    )
    assert added["statusCode"] == 200, added
    return int(added["data"]["sysno"]), str(added["data"]["secret"])


async def test_a_registered_gateway_logs_in_and_no_one_else_does(h: Harness) -> None:
    a, b = await make_account(h, "13900000001"), await make_account(h, "13900000002")
    _, a_secret = await register(h, a, await make_project(h, a.sysno), "EMQXA001")
    _, b_secret = await register(h, b, await make_project(h, b.sysno), "EMQXB001")
    assert await login(h, "EMQXA001", a_secret) == "allow"
    assert await login(h, "EMQXA001", a_secret) == "allow"  # the cached answer agrees
    assert await login(h, "EMQXA001", "wrong-secret") == "deny"
    assert await login(h, "EMQXA001", b_secret) == "deny", "B's secret opened A's gateway"
    assert await login(h, "EMQXB001", a_secret) == "deny"
    assert await login(h, "STRANGER01", a_secret) == "deny"
    assert await login(h, "", "") == "deny"
    assert await login(h, "gateways/#", a_secret) == "deny"
    # A gateway's own secret under another gateway's client id (to take B's session over) is refused.
    assert await login(h, "EMQXA001", a_secret, clientid="EMQXB001") == "deny"
    assert await login(h, "EMQXA001", a_secret, clientid="EMQXA001") == "allow"
    # The platform's own client is a superuser; its password is checked too.
    _, body = await emqx(h, AUTHN, {"username": PLATFORM[0], "password": PLATFORM[1], "clientid": "x"})
    assert body == {"result": "allow", "is_superuser": True}
    _, body = await emqx(h, AUTHN, {"username": PLATFORM[0], "password": "guess", "clientid": "x"})
    assert body["result"] == "deny"


async def test_a_serial_that_begins_another_gets_none_of_its_client_ids(h: Harness) -> None:
    """``DEMO`` and a hyphen and anything is DEMO's client id, unless a gateway ``DEMO-GW…`` owns it.

    EMQX's client ids are global: B registering ``DEMO`` and logging in as ``DEMO-GW-0001`` would have
    taken A's gateway's session, and with it A's commands.
    """
    a, b = await make_account(h, "13900000001"), await make_account(h, "13900000002")
    await register(h, a, await make_project(h, a.sysno), "DEMO-GW-0001")
    _, b_secret = await register(h, b, await make_project(h, b.sysno), "DEMO")
    assert await login(h, "DEMO", b_secret, clientid="DEMO-GW-0001") == "deny"
    assert await login(h, "DEMO", b_secret, clientid="DEMO-GW-0001-main") == "deny"
    assert await login(h, "DEMO", b_secret, clientid="DEMO-GW") == "allow"  # no gateway has that one
    assert await login(h, "DEMO", b_secret, clientid="DEMO-main") == "allow"
    assert await login(h, "DEMO", b_secret, clientid="DEMO") == "allow"


async def test_a_gateway_publishes_and_subscribes_only_under_its_own_prefix(h: Harness) -> None:
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXA001/telemetry") == "allow"
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXA001/rpc/response") == "allow"
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXB001/telemetry") == "deny"
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXA001/rpc/request") == "deny", "a forged command"
    assert await may(h, "EMQXA001", "publish", "$SYS/brokers") == "deny"
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXA001/status", retain=True) == "allow"
    assert await may(h, "EMQXA001", "publish", "gateways/EMQXA001/telemetry", retain="true") == "deny"
    assert await may(h, "EMQXA001", "subscribe", "gateways/EMQXA001/rpc/request") == "allow"
    assert await may(h, "EMQXA001", "subscribe", "gateways/EMQXA001/#") == "allow"
    for stolen in (
        "gateways/EMQXB001/rpc/request",
        "gateways/#",
        "gateways/+/telemetry",
        "#",
        "$share/g/gateways/#",
    ):
        assert await may(h, "EMQXA001", "subscribe", stolen) == "deny", stolen
    assert await may(h, "EMQXA001", "unsubscribe", "gateways/EMQXA001/#") == "deny"
    # A client id of another gateway is not this gateway's, whatever its username says.
    body = {
        "username": "EMQXA001",
        "clientid": "EMQXB001",
        "topic": "gateways/EMQXA001/telemetry",
        "action": "publish",
    }
    assert (await emqx(h, AUTHZ, body))[1]["result"] == "deny"
    assert await may(h, PLATFORM[0], "subscribe", "$share/powerportal/gateways/+/#") == "allow"


async def test_without_the_shared_secret_emqx_is_refused(h: Harness) -> None:
    a = await make_account(h)
    _, secret = await register(h, a, await make_project(h, a.sysno), "EMQXA002")
    body = {"username": "EMQXA002", "password": secret, "clientid": "EMQXA002"}
    for wrong in (None, "", "emqx-shared-secret", SECRET + "x"):
        status, answer = await emqx(h, AUTHN, body, secret=wrong)
        # 401 is "ignore" to EMQX; the end of its chain then refuses the client.
        assert status == 401 and answer["statusCode"] == 401 and "result" not in answer, answer
        status, answer = await emqx(
            h, AUTHZ, {**body, "topic": "gateways/EMQXA002/telemetry", "action": "publish"}, wrong
        )
        assert status == 401 and "result" not in answer


async def test_without_a_configured_secret_the_routes_refuse_everyone(database_url: str) -> None:
    async for h in start_harness(make_settings(database_url)):
        status, answer = await emqx(h, AUTHN, {"username": "X", "password": "", "clientid": "X"}, secret="")
        assert status == 401 and answer["statusCode"] == 401


async def until(check: Any, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.05)
    return False


async def test_reset_move_and_delete_end_the_cached_login(h: Harness) -> None:
    a = await make_account(h)
    project, other = await make_project(h, a.sysno), await make_project(h, a.sysno)
    sysno, old = await register(h, a, project, "EMQXA003")
    assert await login(h, "EMQXA003", old) == "allow"  # now cached
    reset = await h.post(f"{GATEWAYS}/ResetGatewaySecret", {"sysno": sysno}, a.token)
    new = reset["data"]["secret"]

    async def old_refused() -> bool:
        return await login(h, "EMQXA003", old) == "deny"

    assert await until(old_refused), "the old secret still logs in after a reset"
    assert await login(h, "EMQXA003", new) == "allow"
    moved = await h.put(f"{GATEWAYS}/MoveGateway", {"sysno": sysno, "project_sysno": other}, a.token)
    assert moved["statusCode"] == 200
    assert await login(h, "EMQXA003", new) == "allow"  # a move keeps the secret
    deleted = await h.call("DELETE", f"{GATEWAYS}/DeleteGateway", token=a.token, params={"sysno": sysno})
    assert deleted["statusCode"] == 200

    async def new_refused() -> bool:
        return await login(h, "EMQXA003", new) == "deny"

    assert await until(new_refused), "a deleted gateway still logs in"
    # Another customer registers the same serial number: the deleted gateway's secret does not open it.
    b = await make_account(h, "13900000002")
    _, b_secret = await register(h, b, await make_project(h, b.sysno), "EMQXA003")
    assert await login(h, "EMQXA003", new) == "deny"
    assert await login(h, "EMQXA003", b_secret) == "allow"


async def registration_of(h: Harness, sn: str, secret: str) -> str:
    """The client attribute EMQX keeps with a connection that logged in (and sends back to the authorizer)."""
    status, body = await emqx(h, AUTHN, {"username": sn, "password": secret, "clientid": sn})
    assert status == 200 and body["result"] == "allow", body
    return str(body["client_attrs"]["registration"])


async def test_a_connection_of_a_reset_moved_or_deleted_registration_is_refused_at_its_next_publish(
    h: Harness,
) -> None:
    a = await make_account(h)
    project, other = await make_project(h, a.sysno), await make_project(h, a.sysno)
    sysno, old = await register(h, a, project, "EMQXA004")
    _, b_secret = await register(h, a, project, "EMQXB004")
    first = await registration_of(h, "EMQXA004", old)
    topic = "gateways/EMQXA004/telemetry"
    assert await may(h, "EMQXA004", "publish", topic, registration=first) == "allow"
    # Another gateway's registration, or one that never was, does not pass for this one.
    assert (
        await may(
            h, "EMQXA004", "publish", topic, registration=await registration_of(h, "EMQXB004", b_secret)
        )
        == "deny"
    )
    assert await may(h, "EMQXA004", "publish", topic, registration="999999.1") == "deny"
    assert await may(h, "EMQXA004", "publish", topic, registration="garbage") == "deny"
    # An EMQX without client attributes sends the placeholder empty (or unfilled): topics alone decide.
    assert await may(h, "EMQXA004", "publish", topic, registration="") == "allow"
    assert await may(h, "EMQXA004", "publish", topic, registration="${client_attrs.registration}") == "allow"
    reset = await h.post(f"{GATEWAYS}/ResetGatewaySecret", {"sysno": sysno}, a.token)

    async def first_refused() -> bool:
        return await may(h, "EMQXA004", "publish", topic, registration=first) == "deny"

    assert await until(first_refused), "the connection of the old secret still publishes after a reset"
    second = await registration_of(h, "EMQXA004", reset["data"]["secret"])
    assert await may(h, "EMQXA004", "publish", topic, registration=second) == "allow"
    await h.put(f"{GATEWAYS}/MoveGateway", {"sysno": sysno, "project_sysno": other}, a.token)

    async def second_refused() -> bool:
        return await may(h, "EMQXA004", "publish", topic, registration=second) == "deny"

    assert await until(second_refused), "a connection from before the move still publishes"
    third = await registration_of(h, "EMQXA004", reset["data"]["secret"])
    assert (
        await may(h, "EMQXA004", "subscribe", "gateways/EMQXA004/rpc/request", registration=third) == "allow"
    )
    await h.call("DELETE", f"{GATEWAYS}/DeleteGateway", token=a.token, params={"sysno": sysno})

    async def third_refused() -> bool:
        return (
            await may(h, "EMQXA004", "subscribe", "gateways/EMQXA004/rpc/request", registration=third)
            == "deny"
        )

    assert await until(third_refused), "a deleted gateway's connection still subscribes"
