"""The demo's first start: a month of use behind it, on every screen that lists it."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from powerportal import demo, demo_activity
from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.control.models import Command
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog, OperationLog
from tests.conftest import Harness, login, make_settings, start_harness


@pytest.fixture
async def demo_server(database_url: str, tmp_path: Path) -> Any:
    """The app as `make run` starts it, without the MQTT side (the seed needs none)."""
    started = time.perf_counter()
    async for h in start_harness(make_settings(database_url, seed_demo=True, data_dir=tmp_path)):
        h.app.state.startup_seconds = time.perf_counter() - started
        yield h


async def rows(h: Harness, token: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = await h.post(path, {"pageIndex": 1, "pageSize": 200, **(body or {})}, token=token)
    assert answer["statusCode"] == 200, answer
    data: dict[str, Any] = answer["data"]
    return data


async def test_first_start_shows_a_month_of_use(demo_server: Harness) -> None:
    h = demo_server
    assert h.app.state.startup_seconds < 20  # the seed runs before the server answers
    async with h.ctx.sessions() as session:
        now = utcnow()
        # Everything is dated within the past month, never at the moment of the seed.
        for model, column in (
            (OperationLog, OperationLog.create_time),
            (Command, Command.create_time),
            (CustomerNotice, CustomerNotice.create_time),
            (OfflineLog, OfflineLog.offline_time),
            (Alarm, Alarm.start_time),
        ):
            newest = await session.scalar(select(func.max(column)))
            oldest = await session.scalar(select(func.min(column)))
            assert newest is not None and oldest is not None, model
            assert newest < now - timedelta(minutes=10), model
            assert oldest > now - timedelta(days=32), model
        sources = set((await session.scalars(select(Command.source).distinct())).all())
        assert sources == {"manual", "task", "group"}
        kinds = set((await session.scalars(select(OperationLog.operate_type).distinct())).all())
        assert {1, 22, 30, 31, 32, 40} <= kinds  # 登录, 设备管理, 远程控制, 定时控制, 分组控制, 告警处理
        # The customer's browser saw every notice (none pops up at the first login); recent ones unread.
        assert not await session.scalar(select(func.count()).where(CustomerNotice.is_push == 0))
        assert await session.scalar(select(func.count()).where(CustomerNotice.is_read == 0))
        # The gateways and breakers wait for their first live report.
        assert not await session.scalar(select(func.count()).where(Device.online == 1))
        assert not await session.scalar(select(func.count()).where(Gateway.online.is_(True)))


async def test_the_month_is_played_once(demo_server: Harness) -> None:
    h = demo_server
    async with h.ctx.sessions() as session:
        customer = await session.scalar(select(Customer).where(Customer.mobile == demo.DEMO_MOBILE))
        before = await session.scalar(select(func.count()).select_from(Alarm))
    assert customer is not None
    credentials = await demo.seed_sites(h.ctx, customer)
    assert not await demo_activity.seed(h.ctx, customer, demo.demo_fleet(credentials))
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Alarm)) == before

    token = await login(h, demo.DEMO_MOBILE, demo.DEMO_PASSWORD)

    alarms = await rows(h, token, "/api/CustomerAlarm/GetAlarmList")
    assert alarms["totalCount"] >= 30
    kinds = {a["alarm_type"] for a in alarms["dataSource"]}
    assert {"over_power", "over_current", "over_temperature", "leakage", "offline", "short_circuit"} <= kinds
    processed = [a for a in alarms["dataSource"] if a["process_state"] == 1]
    assert len(processed) >= 15
    assert all(a["process_remark"] and a["process_time"] for a in processed)
    assert any(a["process_state"] == 0 for a in alarms["dataSource"]), "some are left to deal with"
    assert all(a["end_time"] for a in alarms["dataSource"]), "nothing is left open for the live rules"

    offline = await rows(h, token, "/api/CustomerOfflineLog/GetOfflineLogList")
    assert offline["totalCount"] >= 8
    assert all(r["online_time"] for r in offline["dataSource"])

    commands = await rows(h, token, "/api/CustomerCommandLog/GetCommandLogList")
    assert commands["totalCount"] >= 100
    assert sum(c["status"] == "succeeded" for c in commands["dataSource"]) > 0.9 * len(commands["dataSource"])

    operations = await rows(h, token, "/api/CustomerOperationLog/GetCustomerOperationLogList")
    assert operations["totalCount"] >= 60

    tasks = (await rows(h, token, "/api/CustomerTimedTask/GetTaskList"))["dataSource"]
    lights_out = next(t for t in tasks if t["name"] == "宿舍熄灯")
    assert lights_out["times"] == ["23:00"] and lights_out["action"] == "switch_off"
    detail = await h.call(
        "GET", f"/api/CustomerTimedTask/GetSingleTask?sysno={lights_out['sysno']}", token=token
    )
    assert {d["name"][-2:] for d in detail["data"]["devices"]} == {"宿舍"}
    assert len(detail["data"]["devices"]) == 22  # every room of both dormitory buildings
    runs = await rows(h, token, "/api/CustomerTimedTask/GetRunList", {"task_sysno": lights_out["sysno"]})
    assert runs["totalCount"] >= 3

    groups = (await rows(h, token, "/api/CustomerGroup/GetGroupList"))["dataSource"]
    assert len(groups) >= 3 and all(g["device_count"] > 0 for g in groups)

    devices = (await rows(h, token, "/api/CustomerDevice/GetDeviceList"))["dataSource"]
    assert len(devices) == 48
    assert all(d["over_current"] and d["over_voltage"] and d["leakage_limit"] for d in devices)


async def test_first_start_has_electricity_accounts(demo_server: Harness) -> None:
    h = demo_server
    token = await login(h, demo.DEMO_MOBILE, demo.DEMO_PASSWORD)
    found = await rows(h, token, "/api/CustomerElectricity/GetAccountList")
    accounts = found["dataSource"]
    assert found["totalCount"] == len(accounts) >= 16
    assert {a["charge_type"] for a in accounts} == {1, 3}
    assert all(a["power"] == "on" for a in accounts)  # nothing cut at the start
    assert sum(a["low"] for a in accounts) == 2 and sum(a["keep_power"] for a in accounts) == 1
    recharges = await rows(h, token, "/api/CustomerElectricity/GetLedgerList", {"kind": 1})
    assert recharges["totalCount"] > len(accounts) - 2  # opening payments and a term's recharges
    orders = (await rows(h, token, "/api/CustomerElectricity/GetOrderList"))["dataSource"]
    assert sorted(o["review_state_name"] for o in orders) == ["已通过", "未审核"]
    async with h.ctx.sessions() as session:
        unpushed = await session.scalar(
            select(func.count()).select_from(CustomerNotice).where(CustomerNotice.is_push == 0)
        )
    assert unpushed == 0  # no notice pops up at the first login
