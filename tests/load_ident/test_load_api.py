"""The CustomerLoadIdentify calls: lists, statistics, charts, policies, and what others may not do."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import numpy as np

from powerportal.load_ident.circuits import Mains, synthesise
from powerportal.load_ident.model import ACCURACY_FILE
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project
from tests.load_ident.helpers import KETTLES, LAPTOPS, ago, load_event, load_site

API = "/api/CustomerLoadIdentify"


async def test_list_detail_statistics_and_export(harness: Harness) -> None:
    async with load_site(harness) as site:
        current, voltage = synthesise(
            "resistive_heater", Mains(volts=220, hertz=50), np.random.default_rng(5)
        )
        wave = {"sample_rate_hz": 6400, "mains_hz": 50, "current_a": current.round(3).tolist(),
                "voltage_v": voltage.round(2).tolist()}  # fmt: skip
        await site.send(
            load_event(KETTLES[0], ago(30), waveform=wave),
            load_event(KETTLES[1], ago(20), device_id="2"),
            load_event(LAPTOPS[0], ago(10)),
        )
        token = site.me.token
        page = await harness.post(f"{API}/GetLoadEventList", {"pageSize": 2}, token=token)
        assert page["statusCode"] == 200
        assert page["data"]["totalCount"] == 3
        first = page["data"]["dataSource"][0]
        assert (first["target_name"], first["forbidden"], first["result"]) == ("101宿舍", 0, "—")
        forbidden = await harness.post(f"{API}/GetLoadEventList", {"forbidden": 1}, token=token)
        rows = forbidden["data"]["dataSource"]
        assert {r["target_name"] for r in rows} == {"101宿舍", "102宿舍"}
        assert all(r["appliance"] == "电水壶" and r["result"] == "已告警" for r in rows)
        assert rows[0]["building_name"] == "1号宿舍楼" and rows[0]["project_name"] == "阳光学院"
        history = await harness.post(
            f"{API}/GetLoadEventList", {"device_sysno": site.other_room}, token=token
        )
        assert history["data"]["totalCount"] == 1

        with_wave = next(r for r in rows if r["has_waveform"])
        detail = await harness.call(
            "GET", f"{API}/GetLoadEvent", params={"sysno": with_wave["sysno"]}, token=token
        )
        assert detail["statusCode"] == 200, detail
        data = detail["data"]
        assert len(data["waveform"]["ms"]) == len(current)
        assert data["waveform"]["ms"][1] == round(1000 / 6400, 4)
        assert data["power_series"]["seconds"][0] == -10.0
        assert (
            data["power_series"]["active_power"][10]
            == KETTLES[0]["detail"]["power_series"]["active_power"][10]
        )

        stats = await harness.post(f"{API}/GetLoadStatistics", {"project_sysno": site.project}, token=token)
        assert stats["statusCode"] == 200, stats
        s = stats["data"]
        assert (s["identified"], s["forbidden"], s["tripped"]) == (3, 2, 0)
        assert s["by_building"] == [
            {"building_sysno": site.building, "building_name": "1号宿舍楼", "count": 2, "tripped": 0}
        ]
        assert s["by_appliance"] == [{"appliance": "电水壶", "count": 2}]
        assert sum(d["count"] for d in s["by_day"]) == 2 and len(s["by_day"]) >= 30
        bad_range = await harness.post(
            f"{API}/GetLoadStatistics", {"start_time": "2026-01-02", "end_time": "2026-01-01"}, token=token
        )
        assert bad_range["statusCode"] == 400 and "开始时间" in bad_range["message"]

        exported = await harness.client.post(
            f"{API}/ExportLoadEventList", json={"forbidden": 1}, headers={"SYSTOKEN": token}
        )
        assert exported.status_code == 200
        assert exported.content[:2] == b"PK"


async def test_policy_reads_defaults_and_refuses_bad_input(harness: Harness) -> None:
    async with load_site(harness) as site:
        token = site.me.token
        setting = await harness.call(
            "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=token
        )
        data = setting["data"]
        assert data["project"]["is_default"] is True and data["project"]["action"] == "alarm"
        assert "电水壶" in data["project"]["forbidden"] and "笔记本电脑" not in data["project"]["forbidden"]
        assert data["can_edit"] is True and data["building_options"][0]["name"] == "1号宿舍楼"
        cases: list[tuple[dict[str, Any], str]] = [
            ({"forbidden": ["电水壶", "核反应堆"]}, "不认识的电器类别"),
            ({"forbidden": ["电水壶", "电水壶"]}, ""),
            ({"power_limit": 50}, "功率"),
            ({"power_limit": "2000"}, ""),
            ({"action": "explode"}, ""),
            ({"reclose_minutes": -1}, ""),
            ({"max_reclose": 99}, ""),
            ({"action": "trip", "reclose_minutes": 0, "max_reclose": 2}, "合闸等待时间"),
            ({"building_sysno": 987654}, "楼栋"),
        ]
        for change, words in cases:
            answer = await site.policy(**change)
            assert answer["statusCode"] != 200, change
            assert words in answer["message"], (change, answer["message"])
        assert (
            await harness.call(
                "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=token
            )
        )["data"]["project"]["is_default"] is True
        saved = await site.policy(
            building_sysno=site.building, action="trip", reclose_minutes=15, max_reclose=2
        )
        assert saved["data"]["building_name"] == "1号宿舍楼"
        again = await harness.call(
            "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=token
        )
        assert [b["action"] for b in again["data"]["buildings"]] == ["trip"]
        removed = await harness.post(
            f"{API}/DeleteLoadPolicy",
            {"project_sysno": site.project, "building_sysno": site.building},
            token=token,
        )
        assert removed["data"] == 1
        bad_list = await harness.post(
            f"{API}/SaveLoadWhitelist", {"device_sysno": site.room, "appliances": ["饮水机"]}, token=token
        )
        assert bad_list["statusCode"] == 400


async def test_another_customer_sees_and_changes_nothing(harness: Harness) -> None:
    async with load_site(harness) as site:
        await site.send(load_event(KETTLES[0], ago(5)))
        (row,) = await site.rows()
        intruder = await make_account(harness, mobile="13900000002")
        own_project = await make_project(harness, intruder.sysno, name="别人的项目")
        own_building = await make_building(harness, own_project)
        gateway = await make_gateway(harness, own_project, own_building, sn="LDIX0001")
        await make_device(harness, gateway, own_project, device_id="1")
        t = intruder.token
        listed = await harness.post(f"{API}/GetLoadEventList", {}, token=t)
        assert listed["data"]["totalCount"] == 0
        filtered = await harness.post(f"{API}/GetLoadEventList", {"project_sysno": site.project}, token=t)
        assert filtered["data"]["totalCount"] == 0
        detail = await harness.call("GET", f"{API}/GetLoadEvent", params={"sysno": row.sysno}, token=t)
        assert detail["statusCode"] == 404
        stats = await harness.post(f"{API}/GetLoadStatistics", {"project_sysno": site.project}, token=t)
        assert stats["data"]["forbidden"] == 0
        policy = await harness.call(
            "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=t
        )
        assert policy["statusCode"] == 404
        body = {"project_sysno": site.project, "forbidden": [], "power_limit": 5000, "action": "record",
                "reclose_minutes": 0, "max_reclose": 0}  # fmt: skip
        assert (await harness.post(f"{API}/SaveLoadPolicy", body, token=t))["statusCode"] == 404
        # Their own project with the victim's building.
        mixed = {**body, "project_sysno": own_project, "building_sysno": site.building}
        assert (await harness.post(f"{API}/SaveLoadPolicy", mixed, token=t))["statusCode"] == 404
        removal = {"project_sysno": site.project, "building_sysno": site.building}
        assert (await harness.post(f"{API}/DeleteLoadPolicy", removal, token=t))["statusCode"] == 404
        white = {"device_sysno": site.room, "appliances": ["电水壶"]}
        answer = await harness.post(f"{API}/SaveLoadWhitelist", white, token=t)
        assert answer["statusCode"] == 404 and "设备" in answer["message"]
        unlock = await harness.post(f"{API}/UnlockLoadDevice", {"sysno": row.sysno}, token=t)
        assert unlock["statusCode"] == 404
        # Nothing changed for the owner.
        mine = await harness.call(
            "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=site.me.token
        )
        assert mine["data"]["project"]["is_default"] is True and mine["data"]["whitelists"] == []


async def test_a_whitelist_follows_its_device_to_another_project(harness: Harness) -> None:
    """The room's whitelist moves with its gateway: listed where it is in force, nowhere else."""
    async with load_site(harness) as site:
        token = site.me.token
        white = {"device_sysno": site.room, "appliances": ["电水壶"]}
        assert (await harness.post(f"{API}/SaveLoadWhitelist", white, token=token))["statusCode"] == 200
        second = await make_project(harness, site.me.sysno, name="第二校区")
        moved = await harness.put(
            "/api/CustomerGateway/MoveGateway", {"sysno": site.gateway, "project_sysno": second}, token
        )
        assert moved["statusCode"] == 200, moved

        async def listed(project: int) -> list[int]:
            answer = await harness.call(
                "GET", f"{API}/GetLoadPolicy", params={"project_sysno": project}, token=token
            )
            return [w["device_sysno"] for w in answer["data"]["whitelists"]]

        assert await listed(second) == [site.room]
        assert await listed(site.project) == []
        body = {"project_sysno": second, "forbidden": ["电水壶"], "power_limit": 3000, "action": "alarm",
                "reclose_minutes": 30, "max_reclose": 3}  # fmt: skip
        assert (await harness.post(f"{API}/SaveLoadPolicy", body, token=token))["statusCode"] == 200
        await site.send(load_event(KETTLES[1], ago(5)))  # 2.1 kW: within the limit, so whitelisted
        (row,) = await site.rows()
        assert (row.project_sysno, row.whitelisted, row.forbidden) == (second, 1, 0)


