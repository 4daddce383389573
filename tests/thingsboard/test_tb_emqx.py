"""EMQX's HTTP authorizer for ThingsBoard gateways on a listener with ``mountpoint = "tb/${username}/"``.

EMQX asks about a topic before it mounts it and sends the listener's ``${mountpoint}`` along; the
platform decides on the mounted topic, so a gateway reaches ``v1/...`` only under its own mount point.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.conftest import Harness, make_settings, start_harness

SECRET = "emqx-shared-secret-0123456789"
AUTHZ = "/api/BrokerAuth/Authorize"


@pytest.fixture
async def h(database_url: str) -> AsyncIterator[Harness]:
    settings = make_settings(
        database_url, broker_auth_secret=SECRET, mqtt_url="mqtt://ingest:ingest-password-0@127.0.0.1:1"
    )
    async for harness in start_harness(settings):
        yield harness


async def may(h: Harness, username: str, action: str, topic: str, **extra: Any) -> str:
    body = {"username": username, "clientid": username, "topic": topic, "action": action, **extra}
    response = await h.client.post(AUTHZ, json=body, headers={"X-Broker-Secret": SECRET})
    assert response.status_code == 200, response.text
    return str(response.json()["result"])


async def test_a_thingsboard_gateway_reaches_v1_topics_only_under_its_own_mount_point(h: Harness) -> None:
    mine = {"mountpoint": "tb/TBX001/"}
    assert await may(h, "TBX001", "publish", "v1/gateway/telemetry", **mine) == "allow"
    assert await may(h, "TBX001", "publish", "v1/gateway/rpc", **mine) == "allow"
    assert await may(h, "TBX001", "subscribe", "v1/gateway/rpc", **mine) == "allow"
    assert await may(h, "TBX001", "subscribe", "v1/devices/me/rpc/request/+", **mine) == "allow"
    # Without its mount point (an ordinary listener), or under another gateway's, nothing of v1/.
    assert await may(h, "TBX001", "publish", "v1/gateway/telemetry") == "deny"
    assert await may(h, "TBX001", "publish", "v1/gateway/telemetry", mountpoint="") == "deny"
    assert await may(h, "TBX001", "publish", "v1/gateway/telemetry", mountpoint="${mountpoint}") == "deny"
    assert await may(h, "TBX001", "publish", "v1/gateway/telemetry", mountpoint="tb/TBY001/") == "deny"
    assert await may(h, "TBX001", "subscribe", "v1/gateway/rpc", mountpoint="tb/TBY001/") == "deny"
    # The mounted names themselves: its own only; our own protocol's topics are not under the mount.
    assert await may(h, "TBX001", "publish", "tb/TBX001/v1/gateway/telemetry") == "allow"
    assert await may(h, "TBX001", "publish", "tb/TBY001/v1/gateway/telemetry") == "deny"
    assert await may(h, "TBX001", "subscribe", "tb/+/v1/gateway/rpc") == "deny"
    assert await may(h, "TBX001", "publish", "gateways/TBX001/telemetry", **mine) == "deny"
    assert await may(h, "TBX001", "publish", "gateways/TBX001/telemetry") == "allow"
