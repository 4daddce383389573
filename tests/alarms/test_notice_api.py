"""The CustomerNoctice calls exactly as the spec gives them, and what a second customer gets."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm, CustomerNotice, NoticeCounter
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from tests.conftest import Harness
from tests.factories import (
    make_account,
    make_alarm,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
)

NOTICE = "/api/CustomerNoctice"


async def seed(h: Harness, project: int, specs: list[tuple[int, str]]) -> list[int]:
    """Notices for the project's viewers, one per (type, detail), oldest first; their sysnos."""
    async with h.ctx.sessions() as session:
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=project, notice_type=t, device_id=str(i), detail=d, source_sysno=100 + i
                )
                for i, (t, d) in enumerate(specs)
            ],
        )
        rows = (await session.scalars(select(CustomerNotice).order_by(CustomerNotice.sysno))).all()
        # Distinct times, oldest first, so the order is testable.
        for i, row in enumerate(rows):
            row.create_time = row.create_time - timedelta(minutes=len(rows) - i)
        await session.commit()
        return [r.sysno for r in rows]


async def test_poll_pushes_each_notice_once_and_counts_unread(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    body = await harness.call("GET", f"{NOTICE}/GetNewNoticeNew", token=me.token)
    assert body["statusCode"] == 200
    assert body["data"]["unread_count"] == 0 and body["data"]["is_push"] == 0
    await seed(harness, project, [(3, "网关离线"), (2, "过流告警"), (3, "设备离线")])
    first = (await harness.call("GET", f"{NOTICE}/GetNewNoticeNew", token=me.token))["data"]
    # The alarm outranks the offline records of the same poll.
    assert first["unread_count"] == 3 and first["is_push"] == 1
    assert first["notice_type"] == 2 and first["notice_detail"] == "过流告警" and first["source_sysno"] == 101
    again = (await harness.call("GET", f"{NOTICE}/GetNewNoticeNew", token=me.token))["data"]
    assert again["is_push"] == 0 and again["unread_count"] == 3 and again["notice_detail"] is None


async def test_list_filters_sorts_and_pages(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    ids = await seed(harness, project, [(2, "a"), (3, "b"), (2, "c"), (2, "d")])

    async def page(**body: object) -> dict[str, object]:
        answer = await harness.post(f"{NOTICE}/GetNoticeList", body, token=me.token)
        assert answer["statusCode"] == 200, answer
        data: dict[str, object] = answer["data"]
        return data

    everything = await page(pageIndex=1, pageSize=10, total=0, custmoer_notice_type=[2, 3], is_read=None)
    assert everything["totalCount"] == 4
    rows = everything["dataSource"]
    assert isinstance(rows, list)
    assert [r["sysno"] for r in rows] == ids[::-1]
    assert set(rows[0]) == {
        "sysno",
        "device_id",
        "device_name",
        "gateway_name",
        "notice_detail",
        "create_time",
        "is_read",
        "notice_type",
        "source_sysno",
    }
    assert rows[0]["is_read"] == 0 and rows[0]["notice_detail"] == "d" and rows[0]["source_sysno"] == 103
    only_offline = await page(custmoer_notice_type=[3])
    assert only_offline["totalCount"] == 1
    assert await page(custmoer_notice_type=[]) == everything
    assert await page(custmoer_notice_type=None, is_read=None) == everything
    second = await page(pageIndex=2, pageSize=3)
    assert [r["sysno"] for r in second["dataSource"]] == [ids[0]]  # type: ignore[union-attr]
    ascending = await page(sort="asc")
    assert [r["sysno"] for r in ascending["dataSource"]] == ids  # type: ignore[union-attr]

    answer = await harness.post(
        f"{NOTICE}/Cus_BatchReadNotice", {"notice_sysno": ids[:2], "is_read": 1}, token=me.token
    )
    assert answer["statusCode"] == 200 and answer["message"] == "处理成功" and answer["data"] == {"count": 2}
    unread = await page(is_read=0)
    read = await page(is_read=1)
    assert unread["totalCount"] == 2 and read["totalCount"] == 2
    assert {r["sysno"] for r in read["dataSource"]} == set(ids[:2])  # type: ignore[union-attr]
    assert (await page(is_read=1, custmoer_notice_type=[2]))["totalCount"] == 1
    poll = await harness.call("GET", f"{NOTICE}/GetNewNoticeNew", token=me.token)
    assert poll["data"]["unread_count"] == 2
    # Reading again is harmless and changes no count.
    again = await harness.post(
        f"{NOTICE}/Cus_BatchReadNotice", {"notice_sysno": ids[:1], "is_read": 1}, token=me.token
    )
    assert again["data"] == {"count": 0}
    assert (await page(is_read=0))["totalCount"] == 2


async def test_bad_input_changes_nothing(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    ids = await seed(harness, project, [(2, "a")])
    for body in (
        {"notice_sysno": [], "is_read": 1},
        {"notice_sysno": ids, "is_read": 0},
        {"notice_sysno": ids, "is_read": 2},
        {"notice_sysno": "1", "is_read": 1},
        {"notice_sysno": [0], "is_read": 1},
        {"notice_sysno": [ids[0], 999999], "is_read": 1},
    ):
        answer = await harness.post(f"{NOTICE}/Cus_BatchReadNotice", body, token=me.token)
        assert answer["statusCode"] in (400, 404), (body, answer)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in answer["message"])
    for body in ({"is_read": 3}, {"pageSize": 0}, {"custmoer_notice_type": "2"}, {"pageIndex": -1}):
        answer = await harness.post(f"{NOTICE}/GetNoticeList", body, token=me.token)
        assert answer["statusCode"] == 400, (body, answer)
    async with harness.ctx.sessions() as session:
        assert (await session.scalars(select(CustomerNotice.is_read))).all() == [0]
        counter = await session.scalar(select(NoticeCounter))
    assert counter is not None and counter.unread == 1


async def test_second_customer_gets_nothing(harness: Harness) -> None:
    me = await make_account(harness)
    other = await make_account(harness, mobile="13900000002")
    project = await make_project(harness, me.sysno)
    ids = await seed(harness, project, [(2, "a"), (3, "b")])
    poll = await harness.call("GET", f"{NOTICE}/GetNewNoticeNew", token=other.token)
    assert poll["data"] == {
        "unread_count": 0,
        "is_push": 0,
        "notice_type": None,
        "notice_detail": None,
        "sysno": None,
        "source_sysno": None,
    }
    listed = await harness.post(f"{NOTICE}/GetNoticeList", {}, token=other.token)
    assert listed["data"] == {"dataSource": [], "totalCount": 0}
    answer = await harness.post(
        f"{NOTICE}/Cus_BatchReadNotice", {"notice_sysno": ids, "is_read": 1}, token=other.token
    )
    assert answer["statusCode"] == 404 and answer["message"] == "消息不存在或无权访问"
    mine = await harness.post(f"{NOTICE}/GetNoticeList", {"is_read": 0}, token=me.token)
    assert mine["data"]["totalCount"] == 2
    for method, path in (
        ("GET", f"{NOTICE}/GetNewNoticeNew"),
        ("POST", f"{NOTICE}/GetNoticeList"),
        ("POST", f"{NOTICE}/Cus_BatchReadNotice"),
    ):
        answer = await harness.call(method, path, json={} if method == "POST" else None)
        assert answer["statusCode"] == 401


async def test_list_names_the_device_and_gateway_of_each_notice(harness: Harness) -> None:
    """A bare bus address ("2") says little: each row carries its device's and gateway's names."""
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    gateway = await make_gateway(harness, project, name="配电房网关")
    device = await make_device(harness, gateway, project, device_id="2", name="101宿舍照明")
    offline = await make_offline_log(harness, project, gateway, device, target_name="101宿舍照明")
    async with harness.ctx.sessions() as session:
        alarm = Alarm(
            project_sysno=project,
            gateway_sysno=gateway,
            device_sysno=device,
            device_id="2",
            target_name="101宿舍照明",
            alarm_type="over_current",
            level=3,
            source="rule",
            detail="过流告警",
            start_time=utcnow(),
        )
        session.add(alarm)
        await session.flush()
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=project,
                    notice_type=2,
                    device_id="2",
                    detail="过流告警",
                    source_sysno=alarm.sysno,
                ),
                notices.NewNotice(
                    project_sysno=project,
                    notice_type=3,
                    device_id="2",
                    detail="设备离线",
                    source_sysno=offline,
                ),
                # An alarm deleted since: the notice stays, without names.
                notices.NewNotice(
                    project_sysno=project, notice_type=2, device_id="7", detail="旧告警", source_sysno=999_999
                ),
            ],
        )
        await session.commit()
    answer = await harness.post(f"{NOTICE}/GetNoticeList", {"pageIndex": 1, "pageSize": 10}, token=me.token)
    assert answer["statusCode"] == 200, answer
    rows = {r["notice_detail"]: r for r in answer["data"]["dataSource"]}
    assert answer["data"]["totalCount"] == 3 and len(rows) == 3
    for detail in ("过流告警", "设备离线"):
        assert rows[detail]["device_name"] == "101宿舍照明", rows[detail]
        assert rows[detail]["gateway_name"] == "配电房网关"
        assert rows[detail]["device_id"] == "2"
    assert rows["旧告警"]["device_name"] is None and rows["旧告警"]["gateway_name"] is None


