"""The energy report as a customer and as another customer would use it: its figures, export, isolation."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

import openpyxl
import pytest

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.energy.observer import EnergyObserver
from tests.conftest import Harness
from tests.energy.test_energy_api import feed, plan
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

E = "/api/CustomerEnergy"
R = "/api/CustomerReport"


async def export(h: Harness, body: dict[str, Any], token: str) -> tuple[Any, openpyxl.Workbook | None]:
    response = await h.client.post(f"{R}/ExportEnergyReport", json=body, headers={"SYSTOKEN": token})
    if response.headers["content-type"].startswith("application/json"):
        return response, None
    return response, openpyxl.load_workbook(io.BytesIO(response.content))


async def test_report_agrees_with_the_energy_screen_exports_every_row_and_keeps_customers_apart(
    harness: Harness,
) -> None:
    h = harness
    a = await make_account(h, "13900000031")
    b = await make_account(h, "13900000032")
    project = await make_project(h, a.sysno)
    building = await make_building(h, project)
    gateway = await make_gateway(h, project, building)
    main = await make_device(h, gateway, project, rated_current=63)
    branch = await make_device(h, gateway, project, rated_current=63)
    other = await make_device(h, gateway, project, rated_current=63)
    assert (await h.post(f"{E}/AddTariffPlan", plan("平价", 0.5), a.token))["statusCode"] == 200

    now = utcnow().replace(microsecond=0)
    start = max(now - timedelta(hours=2), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    observer = EnergyObserver(h.ctx.sessions)
    for device, base, rate in ((main, 100, 0.3), (branch, 50, 0.15), (other, 20, 0.1)):
        readings = [(start + timedelta(minutes=i), base + rate * i) for i in range(steps)]
        await feed(h, observer, device, readings)
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, a.token)
    assert marked["statusCode"] == 200

    today = now.astimezone(CUSTOMER_TZ).date().isoformat()
    scope = {"project_sysno": project, "view": "day", "date": today}
    chart = (await h.post(f"{E}/GetEnergyChart", scope, a.token))["data"]
    table = (await h.post(f"{E}/GetEnergyTable", scope, a.token))["data"]

    # by device: the 能耗统计 table's rows, to the Wh and the fen, with the tariff periods apart
    report = await h.post(f"{R}/GetEnergyReport", {**scope, "group": "device"}, a.token)
    assert report["statusCode"] == 200, report
    data = report["data"]
    assert (data["total_kwh"], data["total_cost"]) == (chart["total_kwh"], chart["total_cost"])
    assert data["yoy"] == chart["yoy"] and data["points"] == chart["points"]
    rows = {r["sysno"]: r for r in data["rows"]}
    assert set(rows) == {main, branch, other}
    for expected in table["rows"]:
        got = rows[expected["device_sysno"]]
        assert (got["total_kwh"], got["total_cost"]) == (expected["kwh"], expected["cost"])
        assert got["start_reading"] == expected["start_reading"]
        assert got["end_reading"] == expected["end_reading"]
        assert got["incoming_main"] == expected["incoming_main"]
        assert sum(got["kwh"]) == pytest.approx(got["total_kwh"], abs=0.003)
    assert rows[branch]["total_kwh"] == pytest.approx(0.15 * (steps - 1), abs=0.002)
    assert rows[branch]["total_cost"] == pytest.approx(0.15 * (steps - 1) * 0.5, abs=0.01)

    # by building: its branches (the 总进线 is a reference); by project: the chart's total
    by_building = (await h.post(f"{R}/GetEnergyReport", {**scope, "group": "building"}, a.token))["data"]
    (row,) = by_building["rows"]
    assert row["sysno"] == building
    assert row["total_kwh"] == pytest.approx(rows[branch]["total_kwh"] + rows[other]["total_kwh"], abs=0.002)
    by_project = (await h.post(f"{R}/GetEnergyReport", {**scope, "group": "project"}, a.token))["data"]
    (row,) = by_project["rows"]
    assert (row["total_kwh"], row["total_cost"]) == (chart["total_kwh"], chart["total_cost"])

    # the export: a summary and every hour of every device, not a page
    response, book = await export(h, {**scope, "group": "device"}, a.token)
    assert response.status_code == 200 and book is not None
    assert response.headers["content-type"].startswith("application/vnd.openxmlformats")
    disposition = response.headers["content-disposition"]
    assert "能耗报表_" in unquote(disposition.split("filename*=UTF-8''")[1])
    assert book.sheetnames == ["汇总", "明细"]
    summary = book["汇总"]
    assert str(summary["A1"].value).startswith("能耗报表")
    texts = [[c.value for c in r] for r in summary.iter_rows()]
    assert ["总电量(kWh)", chart["total_kwh"]] == texts[6][:2]
    header = texts[10]
    assert header[:4] == ["名称", "建筑", "起始读数", "结束读数"] and "电量(kWh)" in header
    listed = {r[0].replace("（总进线）", ""): r for r in texts[11:]}
    assert len(listed) == 3
    detail = book["明细"]
    assert detail.freeze_panes == "A2" and detail.auto_filter.ref is not None
    lines = [[c.value for c in r] for r in detail.iter_rows(min_row=2)]
    assert len(lines) == 3 * 24  # every device, every hour of the day
    kwh_column = [c.value for c in next(detail.iter_rows(max_row=1))].index("电量(kWh)")
    branch_name = next(r["name"] for r in data["rows"] if r["sysno"] == branch)
    branch_hours = [line[kwh_column] for line in lines if line[0] == branch_name]
    assert len(branch_hours) == 24
    assert sum(branch_hours) == pytest.approx(rows[branch]["total_kwh"], abs=0.01)
    assert detail.cell(row=2, column=kwh_column + 1).number_format == "#,##0.00"

    # a month by day, by building: one row per building and day
    response, book = await export(h, {**scope, "view": "month", "group": "building"}, a.token)
    assert book is not None
    days = list(book["明细"].iter_rows(min_row=2, values_only=True))
    month_end = (now.astimezone(CUSTOMER_TZ).replace(day=28) + timedelta(days=4)).replace(day=1)
    assert len(days) == (month_end - timedelta(days=1)).day

    # what cannot be: a clear Chinese message and no file
    response, book = await export(h, {**scope, "view": "year", "detail": "hour"}, a.token)
    refused = response.json()
    assert book is None and refused["statusCode"] == 400 and "按小时明细" in refused["message"]
    bad = await h.post(f"{R}/GetEnergyReport", {**scope, "group": "floor"}, a.token)
    assert bad["statusCode"] == 400 and bad["data"] is None
    unknown = await h.post(f"{R}/GetEnergyReport", {**scope, "project_sysno": 987654321}, a.token)
    assert unknown["statusCode"] == 404

    # another customer: A's project, building and devices are not found, in the report and the export
    for body in (scope, {**scope, "building_sysno": building}):
        answer = await h.post(f"{R}/GetEnergyReport", body, b.token)
        assert answer["statusCode"] == 404 and answer["data"] is None, answer
        response, book = await export(h, body, b.token)
        assert book is None and response.json()["statusCode"] == 404
    own = await make_project(h, b.sysno)
    body = {**scope, "project_sysno": own, "device_sysnos": [branch]}
    answer = await h.post(f"{R}/GetEnergyReport", body, b.token)
    assert answer["statusCode"] == 404


async def test_an_empty_project_and_every_detail_export_cleanly(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000033")
    project = await make_project(h, a.sysno)
    local = utcnow().astimezone(CUSTOMER_TZ)
    today = local.date().isoformat()
    month_days = ((local.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)).day
    buckets = {("day", "hour"): 24, ("month", "day"): month_days, ("year", "month"): 12, ("day", "month"): 1}
    for group in ("device", "building", "project"):
        for view, detail in buckets:
            body = {"project_sysno": project, "view": view, "date": today, "group": group, "detail": detail}
            report = await h.post(f"{R}/GetEnergyReport", body, a.token)
            assert report["statusCode"] == 200 and report["data"]["total_kwh"] == 0, report
            response, book = await export(h, body, a.token)
            assert book is not None, response.text
            rows = list(book["明细"].iter_rows(min_row=2, values_only=True))
            # no device, no building: nothing to list; the project lists every bucket, at 0
            expected = buckets[view, detail] if group == "project" else 0
            assert len(rows) == expected == len(report["data"]["rows"]) * expected, (group, view, detail)
            assert all(row[0] and row[-1] == 0 for row in rows)
    too_long = {"project_sysno": project, "view": "range", "date": "2026-01-01", "end_date": "2025-01-01"}
    answer = await h.post(f"{R}/GetEnergyReport", too_long, a.token)
    assert answer["statusCode"] == 400 and "结束日期" in answer["message"]
    many = {"project_sysno": project, "view": "day", "date": today, "device_sysnos": list(range(1, 202))}
    assert (await h.post(f"{R}/GetEnergyReport", many, a.token))["statusCode"] == 400
