"""The alarm report against the alarm list: its counts, durations and processing, export, isolation."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest

from powerportal.core.timeutil import CUSTOMER_TZ, parse_display
from tests.alarms.test_alarm_api import make_alarm
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project
from tests.reports.helpers import R, export, file_name, last_month, refusals, refused, table

ALARM = "/api/CustomerAlarm"


async def listed(h: Harness, token: str, **filters: Any) -> dict[str, Any]:
    """Every alarm of the list with these filters (one page holds them)."""
    body = await h.post(f"{ALARM}/GetAlarmList", {"pageSize": 200, **filters}, token)
    assert body["statusCode"] == 200, body
    page: dict[str, Any] = body["data"]
    return page


async def test_alarm_report_agrees_with_the_alarm_list_exports_every_alarm_and_keeps_customers_apart(
    harness: Harness,
) -> None:
    h = harness
    a = await make_account(h, "13900000041")
    b = await make_account(h, "13900000042")
    project = await make_project(h, a.sysno, name="一号园区")
    east = await make_building(h, project, "东楼")
    gw_east = await make_gateway(h, project, east, sn="RPA0001", name="东楼网关")
    gw_loose = await make_gateway(h, project, None, sn="RPA0002", name="临时网关")
    d1 = await make_device(h, gw_east, project, device_id="1", name="101宿舍")
    d2 = await make_device(h, gw_east, project, device_id="2", name="102宿舍")
    d3 = await make_device(h, gw_loose, project, device_id="1", name="水泵")

    first, first_day, last_day = last_month()
    at = first + timedelta(days=2, hours=3)  # a local morning of last month

    def span(minutes: float) -> datetime:
        return at + timedelta(minutes=minutes)

    alarms = {
        "current": await make_alarm(
            h, project, gw_east, d1, "over_current", at, end_time=span(30), target_name="101宿舍"
        ),
        "leak": await make_alarm(
            h,
            project,
            gw_east,
            d1,
            "leakage",
            span(60 * 24),
            end_time=span(60 * 24 + 5),
            process_state=1,
            process_time=span(60 * 25),
            process_remark="已更换",
            target_name="101宿舍",
        ),
        "voltage": await make_alarm(
            h,
            project,
            gw_east,
            d2,
            "over_voltage",
            span(60 * 48),
            level=2,
            target_name="102宿舍",
            device_id="2",
        ),
        "gateway": await make_alarm(
            h,
            project,
            gw_east,
            None,
            "offline",
            span(60 * 72),
            level=1,
            source="offline",
            device_id="RPA0001",
            target_name="东楼网关",
        ),
        "pump": await make_alarm(
            h, project, gw_loose, d3, "over_temperature", span(60 * 96), end_time=span(60 * 96 + 90)
        ),
    }
    # Just outside the month on either side: not counted.
    await make_alarm(
        h, project, gw_east, d1, "over_current", first - timedelta(seconds=1), target_name="101宿舍"
    )
    next_month = (first.astimezone(CUSTOMER_TZ) + timedelta(days=32)).replace(day=1)
    await make_alarm(h, project, gw_east, d1, "over_current", next_month, target_name="101宿舍")
    # The voltage alarm is processed through the alarm screen's own call.
    done = await h.post(f"{ALARM}/ProcessAlarm", {"sysno": [alarms["voltage"]], "remark": "已派人"}, a.token)
    assert done["data"] == {"count": 1}
    # Another customer's alarm, in its own project.
    other_project = await make_project(h, b.sysno, name="二号园区")
    other_gateway = await make_gateway(h, other_project, sn="RPB0001")
    await make_alarm(h, other_project, other_gateway, None, "offline", at, level=1, target_name="乙方网关")

    body = {"project_sysno": project, "view": "month", "date": first_day}
    answer = await h.post(f"{R}/GetAlarmReport", body, a.token)
    assert answer["statusCode"] == 200, answer
    report = answer["data"]
    window = {"project_sysno": project, "start_time": first_day, "end_time": last_day}
    everything = await listed(h, a.token, **window)
    rows = everything["dataSource"]
    assert report["total"] == everything["totalCount"] == len(alarms)
    assert report["project_name"] == "一号园区" and report["building_name"] is None
    assert report["start"] == f"{first_day} 00:00:00" and not report["partial"]

    # every count is the list's total with the same filter
    for state, key in ((0, "active"), (1, "recovered")):
        assert report[key] == (await listed(h, a.token, **window, state=state))["totalCount"]
    assert report["unprocessed"] == (await listed(h, a.token, **window, process_state=0))["totalCount"]
    assert report["processed"] == (await listed(h, a.token, **window, process_state=1))["totalCount"] == 2
    for kind in report["by_type"]:
        assert (
            kind["count"] == (await listed(h, a.token, **window, alarm_type=kind["alarm_type"]))["totalCount"]
        )
    assert {k["alarm_type"]: k["count"] for k in report["by_type"] if k["count"]} == {
        "over_current": 1,
        "leakage": 1,
        "over_voltage": 1,
        "offline": 1,
        "over_temperature": 1,
    }
    for level in report["by_level"]:
        assert level["count"] == (await listed(h, a.token, **window, level=level["level"]))["totalCount"]
    assert [lv["label"] for lv in report["by_level"]] == ["提示", "重要", "紧急"]

    # durations: the list's (open alarms until now, so within a few seconds)
    by_sysno = {r["sysno"]: r for r in rows}
    assert report["duration_seconds"] == pytest.approx(sum(r["duration_seconds"] for r in rows), abs=5)
    assert by_sysno[alarms["current"]]["duration_seconds"] == 1800
    kinds = {k["alarm_type"]: k for k in report["by_type"]}
    assert kinds["over_current"]["duration_seconds"] == 1800 and kinds["leakage"]["duration_seconds"] == 300
    assert kinds["over_temperature"]["avg_duration_seconds"] == 5400
    # time to process: from the start to the processing, as the list shows both
    took = [
        (parse_display(r["process_time"]) - parse_display(r["start_time"])).total_seconds()
        for r in rows
        if r["process_state"] == 1
    ]
    assert report["avg_process_seconds"] == pytest.approx(sum(took) / len(took), abs=2)
    assert report["max_process_seconds"] == pytest.approx(max(took), abs=2)

    # by device (and gateway): the list filtered by device
    devices = {(r["gateway_sysno"], r["device_sysno"]): r for r in report["rows"]}
    assert set(devices) == {(gw_east, d1), (gw_east, d2), (gw_east, None), (gw_loose, d3)}
    for device in (d1, d2, d3):
        row = devices[next(k for k in devices if k[1] == device)]
        assert row["count"] == (await listed(h, a.token, **window, device_sysno=device))["totalCount"]
    first_row = report["rows"][0]
    assert (first_row["device_sysno"], first_row["count"], first_row["levels"]) == (d1, 2, [0, 0, 2])
    assert first_row["building_name"] == "东楼" and first_row["gateway_sn"] == "RPA0001"
    assert first_row["longest_seconds"] == 1800 and first_row["avg_process_seconds"] == 3600
    assert devices[gw_east, None]["name"] == "东楼网关" and devices[gw_loose, d3]["building_name"] is None

    # by building: a building's gateways; the loose gateway's as 未分配建筑
    buildings = {b["name"]: b["count"] for b in report["by_building"]}
    assert buildings == {"东楼": 4, "未分配建筑": 1}

    # the longest open: the list's active alarms, oldest first
    oldest = await listed(h, a.token, **window, state=0, sort="asc", orderBy="start_time")
    assert [x["sysno"] for x in report["longest_open"]] == [r["sysno"] for r in oldest["dataSource"]]
    assert report["longest_open"][0]["sysno"] == alarms["voltage"]

    # the chart: a bucket per day of the month, adding up to the total
    assert len(report["points"]) == int(last_day[-2:])
    assert sum(p["count"] for p in report["points"]) == report["total"]
    day = next(p for p in report["points"] if p["count"] and p["levels"][1])
    assert day["label"] == span(60 * 48).astimezone(CUSTOMER_TZ).strftime("%m-%d")

    # one building; one day by the hour
    east_only = (await h.post(f"{R}/GetAlarmReport", {**body, "building_sysno": east}, a.token))["data"]
    assert east_only["total"] == 4 and east_only["building_name"] == "东楼"
    local_day = at.astimezone(CUSTOMER_TZ)
    one_day = {"project_sysno": project, "view": "day", "date": local_day.date().isoformat()}
    by_hour = (await h.post(f"{R}/GetAlarmReport", one_day, a.token))["data"]
    assert len(by_hour["points"]) == 24 and by_hour["total"] == 1
    assert by_hour["points"][local_day.hour]["levels"] == [0, 0, 1]

    # the export: the summary, each table, and every alarm in 告警明细
    response, book = await export(h, "ExportAlarmReport", body, a.token)
    assert response.status_code == 200 and book is not None, response.text
    assert file_name(response) == f"告警报表_一号园区_{first_day}至{last_day}.xlsx"
    assert book.sheetnames == ["汇总", "按类型", "按级别", "按建筑", "最长未恢复告警", "告警明细"]
    summary = book["汇总"]
    assert str(summary["A1"].value) == "告警报表 · 一号园区"
    header, device_rows = table(summary, "设备/网关")
    assert header[:5] == ["设备/网关", "地址", "网关编号", "建筑", "告警数"]
    assert [r[0] for r in device_rows] == [r["name"] for r in report["rows"]]
    assert device_rows[0][4] == 2 and device_rows[0][header.index("累计时长")] == "35分"
    _, types = table(book["按类型"], "类型")
    assert len(types) == len(report["by_type"])
    header, details = table(book["告警明细"], "开始时间")
    assert len(details) == report["total"]
    assert sorted(r[0] for r in details) == sorted(r["start_time"] for r in rows)
    leak_row = next(r for r in details if r[header.index("类型")] == "漏电")
    assert leak_row[header.index("处理用时")] == "1小时" and leak_row[header.index("处理备注")] == "已更换"
    assert book["告警明细"].freeze_panes == "A2"

    pdf = await h.client.post(
        f"{R}/ExportAlarmReport", json={**body, "format": "pdf"}, headers={"SYSTOKEN": a.token}
    )
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text[:200]
    assert pdf.headers["content-type"] == "application/pdf"

    # another customer: A's project and building are not found; its own report holds only its alarm
    own = {"project_sysno": other_project, "view": "month", "date": first_day}
    await refused(h, "GetAlarmReport", "ExportAlarmReport", [body, {**own, "building_sysno": east}], b.token)
    theirs = (await h.post(f"{R}/GetAlarmReport", own, b.token))["data"]
    assert theirs["total"] == 1 and [r["name"] for r in theirs["rows"]] == ["乙方网关"]
    assert Counter(r["project_name"] for r in (await listed(h, b.token))["dataSource"]) == {"二号园区": 1}

    await refusals(h, "GetAlarmReport", body, a.token)


async def test_an_empty_period_reports_zeros_and_exports_headers_only(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000043")
    project = await make_project(h, a.sysno, name="空项目")
    body = {"project_sysno": project, "view": "year", "date": "2026-01-01"}
    report = (await h.post(f"{R}/GetAlarmReport", body, a.token))["data"]
    assert report["total"] == 0 and report["rows"] == [] and report["avg_process_seconds"] is None
    assert len(report["points"]) == 12 and report["longest_open"] == []
    response, book = await export(h, "ExportAlarmReport", body, a.token)
    assert book is not None, response.text
    assert [list(r) for r in book["告警明细"].iter_rows(values_only=True)][1:] == []
