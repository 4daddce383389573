"""Project and building routes."""

from __future__ import annotations

from sqlalchemy import func, select

from powerportal.logs.models import OperationLog
from powerportal.logs.recording import OperateType
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

API = "/api/CustomerProject"
NEW_PROJECT = {
    "name": "一号园区",
    "address": "杭州市西湖区",
    "longitude": 120.1,
    "latitude": 30.2,
    "contact_name": "张工",
    "contact_phone": "0571-88888888",
    "remark": "试点",
}


async def test_add_get_update_delete_project(harness: Harness) -> None:
    me = await make_account(harness)
    added = await harness.post(f"{API}/AddProject", NEW_PROJECT, token=me.token)
    assert added["statusCode"] == 200, added
    sysno = added["data"]["sysno"]
    assert added["data"]["name"] == "一号园区" and added["data"]["list_child"] == []
    single = await harness.call("GET", f"{API}/GetSingleProject", token=me.token, params={"sysno": sysno})
    assert single["data"]["contact_phone"] == "0571-88888888"
    assert single["data"]["longitude"] == 120.1
    updated = await harness.put(
        f"{API}/UpdateProject",
        {**NEW_PROJECT, "sysno": sysno, "name": "二号园区", "remark": ""},
        token=me.token,
    )
    assert updated["statusCode"] == 200 and updated["data"]["name"] == "二号园区"
    assert updated["data"]["remark"] is None
    deleted = await harness.call("DELETE", f"{API}/DeleteProject", token=me.token, params={"sysno": sysno})
    assert deleted["statusCode"] == 200
    gone = await harness.call("GET", f"{API}/GetSingleProject", token=me.token, params={"sysno": sysno})
    assert gone["statusCode"] == 404 and gone["message"] == "项目不存在或无权访问"
    async with harness.ctx.sessions() as session:
        details = list(
            await session.scalars(
                select(OperationLog.detail)
                .where(OperationLog.operate_type == int(OperateType.PROJECT))
                .order_by(OperationLog.sysno)
            )
        )
    assert details == ["新增项目：一号园区", "修改项目：二号园区", "删除项目：二号园区"]


async def test_project_validation(harness: Harness) -> None:
    me = await make_account(harness)
    empty = await harness.post(f"{API}/AddProject", {"name": ""}, token=me.token)
    assert empty["statusCode"] == 400 and empty["message"] == "请填写项目名称"
    missing = await harness.post(f"{API}/AddProject", {}, token=me.token)
    assert missing["statusCode"] == 400 and missing["message"] == "请填写项目名称"
    bad_lng = await harness.post(f"{API}/AddProject", {"name": "x", "longitude": 200}, token=me.token)
    assert bad_lng["statusCode"] == 400 and bad_lng["message"] == "经度过大，不能大于 180"
    bad_type = await harness.post(f"{API}/AddProject", {"name": "x", "latitude": "north"}, token=me.token)
    assert bad_type["message"] == "纬度应为数字"
    phone_rule = "联系电话应为 11 位手机号码或带区号的座机号码（如 0755-12345678）"
    for typed in ("abc", "12345", "()()-", "1380000000", "23800000000", "0755-123", "+86 138 0000 0000"):
        bad_phone = await harness.post(
            f"{API}/AddProject", {"name": "x", "contact_phone": typed}, token=me.token
        )
        assert (bad_phone["statusCode"], bad_phone["message"]) == (400, phone_rule), typed
    long_name = await harness.post(f"{API}/AddProject", {"name": "甲" * 500}, token=me.token)
    assert long_name["message"] == "项目名称过长，最多 64 个字符，当前 500 个"
    long_remark = await harness.post(f"{API}/AddProject", {"name": "x", "remark": "乙" * 501}, token=me.token)
    assert long_remark["message"] == "备注过长，最多 500 个字符，当前 501 个"
    listed = await harness.post(f"{API}/GetProjectList", {}, token=me.token)
    assert listed["data"]["totalCount"] == 0, "nothing refused was stored, nothing cut to fit"
    for typed in ("13800000000", "0755-12345678", "01012345678", "020-8888888-123", "400-800-1234", ""):
        good = await harness.post(
            f"{API}/AddProject", {"name": f"电话{typed}", "contact_phone": typed}, token=me.token
        )
        assert good["statusCode"] == 200 and good["data"]["contact_phone"] == (typed or None), (typed, good)
    await harness.post(f"{API}/AddProject", {"name": "同名"}, token=me.token)
    dup = await harness.post(f"{API}/AddProject", {"name": "同名"}, token=me.token)
    assert dup["statusCode"] == 409 and "同名" in dup["message"]
    unknown = await harness.put(f"{API}/UpdateProject", {"sysno": 999999, "name": "x"}, token=me.token)
    assert unknown["statusCode"] == 404
    for odd in ("abc", "1_8", "+18", " 18", "18 ", "１８"):  # int() reads the middle four as 18
        bad_id = await harness.call("GET", f"{API}/GetSingleProject", token=me.token, params={"sysno": odd})
        assert bad_id["statusCode"] == 400 and bad_id["message"] == "编号应为整数", (odd, bad_id)
    zero = await harness.call("GET", f"{API}/GetSingleProject", token=me.token, params={"sysno": "0"})
    assert zero["statusCode"] == 400, zero
    no_id = await harness.call("DELETE", f"{API}/DeleteProject", token=me.token)
    assert no_id["statusCode"] == 400
    gone = await harness.call("DELETE", f"{API}/DeleteProject", token=me.token, params={"sysno": 424242})
    assert gone["statusCode"] == 404


