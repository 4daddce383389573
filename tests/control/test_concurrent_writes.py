"""Two tabs of one customer changing or switching its groups and tasks at once: clear answers, rules kept."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update

from powerportal.control.models import ControlRun, DeviceGroup, TimedTaskPeriod
from powerportal.core.timeutil import utcnow
from powerportal.mqtt.codec import RpcResponse
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
        # Deleted first (as the requests are sent), the edit and the switch find no group. Switched first,
        # the delete is refused while the run is under way (the next test) and is sent again once it ended.
        assert deleted["statusCode"] in (200, 409)
        assert edited["statusCode"] in (200, 404) and switched["statusCode"] in (200, 404)
        await harness.runtime.commander.wait_idle()
        if deleted["statusCode"] == 409:
            again = await harness.call("DELETE", f"{GROUP}/DeleteGroup?sysno={group}", token=owner.token)
            assert again["statusCode"] == 200, again


async def test_a_group_is_not_deleted_while_it_switches(harness: Harness) -> None:
    """Its runs go with it: the run under way would vanish, or fail on its commands' foreign key."""
    owner = await make_account(harness)
    devices = await _devices(harness, owner)
    added = await harness.post(f"{GROUP}/AddGroup", {"name": "执行中", "device_sysnos": devices}, owner.token)
    group = added["data"]["sysno"]
    async with harness.ctx.sessions() as session:
        run = ControlRun(
            customer_sysno=owner.sysno,
            kind="group",
            group_sysno=group,
            name="执行中",
            action="switch_off",
            total=2,
            status="running",
            start_time=utcnow(),
        )
        session.add(run)
        await session.commit()
    refused = await harness.call("DELETE", f"{GROUP}/DeleteGroup?sysno={group}", token=owner.token)
    assert refused["statusCode"] == 409 and refused["message"] == "该分组正在执行，请在执行结束后再删除"
    async with harness.ctx.sessions() as session:
        assert await session.get(DeviceGroup, group) is not None
        await session.execute(update(ControlRun).where(ControlRun.sysno == run.sysno).values(status="done"))
        await session.commit()
    deleted = await harness.call("DELETE", f"{GROUP}/DeleteGroup?sysno={group}", token=owner.token)
    assert deleted["statusCode"] == 200
    async with harness.ctx.sessions() as session:
        assert await session.get(DeviceGroup, group) is None


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


class Held:
    """An rpc channel whose gateway answers every command once released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.calls = 0

    async def call(self, **_request: Any) -> RpcResponse:
        self.calls += 1
        await self.release.wait()
        return RpcResponse(id="1", ok=True, result={"switch": 0})


async def test_a_group_is_not_switched_again_while_its_run_is_under_way(harness: Harness) -> None:
    owner = await make_account(harness)
    devices = await _devices(harness, owner)
    group = (
        await harness.post(f"{GROUP}/AddGroup", {"name": "双击", "device_sysnos": devices}, owner.token)
    )["data"]["sysno"]
    held = Held()
    harness.runtime.commander.rpc = held  # type: ignore[assignment]
    body = {"sysno": group, "action": "switch_off"}
    first, second = await asyncio.gather(
        harness.post(f"{GROUP}/SwitchGroup", body, owner.token),
        harness.post(f"{GROUP}/SwitchGroup", {**body, "action": "switch_on"}, owner.token),
    )
    assert sorted(a["statusCode"] for a in (first, second)) == [200, 409]
    refused = first if first["statusCode"] == 409 else second
    assert refused["message"] == "该分组上一次执行尚未完成，请在执行结束后再操作"
    held.release.set()
    await harness.runtime.commander.wait_idle()
    assert held.calls == len(devices)
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(ControlRun)) == 1
        # A run its process left "running" long ago blocks nothing.
        await session.execute(
            update(ControlRun).values(status="running", start_time=utcnow() - timedelta(minutes=11))
        )
        await session.commit()
    again = await harness.post(f"{GROUP}/SwitchGroup", body, owner.token)
    assert again["statusCode"] == 200, again
    await harness.runtime.commander.wait_idle()