async def test_model_accuracy_is_what_the_evaluation_saved(harness: Harness) -> None:
    """The screen's figures are the file ``bench/load_ident_eval.py --save`` wrote beside the model."""
    saved = json.loads(ACCURACY_FILE.read_text(encoding="utf-8"))
    account = await make_account(harness)
    answer = await harness.call("GET", f"{API}/GetLoadModelAccuracy", token=account.token)
    assert answer["statusCode"] == 200
    data = answer["data"]
    assert data == saved
    inputs = [row["input"] for row in data["rows"]]
    assert inputs[:2] == ["1 Hz 功率，接入后 120 秒", "1 Hz 功率，接入后 10 秒"]
    assert all(0 <= row["recall"] <= 1 and 0 <= row["false_alarms"] <= 1 for row in data["rows"])
    # A synthetic figure says so: every waveform row is made from circuit models.
    assert all(row["synthetic"] for row in data["rows"] if "波形" in row["input"])
    refused = await harness.call("GET", f"{API}/GetLoadModelAccuracy")
    assert refused["statusCode"] == 401


async def test_events_of_a_deleted_building_never_name_anothers(harness: Harness) -> None:
    """A load event keeps its building's id; a new building (anyone's) never gets that id again."""
    async with load_site(harness) as site:
        await site.send(load_event(KETTLES[1], ago(5)))
        token = site.me.token
        out = {"sysno": site.gateway, "project_sysno": site.project}  # out of the building, same project
        assert (await harness.put("/api/CustomerGateway/MoveGateway", out, token))["statusCode"] == 200
        gone = await harness.call(
            "DELETE", "/api/CustomerProject/DeleteBuilding", params={"sysno": site.building}, token=token
        )
        assert gone["statusCode"] == 200, gone
        stranger = await make_account(harness, "13900000077")
        theirs = await make_building(harness, await make_project(harness, stranger.sysno), name="别人的楼")
        assert theirs > site.building
        page = await harness.post(f"{API}/GetLoadEventList", {}, token=token)
        assert [r["building_name"] for r in page["data"]["dataSource"]] == [None]


