"""Commands still waiting when their gateway is deleted and its serial number registered by someone else.

Real simulated gateways answer over the embedded broker; the platform's rpc channel is wrapped only to
hold some requests back (a slow bus) until the deletion is done, then passes them on unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from powerportal.control.commands import DELETED_MEANWHILE
from powerportal.devices.models import Device
from powerportal.logs.models import StatusLog
from powerportal.mqtt.codec import RpcResponse
from powerportal.mqtt.rpc import RpcClient
from tests.control.conftest import Field, start_field
from tests.factories import make_account, make_device, make_project


class HeldRpc:
    """The real rpc channel, holding back the first ``hold`` requests to ``sn`` until released."""

    def __init__(self, real: RpcClient, sn: str, hold: int) -> None:
        self.real, self.sn, self.hold = real, sn, hold
        self.calls: list[tuple[str, str]] = []
        self.held = 0
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def call(self, *, sn: str, device_id: str, **request: Any) -> RpcResponse:
        self.calls.append((sn, device_id))
        if sn == self.sn and self.held < self.hold:
            self.held += 1
            if self.held == self.hold:
                self.holding.set()
            await self.release.wait()
        return await self.real.call(sn=sn, device_id=device_id, **request)


def hold(f: Field, sn: str, count: int) -> HeldRpc:
    commander = f.h.runtime.commander
    assert commander.rpc is not None
    held = HeldRpc(commander.rpc, sn, count)
    commander.rpc = held  # type: ignore[assignment]
    return held


async def register_again(f: Field, sn: str) -> tuple[int, int]:
    """Another customer registers the serial number in a project of its own: (project, gateway)."""
    stranger = await make_account(f.h, "13900000077")
    theirs = await make_project(f.h, stranger.sysno, name="别人的项目")
    added = await f.h.post(
        "/api/CustomerGateway/AddGateway",
        {"sn": sn, "name": "别人的网关", "project_sysno": theirs},
        token=stranger.token,
    )
    assert added["statusCode"] == 200, added
    return theirs, added["data"]["sysno"]


async def delete_gateway(f: Field, sysno: int) -> None:
    gone = await f.h.call("DELETE", f"/api/CustomerGateway/DeleteGateway?sysno={sysno}", token=f.owner.token)
    assert gone["statusCode"] == 200, gone


async def switch_all_off(f: Field, sn: str, count: int) -> HeldRpc:
    """Switch a group of every device off, holding ``count`` requests to ``sn`` until released."""
    devices = [d.sysno for d in await f.devices()]
    group = await f.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "全部", "device_sysnos": devices}, f.owner.token
    )
    assert group["statusCode"] == 200, group
    held = hold(f, sn, count)
    body = {"sysno": group["data"]["sysno"], "action": "switch_off"}
    run = await f.h.post("/api/CustomerGroup/SwitchGroup", body, f.owner.token)
    assert run["statusCode"] == 200, run
    await asyncio.wait_for(held.holding.wait(), 10)
    return held


@pytest.fixture
async def busy_gateway(database_url: str) -> AsyncIterator[Field]:
    """One gateway with more breakers than it takes requests at once."""
    async for f in start_field(database_url, devices_per_gateway=20):
        yield f


async def test_requests_queued_for_a_deleted_gateway_never_reach_its_serial_numbers_new_owner(
    busy_gateway: Field,
) -> None:
    f = busy_gateway
    (sn, gateway), *_ = f.gateways
    # As many as a gateway takes at once are held: the other four wait behind them.
    held = await switch_all_off(f, sn, 16)
    await delete_gateway(f, gateway)
    await register_again(f, sn)
    sent_before = len(held.calls)
    held.release.set()
    await asyncio.wait_for(f.h.runtime.commander.wait_idle(), 20)
    assert sent_before == 16 and held.calls[sent_before:] == []


async def test_a_command_whose_gateway_is_deleted_while_it_waits_answers_in_chinese(
    field_site: Field,
) -> None:
    f = field_site
    (sn, gateway), *_ = f.gateways
    device = (await f.devices())[0].sysno
    held = hold(f, sn, 1)
    press = asyncio.create_task(
        f.h.post(
            "/api/CustomerControl/SendCommand",
            {"device_sysno": device, "action": "switch_off"},
            f.owner.token,
        )
    )
    await asyncio.wait_for(held.holding.wait(), 10)
    await delete_gateway(f, gateway)  # from another tab, while the gateway works on it
    held.release.set()
    answer = await asyncio.wait_for(press, 20)
    assert (answer["statusCode"], answer["message"]) == (400, DELETED_MEANWHILE)


@pytest.fixture
async def two_gateways(database_url: str) -> AsyncIterator[Field]:
    """Two gateways of three breakers each."""
    async for f in start_field(database_url, gateways_count=2):
        yield f


async def test_switches_a_deleted_gateway_confirmed_are_never_written_to_the_new_owners_devices(
    two_gateways: Field,
) -> None:
    f = two_gateways
    (fast_sn, fast), (slow_sn, _slow) = f.gateways
    held = await switch_all_off(f, slow_sn, 1)
    await asyncio.sleep(1)  # the fast gateway has answered its three: switched off
    await delete_gateway(f, fast)
    theirs, their_gateway = await register_again(f, fast_sn)
    ids = ("1", "2", "3")
    their_devices = [
        await make_device(f.h, their_gateway, theirs, device_id=i, online=1, switch_state=1) for i in ids
    ]
    held.release.set()  # the run ends: its confirmed switches go to the ingest
    await asyncio.wait_for(f.h.runtime.commander.wait_idle(), 20)
    await f.settle()
    async with f.h.ctx.sessions() as session:
        states = list(
            await session.scalars(select(Device.switch_state).where(Device.sysno.in_(their_devices)))
        )
        logs = list(await session.scalars(select(StatusLog.detail).where(StatusLog.project_sysno == theirs)))
    assert states == [1, 1, 1] and logs == []
