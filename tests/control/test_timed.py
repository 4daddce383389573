"""Timed tasks: the form's rules, next run, and the scheduler running each occurrence exactly once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from powerportal.control.models import Command, ControlRun
from powerportal.control.scheduler import Scheduler
from powerportal.core.timeutil import CUSTOMER_TZ
from powerportal.logs.models import OperationLog
from tests.control.conftest import Field

ADD = "/api/CustomerTimedTask/AddTask"


def soon(minutes: int = 2) -> datetime:
    """A whole minute a little ahead, in UTC."""
    return (datetime.now(UTC) + timedelta(minutes=minutes)).replace(second=0, microsecond=0)


def local_hhmm(at: datetime) -> str:
    return at.astimezone(CUSTOMER_TZ).strftime("%H:%M")


async def count(f: Field, model: Any, *where: Any) -> int:
    async with f.h.ctx.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def test_two_schedulers_run_an_occurrence_exactly_once(field_site: Field) -> None:
    f = field_site
    devices = [d.sysno for d in await f.devices()]
    at = soon()
    body = await f.h.post(
        ADD,
        {
            "name": "夜间断电",
            "action": "switch_off",
            "repeat": "weekly",
            "weekdays": [1, 2, 3, 4, 5, 6, 7],
            "times": [local_hhmm(at)],
            "device_sysnos": devices,
        },
        token=f.owner.token,
    )
    assert body["statusCode"] == 200, body
    task = body["data"]
    assert task["next_run"] == at.astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M:%S")
    assert task["device_count"] == 3 and task["enabled"] == 1

    clock = at + timedelta(seconds=3)
    first, second = (
        Scheduler(f.h.runtime.commander, clock=lambda: clock, name="a"),
        Scheduler(f.h.runtime.commander, clock=lambda: clock, name="b"),
    )
    # Both race for the same occurrence, twice over; the claim lets exactly one of them run it.
    results = await asyncio.gather(first.tick(), second.tick(), second.tick(), first.tick())
    assert sum(len(r) for r in results) == 1
    await asyncio.gather(first.wait_idle(), second.wait_idle())
    assert first.runs_started + second.runs_started == 1

    runs = (
        await f.h.post(
            "/api/CustomerTimedTask/GetRunList", {"task_sysno": task["sysno"]}, token=f.owner.token
        )
    )["data"]
    assert runs["totalCount"] == 1
    run = runs["dataSource"][0]
    assert run["status"] == "done" and run["total"] == 3 and run["succeeded"] == 3 and run["failed"] == 0
    detail = (
        await f.h.call(
            "GET", f"/api/CustomerTimedTask/GetRunDetail?sysno={run['sysno']}", token=f.owner.token
        )
    )["data"]
    assert [c["status"] for c in detail["commands"]] == ["succeeded"] * 3
    assert all(c["source"] == "task" and c["operator"] == "定时任务“夜间断电”" for c in detail["commands"])
    await f.settle()
    assert all(d.switch_state == 0 for d in await f.devices())

    # A later tick at the same instant finds nothing new; the task now shows its last run.
    assert await first.tick() == [] and await second.tick() == []
    assert await count(f, Command) == 3
    shown = (
        await f.h.call(
            "GET", f"/api/CustomerTimedTask/GetSingleTask?sysno={task['sysno']}", token=f.owner.token
        )
    )["data"]
    assert shown["last_run_status"] == "已完成"


async def test_missed_occurrence_beyond_grace_is_recorded_as_skipped(field_site: Field) -> None:
    f = field_site
    devices = [d.sysno for d in await f.devices()]
    at = soon(3)
    local = at.astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M")
    body = await f.h.post(
        ADD,
        {
            "name": "单次合闸",
            "action": "switch_on",
            "repeat": "once",
            "run_at": local,
            "device_sysnos": devices,
        },
        token=f.owner.token,
    )
    assert body["statusCode"] == 200, body
    assert body["data"]["next_run"] == local + ":00"
    late = Scheduler(f.h.runtime.commander, clock=lambda: at + timedelta(minutes=10))
    assert await late.tick() == []
    assert late.runs_skipped == 1
    async with f.h.ctx.sessions() as session:
        run = await session.scalar(select(ControlRun))
    assert run is not None and run.status == "skipped" and run.detail and "补执行" in run.detail
    assert await count(f, Command) == 0
    # Within the grace window it would have run; it is claimed already, so it never does.
    assert await Scheduler(f.h.runtime.commander, clock=lambda: at + timedelta(seconds=5)).tick() == []


async def test_task_rules(field_site: Field) -> None:
    f = field_site
    devices = [d.sysno for d in await f.devices()]
    base = {
        "name": "规则",
        "action": "switch_on",
        "repeat": "weekly",
        "weekdays": [1],
        "device_sysnos": devices,
    }
    cases = [
        ({**base, "times": []}, "请添加至少一个执行时间"),
        ({**base, "times": ["25:00"]}, "HH:mm"),
        ({**base, "times": ["08:00", "08:00"]}, "重复"),
        ({**base, "weekdays": [], "times": ["08:00"]}, "星期"),
        ({**base, "weekdays": [8], "times": ["08:00"]}, "1（周一）到 7（周日）"),
        ({**base, "repeat": "once", "run_at": "2001-01-01 08:00"}, "执行时间已过"),
        ({**base, "repeat": "once"}, "单次任务"),
        ({**base, "times": ["08:00"], "timezone": "Mars/Base"}, "时区"),
        ({**base, "times": ["08:00"], "device_sysnos": [devices[0], 99999]}, "无权控制"),
        ({**base, "times": [f"{h:02d}:00" for h in range(9)]}, "执行时间项数过多，最多 8 项"),
    ]
    for payload, message in cases:
        body = await f.h.post(ADD, payload, token=f.owner.token)
        assert body["statusCode"] in (400, 404), (payload, body)
        assert message in body["message"], (payload, body)
    ok = await f.h.post(ADD, {**base, "times": [f"{h:02d}:00" for h in range(6)]}, token=f.owner.token)
    assert ok["statusCode"] == 200
    # Six already on Mondays; three more make nine for the same devices on Monday.
    over = await f.h.post(
        ADD, {**base, "name": "再加", "times": ["20:00", "21:00", "22:00"]}, token=f.owner.token
    )
    assert over["statusCode"] == 400 and "最多 8 个" in over["message"] and "周一" in over["message"]
    # On Tuesdays there is room; disabled tasks do not count.
    tuesday = await f.h.post(
        ADD,
        {**base, "name": "周二", "weekdays": [2], "times": ["20:00", "21:00", "22:00"]},
        token=f.owner.token,
    )
    assert tuesday["statusCode"] == 200
    off = await f.h.post(
        ADD,
        {**base, "name": "停用的", "enabled": False, "times": ["20:00", "21:00", "22:00"]},
        token=f.owner.token,
    )
    assert off["statusCode"] == 200 and off["data"]["next_run"] is None
    enable = await f.h.put(
        "/api/CustomerTimedTask/EnableTask",
        {"sysno": off["data"]["sysno"], "enabled": True},
        token=f.owner.token,
    )
    assert enable["statusCode"] == 400 and "最多 8 个" in enable["message"]

    sysno = ok["data"]["sysno"]
    updated = await f.h.put(
        "/api/CustomerTimedTask/UpdateTask",
        {**base, "sysno": sysno, "name": "改名", "times": ["07:30"]},
        token=f.owner.token,
    )
    assert (
        updated["statusCode"] == 200
        and updated["data"]["times"] == ["07:30"]
        and updated["data"]["name"] == "改名"
    )
    listed = (await f.h.post("/api/CustomerTimedTask/GetTaskList", {"name": "改"}, token=f.owner.token))[
        "data"
    ]
    assert listed["totalCount"] == 1
    deleted = await f.h.call(
        "DELETE", f"/api/CustomerTimedTask/DeleteTask?sysno={sysno}", token=f.owner.token
    )
    assert deleted["statusCode"] == 200
    assert await count(f, OperationLog, OperationLog.operate_type == 31) == 5


async def test_runs_abandoned_by_a_stopped_server_are_closed(field_site: Field) -> None:
    f = field_site
    device = (await f.devices())[0]
    started = datetime.now(UTC) - timedelta(minutes=30)
    async with f.h.ctx.sessions() as session:
        run = ControlRun(
            customer_sysno=f.owner.sysno,
            kind="group",
            name="断电前",
            action="switch_off",
            total=1,
            start_time=started,
        )
        session.add(run)
        await session.flush()
        session.add(
            Command(
                project_sysno=f.project_sysno,
                gateway_sysno=device.gateway_sysno,
                device_sysno=device.sysno,
                run_sysno=run.sysno,
                source="group",
                operator="测试",
                target_name=device.name,
                gateway_sn=f.gateways[0][0],
                device_id=device.device_id,
                action="switch_off",
                status="pending",
            )
        )
        await session.commit()
        run_sysno = run.sysno
    assert await Scheduler(f.h.runtime.commander).close_abandoned(datetime.now(UTC)) == 1
    detail = (
        await f.h.call("GET", f"/api/CustomerGroup/GetRunStatus?sysno={run_sysno}", token=f.owner.token)
    )["data"]
    assert detail["status"] == "done" and detail["failed"] == 1 and "服务重启" in detail["detail"]
    assert detail["commands"][0]["status"] == "failed"
    assert await Scheduler(f.h.runtime.commander).close_abandoned(datetime.now(UTC)) == 0