async def test_login_required(harness: Harness) -> None:
    body = await harness.post(f"{API}/GetProjectList", {})
    assert body["statusCode"] == 401


async def test_delete_refused_while_gateways_remain(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="有网关")
    building = await make_building(harness, project)
    gateway = await make_gateway(harness, project, building_sysno=building)
    refused = await harness.call("DELETE", f"{API}/DeleteProject", token=me.token, params={"sysno": project})
    assert refused["statusCode"] == 400
    assert refused["message"] == "项目“有网关”下还有 1 个网关，请先删除或移走这些网关后再删除项目"
    b_refused = await harness.call(
        "DELETE", f"{API}/DeleteBuilding", token=me.token, params={"sysno": building}
    )
    assert b_refused["statusCode"] == 400 and "还有 1 个网关" in b_refused["message"]
    removed = await harness.call(
        "DELETE", "/api/CustomerGateway/DeleteGateway", token=me.token, params={"sysno": gateway}
    )
    assert removed["statusCode"] == 200
    assert (await harness.call("DELETE", f"{API}/DeleteProject", token=me.token, params={"sysno": project}))[
        "statusCode"
    ] == 200


async def test_project_list_with_buildings_and_counts(harness: Harness) -> None:
    me = await make_account(harness)
    first = await make_project(harness, me.sysno, name="A园区")
    second = await make_project(harness, me.sysno, name="B园区")
    building = await make_building(harness, first, name="A栋")
    await make_building(harness, first, name="B栋")
    gw_online = await make_gateway(harness, first, building_sysno=building, online=True)
    gw_offline = await make_gateway(harness, first)
    await make_device(harness, gw_online, first, online=1)
    await make_device(harness, gw_online, first, online=0)
    await make_device(harness, gw_offline, first, online=0)

    page = await harness.post(
        f"{API}/GetProjectList",
        {"pageIndex": 1, "pageSize": 10, "orderBy": "name", "sort": "asc"},
        token=me.token,
    )
    assert page["statusCode"] == 200
    assert page["data"]["totalCount"] == 2
    rows = page["data"]["dataSource"]
    assert [r["sysno"] for r in rows] == [first, second]
    assert [c["name"] for c in rows[0]["list_child"]] == ["A栋", "B栋"]
    assert rows[0]["list_child"][0]["gateway_count"] == 1 and "sysno" in rows[0]["list_child"][0]
    assert (rows[0]["gateway_count"], rows[0]["online_gateway_count"]) == (2, 1)
    assert (rows[0]["device_count"], rows[0]["online_device_count"]) == (3, 1)
    assert rows[1]["list_child"] == [] and rows[1]["device_count"] == 0

    desc = await harness.post(f"{API}/GetProjectList", {"orderBy": "name", "sort": "desc"}, token=me.token)
    assert [r["sysno"] for r in desc["data"]["dataSource"]] == [second, first]
    paged = await harness.post(f"{API}/GetProjectList", {"pageIndex": 2, "pageSize": 1}, token=me.token)
    assert paged["data"]["totalCount"] == 2 and len(paged["data"]["dataSource"]) == 1
    named = await harness.post(f"{API}/GetProjectList", {"name": "B"}, token=me.token)
    assert [r["sysno"] for r in named["data"]["dataSource"]] == [second]
    literal = await harness.post(f"{API}/GetProjectList", {"name": "%"}, token=me.token)
    assert literal["data"]["totalCount"] == 0
    bad_sort = await harness.post(f"{API}/GetProjectList", {"sort": "sideways"}, token=me.token)
    assert bad_sort["statusCode"] == 400

    dash = await harness.post(f"{API}/GetProjectListDashboard", {}, token=me.token)
    assert dash["statusCode"] == 200
    by_id = {r["sysno"]: r for r in dash["data"]["dataSource"]}
    assert by_id[first]["gateway_online_count"] == 1 and by_id[first]["gateway_offline_count"] == 1
    assert by_id[first]["device_online_count"] == 1 and by_id[first]["device_offline_count"] == 2
    assert dash["data"]["summary"] == {
        "project_count": 2,
        "gateway_count": 2,
        "gateway_online_count": 1,
        "gateway_offline_count": 1,
        "device_count": 3,
        "device_online_count": 1,
        "device_offline_count": 2,
    }

    options = await harness.post(f"{API}/GetFilterProjectList", {}, token=me.token)
    assert options["data"] == [
        {"sysno": first, "name": "A园区", "owner_name": None, "can_control": True},
        {"sysno": second, "name": "B园区", "owner_name": None, "can_control": True},
    ]
    no_body = await harness.call("POST", f"{API}/GetFilterProjectList", token=me.token)
    assert no_body["statusCode"] == 200 and len(no_body["data"]) == 2

    tree = await harness.post(f"{API}/GetProjectAndBuildingGatewayList", {}, token=me.token)
    assert tree["statusCode"] == 200
    root = tree["data"][0]
    assert root["type"] == "project" and root["sysno"] == first and root["device_count"] == 3
    kinds = [(c["type"], c["name"]) for c in root["list_child"]]
    assert kinds[:2] == [("building", "A栋"), ("building", "B栋")] and kinds[2][0] == "gateway"
    building_node = root["list_child"][0]
    assert building_node["list_child"][0]["sysno"] == gw_online
    assert building_node["list_child"][0]["online"] == 1
    assert building_node["online_device_count"] == 1
    assert root["list_child"][2]["sysno"] == gw_offline and root["list_child"][2]["online"] == 0
    assert tree["data"][1]["list_child"] == []


