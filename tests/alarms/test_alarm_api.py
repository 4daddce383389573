"""The CustomerAlarm calls: list, detail, processing, statistics, and a second customer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.logs.models import OperationLog
from tests.conftest import Harness, make_settings, start_harness
from tests.factories import make_account, make_device, make_gateway, make_project

ALARM = "/api/CustomerAlarm"
T0 = datetime(2026, 11, 20, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai


async def make_alarm(
    h: Harness,
    project: int,
    gateway: int,
    device: int | None,
    alarm_type: str,
    start: datetime,
    **fields: object,
) -> int:
    async with h.ctx.sessions() as session:
        alarm = Alarm(
            project_sysno=project,
            gateway_sysno=gateway,
            device_sysno=device,
            device_id=str(fields.pop("device_id", "1")),
            target_name=str(fields.pop("target_name", "101宿舍")),
            alarm_type=alarm_type,
            level=int(fields.pop("level", 3)),  # type: ignore[call-overload]
            source=str(fields.pop("source", "rule")),
            detail=str(fields.pop("detail", f"{alarm_type} 告警")),
            start_time=start,
            **fields,
        )
        session.add(alarm)
        await session.flush()
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=project,
                    notice_type=2,
                    device_id=alarm.device_id,
                    detail=alarm.detail,
                    source_sysno=alarm.sysno,
                )
            ],
        )
        await session.commit()
        return alarm.sysno


async def test_list_filters_detail_and_processing(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="一号园区")
    other_project = await make_project(harness, me.sysno, name="二号园区")
    gateway = await make_gateway(harness, project, sn="ALGW0001", name="配电房")
    other_gateway = await make_gateway(harness, other_project, sn="ALGW0002")
    device = await make_device(harness, gateway, project, device_id="1", name="101宿舍")
    current = await make_alarm(
        harness, project, gateway, device, "over_current", T0, value=47.0, threshold=40.0
    )
    leak = await make_alarm(
        harness,
        project,
        gateway,
        device,
        "leakage",
        T0 + timedelta(hours=1),
        end_time=T0 + timedelta(hours=2),
    )
    offline = await make_alarm(
        harness,
        other_project,
        other_gateway,
        None,
        "offline",
        T0 - timedelta(days=1),
        level=1,
        source="offline",
        device_id="ALGW0002",
        target_name="网关",
    )

    async def found(**filters: object) -> list[int]:
        body = await harness.post(f"{ALARM}/GetAlarmList", filters, token=me.token)
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]["dataSource"]]

    assert await found() == [leak, current, offline]
    assert await found(sort="asc") == [offline, current, leak]
    assert await found(project_sysno=other_project) == [offline]
    assert await found(alarm_type="over_current") == [current]
    assert await found(state=0) == [current, offline]
    assert await found(state=1) == [leak]
    assert await found(level=1) == [offline]
    assert await found(start_time="2026-11-20", end_time="2026-11-20") == [leak, current]
    assert await found(keyword="ALGW0002") == [offline]
    assert await found(keyword="%") == []

    single = await harness.call("GET", f"{ALARM}/GetSingleAlarm", token=me.token, params={"sysno": current})
    row = single["data"]
    assert row["alarm_type_name"] == "过流" and row["level_name"] == "紧急" and row["unit"] == "A"
    assert row["start_time"] == "2026-11-20 10:00:00" and row["end_time"] is None and row["state"] == 0
    assert row["project_name"] == "一号园区" and row["gateway_sn"] == "ALGW0001" and row["value"] == 47.0
    assert row["process_state"] == 0

    done = await harness.post(
        f"{ALARM}/ProcessAlarm", {"sysno": [current, leak], "remark": "已派人检修"}, token=me.token
    )
    assert done["statusCode"] == 200 and done["data"] == {"count": 2} and done["message"] == "处理成功"
    assert await found(process_state=0) == [offline]
    again = await harness.post(
        f"{ALARM}/ProcessAlarm", {"sysno": [current], "remark": "再次"}, token=me.token
    )
    assert again["data"] == {"count": 0}
    single = await harness.call("GET", f"{ALARM}/GetSingleAlarm", token=me.token, params={"sysno": current})
    assert single["data"]["process_remark"] == "已派人检修" and single["data"]["process_time"]
    async with harness.ctx.sessions() as session:
        read = dict(
            (await session.execute(select(CustomerNotice.source_sysno, CustomerNotice.is_read))).all()
        )
        logged = (
            await session.scalars(select(OperationLog.detail).where(OperationLog.operate_type == 40))
        ).all()
    assert read == {current: 1, leak: 1, offline: 0}
    assert len(logged) == 1 and "处理告警 2 条" in logged[0] and "已派人检修" in logged[0]

    types = await harness.call("GET", f"{ALARM}/GetAlarmType", token=me.token)
    assert {"value": "over_current", "label": "过流", "level": 3, "level_name": "紧急"} in types["data"]


async def test_bad_input_and_second_customer(harness: Harness) -> None:
    me = await make_account(harness)
    other = await make_account(harness, mobile="13900000002")
    project = await make_project(harness, me.sysno)
    gateway = await make_gateway(harness, project, sn="ALGW0003")
    alarm = await make_alarm(harness, project, gateway, None, "offline", T0)
    for body in (
        {"sysno": []},
        {"sysno": [alarm], "remark": "x" * 201},
        {"sysno": "1"},
        {"sysno": [alarm, 99999]},
    ):
        answer = await harness.post(f"{ALARM}/ProcessAlarm", body, token=me.token)
        assert answer["statusCode"] in (400, 404), (body, answer)
    for body in ({"state": 2}, {"start_time": "yesterday"}, {"pageSize": 1000}, {"start_time": "2026-13-45"}):
        answer = await harness.post(f"{ALARM}/GetAlarmList", body, token=me.token)
        assert answer["statusCode"] == 400, (body, answer)
    # The second customer sees, processes and counts nothing.
    listed = await harness.post(f"{ALARM}/GetAlarmList", {}, token=other.token)
    assert listed["data"] == {"dataSource": [], "totalCount": 0}
    single = await harness.call("GET", f"{ALARM}/GetSingleAlarm", token=other.token, params={"sysno": alarm})
    assert single["statusCode"] == 404 and single["message"] == "告警不存在或无权访问"
    process = await harness.post(f"{ALARM}/ProcessAlarm", {"sysno": [alarm]}, token=other.token)
    assert process["statusCode"] == 404
    stats = await harness.post(f"{ALARM}/GetAlarmStatistics", {"start_time": "2026-11-01"}, token=other.token)
    assert stats["data"]["total"] == 0 and stats["data"]["top_devices"] == []
    async with harness.ctx.sessions() as session:
        row = await session.get(Alarm, alarm)
    assert row is not None and row.process_state == 0
    for method, path in (
        ("POST", f"{ALARM}/GetAlarmList"),
        ("GET", f"{ALARM}/GetSingleAlarm?sysno=1"),
        ("GET", f"{ALARM}/GetAlarmType"),
        ("POST", f"{ALARM}/ProcessAlarm"),
        ("POST", f"{ALARM}/GetAlarmStatistics"),
    ):
        answer = await harness.call(method, path, json={"sysno": [alarm]} if method == "POST" else None)
        assert answer["statusCode"] == 401


async def test_statistics(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="一号园区")
    gateway = await make_gateway(harness, project, sn="ALGW0004")
    device = await make_device(harness, gateway, project, device_id="1", name="101宿舍")
    await make_alarm(harness, project, gateway, device, "over_current", T0)
    await make_alarm(harness, project, gateway, device, "over_current", T0 + timedelta(days=1))
    await make_alarm(
        harness,
        project,
        gateway,
        None,
        "offline",
        T0 + timedelta(hours=15),
        level=1,
        device_id="ALGW0004",
        target_name="网关",
    )  # 17:00 UTC = 01:00 next day in Shanghai
    body = await harness.post(
        f"{ALARM}/GetAlarmStatistics", {"start_time": "2026-11-19", "end_time": "2026-11-22"}, token=me.token
    )
    assert body["statusCode"] == 200, body
    data = body["data"]
    assert data["total"] == 3 and data["active"] == 3 and data["unprocessed"] == 3
    by_type = {row["alarm_type"]: row["count"] for row in data["by_type"]}
    assert by_type["over_current"] == 2 and by_type["offline"] == 1 and by_type["leakage"] == 0
    assert [(d["day"], d["count"]) for d in data["by_day"]] == [
        ("2026-11-19", 0),
        ("2026-11-20", 1),
        ("2026-11-21", 2),
        ("2026-11-22", 0),
    ]
    assert data["by_project"] == [{"project_sysno": project, "project_name": "一号园区", "count": 3}]
    assert data["top_devices"][0]["device_sysno"] == device and data["top_devices"][0]["count"] == 2
    assert {row["label"]: row["count"] for row in data["by_level"]} == {"提示": 1, "重要": 0, "紧急": 2}
    bad = await harness.post(
        f"{ALARM}/GetAlarmStatistics", {"start_time": "2026-11-22", "end_time": "2026-11-01"}, token=me.token
    )
    assert bad["statusCode"] == 400
    too_long = await harness.post(f"{ALARM}/GetAlarmStatistics", {"start_time": "2020-01-01"}, token=me.token)
    assert too_long["statusCode"] == 400


async def test_statistics_follow_the_alarm_detail_flag(database_url: str) -> None:
    # Brand 5 is the rental brand without alarm detail (brands.json).
    async for h in start_harness(make_settings(database_url, brand=5)):
        me = await make_account(h)
        body = await h.post(f"{ALARM}/GetAlarmStatistics", {}, token=me.token)
        assert body["statusCode"] == 403 and body["message"] == "当前版本未开放告警统计"
