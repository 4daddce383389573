"""A second customer tries every project, gateway, device and log route with the first one's ids."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from typing import Any

import openpyxl
from sqlalchemy import select

from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building, Project
from tests.conftest import Harness
from tests.factories import (
    make_account,
    make_building,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
    make_readings,
    make_status_log,
)

SECRET = "甲方机密"
PREFIXES = (
    "/api/CustomerProject/",
    "/api/CustomerGateway/",
    "/api/CustomerDevice/",
    "/api/CustomerOfflineLog/",
    "/api/CustomerStatusLog/",
)


async def test_second_customer_sees_and_changes_nothing(harness: Harness) -> None:
    owner = await make_account(harness, mobile="13900000001")
    intruder = await make_account(harness, mobile="13900000002")
    project = await make_project(harness, owner.sysno, name=f"{SECRET}项目")
    building = await make_building(harness, project, name=f"{SECRET}楼")
    gateway = await make_gateway(
        harness, project, building_sysno=building, sn="OWNER-GW-1", name=f"{SECRET}网关"
    )
    device = await make_device(harness, gateway, project, name=f"{SECRET}设备", latest={"voltage": 220.0})
    await make_readings(harness, device, 10, timedelta(minutes=1), voltage=220.0)
    offline = await make_offline_log(harness, project, gateway, device, target_name=f"{SECRET}设备")
    await make_status_log(harness, project, gateway, target_name=f"{SECRET}网关")
    # The intruder's own project and gateway, to try moving things across.
    own_project = await make_project(harness, intruder.sysno, name="乙方项目")
    own_gateway = await make_gateway(harness, own_project, sn="INTRUDER-GW")
    async with harness.ctx.sessions() as session:
        hash_before = (await session.get(Gateway, gateway)).secret_hash  # type: ignore[union-attr]

    nothing = "not found"
    empty_page = "empty page"
    calls: list[tuple[str, str, dict[str, Any], str]] = [
        ("POST", "/api/CustomerProject/GetProjectList", {"name": SECRET}, empty_page),
        ("POST", "/api/CustomerProject/GetProjectListDashboard", {"name": SECRET}, empty_page),
        ("POST", "/api/CustomerProject/GetProjectListDashboard", {}, "own rows"),
        ("POST", "/api/CustomerProject/GetProjectList", {}, "own rows"),
        ("POST", "/api/CustomerGateway/GetGatewayList", {}, "own rows"),
        ("POST", "/api/CustomerDevice/GetDeviceList", {}, empty_page),
        ("POST", "/api/CustomerOfflineLog/GetOfflineLogList", {}, empty_page),
        ("POST", "/api/CustomerProject/GetProjectAndBuildingGatewayList", {}, "own tree"),
        ("POST", "/api/CustomerProject/GetFilterProjectList", {}, "own options"),
        ("GET", "/api/CustomerProject/GetSingleProject", {"sysno": project}, nothing),
        ("POST", "/api/CustomerProject/AddProject", {"name": "新项目"}, "allowed"),
        ("PUT", "/api/CustomerProject/UpdateProject", {"sysno": project, "name": "改"}, nothing),
        ("DELETE", "/api/CustomerProject/DeleteProject", {"sysno": project}, nothing),
        ("POST", "/api/CustomerProject/AddBuilding", {"project_sysno": project, "name": "楼"}, nothing),
        ("PUT", "/api/CustomerProject/UpdateBuilding", {"sysno": building, "name": "改"}, nothing),
        ("DELETE", "/api/CustomerProject/DeleteBuilding", {"sysno": building}, nothing),
        ("POST", "/api/CustomerProject/TransferProjectList", {}, empty_page),
        ("POST", "/api/CustomerProject/ShareProjectList", {"project_sysno": project}, empty_page),
        ("POST", "/api/CustomerGateway/GetGatewayList", {"project_sysno": project}, empty_page),
        ("POST", "/api/CustomerGateway/GetGatewayList", {"building_sysno": building}, empty_page),
        ("POST", "/api/CustomerGateway/GetGatewayList", {"sn": "OWNER"}, empty_page),
        ("GET", "/api/CustomerGateway/GetSingleGateway", {"sysno": gateway}, nothing),
        ("GET", "/api/CustomerGateway/GetGatewayRefusals", {"sysno": gateway}, nothing),
        (
            "POST",
            "/api/CustomerGateway/AddGateway",
            {"sn": "SNEAK-0001", "name": "x", "project_sysno": project},
            nothing,
        ),
        (
            "POST",
            "/api/CustomerGateway/AddGateway",
            {"sn": "SNEAK-0002", "name": "x", "project_sysno": own_project, "building_sysno": building},
            nothing,
        ),
        ("PUT", "/api/CustomerGateway/UpdateGateway", {"sysno": gateway, "name": "改"}, nothing),
        (
            "PUT",
            "/api/CustomerGateway/UpdateGateway",
            {"sysno": own_gateway, "name": "改", "building_sysno": building},
            nothing,
        ),
        (
            "PUT",
            "/api/CustomerGateway/MoveGateway",
            {"sysno": gateway, "project_sysno": own_project},
            nothing,
        ),
        (
            "PUT",
            "/api/CustomerGateway/MoveGateway",
            {"sysno": own_gateway, "project_sysno": project},
            nothing,
        ),
        ("POST", "/api/CustomerGateway/ResetGatewaySecret", {"sysno": gateway}, nothing),
        ("DELETE", "/api/CustomerGateway/DeleteGateway", {"sysno": gateway}, nothing),
        ("POST", "/api/CustomerDevice/GetDeviceList", {"project_sysno": project}, empty_page),
        ("POST", "/api/CustomerDevice/GetDeviceList", {"gateway_sysno": gateway}, empty_page),
        ("POST", "/api/CustomerDevice/GetDeviceList", {"keyword": SECRET}, empty_page),
        ("GET", "/api/CustomerDevice/GetSingleDevice", {"sysno": device}, nothing),
        ("PUT", "/api/CustomerDevice/UpdateDevice", {"sysno": device, "name": "改"}, nothing),
        ("DELETE", "/api/CustomerDevice/DeleteDevice", {"sysno": device}, nothing),
        ("POST", "/api/CustomerDevice/GetDeviceTrend", {"sysno": device, "hours": 24}, nothing),
        ("POST", "/api/CustomerOfflineLog/GetOfflineLogList", {"project_sysno": project}, empty_page),
        ("POST", "/api/CustomerOfflineLog/GetOfflineLogList", {"gateway_sysno": gateway}, empty_page),
        ("GET", "/api/CustomerOfflineLog/GetSingleOfflineLog", {"sysno": offline}, nothing),
        ("POST", "/api/CustomerStatusLog/GetStatusLogList", {"project_sysno": project}, empty_page),
        ("POST", "/api/CustomerStatusLog/GetStatusLogList", {}, empty_page),
        ("GET", "/api/CustomerStatusLog/GetStatusType", {}, "options"),
    ]
    tried: set[tuple[str, str]] = set()
    for method, path, payload, expect in calls:
        tried.add((method, path))
        if method in ("GET", "DELETE"):
            body = await harness.call(method, path, token=intruder.token, params=payload)
        else:
            body = await harness.call(method, path, token=intruder.token, json=payload)
        assert SECRET not in json.dumps(body, ensure_ascii=False), (path, body)
        assert "OWNER-GW" not in json.dumps(body), (path, body)
        if expect == nothing:
            assert body["statusCode"] == 404, (path, body)
        elif expect == empty_page:
            assert body["statusCode"] == 200 and body["data"]["dataSource"] == [], (path, body)
        elif expect == "own rows":
            rows = body["data"]["dataSource"]
            assert rows and {row["sysno"] for row in rows} <= {own_project, own_gateway}, (path, body)
        elif expect == "own tree":
            assert [node["sysno"] for node in body["data"]] == [own_project], (path, body)
        elif expect == "own options":
            assert [o["sysno"] for o in body["data"]] == [own_project], (path, body)
        else:
            assert body["statusCode"] == 200, (path, body)

    # Exports: the workbooks hold none of the owner's rows, whatever the owner's ids asked for.
    exports: list[tuple[str, dict[str, Any]]] = [
        ("/api/CustomerProject/ExportProjectList", {}),
        ("/api/CustomerGateway/ExportGatewayList", {}),
        ("/api/CustomerGateway/ExportGatewayList", {"project_sysno": project, "building_sysno": building}),
        ("/api/CustomerDevice/ExportDeviceList", {}),
        ("/api/CustomerDevice/ExportDeviceList", {"gateway_sysno": gateway}),
        ("/api/CustomerOfflineLog/ExportOfflineLogList", {"project_sysno": project}),
        ("/api/CustomerStatusLog/ExportStatusLogList", {}),
    ]
    for path, payload in exports:
        tried.add(("POST", path))
        response = await harness.client.post(path, json=payload, headers={"SYSTOKEN": intruder.token})
        book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
        cells = [list(row) for sheet in book for row in sheet.iter_rows(values_only=True)]
        shown = json.dumps(cells, ensure_ascii=False, default=str)
        assert SECRET not in shown and "OWNER-GW" not in shown, (path, shown)

    routes = {
        (method, route.path)
        for route in harness.app.routes
        if getattr(route, "path", "").startswith(PREFIXES)
        for method in getattr(route, "methods", set())
    }
    assert routes - tried == set(), "every new route must be tried as the second customer"

    async with harness.ctx.sessions() as session:
        kept_project = await session.get(Project, project)
        kept_building = await session.get(Building, building)
        kept_gateway = await session.get(Gateway, gateway)
        kept_device = await session.get(Device, device)
        assert kept_project is not None and kept_project.name == f"{SECRET}项目"
        assert kept_building is not None and kept_building.name == f"{SECRET}楼"
        assert kept_gateway is not None and kept_gateway.name == f"{SECRET}网关"
        assert kept_gateway.project_sysno == project and kept_gateway.secret_hash == hash_before
        assert kept_device is not None and kept_device.name == f"{SECRET}设备"
        assert await session.scalar(select(Gateway.sysno).where(Gateway.sn.like("SNEAK%"))) is None
        own = await session.get(Gateway, own_gateway)
        assert own is not None and own.project_sysno == own_project and own.building_sysno is None

    # The owner still sees all of it.
    mine = await harness.post("/api/CustomerDevice/GetDeviceList", {}, token=owner.token)
    assert [row["sysno"] for row in mine["data"]["dataSource"]] == [device]
