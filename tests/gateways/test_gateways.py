"""Gateway routes."""

from __future__ import annotations

from sqlalchemy import select

from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OperationLog
from powerportal.logs.recording import OperateType
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

API = "/api/CustomerGateway"


async def _secret_matches(h: Harness, sysno: int, secret: str) -> bool:
    async with h.ctx.sessions() as session:
        gateway = await session.get(Gateway, sysno)
        assert gateway is not None
        assert secret not in gateway.secret_hash
        return await h.ctx.passwords.verify(gateway.secret_hash, secret)


async def test_register_shows_secret_once_and_stores_its_hash(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="园区")
    building = await make_building(harness, project, name="A栋")
    body = {"sn": "PP-GW-0001", "name": "配电房网关", "project_sysno": project, "building_sysno": building}
    added = await harness.post(f"{API}/AddGateway", body, token=me.token)
    assert added["statusCode"] == 200, added
    data = added["data"]
    assert data["sn"] == "PP-GW-0001" and data["mqtt_username"] == "PP-GW-0001"
    assert data["project_name"] == "园区" and data["building_name"] == "A栋"
    assert data["online"] == 0 and data["last_seen"] is None and data["device_count"] == 0
    assert len(data["secret"]) >= 20
    assert await _secret_matches(harness, data["sysno"], data["secret"])

    single = await harness.call(
        "GET", f"{API}/GetSingleGateway", token=me.token, params={"sysno": data["sysno"]}
    )
    assert single["statusCode"] == 200 and "secret" not in single["data"]
    listed = await harness.post(f"{API}/GetGatewayList", {}, token=me.token)
    assert all("secret" not in row and "secret_hash" not in row for row in listed["data"]["dataSource"])

    reset = await harness.post(f"{API}/ResetGatewaySecret", {"sysno": data["sysno"]}, token=me.token)
    assert reset["statusCode"] == 200 and reset["data"]["secret"] != data["secret"]
    assert await _secret_matches(harness, data["sysno"], reset["data"]["secret"])
    assert not await _secret_matches(harness, data["sysno"], data["secret"])