async def test_a_notice_of_a_deleted_device_never_names_anothers(harness: Harness) -> None:
    """A notice outlives its alarm and offline spell; the next ones, anyone's, never take their ids."""
    x = await make_account(harness, "13900000041")
    y = await make_account(harness, "13900000042")
    mine = await make_project(harness, x.sysno, name="X项目")
    gateway = await make_gateway(harness, mine, online=True, name="X网关")
    device = await make_device(harness, gateway, mine, online=1)
    theirs = await make_project(harness, y.sysno, name="Y项目")
    their_gateway = await make_gateway(harness, theirs, online=True, name="Y的网关")
    their_device = await make_device(harness, their_gateway, theirs, online=1)
    alarm = await make_alarm(harness, mine, gateway, device, "过流", target_name="X断路器")
    spell = await make_offline_log(harness, mine, gateway, device, target_name="X断路器")
    async with harness.ctx.sessions() as session:
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(mine, notices.ALARM, "1", "X断路器过流", alarm, gateway_sysno=gateway),
                notices.NewNotice(mine, notices.OFFLINE, "1", "X断路器离线", spell, gateway_sysno=gateway),
            ],
        )
        await session.commit()
    gone = await harness.call(
        "DELETE", "/api/CustomerDevice/DeleteDevice", token=x.token, params={"sysno": device}
    )
    assert gone["statusCode"] == 200, gone
    assert (
        await make_alarm(harness, theirs, their_gateway, their_device, "过流", target_name="Y的断路器")
        > alarm
    )
    later = await make_offline_log(harness, theirs, their_gateway, their_device, target_name="Y的断路器")
    assert later > spell
    page = await harness.post("/api/CustomerNoctice/GetNoticeList", {"pageSize": 10}, x.token)
    assert [(r["device_name"], r["gateway_name"]) for r in page["data"]["dataSource"]] == [(None, None)] * 2


