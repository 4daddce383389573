"""List exports: every row a list's filters keep, read back with openpyxl, none of another customer's."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

import openpyxl
import pytest
from sqlalchemy import insert

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.alarms.schemas import AlarmQuery
from powerportal.alarms.service import ALARMS
from powerportal.control.models import (
    Command,
    ControlRun,
    DeviceGroup,
    DeviceGroupMember,
    TimedTask,
    TimedTaskDevice,
    TimedTaskPeriod,
)
from powerportal.core import list_export
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.logs.models import OfflineLog, OperationLog, StatusLog
from powerportal.sms.models import SmsRecharge, SmsUsage
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project


async def exported(h: Harness, path: str, body: dict[str, Any], token: str) -> tuple[Any, Any]:
    """The export's answer and its workbook's one sheet (None when the answer is the error envelope)."""
    response = await h.client.post(path, json=body, headers={"SYSTOKEN": token})
    assert response.status_code in (200, 400), response.text
    if response.headers["content-type"].startswith("application/json"):
        return response, None
    book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
    assert len(book.sheetnames) == 1
    return response, book[book.sheetnames[0]]


def table(sheet: Any, title: str) -> tuple[list[Any], list[list[Any]], list[list[Any]]]:
    """The title block (down to 记录数), the header below it (holding ``title``) and every row below that."""
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    at = next(i for i, r in enumerate(rows) if r[0] == "记录数") + 1
    assert title in rows[at], rows[at]
    width = len(rows[at])
    return rows[:at], rows[at], [r + [None] * (width - len(r)) for r in rows[at + 1 :]]


def file_name(response: Any) -> str:
    """The export's file name as the browser saves it."""
    return unquote(response.headers["content-disposition"].split("filename*=UTF-8''")[1])


