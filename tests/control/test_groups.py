"""Device groups across gateways: editing rules, switching a whole group, results as they arrive."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from powerportal.logs.models import OperationLog
from tests.control.conftest import Field, start_field


@pytest.fixture
async def two_gateways(database_url: str) -> AsyncIterator[Field]:
    """Two simulated gateways with four breakers each."""
    async for f in start_field(database_url, gateways_count=2, devices_per_gateway=4):
        yield f


async def poll_run(f: Field, sysno: int) -> dict[str, Any]:
    """Poll the run as the screen does until it is done."""
    seen_partial = False
    async with asyncio.timeout(15):
        while True:
            body = await f.h.call(
                "GET", f"/api/CustomerGroup/GetRunStatus?sysno={sysno}", token=f.owner.token
            )
            assert body["statusCode"] == 200, body
            run: dict[str, Any] = body["data"]
            seen_partial = seen_partial or run["status"] == "running"
            if run["status"] == "done":
                return run
            await asyncio.sleep(0.05)


async def test_switch_a_group_across_gateways(two_gateways: Field) -> None:
    f = two_gateways
    devices = await f.devices()
    assert {d.gateway_sysno for d in devices} == {sysno for _, sysno in f.gateways}
    chosen = [d.sysno for d in devices if d.device_id != "1"]
    body = await f.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "宿舍回路", "device_sysnos": chosen}, token=f.owner.token
    )
    assert body["statusCode"] == 200, body
    group = body["data"]
    assert group["device_count"] == 6 and group["online_count"] == 6 and group["on_count"] == 6
    assert {d["gateway_sn"] for d in group["devices"]} == {"CTL0000", "CTL0001"}

    started = await f.h.post(
        "/api/CustomerGroup/SwitchGroup",
        {"sysno": group["sysno"], "action": "switch_off"},
        token=f.owner.token,
    )
    assert started["statusCode"] == 200 and started["data"]["status"] == "running", started
    run = await poll_run(f, started["data"]["sysno"])
    assert run["total"] == 6 and run["succeeded"] == 6 and run["failed"] == 0 and run["pending"] == 0
    assert sorted(c["device_sysno"] for c in run["commands"]) == sorted(chosen)
    assert all(c["status"] == "succeeded" and c["source"] == "group" for c in run["commands"])
    await f.settle()
    states = {d.sysno: d.switch_state for d in await f.devices()}
    assert all(states[s] == 0 for s in chosen) and all(
        states[d.sysno] == 1 for d in devices if d.sysno not in chosen
    )

    listed = (await f.h.post("/api/CustomerGroup/GetGroupList", {}, token=f.owner.token))["data"]
    assert listed["totalCount"] == 1
    assert listed["dataSource"][0]["on_count"] == 0 and listed["dataSource"][0]["last_run"]["succeeded"] == 6


async def test_group_with_a_silent_gateway_reports_each_device(two_gateways: Field) -> None:
    f = two_gateways
    f.simulator.behaviour.rpc = "refuse"
    chosen = [d.sysno for d in await f.devices()][:3]
    group = (
        await f.h.post(
            "/api/CustomerGroup/AddGroup", {"name": "拒绝", "device_sysnos": chosen}, token=f.owner.token
        )
    )["data"]
    started = await f.h.post(
        "/api/CustomerGroup/SwitchGroup",
        {"sysno": group["sysno"], "action": "switch_off"},
        token=f.owner.token,
    )
    run = await poll_run(f, started["data"]["sysno"])
    assert run["failed"] == 3 and {c["reason"] for c in run["commands"]} == {"网关拒绝执行"}


async def test_group_rules(two_gateways: Field) -> None:
    f = two_gateways
    devices = [d.sysno for d in await f.devices()]
    first = await f.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "一组", "device_sysnos": devices[:2]}, token=f.owner.token
    )
    assert first["statusCode"] == 200
    again = await f.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "一组", "device_sysnos": []}, token=f.owner.token
    )
    assert again["statusCode"] == 409 and "已有名为" in again["message"]
    foreign = await f.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "二组", "device_sysnos": [99999]}, token=f.owner.token
    )
    assert foreign["statusCode"] == 404 and "无权控制" in foreign["message"]
    empty = await f.h.post("/api/CustomerGroup/AddGroup", {"name": "空组"}, token=f.owner.token)
    assert empty["statusCode"] == 200
    refused = await f.h.post(
        "/api/CustomerGroup/SwitchGroup",
        {"sysno": empty["data"]["sysno"], "action": "switch_on"},
        token=f.owner.token,
    )
    assert refused["statusCode"] == 400 and "没有可控制的设备" in refused["message"]
    sysno = first["data"]["sysno"]
    renamed = await f.h.put(
        "/api/CustomerGroup/UpdateGroup",
        {"sysno": sysno, "name": "改名", "device_sysnos": devices[3:6]},
        token=f.owner.token,
    )
    assert renamed["statusCode"] == 200 and [d["sysno"] for d in renamed["data"]["devices"]] == devices[3:6]
    clash = await f.h.put(
        "/api/CustomerGroup/UpdateGroup",
        {"sysno": sysno, "name": "空组", "device_sysnos": []},
        token=f.owner.token,
    )
    assert clash["statusCode"] == 409
    picker = await f.h.post(
        "/api/CustomerControl/GetControllableDeviceList", {"keyword": "CTL0001"}, token=f.owner.token
    )
    assert len(picker["data"]) == 4
    gone = await f.h.call("DELETE", f"/api/CustomerGroup/DeleteGroup?sysno={sysno}", token=f.owner.token)
    assert gone["statusCode"] == 200
    missing = await f.h.call("GET", f"/api/CustomerGroup/GetSingleGroup?sysno={sysno}", token=f.owner.token)
    assert missing["statusCode"] == 404 and missing["message"] == "分组不存在或无权访问"
    # Created twice, changed once, deleted once; refused edits leave no entry.
    async with f.h.ctx.sessions() as session:
        details = list(
            await session.scalars(
                select(OperationLog.detail)
                .where(OperationLog.operate_type == 32)
                .order_by(OperationLog.sysno)
            )
        )
    assert details == [
        "新建分组“一组”（2 个设备）",
        "新建分组“空组”（0 个设备）",
        "修改分组“改名”（3 个设备）",
        "删除分组“改名”",
    ]
