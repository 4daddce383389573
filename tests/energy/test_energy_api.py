"""The energy calls as a customer and as another customer would use them: figures, rules, isolation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.devices.models import Device
from powerportal.energy.observer import EnergyObserver
from powerportal.telemetry import service
from powerportal.telemetry.ingest import BatchReport
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

E = "/api/CustomerEnergy"
ALL_FLAT = "2" * 48


async def feed(h: Harness, observer: EnergyObserver, device: int, values: list[tuple[Any, float]]) -> None:
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
    await observer.settle()  # as the ingest's drain does


def plan(name: str, price: float, effective: str = "2024-01-01") -> dict[str, Any]:
    return {
        "name": name,
        "is_default": True,
        "version": {
            "effective_date": effective,
            "prices": {"flat": price},
            "seasons": [{"name": "全年", "months": list(range(1, 13)), "slots": ALL_FLAT}],
        },
    }


async def test_figures_agree_and_other_customers_see_nothing(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000011")
    b = await make_account(h, "13900000012")
    project = await make_project(h, a.sysno)
    building = await make_building(h, project)
    gateway = await make_gateway(h, project, building)
    main = await make_device(h, gateway, project, rated_current=63)
    branch = await make_device(h, gateway, project, rated_current=63)
    added = await h.post(f"{E}/AddTariffPlan", plan("平价", 0.5), a.token)
    assert added["statusCode"] == 200, added

    # readings of the last two hours, within today (local) where possible
    now = utcnow().replace(microsecond=0)
    start = max(now - timedelta(hours=2), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, main, [(start + timedelta(minutes=i), 100 + 0.2 * i) for i in range(steps)])
    await feed(h, observer, branch, [(start + timedelta(minutes=i), 50 + 0.15 * i) for i in range(steps)])
    increase = 0.2 * (steps - 1) + 0.15 * (steps - 1)

    today = now.astimezone(CUSTOMER_TZ).date().isoformat()
    scope = {"project_sysno": project, "view": "day", "date": today}
    chart = await h.post(f"{E}/GetEnergyChart", scope, a.token)
    assert chart["statusCode"] == 200, chart
    assert chart["data"]["total_kwh"] == pytest.approx(increase, abs=0.002)
    assert chart["data"]["total_cost"] == pytest.approx(increase * 0.5, abs=0.01)
    assert chart["data"]["priced"] is True
    # records began today: yesterday and last year are no base to compare with
    assert chart["data"]["yoy"]["complete"] is False and chart["data"]["yoy"]["kwh_change"] is None
    assert chart["data"]["mom"]["complete"] is False and chart["data"]["mom"]["kwh_change"] is None
    assert len(chart["data"]["points"]) == 24
    quarters = await h.post(f"{E}/GetEnergyChart", {**scope, "resolution": "quarter"}, a.token)
    assert len(quarters["data"]["points"]) == 96
    # every quarter lands in one hour: the hours add up to the quarters and the total (each shown to the Wh)
    for answer in (chart, quarters):
        shown = sum(p["total_kwh"] for p in answer["data"]["points"])
        assert shown == pytest.approx(chart["data"]["total_kwh"], abs=0.05)
        assert any(p["total_kwh"] > 0 for p in answer["data"]["points"])
    for view in ("month", "year"):
        other = await h.post(f"{E}/GetEnergyChart", {**scope, "view": view}, a.token)
        assert other["data"]["total_kwh"] == pytest.approx(chart["data"]["total_kwh"], abs=0.002), view
    building_chart = await h.post(f"{E}/GetEnergyChart", {**scope, "building_sysno": building}, a.token)
    assert building_chart["data"]["total_kwh"] == pytest.approx(increase, abs=0.002)

    ranking = await h.post(f"{E}/GetEnergyRanking", {**scope, "view": "year"}, a.token)
    assert [r["sysno"] for r in ranking["data"]] == [main, branch]
    table = await h.post(f"{E}/GetEnergyTable", scope, a.token)
    rows = {r["device_sysno"]: r for r in table["data"]["rows"]}
    assert rows[main]["end_reading"] - rows[main]["start_reading"] == pytest.approx(
        rows[main]["kwh"], abs=0.002
    )
    assert table["data"]["total_kwh"] == pytest.approx(increase, abs=0.002)
    assert table["data"]["losses"] == []

    # 总进线: the main minus its branches is the building's shared use and losses
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, a.token)
    assert marked["statusCode"] == 200
    table = await h.post(f"{E}/GetEnergyTable", scope, a.token)
    (loss,) = table["data"]["losses"]
    assert loss["loss_kwh"] == pytest.approx(0.05 * (steps - 1), abs=0.002)
    # ... and a reference: project, building, table and ranking count the branch alone, not twice
    branch_kwh = 0.15 * (steps - 1)
    assert table["data"]["total_kwh"] == pytest.approx(branch_kwh, abs=0.002)
    assert {r["device_sysno"] for r in table["data"]["rows"] if r["incoming_main"]} == {main}
    for view in ("day", "month", "year"):
        for extra in ({}, {"building_sysno": building}, {"resolution": "quarter"}):
            figure = await h.post(f"{E}/GetEnergyChart", {**scope, "view": view, **extra}, a.token)
            assert figure["data"]["total_kwh"] == pytest.approx(branch_kwh, abs=0.002), (view, extra)
    building_table = await h.post(f"{E}/GetEnergyTable", {**scope, "building_sysno": building}, a.token)
    assert building_table["data"]["losses"] == table["data"]["losses"]
    ranked = await h.post(f"{E}/GetEnergyRanking", {**scope, "view": "year"}, a.token)
    assert [r["sysno"] for r in ranked["data"]] == [branch]
    picked = await h.post(f"{E}/GetEnergyChart", {**scope, "device_sysnos": [main]}, a.token)
    assert picked["data"]["total_kwh"] == pytest.approx(0.2 * (steps - 1), abs=0.002)

    # another customer: every call about A's project, devices or plans answers "not found"
    for path, body in [
        ("GetEnergyChart", scope),
        ("GetEnergyRanking", scope),
        ("GetEnergyTable", scope),
        ("GetDeviceQuarters", {"device_sysno": main, "date": today}),
    ]:
        answer = await h.post(f"{E}/{path}", body, b.token)
        assert answer["statusCode"] == 404 and answer["data"] is None, (path, answer)
    own = await make_project(h, b.sysno)
    answer = await h.post(
        f"{E}/GetEnergyChart", {**scope, "project_sysno": own, "device_sysnos": [main]}, b.token
    )
    assert answer["statusCode"] == 404
    answer = await h.put(f"{E}/SetIncomingMain", {"device_sysno": branch, "incoming_main": True}, b.token)
    assert answer["statusCode"] == 404
    change = {"device_sysno": main, "change_time": "2026-01-01 00:00:00", "old_final": 1, "new_initial": 0}
    assert (await h.post(f"{E}/AddMeterChange", change, b.token))["statusCode"] == 404
    plan_sysno = added["data"]["sysno"]
    assert (await h.call("GET", f"{E}/GetTariffPlan", b.token, params={"sysno": plan_sysno}))[
        "statusCode"
    ] == 404
    assert (await h.call("DELETE", f"{E}/DeleteTariffPlan", b.token, params={"sysno": plan_sysno}))[
        "statusCode"
    ] == 404
    unchanged = await h.post(f"{E}/GetEnergyChart", scope, a.token)
    assert unchanged["data"]["total_kwh"] == pytest.approx(branch_kwh, abs=0.002)


async def test_bad_input_is_refused_in_chinese_and_changes_nothing(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000021")
    project = await make_project(h, a.sysno)
    for body in [
        {"project_sysno": project, "view": "day", "date": "2026-13-45"},
        {"project_sysno": project, "view": "week", "date": "2026-01-01"},
        {"project_sysno": project, "view": "range", "date": "2026-01-01", "end_date": "2027-06-01"},
        {"project_sysno": project, "view": "range", "date": "2026-02-01", "end_date": "2026-01-01"},
        {"project_sysno": "1", "view": "day", "date": "2026-01-01"},
        {"project_sysno": project, "view": "day", "date": "2026-01-01", "device_sysnos": [0]},
    ]:
        answer = await h.post(f"{E}/GetEnergyChart", body, a.token)
        assert answer["statusCode"] == 400, (body, answer)
        assert any("\u4e00" <= c <= "\u9fff" for c in answer["message"]), answer
    bad = plan("缺月份", 0.5)
    bad["version"]["seasons"][0]["months"] = [1, 2, 3]
    assert "季节" in (await h.post(f"{E}/AddTariffPlan", bad, a.token))["message"]
    bad = plan("缺价", 0.5)
    bad["version"]["seasons"][0]["slots"] = "0" * 48
    assert "尖" in (await h.post(f"{E}/AddTariffPlan", bad, a.token))["message"]
    listed = await h.post(f"{E}/GetTariffPlanList", {}, a.token)
    assert listed["data"]["totalCount"] == 0
    added = await h.post(f"{E}/AddTariffPlan", plan("方案", 0.6), a.token)
    version = {**plan("x", 0.7)["version"], "plan_sysno": added["data"]["sysno"]}
    version["effective_date"] = utcnow().astimezone(CUSTOMER_TZ).date().isoformat()
    refused = await h.post(f"{E}/AddTariffVersion", version, a.token)
    assert refused["statusCode"] == 400 and "晚于今天" in refused["message"]
    version["effective_date"] = "2099-01-01"
    later = await h.post(f"{E}/AddTariffVersion", version, a.token)
    assert [v["effective_date"] for v in later["data"]["versions"]] == ["2099-01-01", "2024-01-01"]
    assert [v["editable"] for v in later["data"]["versions"]] == [True, False]
    first = later["data"]["versions"][1]["sysno"]
    kept = await h.call("DELETE", f"{E}/DeleteTariffVersion", a.token, params={"sysno": first})
    assert kept["statusCode"] == 400


async def test_a_meter_change_keeps_totals_continuous(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000031")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project)
    device = await make_device(h, gateway, project, rated_current=63)
    day = (
        (utcnow() - timedelta(days=2))
        .astimezone(CUSTOMER_TZ)
        .replace(hour=10, minute=0, second=0, microsecond=0)
    )
    old = [(day + timedelta(minutes=i), 900 + 0.1 * i) for i in range(30)]
    new = [(day + timedelta(minutes=40 + i), 2 + 0.1 * i) for i in range(30)]
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, old + new)
    scope = {"project_sysno": project, "view": "day", "date": day.date().isoformat()}
    before = (await h.post(f"{E}/GetEnergyChart", scope, a.token))["data"]
    assert before["points"][10]["reset"] or before["points"][10]["implausible"]
    change = {
        "device_sysno": device,
        "change_time": (day + timedelta(minutes=35)).strftime("%Y-%m-%d %H:%M:%S"),
        "old_final": 903.4,
        "new_initial": 1.5,
    }
    added = await h.post(f"{E}/AddMeterChange", change, a.token)
    assert added["statusCode"] == 200, added
    after = (await h.post(f"{E}/GetEnergyChart", scope, a.token))["data"]
    assert after["total_kwh"] == pytest.approx(2.9 + 0.5 + 0.5 + 2.9, abs=0.002)
    assert not any(p["reset"] or p["implausible"] for p in after["points"])
    listed = await h.call("GET", f"{E}/GetMeterChangeList", a.token, params={"device_sysno": device})
    assert [c["old_final"] for c in listed["data"]] == [903.4]
    removed = await h.call(
        "DELETE", f"{E}/DeleteMeterChange", a.token, params={"sysno": added["data"]["sysno"]}
    )
    assert removed["statusCode"] == 200
    again = (await h.post(f"{E}/GetEnergyChart", scope, a.token))["data"]
    assert again["total_kwh"] == pytest.approx(before["total_kwh"], abs=0.002)


async def test_comparisons_take_the_same_days_earlier_once_records_cover_them(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000021")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, await make_building(h, project))
    device = await make_device(h, gateway, project, rated_current=63)
    local = CUSTOMER_TZ

    def at(y: int, m: int, d: int) -> Any:
        return datetime(y, m, d, 10, 0, tzinfo=local).astimezone(UTC)

    # one hour of use on each of these days (counter rising 1, 2 and 4 kWh), readings a minute apart
    observer = EnergyObserver(h.ctx.sessions)
    counter = 100.0
    for day, kwh in [
        (at(2025, 1, 5), 0.5),
        (at(2025, 3, 10), 1.0),
        (at(2026, 2, 10), 2.0),
        (at(2026, 3, 10), 4.0),
    ]:
        values = [(day + timedelta(minutes=i), counter + kwh * i / 60) for i in range(61)]
        await feed(h, observer, device, values)
        counter += kwh
    scope = {"project_sysno": project, "view": "month", "date": "2026-03-01"}
    march = (await h.post(f"{E}/GetEnergyChart", scope, a.token))["data"]
    assert march["total_kwh"] == pytest.approx(4.0, abs=0.001)
    assert march["mom"]["kwh"] == pytest.approx(2.0, abs=0.001) and march["mom"]["kwh_change"] == 100.0
    assert march["yoy"]["kwh"] == pytest.approx(1.0, abs=0.001) and march["yoy"]["kwh_change"] == 300.0
    assert march["yoy"]["complete"] and march["mom"]["complete"]
    # January 2025 began before the first record (2025-01-05): no base for January 2026's 同比
    january = (await h.post(f"{E}/GetEnergyChart", {**scope, "date": "2026-01-01"}, a.token))["data"]
    assert january["yoy"]["kwh"] == pytest.approx(0.5, abs=0.001)
    assert january["yoy"]["complete"] is False and january["yoy"]["kwh_change"] is None


async def test_rankings_agree_with_the_table(harness: Harness) -> None:
    """Top-N by device and by building: the table's figures, ordered, cut and shared out."""
    h = harness
    a = await make_account(h, "13900000021")
    project = await make_project(h, a.sysno)
    other = await make_project(h, a.sysno)
    b1, b2 = await make_building(h, project, "一号楼"), await make_building(h, project, "二号楼")
    g1, g2 = await make_gateway(h, project, b1), await make_gateway(h, project, b2)
    loose = await make_gateway(h, project)  # a gateway in no building
    main = await make_device(h, g1, project, name="总进线", rated_current=63)
    d2 = await make_device(h, g1, project, name="照明", rated_current=63)
    d3 = await make_device(h, g1, project, name="空调", rated_current=63)
    d4 = await make_device(h, g2, project, name="插座", rated_current=63)
    moved = await make_device(h, g2, project, name="电梯", rated_current=63)
    d6 = await make_device(h, loose, project, name="水泵", rated_current=63)
    now = utcnow()
    start = max(now - timedelta(hours=1), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    rates = {main: 0.3, d2: 0.05, d3: 0.1, d4: 0.07, moved: 0.12, d6: 0.02}  # kWh a minute
    observer = EnergyObserver(h.ctx.sessions)
    for device, rate in rates.items():
        await feed(h, observer, device, [(start + timedelta(minutes=i), 10 + rate * i) for i in range(steps)])
    kwh = {device: rate * (steps - 1) for device, rate in rates.items()}
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, a.token)
    assert marked["statusCode"] == 200
    async with h.ctx.sessions() as session:  # the device leaves: its consumption here stays here
        await session.execute(update(Device).where(Device.sysno == moved).values(project_sysno=other))
        await session.commit()
    scope = {"project_sysno": project, "view": "day", "date": now.astimezone(CUSTOMER_TZ).date().isoformat()}

    table = await h.post(f"{E}/GetEnergyTable", scope, a.token)
    listed = {r["device_sysno"]: r["kwh"] for r in table["data"]["rows"]}
    assert listed == pytest.approx(kwh, abs=0.002)  # the moved device's use here too

    ranked = await h.post(f"{E}/GetEnergyRanking", scope, a.token)
    assert ranked["statusCode"] == 200, ranked
    expected = sorted((d for d in kwh if d != main), key=lambda d: -kwh[d])
    assert [r["sysno"] for r in ranked["data"]] == expected  # the 总进线 is a reference, not a load
    whole = sum(kwh[d] for d in expected)
    for row in ranked["data"]:
        assert row["kwh"] == pytest.approx(kwh[row["sysno"]], abs=0.002)
        assert row["share"] == pytest.approx(kwh[row["sysno"]] / whole * 100, abs=0.01)
    names = {r["sysno"]: r["name"] for r in ranked["data"]}
    assert names[d3] == "空调" and names[moved] == f"已移除的设备 #{moved}"
    top = await h.post(f"{E}/GetEnergyRanking", {**scope, "top": 2}, a.token)
    assert [r["sysno"] for r in top["data"]] == expected[:2]
    assert [r["share"] for r in top["data"]] == [r["share"] for r in ranked["data"][:2]]

    # by building: the devices still in one (not the main, the moved one or the loose one)
    buildings = await h.post(f"{E}/GetEnergyRanking", {**scope, "by": "building"}, a.token)
    by_building = {b1: kwh[d2] + kwh[d3], b2: kwh[d4]}
    assert [r["sysno"] for r in buildings["data"]] == sorted(by_building, key=lambda b: -by_building[b])
    assert {r["name"] for r in buildings["data"]} == {"一号楼", "二号楼"}
    for row in buildings["data"]:
        assert row["kwh"] == pytest.approx(by_building[row["sysno"]], abs=0.002)
        assert row["share"] == pytest.approx(
            by_building[row["sysno"]] / sum(by_building.values()) * 100, abs=0.01
        )

    # a building ranks its own devices; devices picked one by one all count, a main among them
    inside = await h.post(f"{E}/GetEnergyRanking", {**scope, "building_sysno": b1}, a.token)
    assert [r["sysno"] for r in inside["data"]] == [d3, d2]
    picked = await h.post(f"{E}/GetEnergyRanking", {**scope, "device_sysnos": [main, d4]}, a.token)
    assert [r["sysno"] for r in picked["data"]] == [main, d4]
