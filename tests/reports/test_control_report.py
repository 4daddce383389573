"""The control report against the command log and the runs: real commands through simulated gateways."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from powerportal.control.scheduler import Scheduler
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from tests.control.conftest import Field, start_field
from tests.control.test_groups import poll_run
from tests.factories import make_account, make_building, make_gateway, make_project
from tests.reports.helpers import R, export, file_name, refusals, refused, table

SEND = "/api/CustomerControl/SendCommand"
LOG = "/api/CustomerCommandLog/GetCommandLogList"


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Field]:
    """Two simulated gateways with two breakers each, answering commands."""
    async for f in start_field(database_url, gateways_count=2, devices_per_gateway=2):
        yield f


async def logged(f: Field, **filters: Any) -> int:
    """How many commands the command log lists with these filters."""
    body = await f.h.post(LOG, {"project_sysno": f.project_sysno, **filters}, f.owner.token)
    assert body["statusCode"] == 200, body
    total: int = body["data"]["totalCount"]
    return total


def local_hhmm(at: datetime) -> str:
    return at.astimezone(CUSTOMER_TZ).strftime("%H:%M")


async def test_control_report_agrees_with_the_command_log_and_the_runs(site: Field) -> None:
    f = site
    h, token = f.h, f.owner.token
    d1, d2, d3, d4 = [d.sysno for d in await f.devices()]
    (sn1, gw1), (_sn2, gw2) = f.gateways
    east = await make_building(h, f.project_sysno, "东楼")
    async with h.ctx.sessions() as session:
        await session.execute(update(Gateway).where(Gateway.sysno == gw1).values(building_sysno=east))
        await session.commit()

    async def send(device: int, action: str, **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = await h.post(SEND, {"device_sysno": device, "action": action, **extra}, token)
        return body

    assert (await send(d1, "switch_off"))["statusCode"] == 200
    assert (await send(d1, "switch_on"))["statusCode"] == 200
    assert (await send(d3, "read_now"))["statusCode"] == 200
    f.simulator.behaviour.rpc = "refuse"
    assert (await send(d2, "switch_off"))["data"]["status"] == "failed"
    f.simulator.behaviour.rpc = "silent"
    assert (await send(d3, "switch_off"))["data"]["status"] == "timeout"
    f.simulator.behaviour.rpc = "answer"
    async with h.ctx.sessions() as session:
        await session.execute(update(Device).where(Device.sysno == d4).values(online=0))
        await session.commit()
    assert (await send(d4, "switch_off"))["data"]["status"] == "offline"
    async with h.ctx.sessions() as session:
        await session.execute(update(Device).where(Device.sysno == d4).values(online=1))
        await session.commit()

    # a timed task run by the scheduler, and another whose occurrence is missed (skipped)
    at = (datetime.now(UTC) + timedelta(minutes=2)).replace(second=0, microsecond=0)
    weekly = await h.post(
        "/api/CustomerTimedTask/AddTask",
        {
            "name": "夜间断电",
            "action": "switch_off",
            "repeat": "weekly",
            "weekdays": [1, 2, 3, 4, 5, 6, 7],
            "times": [local_hhmm(at)],
            "device_sysnos": [d1, d2, d3],
        },
        token,
    )
    assert weekly["statusCode"] == 200, weekly
    scheduler = Scheduler(h.runtime.commander, clock=lambda: at + timedelta(seconds=3))
    assert len(await scheduler.tick()) == 1
    await scheduler.wait_idle()
    once_at = at + timedelta(minutes=1)
    once = await h.post(
        "/api/CustomerTimedTask/AddTask",
        {
            "name": "单次合闸",
            "action": "switch_on",
            "repeat": "once",
            "run_at": once_at.astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M"),
            "device_sysnos": [d4],
        },
        token,
    )
    assert once["statusCode"] == 200, once
    late = Scheduler(h.runtime.commander, clock=lambda: once_at + timedelta(minutes=10))
    await late.tick()
    assert late.runs_skipped == 1
    # a group switch
    group = await h.post(
        "/api/CustomerGroup/AddGroup", {"name": "全部回路", "device_sysnos": [d1, d4]}, token
    )
    started = await h.post(
        "/api/CustomerGroup/SwitchGroup", {"sysno": group["data"]["sysno"], "action": "switch_on"}, token
    )
    await poll_run(f, started["data"]["sysno"])

    today = utcnow().astimezone(CUSTOMER_TZ).date()
    body = {
        "project_sysno": f.project_sysno,
        "view": "range",
        "date": (today - timedelta(days=1)).isoformat(),
        "end_date": today.isoformat(),
    }
    answer = await h.post(f"{R}/GetControlReport", body, token)
    assert answer["statusCode"] == 200, answer
    report = answer["data"]
    window = {"start_time": body["date"], "end_time": body["end_date"]}

    # every count is the command log's total with the same filters
    assert report["total"] == await logged(f, **window) == 6 + 3 + 2
    for status in ("succeeded", "failed", "timeout", "offline", "pending"):
        assert report[status] == await logged(f, **window, status=status), status
    assert (report["failed"], report["timeout"], report["offline"], report["pending"]) == (1, 1, 1, 0)
    assert report["success_rate"] == pytest.approx(round(report["succeeded"] / report["total"] * 100, 2))
    for kind in report["by_action"]:
        assert kind["total"] == await logged(f, **window, action=kind["key"]), kind
        assert kind["succeeded"] == await logged(f, **window, action=kind["key"], status="succeeded")
    assert [k["label"] for k in report["by_action"]] == ["合闸", "分闸", "设置阈值", "立即读取"]
    for kind in report["by_source"]:
        assert kind["total"] == await logged(f, **window, source=kind["key"]), kind
    assert {k["key"]: k["total"] for k in report["by_source"]} == {
        "manual": 6,
        "task": 3,
        "group": 2,
        "billing": 0,
        "load": 0,
    }
    for row in report["gateways"]:
        assert row["total"] == await logged(f, **window, gateway_sysno=row["gateway_sysno"])
        assert row["succeeded"] == await logged(
            f, **window, gateway_sysno=row["gateway_sysno"], status="succeeded"
        )
    by_gateway = {g["gateway_sysno"]: g for g in report["gateways"]}
    assert by_gateway[gw1]["gateway_sn"] == sn1 and by_gateway[gw1]["building_name"] == "东楼"
    assert by_gateway[gw1]["failed"] == 1 and by_gateway[gw2]["timeout"] == 1
    # response time: the log's duration_ms of the commands answered
    page = (await h.post(LOG, {"project_sysno": f.project_sysno, "pageSize": 200, **window}, token))["data"]
    answered = [c["duration_ms"] for c in page["dataSource"] if c["duration_ms"] is not None]
    assert report["avg_response_ms"] == pytest.approx(sum(answered) / len(answered), abs=2)

    # timed tasks: runs with commands here and skipped occurrences, as the run list has them
    tasks = {t["name"]: t for t in report["tasks"]}
    assert set(tasks) == {"夜间断电", "单次合闸"}
    night, single = tasks["夜间断电"], tasks["单次合闸"]
    assert (night["runs"], night["skipped"], night["commands"], night["succeeded"]) == (1, 0, 3, 3)
    assert (single["runs"], single["skipped"], single["commands"]) == (0, 1, 0)
    for task in (night, single):
        runs = await h.post("/api/CustomerTimedTask/GetRunList", {"task_sysno": task["task_sysno"]}, token)
        assert runs["data"]["totalCount"] == task["runs"] + task["skipped"]
    assert night["success_rate"] == 100 and single["success_rate"] is None and night["last_run"]

    # the chart: commands of each day, the two days adding up
    assert [p["label"] for p in report["points"]] == [body["date"], body["end_date"]]
    assert sum(p["succeeded"] + p["unsuccessful"] + p["pending"] for p in report["points"]) == report["total"]
    assert report["points"][1]["unsuccessful"] == 3

    # one building: its gateway's commands; its devices' tasks
    east_only = (await h.post(f"{R}/GetControlReport", {**body, "building_sysno": east}, token))["data"]
    assert east_only["total"] == by_gateway[gw1]["total"] and [
        g["gateway_sysno"] for g in east_only["gateways"]
    ] == [gw1]
    assert {t["name"] for t in east_only["tasks"]} == {"夜间断电"}

    # the export
    response, book = await export(h, "ExportControlReport", body, token)
    assert response.status_code == 200 and book is not None, response.text
    assert file_name(response) == f"控制报表_控制测试项目_{body['date']}至{body['end_date']}.xlsx"
    assert book.sheetnames == ["汇总", "按动作", "按来源", "定时任务执行", "命令明细"]
    header, gateways = table(book["汇总"], "网关")
    assert [r[1] for r in gateways] == [g["gateway_sn"] for g in report["gateways"]]
    assert gateways[0][header.index("命令数")] == report["gateways"][0]["total"]
    header, runs = table(book["定时任务执行"], "任务")
    assert {r[0] for r in runs} == {"夜间断电", "单次合闸"}
    header, commands = table(book["命令明细"], "时间")
    assert len(commands) == report["total"]
    assert sorted(r[header.index("结果")] for r in commands).count("成功") == report["succeeded"]
    assert {r[header.index("来源")] for r in commands} == {"手动", "定时任务：夜间断电", "分组控制：全部回路"}

    # another customer: refused for A's project and building; its own project has no commands
    b = await make_account(h, "13900000062")
    own_project = await make_project(h, b.sysno, name="乙方项目")
    await make_gateway(h, own_project, sn="RPC0009")
    own = {**body, "project_sysno": own_project}
    await refused(
        h, "GetControlReport", "ExportControlReport", [body, {**own, "building_sysno": east}], b.token
    )
    theirs = (await h.post(f"{R}/GetControlReport", own, b.token))["data"]
    assert theirs["total"] == 0 and theirs["tasks"] == [] and theirs["success_rate"] is None

    await refusals(h, "GetControlReport", body, token)
