"""A customer is served under the brand it belongs to alone, on a deployment serving several by host name.

Brand 0 asks for SMS codes to change a password or move an account; brand 6 asks for none. Without
the binding, a brand-0 account reached under brand 6's host name ran under brand 6's rules: a stolen
token moved the account to another number without either code.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import Harness, login, make_customer, make_settings, stamped, start_harness

CC = "/api/CustomerCenter"
CAMPUS = {"host": "campus.example"}  # brand 6: no SMS codes


@pytest.fixture
async def two_brands(database_url: str) -> AsyncIterator[Harness]:
    """Brand 0, and brand 6 under campus.example."""
    async for h in start_harness(make_settings(database_url, brand_hosts={"campus.example": 6})):
        yield h


async def test_a_brand_0_account_opens_nothing_under_brand_6s_host_name(two_brands: Harness) -> None:
    h = two_brands
    await make_customer(h)
    token = await login(h)
    move = {"old_mobile": "13900000001", "new_mobile": "13900000009"}
    assert (await h.call("POST", f"{CC}/TransformUsername", token, json=move, headers=CAMPUS))[
        "statusCode"
    ] == 401
    change = {"old_password": "secret123", "new_password": "changed99", "mobile": "13900000001"}
    assert (await h.call("PUT", f"{CC}/UpdatePassWord", token, json=change, headers=CAMPUS))[
        "statusCode"
    ] == 401
    body = {"mobile": "13900000001", "password": stamped("secret123")}
    refused = await h.call("POST", f"{CC}/LoginByPass", json=body, headers=CAMPUS)
    assert (refused["statusCode"], refused["message"]) == (400, "账号或密码错误")
    # Under its own brand nothing changed: same number, same password.
    assert (await h.post(f"{CC}/MyInfo", token=token))["data"]["account"] == "13900000001"
    assert await login(h, password="secret123")


async def test_a_brand_6_account_is_served_under_its_host_name_alone(two_brands: Harness) -> None:
    h = two_brands
    await make_customer(h, mobile="13900000003", brand=6)
    body = {"mobile": "13900000003", "password": stamped("secret123")}
    assert (await h.post(f"{CC}/LoginByPass", body))["message"] == "账号或密码错误"
    answer = await h.call("POST", f"{CC}/LoginByPass", json=body, headers=CAMPUS)
    assert answer["statusCode"] == 200, answer
    token = answer["data"]["token"]
    assert (await h.call("POST", f"{CC}/MyInfo", token, headers=CAMPUS))["statusCode"] == 200
    assert (await h.post(f"{CC}/MyInfo", token=token))["statusCode"] == 401


async def test_a_brand_admin_issues_login_links_for_its_own_brand_only(two_brands: Harness) -> None:
    h = two_brands
    await make_customer(h, mobile="13900000002", is_brand_admin=True)
    await make_customer(h, mobile="13900000001")
    await make_customer(h, mobile="13900000003", brand=6)
    admin = await login(h, mobile="13900000002")
    own = await h.post(f"{CC}/CreateLoginLink", {"mobile": "13900000001"}, admin)
    assert own["statusCode"] == 200, own
    other = await h.post(f"{CC}/CreateLoginLink", {"mobile": "13900000003"}, admin)
    assert (other["statusCode"], other["message"]) == (404, "账号不存在")


async def test_an_account_registered_under_brand_6s_host_name_is_brand_6s(two_brands: Harness) -> None:
    h = two_brands
    body = {"mobile": "13900000004", "password": "secret123", "name": "校园用户"}
    made = await h.call("POST", f"{CC}/Register", json=body, headers=CAMPUS)  # brand 6 asks for no code
    assert made["statusCode"] == 200, made
    token = made["data"]["token"]
    assert (await h.call("POST", f"{CC}/MyInfo", token, headers=CAMPUS))["statusCode"] == 200
    assert (await h.post(f"{CC}/MyInfo", token=token))["statusCode"] == 401
    assert (await h.post(f"{CC}/LoginByPass", {"mobile": "13900000004", "password": stamped("secret123")}))[
        "message"
    ] == "账号或密码错误"