async def test_saves_at_once_of_a_policy_or_whitelist_not_yet_saved_all_succeed_and_the_last_holds(
    harness: Harness,
) -> None:
    """Two first saves at once both found no row and both inserted one: the second answered HTTP 500."""
    async with load_site(harness) as site:
        token = site.me.token

        async def at_once(path: str, bodies: list[dict[str, Any]]) -> None:
            answers = await asyncio.gather(
                *(harness.client.post(f"{API}/{path}", json=b, headers={"SYSTOKEN": token}) for b in bodies)
            )
            assert [(a.status_code, a.json()["statusCode"]) for a in answers] == [(200, 200)] * len(bodies)

        for round_ in range(3):
            project = await make_project(harness, site.me.sysno, name=f"并发{round_}")
            building = await make_building(harness, project, name="1号楼")
            for where in ({}, {"building_sysno": building}):
                bodies = [
                    {
                        "project_sysno": project,
                        **where,
                        "forbidden": ["电水壶"],
                        "power_limit": 2000 + n,
                        "action": "alarm",
                        "reclose_minutes": 30,
                        "max_reclose": 3,
                    }  # fmt: skip
                    for n in range(4)
                ]
                await at_once("SaveLoadPolicy", bodies)
            setting = await harness.call(
                "GET", f"{API}/GetLoadPolicy", params={"project_sysno": project}, token=token
            )
            data = setting["data"]
            assert not data["project"]["is_default"] and data["project"]["power_limit"] in range(2000, 2004)
            assert [b["building_sysno"] for b in data["buildings"]] == [building]
            assert data["buildings"][0]["power_limit"] in range(2000, 2004)

            lists = [["电水壶"], ["电热器/取暖器"], ["电水壶", "电熨斗"], ["微波炉"]]
            await at_once("SaveLoadWhitelist", [{"device_sysno": site.room, "appliances": a} for a in lists])
            setting = await harness.call(
                "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=token
            )
            (white,) = setting["data"]["whitelists"]
            assert white["appliances"] in lists
            await at_once("SaveLoadWhitelist", [{"device_sysno": site.room, "appliances": []}] * 4)
            setting = await harness.call(
                "GET", f"{API}/GetLoadPolicy", params={"project_sysno": site.project}, token=token
            )
            assert setting["data"]["whitelists"] == []
