"""Two tabs of one customer changing its groups and tasks at once: clear answers, rules kept, never a 500."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from powerportal.control.models import DeviceGroup, TimedTaskPeriod
from tests.conftest import Harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project

GROUP = "/api/CustomerGroup"
TASK = "/api/CustomerTimedTask"


async def _devices(h: Harness, owner: Account) -> list[int]:
    project = await make_project(h, owner.sysno)
    gateway = await make_gateway(h, project, online=True)
    return [await make_device(h, gateway, project, online=1) for _ in range(2)]


async def test_the_same_group_name_added_at_once_is_one_group_and_clear_refusals(harness: Harness) -> None:
    owner = await make_account(harness)
    devices = await _devices(harness, owner)
    body = {"name": "同名分组", "device_sysnos": devices}
    answers = await asyncio.gather(*(harness.post(f"{GROUP}/AddGroup", body, owner.token) for _ in range(5)))
    assert sorted(a["statusCode"] for a in answers) == [200, 409, 409, 409, 409]
    assert {a["message"] for a in answers if a["statusCode"] == 409} == {"已有名为“同名分组”的分组"}
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(DeviceGroup)) == 1


async def test_a_group_deleted_while_another_tab_edits_or_switches_it_is_not_found(harness: Harness) -> None:
    owner = await make_account(harness)
    devices = await _devices(harness, owner)
    for _ in range(3):
        added = await harness.post(
            f"{GROUP}/AddGroup", {"name": "将删除", "device_sysnos": devices}, owner.token
        )
        group = added["data"]["sysno"]
        deleted, edited, switched = await asyncio.gather(
            harness.call("DELETE", f"{GROUP}/DeleteGroup?sysno={group}", token=owner.token),
            harness.put(
                f"{GROUP}/UpdateGroup",
                {"sysno": group, "name": "改名", "device_sysnos": devices},
                owner.token,
            ),
            harness.post(f"{GROUP}/SwitchGroup", {"sysno": group, "action": "switch_off"}, owner.token),
        )
        assert deleted["statusCode"] == 200
        assert edited["statusCode"] in (200, 404) and switched["statusCode"] in (200, 404)
        await harness.runtime.commander.wait_idle()


async def test_tasks_added_at_once_keep_eight_periods_a_day(harness: Harness) -> None:
    owner = await make_account(harness)
    devices = await _devices(harness, owner)
    body = {"action": "switch_on", "repeat": "weekly", "weekdays": [1], "device_sysnos": devices}
    answers = await asyncio.gather(
        *(
            harness.post(
                f"{TASK}/AddTask",
                {**body, "name": f"任务{n}", "times": [f"{n:02d}:00", f"{n:02d}:30"]},
                owner.token,
            )
            for n in range(6)
        )
    )
    assert sorted(a["statusCode"] for a in answers) == [200] * 4 + [400] * 2
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(TimedTaskPeriod)) == 8
    # An edit racing the task's deletion finds it gone, and writes nothing.
    task = next(a["data"]["sysno"] for a in answers if a["statusCode"] == 200)
    deleted, edited, enabled = await asyncio.gather(
        harness.call("DELETE", f"{TASK}/DeleteTask?sysno={task}", token=owner.token),
        harness.put(
            f"{TASK}/UpdateTask", {**body, "sysno": task, "name": "改", "times": ["05:00"]}, owner.token
        ),
        harness.put(f"{TASK}/EnableTask", {"sysno": task, "enabled": False}, owner.token),
    )
    assert deleted["statusCode"] == 200
    assert edited["statusCode"] in (200, 404) and enabled["statusCode"] in (200, 404)
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(TimedTaskPeriod)) == 6
