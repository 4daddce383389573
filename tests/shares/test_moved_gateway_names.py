"""A gateway moved on is named by none of the rows it left behind: not by its new name, not its new building.

The owner moves a gateway out of a project a customer sees whole, into a building of a project that
customer does not see, and renames it there (after a transfer the new owner could). The old
project's alarm list, offline log, load events, and alarm, availability and control reports (and
their workbooks) still count the gateway's past there, by its serial number, under no building.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from sqlalchemy import update

from powerportal.alarms.models import Alarm
from powerportal.control.models import Command
from powerportal.gateways.models import MOVED_AWAY, Gateway
from powerportal.load_ident.models import LoadEvent
from tests.conftest import Harness
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
from tests.reports.helpers import R, export, last_month

SECRETS = ("机密实验楼", "机密网关")


async def _moved(h: Harness) -> tuple[Account, int, str]:
    """The guest (a whole-project sharee), the project it sees, and a day of last month's report."""
    owner = await make_account(h, "13900000101")
    guest = await make_account(h, "13900000102")
    shown = await make_project(h, owner.sysno, name="共享园区")
    hidden = await make_project(h, owner.sysno, name="私有园区")
    east = await make_building(h, shown, "东楼")
    secret = await make_building(h, hidden, "机密实验楼")
    gateway = await make_gateway(h, shown, east, sn="MOVE0001", name="东楼网关")
    device = await make_device(h, gateway, shown, device_id="1", name="101宿舍")
    first, first_day, _ = last_month()
    at = first + timedelta(days=2, hours=3)
    alarm = await make_alarm(h, shown, gateway, device, "过流")
    await make_offline_log(
        h, shown, gateway, target_name="东楼网关", offline_time=at, online_time=at + timedelta(hours=1)
    )
    row = {"project_sysno": shown, "gateway_sysno": gateway, "device_sysno": device, "device_id": "1"}
    async with h.ctx.sessions() as session:
        session.add(
            Command(**row, source="manual", operator="管理员", target_name="101宿舍", gateway_sn="MOVE0001",
                    action="switch_off", status="succeeded", create_time=at)
        )  # fmt: skip
        session.add(
            LoadEvent(**row, building_sysno=east, target_name="101宿舍", event_time=at, code="appliance_on",
                      delta_power=1800.0, power=1800.0, appliance="电水壶", confidence=0.9, forbidden=1,
                      whitelisted=0, action="record", detail={})
        )  # fmt: skip
        await session.execute(update(Alarm).where(Alarm.sysno == alarm).values(start_time=at))
        await session.commit()
    invited = await h.post(
        "/api/CustomerShare/AddShare", {"project_sysno": shown, "mobile": guest.mobile}, owner.token
    )
    assert invited["statusCode"] == 200, invited
    accepted = await h.post(
        "/api/CustomerShare/AcceptShare", {"sysno": invited["data"]["sysno"]}, guest.token
    )
    assert accepted["statusCode"] == 200, accepted
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway",
        {"sysno": gateway, "project_sysno": hidden, "building_sysno": secret},
        owner.token,
    )
    assert moved["statusCode"] == 200, moved
    async with h.ctx.sessions() as session:  # renamed where it is now
        await session.execute(update(Gateway).where(Gateway.sysno == gateway).values(name="机密网关"))
        await session.commit()
    return guest, shown, first_day


def _clean(found: Any) -> str:
    text = json.dumps(found, ensure_ascii=False, default=str)
    for secret in SECRETS:
        assert secret not in text, text
    return text


async def test_lists_and_reports_of_the_old_project_name_neither_the_new_name_nor_the_new_building(
    harness: Harness,
) -> None:
    h = harness
    guest, shown, day = await _moved(h)
    for path in (
        "/api/CustomerAlarm/GetAlarmList",
        "/api/CustomerOfflineLog/GetOfflineLogList",
        "/api/CustomerLoadIdentify/GetLoadEventList",
    ):
        page = await h.post(path, {"pageIndex": 1, "pageSize": 10}, guest.token)
        assert page["statusCode"] == 200, (path, page)
        (row,) = page["data"]["dataSource"]
        assert row["gateway_name"] == MOVED_AWAY, (path, row)
        _clean(row)
    body = {"project_sysno": shown, "view": "month", "date": day}
    for report in ("Alarm", "Availability", "Control"):
        answer = await h.post(f"{R}/Get{report}Report", body, guest.token)
        assert answer["statusCode"] == 200, (report, answer)
        _clean(answer["data"])
        response, book = await export(h, f"Export{report}Report", body, guest.token)
        assert book is not None, (report, response.text)
        _clean([c for sheet in book.worksheets for r in sheet.iter_rows(values_only=True) for c in r if c])
    alarms = (await h.post(f"{R}/GetAlarmReport", body, guest.token))["data"]
    assert alarms["total"] == 1
    assert [(b["building_sysno"], b["name"], b["count"]) for b in alarms["by_building"]] == [
        (None, "未分配建筑", 1)
    ]
    control = (await h.post(f"{R}/GetControlReport", body, guest.token))["data"]
    assert [(g["gateway_sn"], g["gateway_name"]) for g in control["gateways"]] == [("MOVE0001", MOVED_AWAY)]
