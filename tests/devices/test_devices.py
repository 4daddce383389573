"""Device routes: the monitoring list, settings, deletion and the trend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import func, select

from powerportal.devices.models import Device
from powerportal.logs.models import OperationLog
from powerportal.logs.recording import OperateType
from powerportal.telemetry.latest import LatestEntry, LatestValues
from powerportal.telemetry.models import Reading
from powerportal.telemetry.runtime import TelemetryRuntime
from tests.conftest import Harness
from tests.factories import (
    make_account,
    make_building,
    make_device,
    make_gateway,
    make_project,
    make_readings,
)

API = "/api/CustomerDevice"
NOW = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)


async def _setup(h: Harness) -> tuple[str, dict[str, int]]:
    me = await make_account(h)
    project = await make_project(h, me.sysno, name="园区")
    building = await make_building(h, project, name="A栋")
    gw1 = await make_gateway(
        h, project, building_sysno=building, sn="GW-DEV-01", name="一号网关", online=True
    )
    gw2 = await make_gateway(h, project, sn="GW-DEV-02", name="二号网关")
    d1 = await make_device(
        h,
        gw1,
        project,
        device_id="1",
        name="照明回路",
        online=1,
        switch_state=1,
        last_report_time=NOW,
        latest={
            "ts": 1,
            "voltage": 221.5,
            "current": 3.2,
            "active_power": 700.0,
            "energy": 12.5,
            "humidity": 40,
        },
    )
    d2 = await make_device(
        h,
        gw1,
        project,
        device_id="2",
        name="空调回路",
        online=0,
        switch_state=0,
        phases=3,
        latest={"voltage_a": 220.0, "voltage_b": 221.0, "voltage_c": 219.0, "temperature": 35.0},
    )
    d3 = await make_device(h, gw2, project, device_id="9", name="插座", online=2)
    return me.token, {
        "project": project,
        "building": building,
        "gw1": gw1,
        "gw2": gw2,
        "d1": d1,
        "d2": d2,
        "d3": d3,
    }


async def test_device_list_rows_and_filters(harness: Harness) -> None:
    token, ids = await _setup(harness)

    async def found(**filters: object) -> list[int]:
        body = await harness.post(
            f"{API}/GetDeviceList", {"orderBy": "sysno", "sort": "asc", **filters}, token=token
        )
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]["dataSource"]]

    assert await found() == [ids["d1"], ids["d2"], ids["d3"]]
    assert await found(gateway_sysno=ids["gw2"]) == [ids["d3"]]
    assert await found(building_sysno=ids["building"]) == [ids["d1"], ids["d2"]]
    assert await found(project_sysno=ids["project"], online=1) == [ids["d1"], ids["d3"]]
    assert await found(online=0) == [ids["d2"]]
    assert await found(switch_state=0) == [ids["d2"]]
    assert await found(keyword="空调") == [ids["d2"]]
    assert await found(keyword="GW-DEV-02") == [ids["d3"]]
    assert await found(keyword="%") == []
    body = await harness.post(f"{API}/GetDeviceList", {"pageSize": 1, "pageIndex": 3}, token=token)
    assert body["data"]["totalCount"] == 3 and len(body["data"]["dataSource"]) == 1

    rows = {
        r["sysno"]: r
        for r in (await harness.post(f"{API}/GetDeviceList", {}, token=token))["data"]["dataSource"]
    }
    first = rows[ids["d1"]]
    assert first["online"] == 1 and first["switch_state"] == 1
    assert (first["voltage"], first["current"], first["active_power"], first["energy"]) == (
        221.5,
        3.2,
        700.0,
        12.5,
    )
    assert first["latest"] == {
        "voltage": 221.5,
        "current": 3.2,
        "active_power": 700.0,
        "energy": 12.5,
        "humidity": 40,
    }
    assert first["last_report_time"] == "2026-11-21 16:00:00"
    assert (
        first["gateway_name"] == "一号网关"
        and first["gateway_sn"] == "GW-DEV-01"
        and first["gateway_online"] == 1
    )
    assert first["project_name"] == "园区" and first["building_name"] == "A栋"
    second = rows[ids["d2"]]
    assert second["online"] == 0 and second["voltage"] is None and second["voltage_b"] == 221.0
    assert second["temperature"] == 35.0 and second["phases"] == 3
    third = rows[ids["d3"]]
    assert third["online"] == 2 and third["latest"] == {} and third["building_name"] is None

    bad = await harness.post(f"{API}/GetDeviceList", {"switch_state": "on"}, token=token)
    assert bad["statusCode"] == 400


async def test_hot_store_values_win_over_the_database(harness: Harness) -> None:
    token, ids = await _setup(harness)
    store = LatestValues()
    later = NOW + timedelta(seconds=30)
    store.put(ids["d1"], LatestEntry(ts=later, values={"voltage": 230.0, "switch": 0.0}, received_at=later))
    fake_runtime = TelemetryRuntime(
        ctx=harness.ctx,
        ingest=SimpleNamespace(latest=store),  # type: ignore[arg-type]
        link=None,  # type: ignore[arg-type]
        rpc=None,  # type: ignore[arg-type]
        gateway_address=None,  # type: ignore[arg-type]
    )
    harness.runtime.telemetry = fake_runtime
    try:
        single = await harness.call("GET", f"{API}/GetSingleDevice", token=token, params={"sysno": ids["d1"]})
        store.put(ids["d3"], LatestEntry(ts=later, values={"voltage": 1.0}, received_at=later))
        await harness.call("DELETE", f"{API}/DeleteDevice", token=token, params={"sysno": ids["d1"]})
        assert store.get(ids["d1"]) is None
        await harness.call(
            "DELETE", "/api/CustomerGateway/DeleteGateway", token=token, params={"sysno": ids["gw2"]}
        )
        assert store.get(ids["d3"]) is None
    finally:
        harness.runtime.telemetry = None
    assert single["data"]["voltage"] == 230.0 and single["data"]["current"] == 3.2
    assert single["data"]["switch_state"] == 0
    assert single["data"]["last_report_time"] == "2026-11-21 16:00:30"


async def test_single_update_delete(harness: Harness) -> None:
    token, ids = await _setup(harness)
    single = await harness.call("GET", f"{API}/GetSingleDevice", token=token, params={"sysno": ids["d1"]})
    assert single["statusCode"] == 200 and single["data"]["device_id"] == "1"
    settings = {
        "sysno": ids["d1"],
        "name": "一楼照明",
        "rated_current": 32,
        "over_voltage": 264,
        "under_voltage": 176,
        "over_current": 40,
        "leakage_limit": 30,
        "temperature_limit": 70,
        "power_limit": 7000,
    }
    updated = await harness.put(f"{API}/UpdateDevice", settings, token=token)
    assert updated["statusCode"] == 200, updated
    assert updated["data"]["name"] == "一楼照明" and updated["data"]["over_voltage"] == 264
    assert updated["data"]["leakage_limit"] == 30
    cleared = await harness.put(f"{API}/UpdateDevice", {"sysno": ids["d1"], "name": "一楼照明"}, token=token)
    assert cleared["data"]["over_voltage"] is None and cleared["data"]["power_limit"] is None

    await make_readings(harness, ids["d1"], 3, timedelta(minutes=1), voltage=220.0)
    deleted = await harness.call("DELETE", f"{API}/DeleteDevice", token=token, params={"sysno": ids["d1"]})
    assert deleted["statusCode"] == 200
    again = await harness.call("GET", f"{API}/GetSingleDevice", token=token, params={"sysno": ids["d1"]})
    assert again["statusCode"] == 404 and again["message"] == "设备不存在或无权访问"
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Reading)) == 0
        assert await session.scalar(select(func.count()).select_from(Device)) == 2
        details = list(
            await session.scalars(
                select(OperationLog.detail)
                .where(OperationLog.operate_type == int(OperateType.DEVICE))
                .order_by(OperationLog.sysno)
            )
        )
    assert details == ["修改设备：一楼照明（1）", "修改设备：一楼照明（1）", "删除设备：一楼照明（1）"]


async def test_update_validation(harness: Harness) -> None:
    token, ids = await _setup(harness)
    base = {"sysno": ids["d1"], "name": "回路"}
    cases = [
        ({"over_voltage": 600}, "过压阈值应在 100–500 V 之间"),
        ({"under_voltage": 10}, "欠压阈值应在 50–400 V 之间"),
        ({"over_current": 0}, "过流阈值应在 0.1–6300 A 之间"),
        ({"leakage_limit": 5000}, "漏电阈值应在 1–1000 mA 之间"),
        ({"temperature_limit": 500}, "温度阈值应在 20–200 °C 之间"),
        ({"power_limit": 0}, "功率上限应在 1–5000000 W 之间"),
        ({"rated_current": -1}, "额定电流应在 0.1–6300 A 之间"),
        ({"over_voltage": 240, "under_voltage": 250}, "欠压阈值应低于过压阈值"),
        ({"over_voltage": "high"}, "过压阈值应为数字"),
        ({"name": ""}, "请填写设备名称"),
    ]
    for change, message in cases:
        body = await harness.put(f"{API}/UpdateDevice", {**base, **change}, token=token)
        assert (body["statusCode"], body["message"]) == (400, message), change
    missing = await harness.put(f"{API}/UpdateDevice", {"sysno": 99999, "name": "x"}, token=token)
    assert missing["statusCode"] == 404
    gone = await harness.call("DELETE", f"{API}/DeleteDevice", token=token, params={"sysno": 99999})
    assert gone["statusCode"] == 404
    bad_id = await harness.call("GET", f"{API}/GetSingleDevice", token=token, params={"sysno": "x"})
    assert bad_id["statusCode"] == 400


async def test_trend_is_downsampled(harness: Harness) -> None:
    token, ids = await _setup(harness)
    # 24 h of readings every 30 s: 2880 points, averaged into at most 500 buckets.
    await make_readings(
        harness, ids["d1"], 2880, timedelta(seconds=30), voltage=200.0, current=1.0, active_power=100.0
    )
    await make_readings(harness, ids["d2"], 5, timedelta(minutes=1), voltage_a=220.0, temperature=30.0)
    body = await harness.post(f"{API}/GetDeviceTrend", {"sysno": ids["d1"]}, token=token)
    assert body["statusCode"] == 200, body
    trend = body["data"]
    assert trend["hours"] == 24 and trend["bucket_seconds"] == 173
    assert 450 <= len(trend["times"]) <= 500
    keys = [s["key"] for s in trend["series"]]
    assert keys == ["voltage", "current", "active_power", "temperature", "leakage_current"]
    voltage = trend["series"][0]
    assert voltage["label"] == "电压" and voltage["unit"] == "V"
    assert len(voltage["data"]) == len(trend["times"])
    assert voltage["data"] == sorted(voltage["data"])
    assert trend["series"][3]["data"][0] is None

    phases = await harness.post(f"{API}/GetDeviceTrend", {"sysno": ids["d2"], "hours": 1}, token=token)
    assert len(phases["data"]["times"]) == 5
    assert "voltage_a" in [s["key"] for s in phases["data"]["series"]]
    assert "voltage_b" not in [s["key"] for s in phases["data"]["series"]]

    short = await harness.post(f"{API}/GetDeviceTrend", {"sysno": ids["d1"], "hours": 1}, token=token)
    assert len(short["data"]["times"]) <= 120
    too_long = await harness.post(f"{API}/GetDeviceTrend", {"sysno": ids["d1"], "hours": 169}, token=token)
    assert too_long["statusCode"] == 400 and too_long["message"] == "小时数过大，不能大于 168"
    missing = await harness.post(f"{API}/GetDeviceTrend", {"sysno": 99999}, token=token)
    assert missing["statusCode"] == 404
