"""The large screen's energy after a 总进线 left its project: the project's history is as it was."""

from __future__ import annotations

from datetime import timedelta

import pytest

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.energy.observer import EnergyObserver
from tests.conftest import Harness
from tests.dashboard.test_dashboard_api import D, E, feed
from tests.factories import make_account, make_building, make_device, make_gateway, make_project


async def test_a_main_moved_to_another_project_stays_a_reference_where_it_was(harness: Harness) -> None:
    h = harness
    owner = await make_account(h, "13900000061")
    north = await make_project(h, owner.sysno, "北区")
    south = await make_project(h, owner.sysno, "南区")
    building = await make_building(h, north)
    loads, mains = await make_gateway(h, north, building), await make_gateway(h, north, building)
    main = await make_device(h, mains, north, rated_current=63)
    branch = await make_device(h, loads, north, rated_current=63)
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, owner.token)
    assert marked["statusCode"] == 200, marked
    now = utcnow().replace(microsecond=0)
    start = max(now - timedelta(hours=2), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 2)
    observer = EnergyObserver(h.ctx.sessions)
    for device in (main, branch):  # the main measures what the branch uses
        await feed(h, observer, device, [(start + timedelta(minutes=i), 100 + 0.2 * i) for i in range(steps)])

    async def screen() -> tuple[object, ...]:
        data = (await h.post(f"{D}/GetDashboardData", {}, owner.token))["data"]
        energy = tuple(data["energy"][span]["total_kwh"] for span in ("today", "month", "year"))
        return energy, [r["device_sysno"] for r in data["top_consumers"]], [p["kw"] for p in data["power"]]

    before = await screen()
    assert before[0] == pytest.approx((0.2 * (steps - 1),) * 3, abs=0.002)
    assert before[1] == [branch]
    # The main's gateway moves to 南区, where the device is not marked: 北区's use today is what it was.
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway", {"sysno": mains, "project_sysno": south}, owner.token
    )
    assert moved["statusCode"] == 200, moved
    unmarked = await h.put(
        f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": False}, owner.token
    )
    assert unmarked["statusCode"] == 200, unmarked
    assert await screen() == before
    # What it uses in 南区 is a load there (its mark in 北区 stays 北区's).
    later, last = utcnow() + timedelta(seconds=1), 100 + 0.2 * (steps - 1)
    await feed(h, observer, main, [(later + timedelta(minutes=i), last + 0.3 + 0.2 * i) for i in range(5)])
    energy, top, _ = await screen()
    assert energy[0] == pytest.approx(before[0][0] + 0.3 + 0.8, abs=0.002)
    assert set(top) == {branch, main}
