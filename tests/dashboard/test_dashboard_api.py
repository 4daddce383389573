"""The large screen's data as a customer, another customer and a kiosk link see it."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm
from powerportal.core.security import token_digest
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.dashboard.models import KioskLink
from powerportal.dashboard.schemas import DashboardData
from powerportal.devices.models import Device
from powerportal.energy import counting
from powerportal.energy.observer import EnergyObserver
from powerportal.load_ident.models import LoadEvent
from powerportal.logs.models import OperationLog
from powerportal.telemetry import service
from powerportal.telemetry.ingest import BatchReport
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

D = "/api/CustomerDashboard"
K = "/api/Kiosk"
E = "/api/CustomerEnergy"
ALL_FLAT = "2" * 48


async def feed(h: Harness, observer: EnergyObserver, device: int, values: list[tuple[Any, float]]) -> None:
    """Counter readings through the energy observer, folded as the ingest's drain folds them."""
    rows = [
        service.reading_row(device_sysno=device, ts=ts, values={"energy": v}, extra={}) for ts, v in values
    ]
    async with h.ctx.sessions() as session:
        await observer.prepare(session, rows)
        await service.insert_readings(session=session, rows=rows)
        report = BatchReport(readings=rows, events=[], transitions=[])
        await observer.observe(session, report)
        await session.commit()
    await observer.committed(report)
    await observer.settle()


async def add_alarm(h: Harness, project: int, gateway: int, device: int, level: int, **fields: Any) -> None:
    async with h.ctx.sessions() as session:
        session.add(
            Alarm(
                project_sysno=project,
                gateway_sysno=gateway,
                device_sysno=device,
                device_id="D1",
                target_name="断路器",
                alarm_type="over_current",
                level=level,
                source="device",
                detail="过流",
                **fields,
            )
        )
        await session.commit()


