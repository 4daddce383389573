"""Profile, password change, account transfer and passwordless links."""

from __future__ import annotations

import time

from powerportal.accounts import service as accounts
from powerportal.core.security import seal
from tests.conftest import Harness, latest_code, login, make_customer, stamped

CC = "/api/CustomerCenter"


async def test_update_customer_saves_the_editable_fields(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    body = {
        "name": " 李四 ",
        "email": "li@example.cn",
        "remark": "备注",
        "serial_no": "dark",
        "mobile": "13000000000",
    }
    saved = await harness.put(f"{CC}/UpdateCustomer", body, token=token)
    assert saved["statusCode"] == 200
    info = (await harness.post(f"{CC}/GetSingleCustomer", token=token))["data"]
    assert (info["name"], info["email"], info["remark"], info["serial_no"]) == (
        "李四",
        "li@example.cn",
        "备注",
        "dark",
    )
    assert info["mobile"] == "13900000001"


async def test_password_change_logs_out_everywhere(harness: Harness) -> None:
    await make_customer(harness)
    first, second = await login(harness), await login(harness)
    await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000001"}, token=first)
    code = await latest_code(harness, "13900000001")
    body = {
        "old_password": "secret123",
        "new_password": "changed99",
        "validate_code": code,
        "mobile": "13900000001",
    }
    wrong_old = await harness.put(f"{CC}/UpdatePassWord", {**body, "old_password": "nope"}, token=first)
    assert wrong_old["message"] == "原密码错误"
    changed = await harness.put(f"{CC}/UpdatePassWord", body, token=first)
    assert changed["statusCode"] == 200
    for token in (first, second):
        assert (await harness.post(f"{CC}/MyInfo", token=token))["statusCode"] == 401
    old = await harness.post(f"{CC}/LoginByPass", {"mobile": "13900000001", "password": stamped("secret123")})
    assert old["message"] == "账号或密码错误"
    assert await login(harness, password="changed99")


async def test_password_change_needs_code_and_own_mobile_with_sms_brand(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    no_code = await harness.put(
        f"{CC}/UpdatePassWord",
        {"old_password": "secret123", "new_password": "changed99", "mobile": "13900000001"},
        token=token,
    )
    assert no_code["message"] == "请输入验证码"
    other = await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000002"}, token=token)
    assert other["message"] == "手机号与当前账号不一致"


async def test_transfer_validation_and_success(harness: Harness) -> None:
    await make_customer(harness)
    await make_customer(harness, mobile="13900000002")
    token = await login(harness)
    link = await harness.post("/api/CustomerDashboard/AddKioskLink", {"name": "大厅", "days": 365}, token)
    wall = {"token": link["data"]["token"]}
    assert (await harness.post("/api/Kiosk/GetDashboardData", wall))["statusCode"] == 200
    same = await harness.post(
        f"{CC}/TransformUsername",
        {
            "old_mobile": "13900000001",
            "new_mobile": "13900000001",
            "validate_code": "1",
            "target_validate_code": "1",
        },
        token=token,
    )
    assert same["message"] == "新旧账号不能相同"
    no_codes = await harness.post(
        f"{CC}/TransformUsername", {"old_mobile": "13900000001", "new_mobile": "13900000009"}, token=token
    )
    assert no_codes["message"] == "请输入验证码"
    await harness.post(f"{CC}/SendTransformSms", {"mobile": "13900000001", "type": 1}, token=token)
    await harness.post(f"{CC}/SendTransformSms", {"mobile": "13900000009", "type": 2}, token=token)
    old_code = await latest_code(harness, "13900000001")
    new_code = await latest_code(harness, "13900000009")
    moved = await harness.post(
        f"{CC}/TransformUsername",
        {
            "old_mobile": "13900000001",
            "new_mobile": "13900000009",
            "validate_code": old_code,
            "target_validate_code": new_code,
            "is_show_code": True,
        },
        token=token,
    )
    assert moved["message"] == "转移成功，新账号的密码与原账号相同，请登录后修改密码"
    assert (await harness.post(f"{CC}/MyInfo", token=token))["statusCode"] == 401
    # The old holder's wall-screen link ends too: the new holder never saw it and could not revoke it.
    assert (await harness.post("/api/Kiosk/GetDashboardData", wall))["statusCode"] == 403
    new_token = await login(harness, mobile="13900000009", password="secret123")
    assert (await harness.post(f"{CC}/MyInfo", token=new_token))["data"]["account"] == "13900000009"


async def test_login_link_is_single_use_and_short_lived(harness: Harness) -> None:
    await make_customer(harness)
    settings = harness.ctx.settings
    async with harness.ctx.sessions() as session:
        customer = await accounts.get_by_mobile(session=session, mobile="13900000001")
        assert customer is not None
        param = accounts.create_login_link(settings=settings, customer=customer)
        stale = seal(
            settings.effective_secret_key,
            {
                "c": customer.sysno,
                "t": int(time.time() * 1000) - 61000,
                "j": "stale",
                "k": accounts.link_stamp(customer),
            },
        )
    first = await harness.post(f"{CC}/LoginByLink", {"param": param})
    assert first["statusCode"] == 200 and first["data"]["mobile"] == "13900000001"
    reused = await harness.post(f"{CC}/LoginByLink", {"param": param})
    assert reused["message"] == "登录链接已被使用，请重新获取"
    assert (await harness.post(f"{CC}/LoginByLink", {"param": stale}))[
        "message"
    ] == "登录链接无效或已过期，请重新获取"
    forged = await harness.post(f"{CC}/LoginByLink", {"param": param[:-4] + "AAAA"})
    assert forged["statusCode"] == 400


async def test_a_password_change_or_a_new_number_ends_the_links_issued_before(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)

    async def issue() -> str:
        async with harness.ctx.sessions() as session:
            customer = await accounts.get_by_mobile(session=session, mobile="13900000001")
            assert customer is not None
            return accounts.create_login_link(settings=harness.ctx.settings, customer=customer)

    before = await issue()
    await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000001"}, token=token)
    body = {"old_password": "secret123", "new_password": "changed99", "mobile": "13900000001",
            "validate_code": await latest_code(harness, "13900000001")}  # fmt: skip
    assert (await harness.put(f"{CC}/UpdatePassWord", body, token=token))["statusCode"] == 200
    refused = await harness.post(f"{CC}/LoginByLink", {"param": before})
    assert refused["message"] == "登录链接无效或已过期，请重新获取", refused
    after = await issue()
    assert (await harness.post(f"{CC}/LoginByLink", {"param": after}))["statusCode"] == 200

    token = await login(harness, password="changed99")
    before = await issue()
    await harness.post(f"{CC}/SendTransformSms", {"mobile": "13900000001", "type": 1}, token=token)
    await harness.post(f"{CC}/SendTransformSms", {"mobile": "13900000009", "type": 2}, token=token)
    moved = await harness.post(
        f"{CC}/TransformUsername",
        {"old_mobile": "13900000001", "new_mobile": "13900000009",
         "validate_code": await latest_code(harness, "13900000001"),
         "target_validate_code": await latest_code(harness, "13900000009")},
        token=token,
    )  # fmt: skip
    assert moved["statusCode"] == 200, moved
    refused = await harness.post(f"{CC}/LoginByLink", {"param": before})
    assert refused["message"] == "登录链接无效或已过期，请重新获取", refused


async def test_brand_admin_issues_links_only_where_admin_auth(harness: Harness) -> None:
    await make_customer(harness, is_brand_admin=True)
    await make_customer(harness, mobile="13900000002")
    admin = await login(harness)
    plain = await login(harness, mobile="13900000002")
    issued = await harness.post(f"{CC}/CreateLoginLink", {"mobile": "13900000002"}, token=admin)
    assert issued["statusCode"] == 200 and issued["data"]["url"].startswith("/auth-redirect?param=")
    used = await harness.post(f"{CC}/LoginByLink", {"param": issued["data"]["param"]})
    assert used["data"]["mobile"] == "13900000002"
    refused = await harness.post(f"{CC}/CreateLoginLink", {"mobile": "13900000001"}, token=plain)
    assert refused["statusCode"] == 403
