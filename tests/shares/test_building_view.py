"""A share limited to buildings: the sharee sees and switches those buildings, and nothing else.

The project has an east and a west building and a gateway in no building. A control sharee limited
to the east building must find only the east gateway, its device, alarms, logs, energy, reports,
notices and large-screen figures, in every list, tree, count and total; the west building answers
"not found". The limit follows lifecycle events: a gateway moved into the east building comes into
view, and deleting the east building ends the share instead of widening it to the whole project.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from powerportal.alarms import notices
from powerportal.alarms.models import CustomerNotice
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.energy.models import DAY, DEVICE, EnergyRollup
from powerportal.energy.observer import EnergyObserver
from tests.conftest import Harness
from tests.energy.test_energy_api import feed
from tests.factories import (
    Account,
    make_account,
    make_alarm,
    make_building,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
)

SHARE = "/api/CustomerShare"


async def _notices(h: Harness, who: Account) -> list[str]:
    async with h.ctx.sessions() as session:
        found = await session.scalars(
            select(CustomerNotice.notice_detail)
            .where(CustomerNotice.customer_sysno == who.sysno, CustomerNotice.notice_type == notices.ALARM)
            .order_by(CustomerNotice.sysno)
        )
        return list(found)


def _sysnos(body: dict[str, Any], key: str = "sysno") -> set[int]:
    assert body["statusCode"] == 200, body
    data = body["data"]
    rows = data["dataSource"] if isinstance(data, dict) else data
    return {row[key] for row in rows}


def _keys(nodes: list[dict[str, Any]]) -> set[str]:
    found: set[str] = set()
    for node in nodes:
        found.add(node["key"])
        found |= _keys(node.get("list_child") or [])
    return found


async def test_a_share_limited_to_a_building_shows_that_building_alone(harness: Harness) -> None:
    h = harness
    owner = await make_account(h, "13900000001")
    guest = await make_account(h, "13900000002")
    project = await make_project(h, owner.sysno, name="两栋项目")
    east, west = await make_building(h, project, "东楼"), await make_building(h, project, "西楼")
    east_gw = await make_gateway(h, project, east, online=True)
    west_gw = await make_gateway(h, project, west, online=True)
    loose_gw = await make_gateway(h, project, None, online=True)
    east_dev = await make_device(h, east_gw, project, online=1, rated_current=63)
    west_dev = await make_device(h, west_gw, project, online=1, rated_current=63)
    loose_dev = await make_device(h, loose_gw, project, online=1)
    east_alarm = await make_alarm(h, project, east_gw, east_dev, "东楼过流")
    west_alarm = await make_alarm(h, project, west_gw, west_dev, "西楼过流")
    await make_offline_log(h, project, east_gw, target_name="东楼网关")
    await make_offline_log(h, project, west_gw, target_name="西楼网关")
    # Energy: the east device rises 0.2 kWh a minute, the west one 0.1 kWh a minute.
    now = utcnow().replace(microsecond=0)
    start = max(now - timedelta(hours=1), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, east_dev, [(start + timedelta(minutes=i), 10 + 0.2 * i) for i in range(steps)])
    await feed(h, observer, west_dev, [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(steps)])
    east_kwh = 0.2 * (steps - 1)

    invited = await h.post(
        f"{SHARE}/AddShare",
        {"project_sysno": project, "mobile": guest.mobile, "permission": 2, "building_sysnos": [east]},
        token=owner.token,
    )
    assert invited["statusCode"] == 200, invited
    share = invited["data"]["sysno"]
    assert (await h.post(f"{SHARE}/AcceptShare", {"sysno": share}, token=guest.token))["statusCode"] == 200

    # Lists and single reads: the east building's rows only.
    assert _sysnos(await h.post("/api/CustomerGateway/GetGatewayList", {}, guest.token)) == {east_gw}
    assert _sysnos(await h.post("/api/CustomerDevice/GetDeviceList", {}, guest.token)) == {east_dev}
    assert _sysnos(await h.post("/api/CustomerAlarm/GetAlarmList", {}, guest.token)) == {east_alarm}
    offline = await h.post("/api/CustomerOfflineLog/GetOfflineLogList", {}, guest.token)
    assert {row["target_name"] for row in offline["data"]["dataSource"]} == {"东楼网关"}
    for path, sysno in [
        ("/api/CustomerDevice/GetSingleDevice", west_dev),
        ("/api/CustomerDevice/GetSingleDevice", loose_dev),
        ("/api/CustomerGateway/GetSingleGateway", west_gw),
        ("/api/CustomerAlarm/GetSingleAlarm", west_alarm),
    ]:
        refused = await h.call("GET", path, token=guest.token, params={"sysno": sysno})
        assert refused["statusCode"] == 404, (path, refused)
    processed = await h.post("/api/CustomerAlarm/ProcessAlarm", {"sysno": [west_alarm]}, guest.token)
    assert processed["statusCode"] == 404, processed
    # The owner still sees all three gateways.
    assert len(_sysnos(await h.post("/api/CustomerGateway/GetGatewayList", {}, owner.token))) == 3

    # The project's row, tree and counts: the east building alone.
    row = (await h.post("/api/CustomerProject/GetProjectList", {}, guest.token))["data"]["dataSource"][0]
    assert [b["name"] for b in row["list_child"]] == ["东楼"]
    assert (row["building_count"], row["gateway_count"], row["device_count"]) == (1, 1, 1)
    tree = (await h.post("/api/CustomerProject/GetProjectAndBuildingGatewayList", {}, guest.token))["data"]
    assert _keys(tree) == {f"project-{project}", f"building-{east}", f"gateway-{east_gw}"}

    # Energy: the project's figures are the east building's; the west one is not found.
    today = now.astimezone(CUSTOMER_TZ).date().isoformat()
    scope = {"project_sysno": project, "view": "day", "date": today}
    chart = await h.post("/api/CustomerEnergy/GetEnergyChart", scope, guest.token)
    assert chart["data"]["total_kwh"] == pytest.approx(east_kwh, abs=0.002)
    table = await h.post("/api/CustomerEnergy/GetEnergyTable", scope, guest.token)
    assert {r["device_sysno"] for r in table["data"]["rows"]} == {east_dev}
    ranking = await h.post("/api/CustomerEnergy/GetEnergyRanking", {**scope, "by": "building"}, guest.token)
    assert [r["sysno"] for r in ranking["data"]] == [east]
    for body in ({**scope, "building_sysno": west}, {**scope, "device_sysnos": [west_dev]}):
        assert (await h.post("/api/CustomerEnergy/GetEnergyChart", body, guest.token))["statusCode"] == 404
    quarters = {"device_sysno": west_dev, "date": today}
    assert (await h.post("/api/CustomerEnergy/GetDeviceQuarters", quarters, guest.token))["statusCode"] == 404
    owners = await h.post("/api/CustomerEnergy/GetEnergyChart", scope, owner.token)
    assert owners["data"]["total_kwh"] == pytest.approx(east_kwh + 0.1 * (steps - 1), abs=0.002)

    # Reports and the large screen count the east building alone.
    report = await h.post("/api/CustomerReport/GetAlarmReport", scope, guest.token)
    assert report["data"]["total"] == 1, report
    west_report = await h.post(
        "/api/CustomerReport/GetAlarmReport", {**scope, "building_sysno": west}, guest.token
    )
    assert west_report["statusCode"] == 404
    screen = (await h.post("/api/CustomerDashboard/GetDashboardData", {}, guest.token))["data"]
    assert (screen["counts"]["gateway_count"], screen["counts"]["device_count"]) == (1, 1)
    assert screen["alarms"]["open_count"] == 1
    assert screen["energy"]["today"]["total_kwh"] == pytest.approx(east_kwh, abs=0.002)
    assert [t["device_sysno"] for t in screen["top_consumers"]] == [east_dev]

    # Notices: of the east building's gateway only.
    async with h.ctx.sessions() as session:
        told = [
            notices.NewNotice(project, notices.ALARM, "1", f"{where}告警", 0, gateway_sysno=gateway)
            for where, gateway in (("东楼", east_gw), ("西楼", west_gw), ("无楼栋", loose_gw))
        ]
        await notices.send(session=session, notices=told)
        await session.commit()
    assert await _notices(h, guest) == ["东楼告警"]
    assert await _notices(h, owner) == ["东楼告警", "西楼告警", "无楼栋告警"]

    # A gateway moved into the east building comes into view with its device.
    moved = await h.put(
        "/api/CustomerGateway/UpdateGateway",
        {"sysno": loose_gw, "name": "移入东楼", "building_sysno": east},
        owner.token,
    )
    assert moved["statusCode"] == 200, moved
    assert _sysnos(await h.post("/api/CustomerDevice/GetDeviceList", {}, guest.token)) == {
        east_dev,
        loose_dev,
    }

    # Deleting the east building (its gateways moved out) ends the share: the sharee is left with
    # nothing, not with the whole project.
    for gateway in (east_gw, loose_gw):
        out = await h.put(
            "/api/CustomerGateway/UpdateGateway",
            {"sysno": gateway, "name": f"网关{gateway}", "building_sysno": west},
            owner.token,
        )
        assert out["statusCode"] == 200, out
    deleted = await h.call(
        "DELETE", "/api/CustomerProject/DeleteBuilding", token=owner.token, params={"sysno": east}
    )
    assert deleted["statusCode"] == 200, deleted
    assert _sysnos(await h.post("/api/CustomerDevice/GetDeviceList", {}, guest.token)) == set()
    assert (await h.post("/api/CustomerProject/GetProjectList", {}, guest.token))["data"]["totalCount"] == 0
    shares = await h.post("/api/CustomerProject/ShareProjectList", {}, owner.token)
    assert shares["data"]["dataSource"][0]["state"] == "ended"


async def test_a_gateway_moved_into_a_shared_building_of_another_project_brings_none_of_its_past(
    harness: Harness,
) -> None:
    """A gateway moved from an unshared building into a shared building of another project.

    Shares of two projects, each limited to a building: the gateway shows its new rows in the second
    project, never those of its time in the first.
    """
    h = harness
    owner = await make_account(h, "13900000001")
    guest = await make_account(h, "13900000002")
    first = await make_project(h, owner.sysno, name="一号项目")
    seen, unseen = await make_building(h, first, "共享楼"), await make_building(h, first, "未共享楼")
    second = await make_project(h, owner.sysno, name="二号项目")
    there = await make_building(h, second, "二号共享楼")
    seen_gw = await make_gateway(h, first, seen, online=True)
    moving_gw = await make_gateway(h, first, unseen, online=True)
    seen_dev = await make_device(h, seen_gw, first, online=1)
    moving_dev = await make_device(h, moving_gw, first, online=1)
    seen_alarm = await make_alarm(h, first, seen_gw, seen_dev, "共享楼过流")
    past_alarm = await make_alarm(h, first, moving_gw, moving_dev, "未共享楼过流")
    local = utcnow().astimezone(CUSTOMER_TZ)
    today = datetime(local.year, local.month, local.day, tzinfo=CUSTOMER_TZ).astimezone(UTC)
    async with h.ctx.sessions() as session:  # what the moving device used today, in the first project
        session.add(
            EnergyRollup(
                scope=DEVICE, owner_sysno=moving_dev, grain=DAY, start=today, project_sysno=first, kwh_0=5.0
            )
        )
        await session.commit()
    for project, buildings in ((first, [seen]), (second, [there])):
        body = {"project_sysno": project, "mobile": guest.mobile, "building_sysnos": buildings}
        share = (await h.post(f"{SHARE}/AddShare", body, token=owner.token))["data"]["sysno"]
        assert (await h.post(f"{SHARE}/AcceptShare", {"sysno": share}, token=guest.token))[
            "statusCode"
        ] == 200
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway",
        {"sysno": moving_gw, "project_sysno": second, "building_sysno": there},
        owner.token,
    )
    assert moved["statusCode"] == 200, moved
    # The gateway and its device are in view now, in the second project; what they did before is not.
    assert _sysnos(await h.post("/api/CustomerGateway/GetGatewayList", {}, guest.token)) == {
        seen_gw,
        moving_gw,
    }
    new_alarm = await make_alarm(h, second, moving_gw, moving_dev, "二号共享楼过流")
    assert _sysnos(await h.post("/api/CustomerAlarm/GetAlarmList", {}, guest.token)) == {
        seen_alarm,
        new_alarm,
    }
    old = await h.call(
        "GET", "/api/CustomerAlarm/GetSingleAlarm", token=guest.token, params={"sysno": past_alarm}
    )
    assert old["statusCode"] == 404, old
    screen = (await h.post("/api/CustomerDashboard/GetDashboardData", {}, guest.token))["data"]
    assert (screen["energy"]["today"]["total_kwh"], screen["top_consumers"]) == (0, [])
    assert _sysnos(await h.post("/api/CustomerAlarm/GetAlarmList", {}, owner.token)) == {
        seen_alarm,
        past_alarm,
        new_alarm,
    }
