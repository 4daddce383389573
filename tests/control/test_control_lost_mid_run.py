"""A sharee's group run stops sending to a gateway the moment the sharee no longer controls it.

The gateway takes 16 requests at once; the rest wait behind them. The owner moves the gateway out of
the building the sharee's share covers (or revokes the share) while they wait: none of them goes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from powerportal.control.commands import CONTROL_LOST, PER_GATEWAY_IN_FLIGHT
from powerportal.control.models import Command
from powerportal.mqtt.codec import RpcResponse
from tests.conftest import Harness
from tests.factories import Account, make_account, make_building, make_device, make_gateway, make_project


class Held:
    """An rpc channel holding every request until released, then answering it."""

    def __init__(self) -> None:
        self.calls = 0
        self.full = asyncio.Event()
        self.release = asyncio.Event()

    async def call(self, **_request: Any) -> RpcResponse:
        self.calls += 1
        if self.calls == PER_GATEWAY_IN_FLIGHT:
            self.full.set()
        await self.release.wait()
        return RpcResponse(id="1", ok=True, result={"switch": 0})


async def _share(h: Harness, owner: Account, guest: Account, project: int, building: int) -> int:
    body = {"project_sysno": project, "mobile": guest.mobile, "permission": 2, "building_sysnos": [building]}
    added = await h.post("/api/CustomerShare/AddShare", body, owner.token)
    assert added["statusCode"] == 200, added
    sysno: int = added["data"]["sysno"]
    assert (await h.post("/api/CustomerShare/AcceptShare", {"sysno": sysno}, guest.token))[
        "statusCode"
    ] == 200
    return sysno


@pytest.mark.parametrize("how", ["moved", "revoked"])
async def test_requests_waiting_when_the_sharee_loses_control_are_not_sent(
    harness: Harness, how: str
) -> None:
    h = harness
    owner = await make_account(h, "13900000001")
    sharee = await make_account(h, "13900000002")
    project = await make_project(h, owner.sysno)
    shared, other = await make_building(h, project), await make_building(h, project)
    gateway = await make_gateway(h, project, shared, online=True)
    devices = [await make_device(h, gateway, project, online=1) for _ in range(PER_GATEWAY_IN_FLIGHT + 4)]
    share = await _share(h, owner, sharee, project, shared)
    group = await h.post(
        "/api/CustomerGroup/AddGroup", {"name": "宿舍", "device_sysnos": devices}, sharee.token
    )
    held = Held()
    h.runtime.commander.rpc = held  # type: ignore[assignment]
    run = await h.post(
        "/api/CustomerGroup/SwitchGroup",
        {"sysno": group["data"]["sysno"], "action": "switch_off"},
        sharee.token,
    )
    assert run["statusCode"] == 200, run
    await asyncio.wait_for(held.full.wait(), 10)
    if how == "moved":
        body = {"sysno": gateway, "name": "网关", "building_sysno": other}
        assert (await h.put("/api/CustomerGateway/UpdateGateway", body, owner.token))["statusCode"] == 200
    else:
        assert (await h.post("/api/CustomerShare/RevokeShare", {"sysno": share}, owner.token))[
            "statusCode"
        ] == 200
    held.release.set()
    await asyncio.wait_for(h.runtime.commander.wait_idle(), 20)
    assert held.calls == PER_GATEWAY_IN_FLIGHT
    async with h.ctx.sessions() as session:
        reasons = list(
            await session.scalars(select(Command.reason).where(Command.run_sysno == run["data"]["sysno"]))
        )
    assert reasons.count(CONTROL_LOST) == 4 and reasons.count(None) == PER_GATEWAY_IN_FLIGHT, reasons
