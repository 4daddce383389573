"""Shares: invitation, acceptance, what a sharee sees and may do, revocation, leaving, expiry."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select, update

from powerportal.accounts.models import Customer
from powerportal.alarms.models import CustomerNotice
from powerportal.control import commands
from powerportal.core.timeutil import utcnow
from powerportal.logs.models import OperationLog
from powerportal.shares.models import ProjectShare
from tests.conftest import Harness
from tests.factories import Account, make_account, make_building, make_device, make_gateway, make_project

SHARE = "/api/CustomerShare"
PROJECT = "/api/CustomerProject"


async def _share(h: Harness, owner: Account, project: int, mobile: str, **fields: object) -> int:
    body = await h.post(
        f"{SHARE}/AddShare", {"project_sysno": project, "mobile": mobile, **fields}, token=owner.token
    )
    assert body["statusCode"] == 200, body
    sysno: int = body["data"]["sysno"]
    return sysno


async def _names(h: Harness, who: Account) -> list[str]:
    page = await h.post(f"{PROJECT}/GetProjectList", {}, token=who.token)
    return [row["name"] for row in page["data"]["dataSource"]]


async def test_invitation_accepted_gives_access_until_revoked(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    guest = await make_account(harness, "13900000002")
    project = await make_project(harness, owner.sysno, name="共享项目")
    sysno = await _share(harness, owner, project, guest.mobile, permission=1, remark="看看")

    # Invited: a notice and a list entry, but no access yet.
    async with harness.ctx.sessions() as session:
        notice = await session.scalar(
            select(CustomerNotice).where(CustomerNotice.customer_sysno == guest.sysno)
        )
    assert notice is not None and "共享项目" in notice.notice_detail and notice.notice_type == 6
    received = await harness.post(f"{PROJECT}/ShareProjectList", {"direction": "received"}, token=guest.token)
    row = received["data"]["dataSource"][0]
    assert received["data"]["totalCount"] == 1
    assert (row["state"], row["direction"], row["project_name"]) == ("pending", "received", "共享项目")
    assert row["owner_mobile"] == owner.mobile and row["permission_name"] == "仅查看"
    assert await _names(harness, guest) == []

    accepted = await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=guest.token)
    assert accepted["statusCode"] == 200, accepted
    assert await _names(harness, guest) == ["共享项目"]
    # Marked as shared, with the owner's name, in the list, the tree and the filter options.
    row = (await harness.post(f"{PROJECT}/GetProjectList", {}, token=guest.token))["data"]["dataSource"][0]
    assert (row["is_shared"], row["owner_name"]) == (True, "测试用户")
    mine = (await harness.post(f"{PROJECT}/GetProjectList", {}, token=owner.token))["data"]["dataSource"][0]
    assert mine["is_shared"] is False
    tree = (await harness.post(f"{PROJECT}/GetProjectAndBuildingGatewayList", {}, token=guest.token))["data"]
    assert [(n["name"], n["owner_name"]) for n in tree] == [("共享项目", "测试用户")]
    options = (await harness.post(f"{PROJECT}/GetFilterProjectList", {}, token=guest.token))["data"]
    assert options == [{"sysno": project, "name": "共享项目", "owner_name": "测试用户", "can_control": False}]
    single = await harness.call(
        "GET", f"{PROJECT}/GetSingleProject", token=guest.token, params={"sysno": project}
    )
    assert single["statusCode"] == 200
    # Seeing is not editing.
    edit = await harness.put(
        f"{PROJECT}/UpdateProject", {"sysno": project, "name": "改名"}, token=guest.token
    )
    assert edit["statusCode"] == 404
    again = await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=guest.token)
    assert again["statusCode"] == 400 and "已生效" in again["message"]

    given = await harness.post(f"{PROJECT}/ShareProjectList", {"direction": "given"}, token=owner.token)
    assert [r["state"] for r in given["data"]["dataSource"]] == ["accepted"]
    # Only the owner revokes.
    refused = await harness.post(f"{SHARE}/RevokeShare", {"sysno": sysno}, token=guest.token)
    assert refused["statusCode"] == 404
    revoked = await harness.post(f"{SHARE}/RevokeShare", {"sysno": sysno}, token=owner.token)
    assert revoked["statusCode"] == 200
    assert await _names(harness, guest) == []
    single = await harness.call(
        "GET", f"{PROJECT}/GetSingleProject", token=guest.token, params={"sysno": project}
    )
    assert single["statusCode"] == 404
    state = await harness.post(f"{PROJECT}/ShareProjectList", {"state": "revoked"}, token=guest.token)
    assert state["data"]["totalCount"] == 1
    async with harness.ctx.sessions() as session:
        details = list(
            await session.scalars(
                select(OperationLog.detail).where(OperationLog.customer_sysno == owner.sysno)
            )
        )
    assert any("接受了项目「共享项目」的共享" in d for d in details), details


async def test_bad_invitations_change_nothing(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    guest = await make_account(harness, "13900000002")
    project = await make_project(harness, owner.sysno)
    other = await make_project(harness, guest.sysno)
    other_building = await make_building(harness, other)
    cases = [
        ({"project_sysno": project, "mobile": "13900000009"}, "该手机号尚未注册账号"),
        ({"project_sysno": project, "mobile": owner.mobile}, "不能共享给自己"),
        ({"project_sysno": other, "mobile": guest.mobile}, "项目不存在或无权访问"),
        (
            {"project_sysno": project, "mobile": guest.mobile, "building_sysnos": [other_building]},
            "所选楼栋不属于该项目",
        ),
        (
            {"project_sysno": project, "mobile": guest.mobile, "expire_date": "2020-01-01"},
            "到期日期不能早于今天",
        ),
        ({"project_sysno": project, "mobile": guest.mobile, "expire_date": "2030-02-30"}, "到期日期不正确"),
    ]
    for payload, message in cases:
        body = await harness.post(f"{SHARE}/AddShare", payload, token=owner.token)
        assert body["statusCode"] != 200 and body["message"] == message, (payload, body)
    malformed = await harness.post(
        f"{SHARE}/AddShare", {"project_sysno": project, "mobile": "123"}, token=owner.token
    )
    assert malformed["statusCode"] == 400 and "手机" in malformed["message"]
    async with harness.ctx.sessions() as session:
        assert list(await session.scalars(select(ProjectShare))) == []
    await _share(harness, owner, project, guest.mobile)
    twice = await harness.post(
        f"{SHARE}/AddShare", {"project_sysno": project, "mobile": guest.mobile}, token=owner.token
    )
    assert twice["statusCode"] == 400 and "已向该账号共享" in twice["message"]


async def test_invitation_and_share_expire(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    guest = await make_account(harness, "13900000002")
    project = await make_project(harness, owner.sysno, name="限期项目")
    sysno = await _share(harness, owner, project, guest.mobile)
    async with harness.ctx.sessions() as session:
        await session.execute(update(ProjectShare).values(invite_expire_time=utcnow() - timedelta(seconds=1)))
        await session.commit()
    late = await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=guest.token)
    assert late["statusCode"] == 400 and "邀请已过期" in late["message"]
    listed = await harness.post(f"{PROJECT}/ShareProjectList", {}, token=owner.token)
    assert listed["data"]["dataSource"][0]["state"] == "expired"

    # A new invitation with an end date: access until then, none after.
    sysno = await _share(
        harness,
        owner,
        project,
        guest.mobile,
        expire_date=utcnow().astimezone(ZoneInfo("Asia/Shanghai")).date().isoformat(),
    )
    assert (await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=guest.token))[
        "statusCode"
    ] == 200
    assert await _names(harness, guest) == ["限期项目"]
    async with harness.ctx.sessions() as session:
        await session.execute(
            update(ProjectShare)
            .where(ProjectShare.sysno == sysno)
            .values(expire_time=utcnow() - timedelta(seconds=1))
        )
        await session.commit()
    assert await _names(harness, guest) == []


async def test_control_needs_the_control_permission_and_leaving_ends_it(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    viewer = await make_account(harness, "13900000002")
    operator = await make_account(harness, "13900000003")
    project = await make_project(harness, owner.sysno, name="控制项目")
    gateway = await make_gateway(harness, project, online=True)
    device = await make_device(harness, gateway, project, online=1, switch_state=1)
    for who, permission in ((viewer, 1), (operator, 2)):
        sysno = await _share(harness, owner, project, who.mobile, permission=permission)
        assert (await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=who.token))[
            "statusCode"
        ] == 200

    async def controllable(who: Account) -> list[int]:
        body = await harness.post("/api/CustomerControl/GetControllableDeviceList", {}, token=who.token)
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]]

    assert await controllable(viewer) == []
    assert await controllable(operator) == [device]
    refused = await harness.post(
        "/api/CustomerControl/SendCommand",
        {"device_sysno": device, "action": "switch_off"},
        token=viewer.token,
    )
    assert refused["statusCode"] == 404
    task = {
        "name": "夜间关断",
        "action": "switch_off",
        "repeat": "weekly",
        "times": ["23:00"],
        "weekdays": [1, 2, 3, 4, 5, 6, 7],
        "device_sysnos": [device],
    }
    viewer_task = await harness.post("/api/CustomerTimedTask/AddTask", task, token=viewer.token)
    assert viewer_task["statusCode"] != 200 and "设备" in viewer_task["message"], viewer_task
    operator_task = await harness.post("/api/CustomerTimedTask/AddTask", task, token=operator.token)
    assert operator_task["statusCode"] == 200, operator_task

    received = await harness.post(
        f"{PROJECT}/ShareProjectList", {"direction": "received"}, token=operator.token
    )
    share = received["data"]["dataSource"][0]["sysno"]
    left = await harness.post(f"{SHARE}/LeaveShare", {"sysno": share}, token=operator.token)
    assert left["statusCode"] == 200
    assert await controllable(operator) == []
    assert await _names(harness, operator) == []
    # The sharee's timed task and groups stop acting on the project: the scheduler's targets come
    # through the same access rule.
    async with harness.ctx.sessions() as session:
        owner_row = await session.get(Customer, operator.sysno)
        assert owner_row is not None
        assert await commands.load_targets(session=session, customer=owner_row, device_sysnos=[device]) == []


async def test_a_share_limited_to_buildings_controls_only_their_devices(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    operator = await make_account(harness, "13900000002")
    project = await make_project(harness, owner.sysno, name="两栋项目")
    east, west = await make_building(harness, project, "东楼"), await make_building(harness, project, "西楼")
    east_device = await make_device(
        harness, await make_gateway(harness, project, east, online=True), project, online=1
    )
    west_device = await make_device(
        harness, await make_gateway(harness, project, west, online=True), project, online=1
    )
    sysno = await _share(harness, owner, project, operator.mobile, permission=2, building_sysnos=[east])
    assert (await harness.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=operator.token))[
        "statusCode"
    ] == 200
    listed = await harness.post(f"{PROJECT}/ShareProjectList", {}, token=operator.token)
    assert listed["data"]["dataSource"][0]["building_names"] == ["东楼"]

    picks = await harness.post("/api/CustomerControl/GetControllableDeviceList", {}, token=operator.token)
    assert [d["sysno"] for d in picks["data"]] == [east_device]
    west_command = {"device_sysno": west_device, "action": "switch_off"}
    refused = await harness.post("/api/CustomerControl/SendCommand", west_command, token=operator.token)
    assert refused["statusCode"] == 404
    group = {"name": "西楼组", "device_sysnos": [west_device]}
    assert (await harness.post("/api/CustomerGroup/AddGroup", group, token=operator.token))[
        "statusCode"
    ] == 404
    async with harness.ctx.sessions() as session:
        me = await session.get(Customer, operator.sysno)
        assert me is not None
        targets = await commands.load_targets(
            session=session, customer=me, device_sysnos=[east_device, west_device]
        )
        assert [t.device_sysno for t in targets] == [east_device]
    # Seeing is limited alike (tests/shares/test_building_view.py): the east device alone is listed.
    devices = await harness.post("/api/CustomerDevice/GetDeviceList", {}, token=operator.token)
    assert {d["sysno"] for d in devices["data"]["dataSource"]} == {east_device}
    # The owner still reaches both.
    owner_picks = await harness.post("/api/CustomerControl/GetControllableDeviceList", {}, token=owner.token)
    assert {d["sysno"] for d in owner_picks["data"]} == {east_device, west_device}
