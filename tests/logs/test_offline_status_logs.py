"""Offline log and status log routes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from powerportal.logs.service import duration_text
from tests.conftest import Harness
from tests.factories import (
    make_account,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
    make_status_log,
)

OFFLINE = "/api/CustomerOfflineLog"
STATUS = "/api/CustomerStatusLog"
T0 = datetime(2026, 11, 20, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai


def test_duration_text() -> None:
    assert duration_text(0) == "0秒"
    assert duration_text(45) == "45秒"
    assert duration_text(60) == "1分"
    assert duration_text(3600) == "1小时"
    assert duration_text(3900) == "1小时5分"
    assert duration_text(90061) == "1天1小时1分"
    assert duration_text(-5) == "0秒"


async def test_offline_log_list_and_single(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="园区")
    other = await make_project(harness, me.sysno, name="别处")
    gateway = await make_gateway(harness, project, sn="OFF-GW-01", name="一号网关")
    far_gateway = await make_gateway(harness, other, sn="OFF-GW-02")
    device = await make_device(harness, gateway, project, device_id="7", name="照明")
    closed = await make_offline_log(
        harness,
        project,
        gateway,
        target_name="一号网关",
        offline_time=T0,
        online_time=T0 + timedelta(hours=1, minutes=5),
        reason="last_will",
    )
    open_spell = await make_offline_log(
        harness, project, gateway, device, target_name="照明", offline_time=T0 + timedelta(hours=2)
    )
    elsewhere = await make_offline_log(harness, other, far_gateway, offline_time=T0 - timedelta(days=1))

    async def found(**filters: object) -> list[int]:
        body = await harness.post(f"{OFFLINE}/GetOfflineLogList", filters, token=me.token)
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]["dataSource"]]

    assert await found() == [open_spell, closed, elsewhere]
    assert await found(sort="asc") == [elsewhere, closed, open_spell]
    assert await found(project_sysno=project) == [open_spell, closed]
    assert await found(gateway_sysno=far_gateway) == [elsewhere]
    assert await found(kind="gateway") == [closed, elsewhere]
    assert await found(kind="device") == [open_spell]
    assert await found(keyword="照明") == [open_spell]
    assert await found(keyword="OFF-GW-02") == [elsewhere]
    assert await found(start_time="2026-11-20 09:00:00", end_time="2026-11-20 11:00:00") == [closed]
    assert await found(start_time="2026-11-20", end_time="2026-11-20") == [open_spell, closed]
    assert await found(end_time="2026-11-19") == [elsewhere]

    page = await harness.post(f"{OFFLINE}/GetOfflineLogList", {"pageSize": 1}, token=me.token)
    assert page["data"]["totalCount"] == 3
    row = (
        await harness.call("GET", f"{OFFLINE}/GetSingleOfflineLog", token=me.token, params={"sysno": closed})
    )["data"]
    assert row == {
        "sysno": closed,
        "kind": "gateway",
        "target_name": "一号网关",
        "project_sysno": project,
        "project_name": "园区",
        "gateway_sysno": gateway,
        "gateway_sn": "OFF-GW-01",
        "gateway_name": "一号网关",
        "device_sysno": None,
        "device_id": None,
        "reason": "last_will",
        "reason_name": "连接断开",
        "offline_time": "2026-11-20 10:00:00",
        "online_time": "2026-11-20 11:05:00",
        "recovered": 1,
        "duration_seconds": 3900,
        "duration": "1小时5分",
    }
    ongoing = await harness.call(
        "GET", f"{OFFLINE}/GetSingleOfflineLog", token=me.token, params={"sysno": open_spell}
    )
    assert ongoing["data"]["recovered"] == 0 and ongoing["data"]["online_time"] is None
    assert ongoing["data"]["device_id"] == "7" and ongoing["data"]["kind"] == "device"
    assert ongoing["data"]["duration_seconds"] > 3600

    bad_time = await harness.post(
        f"{OFFLINE}/GetOfflineLogList", {"start_time": "2026-13-40"}, token=me.token
    )
    assert bad_time["statusCode"] == 400 and "时间格式不正确" in bad_time["message"]
    bad_kind = await harness.post(f"{OFFLINE}/GetOfflineLogList", {"kind": "meter"}, token=me.token)
    assert bad_kind["statusCode"] == 400
    missing = await harness.call(
        "GET", f"{OFFLINE}/GetSingleOfflineLog", token=me.token, params={"sysno": 99999}
    )
    assert missing["statusCode"] == 404 and missing["message"] == "离线记录不存在或无权访问"


async def test_status_log_list(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="园区")
    other = await make_project(harness, me.sysno)
    gateway = await make_gateway(harness, project, sn="ST-GW-01")
    far_gateway = await make_gateway(harness, other, sn="ST-GW-02")
    device = await make_device(harness, gateway, project)
    offline = await make_status_log(
        harness,
        project,
        gateway,
        "offline",
        target_name="网关A",
        detail="网关离线（超时未上报）",
        create_time=T0,
    )
    switch = await make_status_log(
        harness,
        project,
        gateway,
        "switch_off",
        device_sysno=device,
        target_name="照明",
        detail="分闸",
        create_time=T0 + timedelta(hours=1),
    )
    far = await make_status_log(harness, other, far_gateway, "online", create_time=T0 - timedelta(days=2))

    async def found(**filters: object) -> list[int]:
        body = await harness.post(f"{STATUS}/GetStatusLogList", filters, token=me.token)
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]["dataSource"]]

    assert await found() == [switch, offline, far]
    assert await found(project_sysno=project) == [switch, offline]
    assert await found(gateway_sysno=far_gateway) == [far]
    assert await found(status_type="switch_off") == [switch]
    assert await found(keyword="超时") == [offline]
    assert await found(start_time="2026-11-20 10:30:00") == [switch]
    assert await found(orderBy="create_time", sort="asc") == [far, offline, switch]

    rows = (await harness.post(f"{STATUS}/GetStatusLogList", {}, token=me.token))["data"]["dataSource"]
    assert rows[0] == {
        "sysno": switch,
        "project_sysno": project,
        "project_name": "园区",
        "gateway_sysno": gateway,
        "gateway_sn": "ST-GW-01",
        "device_sysno": device,
        "target_name": "照明",
        "status_type": "switch_off",
        "status_type_name": "分闸",
        "detail": "分闸",
        "create_time": "2026-11-20 11:00:00",
    }
    types = await harness.call("GET", f"{STATUS}/GetStatusType", token=me.token)
    assert {t["value"] for t in types["data"]} == {"online", "offline", "switch_on", "switch_off"}
    bad = await harness.post(f"{STATUS}/GetStatusLogList", {"end_time": "yesterday"}, token=me.token)
    assert bad["statusCode"] == 400