async def test_a_notice_never_names_its_gateway_after_it_left_the_project(harness: Harness) -> None:
    """A gateway moved on (to a project since transferred, say) is renamed by others: old notices omit it."""
    x = await make_account(harness, "13900000043")
    y = await make_account(harness, "13900000044")
    mine = await make_project(harness, x.sysno, name="X项目")
    gateway = await make_gateway(harness, mine, online=True, name="X网关")
    device = await make_device(harness, gateway, mine, online=1)
    alarm = await make_alarm(harness, mine, gateway, device, "过流", target_name="X断路器")
    async with harness.ctx.sessions() as session:
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(mine, notices.ALARM, "1", "X断路器过流", alarm, gateway_sysno=gateway)
            ],
        )
        await session.commit()
    page = await harness.post("/api/CustomerNoctice/GetNoticeList", {"pageSize": 10}, x.token)
    assert [r["gateway_name"] for r in page["data"]["dataSource"]] == ["X网关"]
    theirs = await make_project(harness, y.sysno, name="Y项目")
    async with harness.ctx.sessions() as session:
        await session.execute(
            update(Gateway).where(Gateway.sysno == gateway).values(project_sysno=theirs, name="Y的机密网关")
        )
        await session.execute(update(Device).where(Device.sysno == device).values(project_sysno=theirs))
        await session.commit()
    page = await harness.post("/api/CustomerNoctice/GetNoticeList", {"pageSize": 10}, x.token)
    assert "Y的机密网关" not in str(page)
    assert [(r["device_name"], r["gateway_name"]) for r in page["data"]["dataSource"]] == [("X断路器", None)]
