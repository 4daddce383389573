"""The availability report against the offline log: spells, time offline within the period, online rates."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.gateways.models import Gateway
from tests.conftest import Harness
from tests.factories import (
    make_account,
    make_building,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
)
from tests.reports.helpers import R, export, file_name, last_month, refusals, refused, table

OFFLINE = "/api/CustomerOfflineLog/GetOfflineLogList"
DAY = 86400


async def spells(h: Harness, token: str, **filters: Any) -> dict[str, Any]:
    """Every spell of the offline log with these filters (one page holds them)."""
    body = await h.post(OFFLINE, {"pageSize": 200, **filters}, token)
    assert body["statusCode"] == 200, body
    page: dict[str, Any] = body["data"]
    return page


async def test_availability_agrees_with_the_offline_log_clips_spells_to_the_period_and_keeps_customers_apart(
    harness: Harness,
) -> None:
    h = harness
    a = await make_account(h, "13900000051")
    b = await make_account(h, "13900000052")
    first, first_day, last_day = last_month()
    days = int(last_day[-2:])
    whole = days * DAY
    long_ago = first - timedelta(days=60)
    project = await make_project(h, a.sysno, name="一号园区")
    east = await make_building(h, project, "东楼")
    gw1 = await make_gateway(h, project, east, sn="RPO0001", name="东楼网关")
    gw2 = await make_gateway(h, project, None, sn="RPO0002", name="临时网关", online=True)
    async with h.ctx.sessions() as session:  # registered long before the month
        await session.execute(update(Gateway).values(create_time=long_ago))
        await session.commit()
    d1 = await make_device(h, gw1, project, device_id="1", name="101宿舍", online=1, create_time=long_ago)
    d2 = await make_device(h, gw1, project, device_id="2", name="102宿舍", online=1, create_time=long_ago)
    # registered ten days into the month: watched from then on
    d3 = await make_device(
        h, gw2, project, device_id="1", name="水泵", create_time=first + timedelta(days=10)
    )

    down = first + timedelta(days=2, hours=2)  # 10:00 local
    await make_offline_log(h, project, gw1, None, "东楼网关", down, down + timedelta(hours=2), "last_will")
    for device, name in ((d1, "101宿舍"), (d2, "102宿舍")):
        await make_offline_log(
            h, project, gw1, device, name, down, down + timedelta(hours=2), "gateway_offline"
        )
    # d1: off an hour before the month began until 03:00 on its first day (3 hours of it count, no spell)
    await make_offline_log(
        h, project, gw1, d1, "101宿舍", first - timedelta(hours=1), first + timedelta(hours=3)
    )
    # d2: off at 23:00 on the last day until 01:00 the next month (1 hour counts)
    end = first.astimezone(CUSTOMER_TZ) + timedelta(days=days)
    await make_offline_log(h, project, gw1, d2, "102宿舍", end - timedelta(hours=1), end + timedelta(hours=1))
    # d3: off since day 21, still
    await make_offline_log(h, project, gw2, d3, "水泵", first + timedelta(days=20), None)
    # a spell of next month and one of another customer: not counted
    await make_offline_log(
        h, project, gw1, None, "东楼网关", end + timedelta(days=1), end + timedelta(days=1, hours=1)
    )
    other_project = await make_project(h, b.sysno, name="二号园区")
    other_gateway = await make_gateway(h, other_project, sn="RPO0003", name="乙方网关")
    await make_offline_log(h, other_project, other_gateway, None, "乙方网关", down, down + timedelta(hours=5))

    body = {"project_sysno": project, "view": "month", "date": first_day}
    answer = await h.post(f"{R}/GetAvailabilityReport", body, a.token)
    assert answer["statusCode"] == 200, answer
    report = answer["data"]

    # counts: the offline log's totals over the same days
    window = {"project_sysno": project, "start_time": first_day, "end_time": last_day}
    log = await spells(h, a.token, **window)
    assert report["gateway_offline_count"] + report["device_offline_count"] == log["totalCount"] == 5
    assert (
        report["gateway_offline_count"] == (await spells(h, a.token, **window, kind="gateway"))["totalCount"]
    )
    assert report["device_offline_count"] == (await spells(h, a.token, **window, kind="device"))["totalCount"]
    by_device: dict[int | None, int] = {}
    for spell in log["dataSource"]:
        by_device[spell["device_sysno"]] = by_device.get(spell["device_sysno"], 0) + 1
    gateways = {r["gateway_sysno"]: r for r in report["gateways"]}
    devices = {r["device_sysno"]: r for r in report["devices"]}
    assert (
        {d: r["offline_count"] for d, r in devices.items()}
        == {d1: 1, d2: 2, d3: 1}
        == {d: by_device.get(d, 0) for d in (d1, d2, d3)}
    )
    assert gateways[gw1]["offline_count"] == by_device[None] == 1 and gateways[gw2]["offline_count"] == 0

    # time offline: a spell inside the month is the log's duration; spells over an edge are clipped
    within = next(s for s in log["dataSource"] if s["kind"] == "gateway")
    assert gateways[gw1]["offline_seconds"] == within["duration_seconds"] == 7200
    assert devices[d1]["offline_seconds"] == 7200 + 3 * 3600 and devices[d1]["longest_seconds"] == 3 * 3600
    assert devices[d2]["offline_seconds"] == 7200 + 3600
    assert devices[d3]["observed_seconds"] == whole - 10 * DAY
    assert devices[d3]["offline_seconds"] == whole - 20 * DAY  # open: until the month's end
    # online rates: the share of the watched time not offline
    assert gateways[gw1]["online_rate"] == pytest.approx(round((whole - 7200) / whole * 100, 2))
    assert gateways[gw2]["online_rate"] == 100
    assert devices[d3]["online_rate"] == pytest.approx(round(10 / (days - 10) * 100, 2))
    assert report["gateway_rate"] == pytest.approx(round((2 * whole - 7200) / (2 * whole) * 100, 2))
    watched = 2 * whole + whole - 10 * DAY
    offline = 7200 + 10800 + 7200 + 3600 + whole - 20 * DAY
    assert report["device_rate"] == pytest.approx(round((watched - offline) / watched * 100, 2))
    assert report["gateway_offline_seconds"] == 7200 and report["device_offline_seconds"] == offline
    assert (report["gateway_count"], report["device_count"]) == (2, 3)
    assert (report["gateways_offline_now"], report["devices_offline_now"]) == (1, 1)
    assert devices[d1]["building_name"] == "东楼" and devices[d3]["building_name"] is None
    assert devices[d2]["last_offline_time"] == (end - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S")

    # the chart: spells that began each day
    assert len(report["points"]) == days
    assert (
        sum(p["gateway"] for p in report["points"]) == 1 and sum(p["device"] for p in report["points"]) == 4
    )
    day = report["points"][2]
    assert (day["gateway"], day["device"]) == (1, 2)

    # one building: its gateway and devices only
    east_only = (await h.post(f"{R}/GetAvailabilityReport", {**body, "building_sysno": east}, a.token))[
        "data"
    ]
    assert [r["gateway_sysno"] for r in east_only["gateways"]] == [gw1]
    assert {r["device_sysno"] for r in east_only["devices"]} == {d1, d2}
    # the day of the gateway's spell, by the hour
    local = down.astimezone(CUSTOMER_TZ)
    by_hour = (
        await h.post(
            f"{R}/GetAvailabilityReport", {**body, "view": "day", "date": local.date().isoformat()}, a.token
        )
    )["data"]
    assert by_hour["points"][local.hour]["gateway"] == 1
    assert {r["device_sysno"]: r["offline_seconds"] for r in by_hour["devices"]} == {
        d1: 7200,
        d2: 7200,
        d3: 0,
    }

    # the export: gateways on 汇总, devices on a sheet, and every spell within the month in 离线明细
    response, book = await export(h, "ExportAvailabilityReport", body, a.token)
    assert response.status_code == 200 and book is not None, response.text
    assert file_name(response) == f"在线率报表_一号园区_{first_day}至{last_day}.xlsx"
    assert book.sheetnames == ["汇总", "设备在线率", "离线明细"]
    header, listed = table(book["汇总"], "名称")
    assert "地址" not in header  # a gateway has none
    assert header[header.index("在线率(%)")] and [r[0] for r in listed] == [
        r["name"] for r in report["gateways"]
    ]
    header, listed = table(book["设备在线率"], "名称")
    assert len(listed) == 3
    d3_row = next(r for r in listed if r[0] == "水泵")
    assert d3_row[header.index("离线时长")] == f"{days - 20}天" and d3_row[header.index("当前状态")] == "离线"
    header, details = table(book["离线明细"], "类型")
    assert len(details) == 6  # the five that began in the month and d1's from before it
    assert details[0][header.index("本期离线时长")] == "3小时"  # the earliest first
    assert [r[header.index("名称")] for r in details if r[header.index("恢复时间")] == "未恢复"] == ["水泵"]

    # another customer
    own = {"project_sysno": other_project, "view": "month", "date": first_day}
    await refused(
        h,
        "GetAvailabilityReport",
        "ExportAvailabilityReport",
        [body, {**own, "building_sysno": east}],
        b.token,
    )
    theirs = (await h.post(f"{R}/GetAvailabilityReport", own, b.token))["data"]
    assert [r["name"] for r in theirs["gateways"]] == ["乙方网关"] and theirs["devices"] == []
    assert theirs["gateway_offline_count"] == 1

    await refusals(h, "GetAvailabilityReport", body, a.token)


async def test_a_running_period_counts_until_now_and_a_target_from_its_registration(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000053")
    project = await make_project(h, a.sysno, name="本月项目")
    gateway = await make_gateway(h, project, None, sn="RPO0009", name="网关")
    before = {"project_sysno": project, "view": "day", "date": "2026-01-01"}
    earlier = (await h.post(f"{R}/GetAvailabilityReport", before, a.token))["data"]
    # registered after that day: not watched, no rate
    assert earlier["gateways"][0]["observed_seconds"] == 0 and earlier["gateways"][0]["online_rate"] is None
    assert earlier["gateway_rate"] is None

    now = utcnow()
    local = now.astimezone(CUSTOMER_TZ)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    async with h.ctx.sessions() as session:
        await session.execute(update(Gateway).values(create_time=now - timedelta(days=3)))
        await session.commit()
    started = max(now - timedelta(minutes=30), midnight.astimezone(UTC))
    await make_offline_log(h, project, gateway, None, "网关", started, None)
    body = {"project_sysno": project, "view": "day", "date": local.date().isoformat()}
    report = (await h.post(f"{R}/GetAvailabilityReport", body, a.token))["data"]
    assert report["partial"]
    row = report["gateways"][0]
    assert row["observed_seconds"] == pytest.approx((now - midnight).total_seconds(), abs=5)
    listed = (await spells(h, a.token, project_sysno=project))["dataSource"][0]
    assert row["offline_seconds"] == pytest.approx(listed["duration_seconds"], abs=5)
    assert row["offline_seconds"] == pytest.approx((now - started).total_seconds(), abs=5)