async def test_register_errors(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    other_project = await make_project(harness, me.sysno)
    foreign_building = await make_building(harness, other_project)
    await make_gateway(harness, project, sn="TAKEN-001")
    dup = await harness.post(
        f"{API}/AddGateway", {"sn": "TAKEN-001", "name": "x", "project_sysno": project}, token=me.token
    )
    assert (
        dup["statusCode"] == 409 and dup["message"] == "序列号 TAKEN-001 已被注册，请核对网关铭牌上的序列号"
    )
    # A case variant of a registered serial number is another customer's nameplate, not a new gateway.
    variant = await harness.post(
        f"{API}/AddGateway", {"sn": "taken-001", "name": "x", "project_sysno": project}, token=me.token
    )
    assert variant["statusCode"] == 409 and variant["message"].startswith("序列号 taken-001 已被注册")
    bad_sn = await harness.post(
        f"{API}/AddGateway", {"sn": "gw/1/#", "name": "x", "project_sysno": project}, token=me.token
    )
    assert bad_sn["statusCode"] == 400 and bad_sn["message"] == "网关序列号格式不正确"
    short = await harness.post(
        f"{API}/AddGateway", {"sn": "ab", "name": "x", "project_sysno": project}, token=me.token
    )
    assert short["statusCode"] == 400
    no_project = await harness.post(
        f"{API}/AddGateway", {"sn": "NEW-0001", "name": "x", "project_sysno": 99999}, token=me.token
    )
    assert no_project["statusCode"] == 404 and no_project["message"] == "项目不存在或无权访问"
    wrong_building = await harness.post(
        f"{API}/AddGateway",
        {"sn": "NEW-0001", "name": "x", "project_sysno": project, "building_sysno": foreign_building},
        token=me.token,
    )
    assert wrong_building["statusCode"] == 404 and wrong_building["message"] == "楼栋不存在或无权访问"
    wrong_type = await harness.post(
        f"{API}/AddGateway", {"sn": "NEW-0001", "name": "x", "project_sysno": "one"}, token=me.token
    )
    assert wrong_type["message"] == "项目编号应为整数"
    for path, method in (("GetSingleGateway", "GET"), ("DeleteGateway", "DELETE")):
        missing = await harness.call(method, f"{API}/{path}", token=me.token, params={"sysno": 99999})
        assert missing["statusCode"] == 404 and missing["message"] == "网关不存在或无权访问"
    for path in ("UpdateGateway", "MoveGateway"):
        missing = await harness.put(
            f"{API}/{path}", {"sysno": 99999, "name": "x", "project_sysno": project}, token=me.token
        )
        assert missing["statusCode"] == 404
    missing_reset = await harness.post(f"{API}/ResetGatewaySecret", {"sysno": 99999}, token=me.token)
    assert missing_reset["statusCode"] == 404


async def test_list_filters_and_counts(harness: Harness) -> None:
    me = await make_account(harness)
    first = await make_project(harness, me.sysno, name="一号")
    second = await make_project(harness, me.sysno, name="二号")
    building = await make_building(harness, first)
    a = await make_gateway(harness, first, building_sysno=building, sn="ALPHA-01", name="甲网关", online=True)
    b = await make_gateway(harness, first, sn="BETA-02", name="乙网关")
    c = await make_gateway(harness, second, sn="GAMMA-03", name="丙网关")
    await make_device(harness, a, first, online=1)
    await make_device(harness, a, first, online=0)

    async def ids(**filters: object) -> list[int]:
        body = await harness.post(
            f"{API}/GetGatewayList", {"orderBy": "sysno", "sort": "asc", **filters}, token=me.token
        )
        assert body["statusCode"] == 200, body
        return [row["sysno"] for row in body["data"]["dataSource"]]

    assert await ids() == [a, b, c]
    assert await ids(project_sysno=first) == [a, b]
    assert await ids(building_sysno=building) == [a]
    assert await ids(online=1) == [a]
    assert await ids(online=0) == [b, c]
    assert await ids(name="乙") == [b]
    assert await ids(sn="gamma") == [c]
    page = await harness.post(f"{API}/GetGatewayList", {"pageSize": 2, "pageIndex": 2}, token=me.token)
    assert page["data"]["totalCount"] == 3 and len(page["data"]["dataSource"]) == 1
    row = (await harness.post(f"{API}/GetGatewayList", {"sn": "ALPHA"}, token=me.token))["data"][
        "dataSource"
    ][0]
    assert row["device_count"] == 2 and row["online_device_count"] == 1 and row["online"] == 1
    assert row["project_name"] == "一号" and row["building_sysno"] == building
    bad = await harness.post(f"{API}/GetGatewayList", {"online": 5}, token=me.token)
    assert bad["statusCode"] == 400


async def test_update_move_delete(harness: Harness) -> None:
    me = await make_account(harness)
    first = await make_project(harness, me.sysno, name="一号")
    second = await make_project(harness, me.sysno, name="二号")
    b1 = await make_building(harness, first)
    b2 = await make_building(harness, second, name="目标楼")
    gateway = await make_gateway(harness, first, building_sysno=b1, sn="MOVE-001", name="旧名")
    device = await make_device(harness, gateway, first)

    updated = await harness.put(
        f"{API}/UpdateGateway", {"sysno": gateway, "name": "新名", "remark": "备注"}, token=me.token
    )
    assert updated["statusCode"] == 200
    assert updated["data"]["name"] == "新名" and updated["data"]["building_sysno"] == b1
    assert updated["data"]["remark"] == "备注"
    unhoused = await harness.put(
        f"{API}/UpdateGateway", {"sysno": gateway, "name": "新名", "building_sysno": None}, token=me.token
    )
    assert unhoused["data"]["building_sysno"] is None and unhoused["data"]["remark"] == "备注"
    wrong_building = await harness.put(
        f"{API}/UpdateGateway", {"sysno": gateway, "name": "新名", "building_sysno": b2}, token=me.token
    )
    assert wrong_building["statusCode"] == 404

    moved = await harness.put(
        f"{API}/MoveGateway",
        {"sysno": gateway, "project_sysno": second, "building_sysno": b2},
        token=me.token,
    )
    assert moved["statusCode"] == 200
    assert moved["data"]["project_name"] == "二号" and moved["data"]["building_name"] == "目标楼"
    async with harness.ctx.sessions() as session:
        assert (await session.get(Device, device)).project_sysno == second  # type: ignore[union-attr]
    bad_move = await harness.put(
        f"{API}/MoveGateway", {"sysno": gateway, "project_sysno": first, "building_sysno": b2}, token=me.token
    )
    assert bad_move["statusCode"] == 404

    deleted = await harness.call("DELETE", f"{API}/DeleteGateway", token=me.token, params={"sysno": gateway})
    assert deleted["statusCode"] == 200
    async with harness.ctx.sessions() as session:
        assert await session.get(Device, device) is None
        details = list(
            await session.scalars(
                select(OperationLog.detail)
                .where(OperationLog.operate_type == int(OperateType.GATEWAY))
                .order_by(OperationLog.sysno)
            )
        )
    assert details == [
        "修改网关：新名（MOVE-001）",
        "修改网关：新名（MOVE-001）",
        "移动网关：新名（MOVE-001）到项目：二号",
        "删除网关：新名（MOVE-001）",
    ]


async def test_ids_beyond_64_bits_are_input_errors(harness: Harness) -> None:
    me = await make_account(harness)
    huge = 2**64
    calls = [
        ("/api/CustomerGateway/GetGatewayList", {"project_sysno": huge}),
        ("/api/CustomerDevice/GetDeviceList", {"gateway_sysno": huge}),
        ("/api/CustomerOfflineLog/GetOfflineLogList", {"project_sysno": huge}),
        ("/api/CustomerProject/AddBuilding", {"project_sysno": huge, "name": "x"}),
    ]
    for path, body in calls:
        answer = await harness.post(path, body, token=me.token)
        assert answer["statusCode"] == 400 and "过大" in answer["message"], (path, answer)
    for path in ("/api/CustomerProject/GetSingleProject", "/api/CustomerGateway/GetSingleGateway"):
        answer = await harness.call("GET", path, token=me.token, params={"sysno": huge})
        assert answer["statusCode"] == 400, (path, answer)
