"""Two tabs of one owner changing and deleting the same gateway or device at once: 404s, never a 500."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

GATEWAY = "/api/CustomerGateway"
DEVICE = "/api/CustomerDevice"


async def test_a_gateway_changed_while_another_tab_deletes_it(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    other = await make_project(harness, owner.sysno)
    building = await make_building(harness, other)
    for _ in range(3):
        gateway = await make_gateway(harness, project, online=True)
        for _ in range(2):
            await make_device(harness, gateway, project, online=1)
        answers = await asyncio.gather(
            harness.call("DELETE", f"{GATEWAY}/DeleteGateway?sysno={gateway}", token=owner.token),
            harness.put(f"{GATEWAY}/UpdateGateway", {"sysno": gateway, "name": "改名"}, owner.token),
            harness.put(
                f"{GATEWAY}/MoveGateway",
                {"sysno": gateway, "project_sysno": other, "building_sysno": building},
                owner.token,
            ),
            harness.post(f"{GATEWAY}/ResetGatewaySecret", {"sysno": gateway}, owner.token),
            harness.call("DELETE", f"{GATEWAY}/DeleteGateway?sysno={gateway}", token=owner.token),
        )
        assert all(a["statusCode"] in (200, 404) for a in answers), answers
        assert sorted(a["statusCode"] for a in (answers[0], answers[4])) == [200, 404]
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Gateway)) == 0
        assert await session.scalar(select(func.count()).select_from(Device)) == 0


async def test_a_device_changed_while_another_tab_deletes_it(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    for _ in range(3):
        gateway = await make_gateway(harness, project, online=True)
        device = await make_device(harness, gateway, project, online=1)
        answers = await asyncio.gather(
            harness.call("DELETE", f"{DEVICE}/DeleteDevice?sysno={device}", token=owner.token),
            harness.put(
                f"{DEVICE}/UpdateDevice", {"sysno": device, "name": "改名", "over_voltage": 250}, owner.token
            ),
            harness.call("DELETE", f"{GATEWAY}/DeleteGateway?sysno={gateway}", token=owner.token),
        )
        assert all(a["statusCode"] in (200, 404) for a in answers), answers
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Device)) == 0
