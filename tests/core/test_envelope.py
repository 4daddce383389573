"""Bad input answers a clear Chinese envelope and changes nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from powerportal.logs.models import OperationLog
from tests.conftest import Harness, login, make_customer


async def test_malformed_json_is_a_400_envelope(harness: Harness) -> None:
    response = await harness.client.post(
        "/api/CustomerCenter/LoginByPass", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json() == {"statusCode": 400, "message": "请求体不是合法的 JSON", "data": None}


async def test_missing_and_wrong_typed_fields_name_the_field(harness: Harness) -> None:
    missing = await harness.post("/api/CustomerCenter/LoginByPass", {"mobile": "13900000001"})
    assert missing["statusCode"] == 400
    assert missing["message"] == "请填写密码"
    wrong = await harness.post(
        "/api/CustomerCenter/LoginByPass", {"mobile": 13900000001, "password": "x" * 30}
    )
    assert wrong["statusCode"] == 400
    assert wrong["message"] == "手机号应为文字"
    not_object = await harness.post("/api/CustomerCenter/LoginByPass", [1, 2])
    assert not_object["message"] == "请求体应为 JSON 对象"


async def test_oversize_body_is_refused_before_parsing(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    huge = {"name": "甲" * 10, "remark": "x" * (2 * 1024 * 1024)}
    response = await harness.client.put(
        "/api/CustomerCenter/UpdateCustomer", json=huge, headers={"SYSTOKEN": token}
    )
    assert response.status_code == 413
    assert response.json()["message"].startswith("请求体过大")
    info = await harness.post("/api/CustomerCenter/MyInfo", token=token)
    assert info["data"]["name"] == "测试用户"


async def test_oversize_chunked_body_is_refused(harness: Harness) -> None:
    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(40):
            yield b"x" * 65536

    response = await harness.client.post(
        "/api/CustomerCenter/LoginByPass", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


async def test_unknown_route_and_method(harness: Harness) -> None:
    unknown = await harness.call("POST", "/api/CustomerCenter/NoSuchThing", json={})
    assert unknown == {"statusCode": 404, "message": "接口不存在", "data": None}
    wrong_method = await harness.call("GET", "/api/CustomerCenter/LoginByPass")
    assert wrong_method["statusCode"] == 405


async def test_rejected_update_changes_nothing(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    async with harness.ctx.sessions() as session:
        before = await session.scalar(select(func.count()).select_from(OperationLog))
    bad = await harness.put("/api/CustomerCenter/UpdateCustomer", {"name": "", "email": "x"}, token=token)
    assert bad["statusCode"] == 400
    bad_email = await harness.put(
        "/api/CustomerCenter/UpdateCustomer", {"name": "张三", "email": "nope"}, token=token
    )
    assert bad_email["message"] == "邮箱格式不正确"
    info = await harness.post("/api/CustomerCenter/MyInfo", token=token)
    assert info["data"]["name"] == "测试用户"
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(OperationLog)) == before


async def test_health_and_openapi(harness: Harness) -> None:
    assert (await harness.call("GET", "/api/health"))["data"] == {"status": "ok"}
    document = (await harness.client.get("/api/openapi.json")).json()
    assert "/api/CustomerCenter/LoginByPass" in document["paths"]
    assert (await harness.client.get("/api/docs")).status_code == 200


async def test_brand_variants(database_url: str) -> None:
    from tests.conftest import make_settings, start_harness

    async for h in start_harness(make_settings(database_url, brand=6, brand_hosts={"school.example": 2})):
        brand = (await h.call("GET", "/api/brand"))["data"]
        assert brand["type"] == 6
        assert brand["flags"]["SmsCode"] is False and brand["flags"]["SmsConfig"] is False
        assert brand["theme_color"] == "#409EFF"
        mapped = (await h.call("GET", "/api/brand", headers={"host": "school.example"}))["data"]
        assert mapped["type"] == 2
        logo = await h.client.get(brand["logo"])
        assert logo.status_code == 200 and logo.content.startswith(b"<svg")


async def test_types_are_strict_and_whole_numbers_are_integers(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    headers = {"SYSTOKEN": token}
    for refused, message in [
        ({"pageSize": True}, "每页条数应为整数"),
        ({"pageSize": "5"}, "每页条数应为整数"),
        ({"pageSize": 5.5}, "每页条数应为整数"),
    ]:
        response = await harness.client.post(
            "/api/CustomerProject/GetProjectList", json=refused, headers=headers
        )
        assert response.status_code == 400
        assert response.json() == {"statusCode": 400, "message": message, "data": None}
    whole = await harness.post("/api/CustomerProject/GetProjectList", {"pageSize": 5.0}, token=token)
    assert whole["statusCode"] == 200
    literal = await harness.client.post(
        "/api/CustomerNoctice/GetNoticeList", json={"is_read": False}, headers=headers
    )
    assert literal.status_code == 400 and literal.json()["message"] == "读取状态应为整数"


async def test_text_is_measured_as_sent_then_stripped(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    blank = await harness.post("/api/CustomerProject/AddProject", {"name": "   "}, token=token)
    assert blank == {"statusCode": 400, "message": "项目名称不能为空", "data": None}
    too_long = await harness.post("/api/CustomerProject/AddProject", {"name": " " + "甲" * 64}, token=token)
    assert too_long["message"] == "项目名称过长，最多 64 个字符，当前 65 个"
    added = await harness.post("/api/CustomerProject/AddProject", {"name": "  一号楼 "}, token=token)
    assert added["statusCode"] == 200 and added["data"]["name"] == "一号楼"
    listed = await harness.post("/api/CustomerProject/GetProjectList", {}, token=token)
    assert listed["data"]["totalCount"] == 1


async def test_a_repeated_query_parameter_is_refused_and_deletes_nothing(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    made = await harness.post(
        "/api/CustomerProject/AddProject", {"name": "重复参数项目", "address": "上海"}, token=token
    )
    sysno = made["data"]["sysno"]
    response = await harness.client.delete(
        f"/api/CustomerProject/DeleteProject?sysno=999999&sysno={sysno}", headers={"SYSTOKEN": token}
    )
    assert response.status_code == 400
    assert response.json() == {"statusCode": 400, "message": "参数 sysno 只能出现一次", "data": None}
    listed = await harness.post(
        "/api/CustomerProject/GetProjectList", {"pageIndex": 1, "pageSize": 10}, token=token
    )
    assert sysno in [row["sysno"] for row in listed["data"]["dataSource"]]
