"""A second customer tries every remote-control route with the first one's ids and gets nothing."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select

from powerportal.control.models import Command, ControlRun, DeviceGroup, TimedTask
from tests.control.conftest import Field
from tests.factories import make_account

SECRET = "甲方机密"


async def counts(f: Field) -> list[int]:
    async with f.h.ctx.sessions() as session:
        return [
            int(await session.scalar(select(func.count()).select_from(m)) or 0)
            for m in (Command, ControlRun, DeviceGroup, TimedTask)
        ]


async def test_second_customer_gets_nothing(field_site: Field) -> None:
    f = field_site
    owner = f.owner.token
    devices = [d.sysno for d in await f.devices()]
    device = devices[0]
    assert (
        await f.h.post(
            "/api/CustomerControl/SendCommand", {"device_sysno": device, "action": "read_now"}, token=owner
        )
    )["statusCode"] == 200
    group = (
        await f.h.post(
            "/api/CustomerGroup/AddGroup", {"name": f"{SECRET}组", "device_sysnos": devices}, token=owner
        )
    )["data"]
    run = (
        await f.h.post(
            "/api/CustomerGroup/SwitchGroup", {"sysno": group["sysno"], "action": "switch_on"}, token=owner
        )
    )["data"]
    task = (
        await f.h.post(
            "/api/CustomerTimedTask/AddTask",
            {
                "name": f"{SECRET}任务",
                "action": "switch_on",
                "repeat": "weekly",
                "weekdays": [1],
                "times": ["08:00"],
                "device_sysnos": devices,
            },
            token=owner,
        )
    )["data"]
    command = (await f.h.post("/api/CustomerCommandLog/GetCommandLogList", {}, token=owner))["data"][
        "dataSource"
    ][0]

    intruder = (await make_account(f.h, mobile="13900000002")).token
    before = await counts(f)
    calls: list[tuple[str, str, Any]] = [
        ("POST", "/api/CustomerControl/SendCommand", {"device_sysno": device, "action": "switch_off"}),
        ("POST", "/api/CustomerControl/GetControllableDeviceList", {}),
        ("POST", "/api/CustomerCommandLog/GetCommandLogList", {}),
        ("POST", "/api/CustomerCommandLog/GetCommandLogList", {"device_sysno": device}),
        ("GET", f"/api/CustomerCommandLog/GetSingleCommand?sysno={command['sysno']}", None),
        ("POST", "/api/CustomerTimedTask/GetTaskList", {}),
        ("GET", f"/api/CustomerTimedTask/GetSingleTask?sysno={task['sysno']}", None),
        (
            "PUT",
            "/api/CustomerTimedTask/UpdateTask",
            {
                **{k: task[k] for k in ("sysno", "action", "repeat", "weekdays", "times")},
                "name": "x",
                "device_sysnos": devices,
            },
        ),
        ("PUT", "/api/CustomerTimedTask/EnableTask", {"sysno": task["sysno"], "enabled": False}),
        ("DELETE", f"/api/CustomerTimedTask/DeleteTask?sysno={task['sysno']}", None),
        (
            "POST",
            "/api/CustomerTimedTask/AddTask",
            {
                "name": "x",
                "action": "switch_on",
                "repeat": "weekly",
                "weekdays": [1],
                "times": ["08:00"],
                "device_sysnos": devices,
            },
        ),
        ("POST", "/api/CustomerTimedTask/GetRunList", {}),
        ("GET", f"/api/CustomerTimedTask/GetRunDetail?sysno={run['sysno']}", None),
        ("POST", "/api/CustomerGroup/GetGroupList", {}),
        ("GET", f"/api/CustomerGroup/GetSingleGroup?sysno={group['sysno']}", None),
        (
            "PUT",
            "/api/CustomerGroup/UpdateGroup",
            {"sysno": group["sysno"], "name": "x", "device_sysnos": []},
        ),
        ("DELETE", f"/api/CustomerGroup/DeleteGroup?sysno={group['sysno']}", None),
        ("POST", "/api/CustomerGroup/AddGroup", {"name": "x", "device_sysnos": devices}),
        ("POST", "/api/CustomerGroup/SwitchGroup", {"sysno": group["sysno"], "action": "switch_off"}),
        ("GET", f"/api/CustomerGroup/GetRunStatus?sysno={run['sysno']}", None),
    ]
    for method, path, payload in calls:
        body = await f.h.call(
            method, path, token=intruder, **({"json": payload} if payload is not None else {})
        )
        text = json.dumps(body, ensure_ascii=False)
        assert SECRET not in text, (path, body)
        if body["statusCode"] == 200:
            data = body["data"]
            assert data == [] or (isinstance(data, dict) and data.get("totalCount") == 0), (path, body)
        else:
            assert body["statusCode"] == 404, (path, body)
    assert await counts(f) == before
    # Without a login, every route answers 401.
    for method, path, payload in calls:
        body = await f.h.call(method, path, **({"json": payload} if payload is not None else {}))
        assert body["statusCode"] == 401, (path, body)
