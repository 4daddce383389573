"""A device's consumption stays with the project it was counted for when the device moves or goes."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.energy.models import EnergyInterval
from powerportal.energy.observer import EnergyObserver
from tests.conftest import Harness, latest_code
from tests.energy.test_energy_api import feed
from tests.factories import Account, make_account, make_building, make_device, make_gateway, make_project

E = "/api/CustomerEnergy"


async def by_project(h: Harness, device: int) -> dict[int, float]:
    """The device's kWh per project it was counted for."""
    async with h.ctx.sessions() as session:
        sums: dict[int, float] = defaultdict(float)
        for row in await session.scalars(select(EnergyInterval).where(EnergyInterval.device_sysno == device)):
            sums[row.project_sysno] += row.kwh
    return dict(sums)


async def quarters(h: Harness, device: int) -> dict[tuple[datetime, int], float]:
    async with h.ctx.sessions() as session:
        rows = await session.scalars(select(EnergyInterval).where(EnergyInterval.device_sysno == device))
        return {(row.start, row.project_sysno): row.kwh for row in rows}


async def move(h: Harness, owner: Account, gateway: int, project: int) -> None:
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway", {"sysno": gateway, "project_sysno": project}, owner.token
    )
    assert moved["statusCode"] == 200, moved


async def transfer(h: Harness, sender: Account, project: int, recipient: Account) -> None:
    await h.post("/api/CustomerShare/SendTransferProjectSms", {"mobile": sender.mobile}, token=sender.token)
    offer = await h.post(
        "/api/CustomerShare/TransferProject",
        {"project_sysno": project, "mobile": recipient.mobile, "password": "secret123",
         "validate_code": await latest_code(h, sender.mobile), "keep_shares": False},
        token=sender.token,
    )  # fmt: skip
    assert offer["statusCode"] == 200, offer
    accepted = await h.post(
        "/api/CustomerShare/AcceptTransfer", {"sysno": offer["data"]["sysno"]}, token=recipient.token
    )
    assert accepted["statusCode"] == 200, accepted


async def two_projects(h: Harness) -> tuple[Account, int, int, int, int, datetime]:
    """An owner's two projects, a gateway with one breaker in the first, and an hour three hours ago."""
    owner = await make_account(h, "13900000051")
    first = await make_project(h, owner.sysno, name="一区")
    second = await make_project(h, owner.sysno, name="二区")
    gateway = await make_gateway(h, first, online=True)
    device = await make_device(h, gateway, first, online=1, rated_current=63)
    hour = (utcnow() - timedelta(hours=3)).replace(minute=0, second=0, microsecond=0)
    return owner, first, second, gateway, device, hour


def every_five_minutes(start: datetime, n: int) -> list[tuple[datetime, float]]:
    """A reading every five minutes from 10 kWh, 0.1 kWh a minute."""
    return [(start + timedelta(minutes=5 * i), 10 + 0.5 * i) for i in range(n)]


@pytest.mark.parametrize("restart", [False, True])
async def test_a_late_reading_after_a_move_is_counted_in_the_project_it_was_taken_in(
    harness: Harness, restart: bool
) -> None:
    h = harness
    owner, first, second, gateway, device, start = await two_projects(h)
    values = every_five_minutes(start, 25)  # two hours in 一区
    late = values[12]
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, [v for v in values if v is not late])
    assert await by_project(h, device) == {first: pytest.approx(12.0)}
    await move(h, owner, gateway, second)
    if restart:
        observer = EnergyObserver(h.ctx.sessions)
    # The gateway's buffer hands over the reading it missed, an hour before the move: 一区's quarters
    # around it are counted again, and stay 一区's.
    await feed(h, observer, device, [late])
    assert await by_project(h, device) == {first: pytest.approx(12.0)}
    # New readings count for the project it is in now (the pair from its last reading in 一区 too).
    now = utcnow()
    await feed(h, observer, device, [(now, 23.0), (now + timedelta(minutes=5), 23.5)])
    assert await by_project(h, device) == {first: pytest.approx(12.0), second: pytest.approx(1.5)}