async def test_the_screen_counts_what_the_other_screens_count(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000021")
    b = await make_account(h, "13900000022")
    plan = {
        "name": "平价",
        "is_default": True,
        "version": {
            "effective_date": "2024-01-01",
            "prices": {"flat": 0.5},
            "seasons": [{"name": "全年", "months": list(range(1, 13)), "slots": ALL_FLAT}],
        },
    }
    assert (await h.post(f"{E}/AddTariffPlan", plan, a.token))["statusCode"] == 200
    north = await make_project(h, a.sysno, "北区", longitude=116.4, latitude=39.9)
    south = await make_project(h, a.sysno, "南区", longitude=113.3, latitude=23.1)
    empty = await make_project(h, a.sysno, "空项目")
    building = await make_building(h, north)
    g_north = await make_gateway(h, north, building, online=True)
    g_south = await make_gateway(h, south, online=False)
    main = await make_device(h, g_north, north, rated_current=63, online=1)
    branch = await make_device(h, g_north, north, rated_current=63, online=1)
    heater = await make_device(h, g_south, south, rated_current=63, online=0)

    now = utcnow().replace(microsecond=0)
    start = max(now - timedelta(hours=2), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    observer = EnergyObserver(h.ctx.sessions)
    for device, rate in ((main, 0.2), (branch, 0.15), (heater, 0.3)):
        await feed(
            h, observer, device, [(start + timedelta(minutes=i), 100 + rate * i) for i in range(steps)]
        )
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, a.token)
    assert marked["statusCode"] == 200

    await add_alarm(h, north, g_north, branch, 3, start_time=now - timedelta(minutes=5))
    await add_alarm(h, north, g_north, branch, 2, start_time=now - timedelta(minutes=4), end_time=now)
    await add_alarm(h, south, g_south, heater, 1, start_time=now - timedelta(days=3))  # open, not today
    await add_alarm(
        h, south, g_south, heater, 2, start_time=now - timedelta(days=3), end_time=now - timedelta(days=2)
    )

    answer = await h.post(f"{D}/GetDashboardData", {}, a.token)
    assert answer["statusCode"] == 200, answer
    data = DashboardData.model_validate(answer["data"]).model_dump()
    assert data["counts"] == {
        "project_count": 3,
        "gateway_count": 2,
        "gateway_online_count": 1,
        "device_count": 3,
        "device_online_count": 2,
    }
    states = {p["sysno"]: p["state"] for p in data["projects"]}
    assert states == {north: "alarm", south: "alarm", empty: "empty"}
    assert {p["sysno"]: p["open_alarm_count"] for p in data["projects"]} == {north: 1, south: 1, empty: 0}

    alarms = data["alarms"]
    assert alarms["today_count"] == 2 and alarms["open_count"] == 2
    assert {r["level"]: r["count"] for r in alarms["today_by_level"]} == {1: 0, 2: 1, 3: 1}
    assert {r["level"]: r["count"] for r in alarms["open_by_level"]} == {1: 1, 2: 0, 3: 1}
    assert [r["label"] for r in alarms["open_by_level"]] == ["提示", "重要", "紧急"]
    latest = data["latest_alarms"]
    assert len(latest) == 4 and latest[0]["level"] == 2 and latest[0]["open"] is False
    assert latest[1]["open"] is True and latest[1]["type_label"] == "过流"

    # energy: the sum of what 能耗统计 shows for each project, the 总进线 left out, per tariff period
    today = now.astimezone(CUSTOMER_TZ).date().isoformat()
    for span, view in (("today", "day"), ("month", "month"), ("year", "year")):
        charts = [
            (await h.post(f"{E}/GetEnergyChart", {"project_sysno": p, "view": view, "date": today}, a.token))[
                "data"
            ]
            for p in (north, south, empty)
        ]
        figure = data["energy"][span]
        assert figure["total_kwh"] == pytest.approx(sum(c["total_kwh"] for c in charts), abs=0.002), span
        assert figure["total_cost"] == pytest.approx(sum(c["total_cost"] for c in charts), abs=0.011), span
        for i in range(5):
            assert figure["kwh"][i] == pytest.approx(sum(c["total"]["kwh"][i] for c in charts), abs=0.002)
    expected = (0.15 + 0.3) * (steps - 1)
    assert data["energy"]["today"]["total_kwh"] == pytest.approx(expected, abs=0.002)
    assert data["energy"]["today"]["kwh"][2] == pytest.approx(expected, abs=0.002)  # all 平
    assert data["energy"]["periods"] == ["尖", "峰", "平", "谷", "深谷"]

    # top consumers: today's devices by use, the 总进线 not among them
    assert [r["device_sysno"] for r in data["top_consumers"]] == [heater, branch]
    assert data["top_consumers"][0]["project_name"] == "南区"
    assert data["top_consumers"][0]["kwh"] == pytest.approx(0.3 * (steps - 1), abs=0.002)

    # power: the last 24 h's 96 finished quarter-hours, their energy what the branches used in them
    power = data["power"]
    assert len(power) == 96
    assert [p["start"] for p in power] == sorted(p["start"] for p in power)
    quarter_hours = 0.25
    used = sum(p["kw"] * quarter_hours for p in power)
    running = counting.quarter_of(now)  # the readings' minutes before it are in finished quarters
    minutes = min(steps - 1, max((running - start).total_seconds() / 60, 0))
    assert used == pytest.approx((0.15 + 0.3) * minutes, abs=0.46)
    assert max(p["kw"] for p in power) > 0
    assert all(p["kw"] >= 0 for p in power)

    assert data["load_ident"] == {"available": False, "violations_today": 0}

    # another customer sees none of it
    other = (await h.post(f"{D}/GetDashboardData", {}, b.token))["data"]
    assert other["counts"]["project_count"] == 0 and other["projects"] == []
    assert other["latest_alarms"] == [] and other["top_consumers"] == []
    assert other["energy"]["year"]["total_kwh"] == 0 and other["alarms"]["open_count"] == 0
    # without a login: 401
    assert (await h.post(f"{D}/GetDashboardData", {}))["statusCode"] == 401


async def test_title_and_theme_come_from_the_profile(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000023")
    screen = (await h.post(f"{D}/GetDashboardData", {}, a.token))["data"]["screen"]
    assert screen["theme"] == "brand" and screen["title"].endswith("数据大屏") and screen["map"] is True
    async with h.ctx.sessions() as session:
        await session.execute(
            update(Customer)
            .where(Customer.sysno == a.sysno)
            .values(screen_title="园区能源中心", serial_no="3")
        )
        await session.commit()
    a = await make_account_login(h, a.mobile)
    screen = (await h.post(f"{D}/GetDashboardData", {}, a)).get("data", {})["screen"]
    assert screen["title"] == "园区能源中心" and screen["theme"] == "3"
    updated = await h.put("/api/CustomerCenter/UpdateCustomer", {"name": "甲", "serial_no": "no-such"}, a)
    assert updated["statusCode"] == 200
    a = await make_account_login(h, "13900000023")
    assert (await h.post(f"{D}/GetDashboardData", {}, a))["data"]["screen"]["theme"] == "brand"


async def make_account_login(h: Harness, mobile: str) -> str:
    """A fresh login (the profile a token holds is read when it is made)."""
    from tests.conftest import login

    return await login(h, mobile=mobile)


async def test_kiosk_links_show_one_customer_read_only_until_revoked_or_expired(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000024")
    b = await make_account(h, "13900000025")
    project = await make_project(h, a.sysno, "展厅")
    gateway = await make_gateway(h, project, online=True)
    await make_device(h, gateway, project, online=1)
    await make_project(h, b.sysno, "别家")

    assert (await h.post(f"{D}/AddKioskLink", {"name": "大厅", "days": 7}, None))["statusCode"] == 401
    bad = await h.post(f"{D}/AddKioskLink", {"name": "", "days": 0}, a.token)
    assert bad["statusCode"] == 400 and bad["data"] is None
    created = await h.post(f"{D}/AddKioskLink", {"name": "大厅", "days": 7}, a.token)
    assert created["statusCode"] == 200, created
    link = created["data"]
    token = link["token"]
    assert link["state"] == "active" and len(token) >= 32

    # the token is kept only as its digest
    async with h.ctx.sessions() as session:
        stored = (await session.scalars(select(KioskLink))).all()
    assert [s.token_hash for s in stored] == [token_digest(token)]
    assert all(token not in (s.token_hash, s.name) for s in stored)

    shown = await h.post(f"{K}/GetDashboardData", {"token": token})
    assert shown["statusCode"] == 200, shown
    own = (await h.post(f"{D}/GetDashboardData", {}, a.token))["data"]
    assert (
        shown["data"]["counts"]
        == own["counts"]
        == {
            "project_count": 1,
            "gateway_count": 1,
            "gateway_online_count": 1,
            "device_count": 1,
            "device_online_count": 1,
        }
    )
    assert [p["name"] for p in shown["data"]["projects"]] == ["展厅"]

    # a wrong or altered token shows nothing, and is no login anywhere else
    for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x", "a" * 128):
        refused = await h.post(f"{K}/GetDashboardData", {"token": wrong})
        assert refused["statusCode"] == 403 and refused["data"] is None
    assert (await h.post(f"{D}/GetDashboardData", {}, token))["statusCode"] == 401
    assert (await h.post(f"{D}/GetKioskLinkList", {}, token))["statusCode"] == 401

    listed = await h.post(f"{D}/GetKioskLinkList", {}, a.token)
    assert listed["data"]["totalCount"] == 1
    row = listed["data"]["dataSource"][0]
    assert row["name"] == "大厅" and row["state"] == "active" and "token" not in row
    assert row["last_used_time"] is not None
    assert (await h.post(f"{D}/GetKioskLinkList", {}, b.token))["data"]["totalCount"] == 0

    # another customer cannot revoke it; the owner can, at once
    foreign = await h.post(f"{D}/RevokeKioskLink", {"sysno": link["sysno"]}, b.token)
    assert foreign["statusCode"] == 404
    assert (await h.post(f"{K}/GetDashboardData", {"token": token}))["statusCode"] == 200
    revoked = await h.post(f"{D}/RevokeKioskLink", {"sysno": link["sysno"]}, a.token)
    assert revoked["statusCode"] == 200
    assert (await h.post(f"{K}/GetDashboardData", {"token": token}))["statusCode"] == 403
    row = (await h.post(f"{D}/GetKioskLinkList", {}, a.token))["data"]["dataSource"][0]
    assert row["state"] == "revoked" and row["revoke_time"] is not None
    # Both are in the owner's operation log (a revoked link revoked again adds nothing).
    assert (await h.post(f"{D}/RevokeKioskLink", {"sysno": link["sysno"]}, a.token))["statusCode"] == 200
    async with h.ctx.sessions() as session:
        logged = list(
            await session.scalars(
                select(OperationLog.detail)
                .where(OperationLog.customer_sysno == a.sysno, OperationLog.operate_type == 50)
                .order_by(OperationLog.sysno)
            )
        )
    assert logged == ["生成大屏展示链接：大厅，有效 7 天", "撤销大屏展示链接：大厅"]

    # an expired link shows nothing either
    second = (await h.post(f"{D}/AddKioskLink", {"name": "门厅"}, a.token))["data"]
    assert (await h.post(f"{K}/GetDashboardData", {"token": second["token"]}))["statusCode"] == 200
    async with h.ctx.sessions() as session:
        await session.execute(
            update(KioskLink)
            .where(KioskLink.sysno == second["sysno"])
            .values(expire_time=utcnow() - timedelta(seconds=1))
        )
        await session.commit()
    assert (await h.post(f"{K}/GetDashboardData", {"token": second["token"]}))["statusCode"] == 403
    states = {
        r["name"]: r["state"]
        for r in (await h.post(f"{D}/GetKioskLinkList", {}, a.token))["data"]["dataSource"]
    }
    assert states == {"大厅": "revoked", "门厅": "expired"}


async def test_a_kiosk_screen_follows_the_devices_live(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000026")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, online=True)
    device = await make_device(h, gateway, project, online=1)
    token = (await h.post(f"{D}/AddKioskLink", {"name": "墙屏"}, a.token))["data"]["token"]
    first = (await h.post(f"{K}/GetDashboardData", {"token": token}))["data"]
    assert first["counts"]["device_online_count"] == 1 and first["projects"][0]["state"] == "normal"
    async with h.ctx.sessions() as session:
        await session.execute(update(Device).where(Device.sysno == device).values(online=0))
        await session.commit()
    later = (await h.post(f"{K}/GetDashboardData", {"token": token}))["data"]
    assert later["counts"]["device_online_count"] == 0 and later["projects"][0]["state"] == "offline"


async def test_load_identification_violations_today(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000027")
    b = await make_account(h, "13900000028")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, online=True)
    device = await make_device(h, gateway, project, online=1)
    other = await make_project(h, b.sysno)
    other_gateway = await make_gateway(h, other, online=True)
    other_device = await make_device(h, other_gateway, other, online=1)
    before = (await h.post(f"{D}/GetDashboardData", {}, a.token))["data"]["load_ident"]
    assert before == {"available": False, "violations_today": 0}

    now = utcnow().replace(microsecond=0)
    midnight = now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0).astimezone(UTC)
    events = [
        (project, gateway, device, now, "appliance_on", 1),  # counts
        (project, gateway, device, max(midnight, now - timedelta(seconds=30)), "appliance_on", 1),  # counts
        (project, gateway, device, now - timedelta(seconds=10), "appliance_on", 0),  # allowed
        (project, gateway, device, now - timedelta(seconds=20), "appliance_off", 1),  # a switch-off
        (project, gateway, device, midnight - timedelta(minutes=1), "appliance_on", 1),  # yesterday
        (other, other_gateway, other_device, now, "appliance_on", 1),  # another customer's
    ]
    async with h.ctx.sessions() as session:
        for project_sysno, gateway_sysno, device_sysno, at, code, forbidden in events:
            session.add(
                LoadEvent(
                    project_sysno=project_sysno,
                    gateway_sysno=gateway_sysno,
                    device_sysno=device_sysno,
                    device_id="D1",
                    target_name="宿舍",
                    event_time=at,
                    code=code,
                    delta_power=1800.0,
                    power=1800.0,
                    appliance="kettle",
                    confidence=0.9,
                    forbidden=forbidden,
                    action="record",
                    detail={},
                )
            )
        await session.commit()
    after = (await h.post(f"{D}/GetDashboardData", {}, a.token))["data"]["load_ident"]
    assert after == {"available": True, "violations_today": 2}
    assert (await h.post(f"{D}/GetDashboardData", {}, b.token))["data"]["load_ident"]["violations_today"] == 1