async def total(h: Harness, path: str, body: dict[str, Any], token: str) -> int:
    """The list's totalCount for these filters."""
    answer = await h.post(path, {**body, "pageSize": 10}, token)
    assert answer["statusCode"] == 200, answer
    count: int = answer["data"]["totalCount"]
    return count


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 7 rows, so that a few dozen rows take several."""
    monkeypatch.setattr(list_export, "CHUNK", 7)


async def test_alarm_export_holds_every_matching_alarm_in_order_and_no_other_customers(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000061")
    b = await make_account(h, "13900000062")
    project = await make_project(h, a.sysno, name="一号园区")
    gateway = await make_gateway(h, project, None, sn="LEA0001", name="东楼网关")
    device = await make_device(h, gateway, project, device_id="1", name="101宿舍")
    other_project = await make_project(h, b.sysno, name="乙方园区")
    other_gateway = await make_gateway(h, other_project, None, sn="LEB0001")
    now = utcnow().replace(microsecond=0)
    rows = [
        {
            "project_sysno": project,
            "gateway_sysno": gateway,
            "device_sysno": device,
            "device_id": "1",
            "target_name": "101宿舍",
            "alarm_type": "over_current" if i % 3 else "leakage",
            "level": 3,
            "source": "rule",
            "value": 63.456 + i,
            "threshold": 60.0,
            "detail": f"过流告警 {i}",
            "start_time": now - timedelta(minutes=i),
            "end_time": None if i % 2 else now - timedelta(minutes=i) + timedelta(seconds=90),
            "process_state": 0,
        }
        for i in range(40)
    ] + [
        {
            "project_sysno": other_project,
            "gateway_sysno": other_gateway,
            "device_sysno": None,
            "device_id": "LEB0001",
            "target_name": "乙方网关",
            "alarm_type": "offline",
            "level": 1,
            "source": "offline",
            "detail": "乙方告警",
            "start_time": now - timedelta(minutes=i),
            "process_state": 0,
        }
        for i in range(5)
    ]
    async with h.ctx.sessions() as session:
        await session.execute(insert(Alarm), rows)
        await session.commit()

    lst, exp = "/api/CustomerAlarm/GetAlarmList", "/api/CustomerAlarm/ExportAlarmList"
    response, sheet = await exported(h, exp, {"pageIndex": 3, "pageSize": 5}, a.token)
    assert response.headers["content-type"].startswith("application/vnd.openxmlformats")
    name = file_name(response)
    assert (
        name.startswith("告警列表_")
        and name.endswith(".xlsx")
        and len(name) == len("告警列表_20261126-120000.xlsx")
    )
    head, header, body = table(sheet, "告警时间")
    assert head[0][0] == "告警列表"
    assert ["筛选条件", "全部"] == head[1][:2] and head[-1][:2] == ["记录数", "40 条"]
    assert header[:6] == ["告警时间", "项目", "设备", "设备编号", "告警类型", "告警等级"]
    assert "告警状态" in header and "处理状态" in header
    assert len(body) == 40 == await total(h, lst, {}, a.token)  # every row, paging ignored, none of b's
    assert all(r[1] == "一号园区" for r in body)
    page = (await h.post(lst, {"pageSize": 40}, a.token))["data"]["dataSource"]
    assert [r[0] for r in body] == [r["start_time"] for r in page]  # the list's order, times as shown
    first = dict(zip(header, body[0], strict=True))
    assert first["告警值"] == "63.46 mA" and first["阈值"] == "60 mA" and first["告警类型"] == "漏电"
    assert first["告警状态"] in ("告警中", "已恢复") and first["处理状态"] == "未处理"

    # filters apply as in the list, and are named in the title block
    filters = {"state": 0, "alarm_type": "over_current", "project_sysno": project}
    response, sheet = await exported(h, exp, filters, a.token)
    head, header, body = table(sheet, "告警时间")
    assert (
        len(body) == await total(h, lst, filters, a.token) == len([i for i in range(40) if i % 2 and i % 3])
    )
    assert ["项目", "一号园区"] in [r[:2] for r in head] and ["告警状态", "告警中"] in [r[:2] for r in head]
    assert {r[header.index("告警状态")] for r in body} == {"告警中"}

    # the other customer sees only its own; another's project gives nothing
    _, sheet = await exported(h, exp, {}, b.token)
    assert [r[2] for r in table(sheet, "告警时间")[2]] == ["乙方网关"] * 5
    _, sheet = await exported(h, exp, {"project_sysno": project}, b.token)
    assert table(sheet, "告警时间")[2] == []


async def test_list_exports_refuse_bad_bodies_and_too_many_rows_in_chinese(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    a = await make_account(h, "13900000063")
    exp = "/api/CustomerAlarm/ExportAlarmList"
    for bad in ({"state": 5}, {"start_time": "昨天"}, {"keyword": "x" * 65}, {"project_sysno": "1"}):
        response, sheet = await exported(h, exp, bad, a.token)
        assert sheet is None and response.status_code == 400, response.text
        assert response.json()["statusCode"] == 400 and response.json()["message"] in (
            "状态取值不在允许范围内",
            "开始时间格式不正确",
            "关键字过长，最多 64 个字符，当前 65 个",
            "项目编号应为整数",
        )
    response = await h.client.post(exp, json={})
    assert response.json()["statusCode"] == 401

    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, None, sn="LEA0009")
    now = utcnow()
    async with h.ctx.sessions() as session:
        await session.execute(
            insert(Alarm),
            [
                {
                    "project_sysno": project,
                    "gateway_sysno": gateway,
                    "device_id": "1",
                    "target_name": "水泵",
                    "alarm_type": "offline",
                    "level": 1,
                    "source": "offline",
                    "detail": "离线",
                    "start_time": now - timedelta(minutes=i),
                    "process_state": 0,
                }
                for i in range(4)
            ],
        )
        await session.commit()
    monkeypatch.setattr(list_export, "MAX_EXPORT_ROWS", 3)
    response, sheet = await exported(h, exp, {}, a.token)
    assert sheet is None and response.json()["statusCode"] == 400
    assert "请缩小筛选范围" in response.json()["message"] and "4" in response.json()["message"]


async def test_device_export_holds_every_matching_device_with_its_values(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000064")
    b = await make_account(h, "13900000065")
    project = await make_project(h, a.sysno, name="一号园区")
    gateway = await make_gateway(h, project, None, sn="LED0001", name="东楼网关")
    other = await make_project(h, b.sysno, name="乙方园区")
    other_gateway = await make_gateway(h, other, None, sn="LED0002")
    async with h.ctx.sessions() as session:
        await session.execute(
            insert(Device),
            [
                {
                    "gateway_sysno": gateway,
                    "project_sysno": project,
                    "device_id": str(i + 1),
                    "name": f"{i + 101}宿舍",
                    "online": i % 2,
                    "switch_state": 1,
                    "phases": 1,
                    "latest": {"voltage": 220.04 + i, "active_power": 12_345.0, "temperature": 31.26},
                }
                for i in range(30)
            ]
            + [
                {"gateway_sysno": other_gateway, "project_sysno": other, "device_id": "1", "name": "乙方设备"}
            ],
        )
        await session.commit()
    lst, exp = "/api/CustomerDevice/GetDeviceList", "/api/CustomerDevice/ExportDeviceList"
    response, sheet = await exported(h, exp, {"pageSize": 5}, a.token)
    assert file_name(response).startswith("设备列表_")
    _head, header, body = table(sheet, "设备名称")
    assert len(body) == 30 == await total(h, lst, {}, a.token)
    page = (await h.post(lst, {"pageSize": 30}, a.token))["data"]["dataSource"]
    assert [r[0] for r in body] == [d["name"] for d in page]
    first = dict(zip(header, body[0], strict=True))
    assert first["电压"] == "220.0 V" and first["功率"] == "12.35 kW" and first["温度"] == "31.3 °C"
    assert first["状态"] == "离线" and first["开关"] == "合闸" and first["所属网关"] == "东楼网关"
    _head, header, body = table((await exported(h, exp, {"online": 1}, a.token))[1], "设备名称")
    assert len(body) == 15 == await total(h, lst, {"online": 1}, a.token)
    assert {r[header.index("状态")] for r in body} == {"在线"}
    _head, _header, body = table((await exported(h, exp, {}, b.token))[1], "设备名称")
    assert [r[0] for r in body] == ["乙方设备"]


async def same_rows(
    h: Harness, lst: str, exp: str, body: dict[str, Any], token: str, header: str, field: str
) -> list[dict[str, Any]]:
    """The export's rows, checked against the list: as many as its totalCount, in its order.

    The order is compared on the column ``header``, which shows the rows' ``field``.
    """
    response, sheet = await exported(h, exp, body, token)
    assert sheet is not None, response.text
    _head, titles, rows = table(sheet, header)
    count = await total(h, lst, body, token)
    assert len(rows) == count, (exp, body)
    listed: list[Any] = []
    page = 1
    while len(listed) < count:
        answer = await h.post(lst, {**body, "pageIndex": page, "pageSize": 100}, token)
        listed += [r[field] for r in answer["data"]["dataSource"]]
        page += 1
    assert [r[titles.index(header)] for r in rows] == listed, exp
    return [dict(zip(titles, r, strict=True)) for r in rows]


async def test_command_and_log_exports_hold_every_matching_row_and_no_other_customers(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000066")
    b = await make_account(h, "13900000067")
    mine = await make_project(h, a.sysno, name="一号园区")
    theirs = await make_project(h, b.sysno, name="乙方园区")
    gateways = {
        mine: await make_gateway(h, mine, None, sn="LEC0001"),
        theirs: await make_gateway(h, theirs, None),
    }
    now = utcnow().replace(microsecond=0)

    def at(i: int) -> Any:
        return now - timedelta(minutes=i)

    def where(project: int) -> dict[str, Any]:
        return {"project_sysno": project, "gateway_sysno": gateways[project]}

    async with h.ctx.sessions() as session:
        for project, n in ((mine, 24), (theirs, 3)):
            await session.execute(
                insert(Command),
                [
                    {
                        **where(project),
                        "source": "manual",
                        "operator": "13900000066",
                        "target_name": f"{i}号断路器",
                        "gateway_sn": "LEC0001",
                        "device_id": str(i),
                        "action": "switch_on" if i % 2 else "switch_off",
                        "status": "succeeded" if i % 3 else "timeout",
                        "sent_time": at(i),
                        "answer_time": at(i) + timedelta(milliseconds=350),
                        "create_time": at(i),
                    }
                    for i in range(n)
                ],
            )
            await session.execute(
                insert(OfflineLog),
                [
                    {
                        **where(project),
                        "target_name": f"网关{i}",
                        "reason": "silence",
                        "offline_time": at(i + 60),
                        "online_time": at(i) if i % 2 else None,
                        "duration_seconds": 3600 if i % 2 else None,
                    }
                    for i in range(n)
                ],
            )
            await session.execute(
                insert(StatusLog),
                [
                    {
                        **where(project),
                        "target_name": f"对象{i}",
                        "status_type": "online",
                        "detail": "上线",
                        "create_time": at(i),
                    }
                    for i in range(n)
                ],
            )
        for customer, n in ((a.sysno, 20), (b.sysno, 3)):
            await session.execute(
                insert(OperationLog),
                [
                    {
                        "customer_sysno": customer,
                        "operate_type": 1,
                        "detail": f"登录 {i}",
                        "ip": "10.0.0.1",
                        "create_time": at(i),
                    }
                    for i in range(n)
                ],
            )
        await session.commit()

    commands = "/api/CustomerCommandLog/GetCommandLogList", "/api/CustomerCommandLog/ExportCommandLogList"
    rows = await same_rows(h, *commands, {}, a.token, "下发时间", "create_time")
    assert len(rows) == 24 and {r["所属项目"] for r in rows} == {"一号园区"}
    assert rows[1]["命令"] == "合闸" and rows[1]["结果"] == "成功" and rows[1]["耗时"] == "350 毫秒"
    assert rows[1]["网关"] == "LEC0001 · #1"
    rows = await same_rows(
        h, *commands, {"status": "timeout", "action": "switch_off"}, a.token, "下发时间", "create_time"
    )
    assert len(rows) == 4 and {r["结果"] for r in rows} == {"超时"}

    offline = "/api/CustomerOfflineLog/GetOfflineLogList", "/api/CustomerOfflineLog/ExportOfflineLogList"
    rows = await same_rows(h, *offline, {}, a.token, "离线时间", "offline_time")
    assert len(rows) == 24 and {r["所属项目"] for r in rows} == {"一号园区"}
    assert rows[1]["类型"] == "网关" and rows[1]["状态"] == "已恢复" and rows[1]["离线时长"] == "1小时"
    assert rows[1]["原因"] == "超时未上报" and rows[0]["状态"] == "仍离线"

    status = "/api/CustomerStatusLog/GetStatusLogList", "/api/CustomerStatusLog/ExportStatusLogList"
    rows = await same_rows(h, *status, {"status_type": "online"}, a.token, "时间", "create_time")
    assert len(rows) == 24 and rows[0]["状态类型"] == "上线" and rows[0]["网关序列号"] == "LEC0001"
    assert len(await same_rows(h, *status, {}, b.token, "时间", "create_time")) == 3

    operations = (
        "/api/CustomerOperationLog/GetCustomerOperationLogList",
        "/api/CustomerOperationLog/ExportCustomerOperationLogList",
    )
    rows = await same_rows(h, *operations, {"operate_type": 1}, a.token, "操作时间", "create_time")
    assert len(rows) >= 20 and all(r["操作类型"] and r["结果"] in ("成功", "失败") for r in rows)
    assert "登录 0" in {r["操作内容"] for r in rows}
    assert not {f"登录 {i}" for i in range(3)} - {r["操作内容"] for r in rows}
    theirs_rows = await same_rows(h, *operations, {}, b.token, "操作时间", "create_time")
    assert not any(r["操作内容"] in {f"登录 {i}" for i in range(3, 20)} for r in theirs_rows)


async def test_gateway_and_notice_exports_hold_every_matching_row_and_no_other_customers(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000068")
    b = await make_account(h, "13900000069")
    mine = await make_project(h, a.sysno, name="一号园区")
    theirs = await make_project(h, b.sysno, name="乙方园区")
    for i in range(17):
        await make_gateway(h, mine, None, sn=f"LEG{i:04d}", name=f"网关{i}", online=i % 2 == 0)
    await make_gateway(h, theirs, None, sn="LEH0001", name="乙方网关")
    device = await make_device(
        h, await make_gateway(h, mine, None, sn="LEG9999", name="带设备"), mine, online=1
    )
    assert device

    gateways = "/api/CustomerGateway/GetGatewayList", "/api/CustomerGateway/ExportGatewayList"
    rows = await same_rows(h, *gateways, {}, a.token, "序列号", "sn")
    assert len(rows) == 18 and {r["所属项目"] for r in rows} == {"一号园区"}
    shown = {r["序列号"]: r for r in rows}
    assert shown["LEG0000"]["在线状态"] == "在线" and shown["LEG0001"]["在线状态"] == "离线"
    assert shown["LEG9999"]["在线设备"] == "1/1" and shown["LEG0001"]["最后通信"] == "从未上报"
    rows = await same_rows(h, *gateways, {"online": 1, "sn": "LEG00"}, a.token, "序列号", "sn")
    assert sorted(r["序列号"] for r in rows) == [f"LEG{i:04d}" for i in range(0, 17, 2)]
    assert {r["在线状态"] for r in rows} == {"在线"}
    assert [r["序列号"] for r in await same_rows(h, *gateways, {}, b.token, "序列号", "sn")] == ["LEH0001"]

    async with h.ctx.sessions() as session:
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=mine,
                    notice_type=2 if i % 2 else 3,
                    device_id=str(i),
                    detail=f"消息{i}",
                    source_sysno=i + 1,
                )
                for i in range(15)
            ]
            + [
                notices.NewNotice(
                    project_sysno=theirs, notice_type=2, device_id="9", detail="乙方消息", source_sysno=99
                )
            ],
        )
        await session.commit()
    notice_paths = "/api/CustomerNoctice/GetNoticeList", "/api/CustomerNoctice/ExportNoticeList"
    rows = await same_rows(h, *notice_paths, {}, a.token, "消息内容", "notice_detail")
    assert len(rows) == 15 and "乙方消息" not in {r["消息内容"] for r in rows}
    assert {r["消息类型"] for r in rows} == {"告警", "离线"} and {r["状态"] for r in rows} == {"未读"}
    rows = await same_rows(
        h, *notice_paths, {"custmoer_notice_type": [2]}, a.token, "消息内容", "notice_detail"
    )
    assert len(rows) == 7 and {r["消息类型"] for r in rows} == {"告警"}
    assert [
        r["消息内容"] for r in await same_rows(h, *notice_paths, {}, b.token, "消息内容", "notice_detail")
    ] == ["乙方消息"]


async def test_run_and_sms_usage_exports_hold_every_matching_row_and_no_other_customers(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000070")
    b = await make_account(h, "13900000071")
    now = utcnow().replace(microsecond=0)
    async with h.ctx.sessions() as session:
        for customer, n in ((a.sysno, 16), (b.sysno, 2)):
            await session.execute(
                insert(ControlRun),
                [
                    {
                        "customer_sysno": customer,
                        "kind": "group" if i % 4 == 0 else "task",
                        "name": f"宿舍熄灯{i}",
                        "action": "switch_off",
                        "scheduled_for": now - timedelta(days=i),
                        "status": "skipped" if i == 3 else "done",
                        "detail": "服务停机" if i == 3 else None,
                        "total": 10,
                        "succeeded": 9,
                        "failed": 1,
                        "create_time": now - timedelta(days=i),
                    }
                    for i in range(n)
                ],
            )
            await session.execute(
                insert(SmsUsage),
                [
                    {
                        "customer_sysno": customer,
                        "mobile": f"1390000{i:04d}",
                        "content": f"【告警】{i}号断路器过流",
                        "status": "failed" if i % 5 == 0 else "sent",
                        "error": "号码停机" if i % 5 == 0 else None,
                        "create_time": now - timedelta(minutes=i),
                    }
                    for i in range(n)
                ],
            )
        await session.commit()

    runs = "/api/CustomerTimedTask/GetRunList", "/api/CustomerTimedTask/ExportRunList"
    rows = await same_rows(h, *runs, {}, a.token, "计划时间", "scheduled_for")
    assert len(rows) == 16 and rows[0]["结果"] == "成功 9 / 失败 1 / 共 10" and rows[3]["结果"] == "服务停机"
    assert rows[0]["来源"] == "分组控制" and rows[1]["来源"] == "定时任务" and rows[0]["动作"] == "分闸"
    assert len(await same_rows(h, *runs, {"kind": "group"}, a.token, "计划时间", "scheduled_for")) == 4
    assert [r["名称"] for r in await same_rows(h, *runs, {}, b.token, "计划时间", "scheduled_for")] == [
        "宿舍熄灯0",
        "宿舍熄灯1",
    ]

    usage = "/api/CustomerSms/GetUsageList", "/api/CustomerSms/ExportUsageList"
    rows = await same_rows(h, *usage, {}, a.token, "时间", "create_time")
    assert len(rows) == 16 and rows[0]["状态"] == "发送失败" and rows[0]["失败原因"] == "号码停机"
    assert [
        r["手机号"]
        for r in await same_rows(h, *usage, {"mobile": "13900000002"}, a.token, "时间", "create_time")
    ] == ["13900000002"]
    assert len(await same_rows(h, *usage, {}, b.token, "时间", "create_time")) == 2


async def test_task_and_group_exports_hold_every_row_with_its_members_and_last_run(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000072")
    b = await make_account(h, "13900000073")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, None, sn="LET0001")
    devices = [await make_device(h, gateway, project, online=1, switch_state=i % 2) for i in range(3)]
    now = utcnow().replace(microsecond=0)
    async with h.ctx.sessions() as session:
        for customer, n in ((a.sysno, 12), (b.sysno, 2)):
            tasks = [
                TimedTask(
                    customer_sysno=customer,
                    name=f"宿舍熄灯{i:02d}",
                    action="switch_off",
                    repeat="weekly",
                    weekdays=127 if i % 2 else 0b11,
                    enabled=i != 1,
                    create_time=now - timedelta(hours=i),
                )
                for i in range(n)
            ]
            groups = [
                DeviceGroup(
                    customer_sysno=customer, name=f"分组{i:02d}", create_time=now - timedelta(hours=i)
                )
                for i in range(n - 2)
            ]
            session.add_all(tasks + groups)
            await session.flush()
            if customer == a.sysno:
                session.add_all(TimedTaskPeriod(task_sysno=t.sysno, time_of_day="23:00") for t in tasks)
                session.add_all(TimedTaskDevice(task_sysno=tasks[0].sysno, device_sysno=d) for d in devices)
                session.add_all(
                    DeviceGroupMember(group_sysno=groups[0].sysno, device_sysno=d) for d in devices
                )
                session.add(
                    ControlRun(
                        customer_sysno=customer,
                        kind="group",
                        group_sysno=groups[0].sysno,
                        name="分组00",
                        action="switch_on",
                        status="done",
                        total=3,
                        succeeded=3,
                        create_time=now,
                    )
                )
        await session.commit()

    tasks_paths = "/api/CustomerTimedTask/GetTaskList", "/api/CustomerTimedTask/ExportTaskList"
    rows = await same_rows(h, *tasks_paths, {}, a.token, "任务名称", "name")
    assert len(rows) == 12 and rows[0]["设备数"] == 3 and rows[1]["设备数"] == 0
    assert rows[0]["执行计划"] == "每周一、周二 23:00" and rows[1]["执行计划"] == "每天 23:00"
    assert rows[1]["状态"] == "已停用" and rows[0]["状态"] == "已启用" and rows[0]["动作"] == "分闸"
    assert len(await same_rows(h, *tasks_paths, {"enabled": 0}, a.token, "任务名称", "name")) == 1
    assert len(await same_rows(h, *tasks_paths, {}, b.token, "任务名称", "name")) == 2

    groups_paths = "/api/CustomerGroup/GetGroupList", "/api/CustomerGroup/ExportGroupList"
    rows = await same_rows(h, *groups_paths, {}, a.token, "分组名称", "name")
    assert len(rows) == 10 and (rows[0]["设备数"], rows[0]["在线"], rows[0]["合闸"]) == (3, 3, 1)
    assert rows[0]["上次执行"].endswith("合闸 · 成功 3 · 失败 0 · 等待 0") and rows[1]["上次执行"] is None
    assert [
        r["分组名称"]
        for r in await same_rows(h, *groups_paths, {"name": "分组0"}, a.token, "分组名称", "name")
    ] == [f"分组{i:02d}" for i in range(10)]
    assert len(await same_rows(h, *groups_paths, {}, b.token, "分组名称", "name")) == 0


async def test_project_and_recharge_exports_hold_every_row_and_no_other_customers(
    harness: Harness, small_chunks: None
) -> None:
    h = harness
    a = await make_account(h, "13900000074")
    b = await make_account(h, "13900000075")
    mine = [await make_project(h, a.sysno, name=f"园区{i:02d}") for i in range(9)]
    await make_building(h, mine[0], "东楼")
    await make_building(h, mine[0], "西楼")
    await make_device(h, await make_gateway(h, mine[0], None, online=True), mine[0], online=1)
    await make_project(h, b.sysno, name="乙方园区")
    projects = "/api/CustomerProject/GetProjectList", "/api/CustomerProject/ExportProjectList"
    rows = await same_rows(h, *projects, {}, a.token, "项目名称", "name")
    assert len(rows) == 9 and "乙方园区" not in {r["项目名称"] for r in rows}
    first = next(r for r in rows if r["项目名称"] == "园区00")
    assert first["建筑"] == "东楼、西楼" and first["在线网关"] == "1/1" and first["在线设备"] == "1/1"
    assert len(await same_rows(h, *projects, {"name": "园区0"}, a.token, "项目名称", "name")) == 9
    assert [r["项目名称"] for r in await same_rows(h, *projects, {}, b.token, "项目名称", "name")] == [
        "乙方园区"
    ]

    now = utcnow()
    async with h.ctx.sessions() as session:
        for customer, n in ((a.sysno, 11), (b.sysno, 2)):
            await session.execute(
                insert(SmsRecharge),
                [
                    {
                        "customer_sysno": customer,
                        "quantity": 100 * (i + 1),
                        "amount": 10.5 * (i + 1),
                        "state": i % 3,
                        "create_time": now - timedelta(hours=i),
                    }
                    for i in range(n)
                ],
            )
        await session.commit()
    recharges = "/api/CustomerSms/GetRechargeList", "/api/CustomerSms/ExportRechargeList"
    rows = await same_rows(h, *recharges, {}, a.token, "下单时间", "create_time")
    assert len(rows) == 11 and {r["账号"] for r in rows} == {"13900000074"}
    assert {r["金额（元）"] for r in rows} >= {10.5, 21.0} and {r["状态"] for r in rows} == {
        "待确认",
        "已到账",
        "已拒绝",
    }
    assert len(await same_rows(h, *recharges, {"state": 1}, a.token, "下单时间", "create_time")) == 4
    response, sheet = await exported(h, recharges[1], {"all": True}, a.token)
    assert (
        sheet is None and response.json()["statusCode"] == 403 and "品牌管理员" in response.json()["message"]
    )


async def test_an_export_holds_the_rows_of_its_start_though_the_log_grows_meanwhile(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000076")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, None, sn="LEX0001")
    now = utcnow()

    def alarm(minutes: int) -> dict[str, Any]:
        return {
            "project_sysno": project,
            "gateway_sysno": gateway,
            "device_id": "1",
            "target_name": "水泵",
            "alarm_type": "offline",
            "level": 1,
            "source": "offline",
            "detail": f"离线 {minutes}",
            "start_time": now - timedelta(minutes=minutes),
            "process_state": 0,
        }

    async with h.ctx.sessions() as session:
        await session.execute(insert(Alarm), [alarm(i) for i in range(10)])
        await session.commit()
    query = AlarmQuery()
    values = {"customer": a.sysno, "time": (None, None)}
    total, chunks = await ALARMS.every(h.ctx, query=query, values=values, most=100, chunk=3)
    read = []
    async for rows in chunks:
        read += list(rows)
        async with h.ctx.sessions() as session:  # newer alarms arrive while it reads
            await session.execute(insert(Alarm), [alarm(-1), alarm(-2)])
            await session.commit()
    assert total == len(read) == 10
    assert [row[14] for row in read] == [f"离线 {i}" for i in range(10)]  # newest first, none twice

    total, chunks = await ALARMS.every(h.ctx, query=query, values=values, most=15, chunk=3)
    assert total == 18 and [rows async for rows in chunks] == []  # past the most: the count, no rows