async def test_readings_sent_again_after_a_move_change_no_project(harness: Harness) -> None:
    h = harness
    owner, first, second, gateway, device, start = await two_projects(h)
    values = every_five_minutes(start, 25)
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, values)
    before = await quarters(h, device)
    await move(h, owner, gateway, second)
    await feed(h, observer, device, values[-6:])  # the last unacknowledged message, again
    await feed(h, EnergyObserver(h.ctx.sessions), device, values[:6])  # an old one, after a restart
    assert await quarters(h, device) == pytest.approx(before)


async def test_a_quarter_the_device_moved_within_keeps_each_projects_part(harness: Harness) -> None:
    h = harness
    owner, first, second, gateway, device, start = await two_projects(h)
    minutes = [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(15)]
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, minutes[:8])  # 0.7 kWh in 一区
    await move(h, owner, gateway, second)
    await feed(h, observer, device, minutes[8:])  # 0.7 kWh in 二区, in the same quarter
    before = await quarters(h, device)
    assert before == {(start, first): pytest.approx(0.7), (start, second): pytest.approx(0.7)}
    await feed(h, EnergyObserver(h.ctx.sessions), device, minutes)  # sent again after a restart
    assert await quarters(h, device) == pytest.approx(before)
    # A late reading changes the quarter's use (1.5 → 1.45 kWh): each project keeps its share of it.
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, [(start + timedelta(minutes=16), 11.6)])  # 0.1 kWh either side of 0:15
    await feed(h, observer, device, [(start + timedelta(minutes=15), 11.45)])
    assert await quarters(h, device) == pytest.approx(
        {
            (start, first): 1.45 * 0.7 / 1.5,
            (start, second): 1.45 * 0.8 / 1.5,
            (start + timedelta(minutes=15), second): 0.15,
        }
    )


async def test_a_meter_change_dated_before_a_move_leaves_the_given_away_projects_history_alone(
    harness: Harness,
) -> None:
    h = harness
    owner, first, second, gateway, device, start = await two_projects(h)
    stranger = await make_account(h, "13900000052")
    values = every_five_minutes(start, 25)
    await feed(h, EnergyObserver(h.ctx.sessions), device, values)
    await move(h, owner, gateway, second)
    await transfer(h, owner, first, stranger)  # 一区, now empty, with its history: the stranger's
    # The owner records a meter change on the breaker (in 二区), dated before the move, its readings
    # in line with the counter's: the quarters around it are counted again, and stay 一区's.
    at, value = values[12]
    body = {"device_sysno": device, "change_time": at.astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M:%S"),
            "old_final": value, "new_initial": value}  # fmt: skip
    added = await h.post(f"{E}/AddMeterChange", body, owner.token)
    assert added["statusCode"] == 200, added
    assert await by_project(h, device) == {first: pytest.approx(12.0)}
    day = start.astimezone(CUSTOMER_TZ).date()
    scope = {"project_sysno": first, "view": "range", "date": day.isoformat(),
             "end_date": (day + timedelta(days=1)).isoformat()}  # fmt: skip
    chart = await h.post(f"{E}/GetEnergyChart", scope, stranger.token)
    assert chart["data"]["total_kwh"] == pytest.approx(12.0)