async def test_buildings(harness: Harness) -> None:
    me = await make_account(harness)
    project = await make_project(harness, me.sysno)
    added = await harness.post(
        f"{API}/AddBuilding", {"project_sysno": project, "name": "主楼"}, token=me.token
    )
    assert added["statusCode"] == 200 and added["data"]["name"] == "主楼"
    sysno = added["data"]["sysno"]
    dup = await harness.post(f"{API}/AddBuilding", {"project_sysno": project, "name": "主楼"}, token=me.token)
    assert dup["statusCode"] == 409
    no_project = await harness.post(
        f"{API}/AddBuilding", {"project_sysno": 99999, "name": "x"}, token=me.token
    )
    assert no_project["statusCode"] == 404
    updated = await harness.put(
        f"{API}/UpdateBuilding", {"sysno": sysno, "name": "副楼", "remark": "新"}, token=me.token
    )
    assert updated["data"]["name"] == "副楼" and updated["data"]["remark"] == "新"
    unknown = await harness.put(f"{API}/UpdateBuilding", {"sysno": 99999, "name": "x"}, token=me.token)
    assert unknown["statusCode"] == 404 and unknown["message"] == "楼栋不存在或无权访问"
    deleted = await harness.call("DELETE", f"{API}/DeleteBuilding", token=me.token, params={"sysno": sysno})
    assert deleted["statusCode"] == 200
    again = await harness.call("DELETE", f"{API}/DeleteBuilding", token=me.token, params={"sysno": sysno})
    assert again["statusCode"] == 404


async def test_project_row_has_every_field(harness: Harness) -> None:
    me = await make_account(harness)
    await make_project(harness, me.sysno)
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(OperationLog)) is not None
    page = await harness.post(f"{API}/GetProjectList", {}, token=me.token)
    assert set(page["data"]["dataSource"][0]) == {
        "sysno",
        "name",
        "address",
        "longitude",
        "latitude",
        "contact_name",
        "contact_phone",
        "remark",
        "create_time",
        "update_time",
        "building_count",
        "gateway_count",
        "online_gateway_count",
        "device_count",
        "online_device_count",
        "list_child",
        "is_shared",
        "owner_name",
        "can_control",
    }
