"""Who sees a load event: a share limited to buildings, the events that happened in those buildings."""

from __future__ import annotations

import io
import json
from typing import Any

import openpyxl
from sqlalchemy import update

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.load_ident.models import LoadEvent
from tests.conftest import Harness
from tests.factories import Account, make_account, make_building
from tests.load_ident.helpers import KETTLES, Site, ago, load_event, load_site

API = "/api/CustomerLoadIdentify"


async def _share(h: Harness, owner: Account, project: int, guest: Account, **fields: Any) -> None:
    body = {"project_sysno": project, "mobile": guest.mobile, **fields}
    invited = await h.post("/api/CustomerShare/AddShare", body, token=owner.token)
    assert invited["statusCode"] == 200, invited
    accepted = await h.post(
        "/api/CustomerShare/AcceptShare", {"sysno": invited["data"]["sysno"]}, token=guest.token
    )
    assert accepted["statusCode"] == 200, accepted


async def _place_gateway(site: Site, building: int) -> None:
    body = {"sysno": site.gateway, "name": "宿舍网关", "building_sysno": building}
    moved = await site.h.put("/api/CustomerGateway/UpdateGateway", body, site.me.token)
    assert moved["statusCode"] == 200, moved


def _today(*events: LoadEvent) -> int:
    """How many of these events the large screen counts today.

    The local day: sent minutes ago, one may be yesterday's just after midnight in Shanghai.
    """
    midnight = utcnow().astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0, microsecond=0)
    return sum(1 for event in events if event.event_time >= midnight)


async def _seen(h: Harness, who: Account) -> dict[str, Any]:
    """What a customer learns of the load events through every read: list, export and statistics."""
    listed = await h.post(f"{API}/GetLoadEventList", {}, token=who.token)
    assert listed["statusCode"] == 200, listed
    stats = await h.post(f"{API}/GetLoadStatistics", {}, token=who.token)
    assert stats["statusCode"] == 200, stats
    exported = await h.client.post(f"{API}/ExportLoadEventList", json={}, headers={"SYSTOKEN": who.token})
    assert exported.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(exported.content), read_only=True)
    cells = [list(row) for sheet in book for row in sheet.iter_rows(values_only=True)]
    screen = await h.post("/api/CustomerDashboard/GetDashboardData", {}, token=who.token)
    return {
        "violations": screen["data"]["load_ident"]["violations_today"],
        "rows": sorted(r["sysno"] for r in listed["data"]["dataSource"]),
        "buildings": {b["building_name"]: b["count"] for b in stats["data"]["by_building"]},
        "identified": stats["data"]["identified"],
        "workbook": json.dumps(cells, ensure_ascii=False, default=str),
    }


async def test_a_limited_sharee_sees_the_events_of_its_buildings_wherever_the_gateway_is_now(
    harness: Harness,
) -> None:
    """An event is in view by the building it happened in, not the one its gateway was moved to.

    Decided by the gateway's current building, a sharee of 共享楼 read 1号宿舍楼's events, its name
    and its counts once the gateway was moved into 共享楼, and lost 共享楼's own events once it was
    moved out again.
    """
    h = harness
    async with load_site(h) as site:
        guest = await make_account(h, "13900000005")
        shared = await make_building(h, site.project, "共享楼")
        await _share(h, site.me, site.project, guest, permission=2, building_sysnos=[shared])
        await site.send(load_event(KETTLES[0], ago(30)))  # 101宿舍, in 1号宿舍楼
        await _place_gateway(site, shared)
        await site.send(load_event(KETTLES[1], ago(20), device_id="2"))  # 102宿舍, in 共享楼
        elsewhere, here = await site.rows()
        assert (elsewhere.building_sysno, here.building_sysno) == (site.building, shared)
        async with h.ctx.sessions() as session:
            await session.execute(update(LoadEvent).values(trip_state="done", reclose_state="locked"))
            await session.commit()

        seen = await _seen(h, guest)
        assert (seen["rows"], seen["buildings"], seen["identified"]) == ([here.sysno], {"共享楼": 1}, 1)
        assert seen["violations"] == _today(here)  # the large screen counts as 负荷识别 does
        assert "102宿舍" in seen["workbook"]
        assert "101宿舍" not in seen["workbook"] and "1号宿舍楼" not in seen["workbook"]
        detail = await h.call(
            "GET", f"{API}/GetLoadEvent", params={"sysno": elsewhere.sysno}, token=guest.token
        )
        assert detail["statusCode"] == 404, detail
        unlock = await h.post(f"{API}/UnlockLoadDevice", {"sysno": elsewhere.sysno}, token=guest.token)
        assert unlock["statusCode"] == 404, unlock

        # Moved out again: 共享楼's event stays in view; the breaker, outside it now, is not the sharee's.
        await _place_gateway(site, site.building)
        seen = await _seen(h, guest)
        assert (seen["rows"], seen["buildings"], seen["identified"]) == ([here.sysno], {"共享楼": 1}, 1)
        assert seen["violations"] == _today(here)  # the large screen counts as 负荷识别 does
        detail = await h.call("GET", f"{API}/GetLoadEvent", params={"sysno": here.sysno}, token=guest.token)
        assert detail["statusCode"] == 200 and detail["data"]["building_name"] == "共享楼", detail
        unlock = await h.post(f"{API}/UnlockLoadDevice", {"sysno": here.sysno}, token=guest.token)
        assert unlock["statusCode"] == 400 and "控制权限" in unlock["message"], unlock

        # The owner sees both, each under its own building.
        seen = await _seen(h, site.me)
        assert seen["violations"] == _today(elsewhere, here)
        assert (seen["rows"], seen["buildings"]) == (
            [elsewhere.sysno, here.sysno],
            {"1号宿舍楼": 1, "共享楼": 1},
        )
