"""Deleting a project or building while a gateway is put into it: one wins, the other is told, never a 500."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building, Project
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

GW = "/api/CustomerGateway"
PJ = "/api/CustomerProject"


async def _at_once(h: Harness, token: str, *calls: tuple[str, str, Any]) -> list[int]:
    """The envelopes' status codes of requests sent together (the harness refuses any HTTP 5xx)."""
    answers = await asyncio.gather(*(h.call(method, path, token, json=body) for method, path, body in calls))
    return [a["statusCode"] for a in answers]


async def _orphans(h: Harness) -> int:
    async with h.ctx.sessions() as session:
        return int(
            await session.scalar(
                select(func.count())
                .select_from(Gateway)
                .where(
                    ~Gateway.project_sysno.in_(select(Project.sysno))
                    | (
                        Gateway.building_sysno.is_not(None)
                        & ~Gateway.building_sysno.in_(select(Building.sysno))
                    )
                )
            )
            or 0
        )


async def test_deleting_a_project_a_gateway_moves_into(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    home = await make_project(harness, owner.sysno)
    for _ in range(3):
        gateway = await make_gateway(harness, home, online=True)
        await make_device(harness, gateway, home, online=1)
        target = await make_project(harness, owner.sysno)
        codes = await _at_once(
            harness,
            owner.token,
            ("PUT", f"{GW}/MoveGateway", {"sysno": gateway, "project_sysno": target}),
            ("DELETE", f"{PJ}/DeleteProject?sysno={target}", None),
        )
        # Either the move came first (the project keeps it and is not deleted) or the deletion did.
        assert codes in ([200, 400], [404, 200]), codes
        empty = await make_project(harness, owner.sysno)
        registered = await _at_once(
            harness,
            owner.token,
            (
                "POST",
                f"{GW}/AddGateway",
                {"sn": f"RACE{gateway:04d}", "name": "新网关", "project_sysno": empty},
            ),
            ("DELETE", f"{PJ}/DeleteProject?sysno={empty}", None),
        )
        assert registered in ([200, 400], [404, 200]), registered
    assert await _orphans(harness) == 0


async def test_deleting_a_building_a_gateway_moves_into(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    project = await make_project(harness, owner.sysno)
    for _ in range(3):
        gateway = await make_gateway(harness, project, online=True)
        building = await make_building(harness, project)
        codes = await _at_once(
            harness,
            owner.token,
            (
                "PUT",
                f"{GW}/MoveGateway",
                {"sysno": gateway, "project_sysno": project, "building_sysno": building},
            ),
            ("DELETE", f"{PJ}/DeleteBuilding?sysno={building}", None),
        )
        assert codes[0] in (200, 400, 404) and codes[1] in (200, 400) and 200 in codes, codes
    assert await _orphans(harness) == 0