async def main_and_branch(h: Harness) -> tuple[Account, int, int, int, int, int, dict[str, Any]]:
    """一区's building with a 总进线 (on a gateway of its own) measuring one branch; today's scope."""
    owner = await make_account(h, "13900000053")
    first = await make_project(h, owner.sysno, name="一区")
    second = await make_project(h, owner.sysno, name="二区")
    building = await make_building(h, first, "一号楼")
    loads, mains = await make_gateway(h, first, building), await make_gateway(h, first, building)
    main = await make_device(h, mains, first, name="总进线", rated_current=63)
    branch = await make_device(h, loads, first, name="照明", rated_current=63)
    marked = await h.put(f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": True}, owner.token)
    assert marked["statusCode"] == 200, marked
    now = utcnow()
    start = max(now - timedelta(hours=1), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 3)
    observer = EnergyObserver(h.ctx.sessions)
    for device in (main, branch):  # the main measures what the branch uses
        await feed(h, observer, device, [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(steps)])
    scope = {"project_sysno": first, "view": "day", "date": now.astimezone(CUSTOMER_TZ).date().isoformat()}
    return owner, second, mains, main, branch, steps, scope


async def figures(h: Harness, owner: Account, scope: dict[str, Any]) -> dict[str, Any]:
    """What 能耗统计 shows of the scope: totals, ranking and the table's rows."""
    table = await h.post(f"{E}/GetEnergyTable", scope, owner.token)
    chart = await h.post(f"{E}/GetEnergyChart", scope, owner.token)
    month = await h.post(f"{E}/GetEnergyChart", {**scope, "view": "month"}, owner.token)
    ranking = await h.post(f"{E}/GetEnergyRanking", scope, owner.token)
    return {
        "totals": (table["data"]["total_kwh"], chart["data"]["total_kwh"], month["data"]["total_kwh"]),
        "ranked": [r["sysno"] for r in ranking["data"]],
        "mains": {r["device_sysno"] for r in table["data"]["rows"] if r["incoming_main"]},
    }


@pytest.mark.parametrize("leaves", ["moved", "deleted", "deleted with its gateway"])
async def test_a_main_that_leaves_stays_a_reference_in_its_old_projects_history(
    harness: Harness, leaves: str
) -> None:
    h = harness
    owner, second, mains, main, branch, steps, scope = await main_and_branch(h)
    before = await figures(h, owner, scope)
    assert before["totals"] == pytest.approx((0.1 * (steps - 1),) * 3, abs=0.002)
    assert before["ranked"] == [branch] and before["mains"] == {main}
    if leaves == "moved":
        await move(h, owner, mains, second)
        # Unmarked where it is now: its history in 一区 keeps the mark it had there.
        unmarked = await h.put(
            f"{E}/SetIncomingMain", {"device_sysno": main, "incoming_main": False}, owner.token
        )
        assert unmarked["statusCode"] == 200, unmarked
    else:
        path, sysno = (
            ("CustomerDevice/DeleteDevice", main)
            if leaves == "deleted"
            else ("CustomerGateway/DeleteGateway", mains)
        )
        removed = await h.call("DELETE", f"/api/{path}", owner.token, params={"sysno": sysno})
        assert removed["statusCode"] == 200, removed
    assert await figures(h, owner, scope) == before


async def test_the_table_shows_readings_of_the_devices_time_in_the_project(harness: Harness) -> None:
    h = harness
    owner = await make_account(h, "13900000054")
    first = await make_project(h, owner.sysno, name="一区")
    second = await make_project(h, owner.sysno, name="二区")
    gateway = await make_gateway(h, first, online=True)
    device = await make_device(h, gateway, first, online=1, rated_current=63)
    now = utcnow()
    start = max(now - timedelta(hours=1), now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0))
    steps = max(int((now - start).total_seconds() // 60), 3)
    observer = EnergyObserver(h.ctx.sessions)
    await feed(h, observer, device, [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(steps)])
    last = 10 + 0.1 * (steps - 1)
    await move(h, owner, gateway, second)
    scope = {"project_sysno": second, "view": "day", "date": now.astimezone(CUSTOMER_TZ).date().isoformat()}

    async def row() -> dict[str, Any]:
        table = await h.post(f"{E}/GetEnergyTable", scope, owner.token)
        return next(r for r in table["data"]["rows"] if r["device_sysno"] == device)

    # 二区 counted nothing of it yet: the readings of today are 一区's.
    assert (await row())["start_reading"] is None and (await row())["end_reading"] is None
    # Its first readings in 二区 are shown.
    later = utcnow() + timedelta(seconds=1)
    await feed(h, observer, device, [(later, last + 0.05), (later + timedelta(seconds=30), last + 0.1)])
    shown = await row()
    assert (shown["start_reading"], shown["end_reading"]) == pytest.approx((last + 0.05, last + 0.1))
