"""A password change is no oracle for a stolen token: the code first, wrong old passwords limited."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import Harness, latest_code, login, make_customer, make_settings, stamped, start_harness

CC = "/api/CustomerCenter"


@pytest.fixture
async def harness6(database_url: str) -> AsyncIterator[Harness]:
    """Brand 6: a password change without an SMS code."""
    async for h in start_harness(make_settings(database_url, brand=6)):
        yield h


async def test_a_wrong_code_is_refused_before_the_old_password_is_read(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000001"}, token=token)
    body = {"new_password": "other1234", "validate_code": "000000", "mobile": "13900000001"}
    code = await latest_code(harness, "13900000001")
    if code == "000000":
        body["validate_code"] = "000001"
    right_old = await harness.put(f"{CC}/UpdatePassWord", {**body, "old_password": "secret123"}, token=token)
    wrong_old = await harness.put(f"{CC}/UpdatePassWord", {**body, "old_password": "guess1234"}, token=token)
    assert right_old["message"] == "验证码错误，还可尝试 4 次"
    assert wrong_old["message"] == "验证码错误，还可尝试 3 次"


async def test_wrong_old_passwords_are_limited_as_logins_are(harness6: Harness) -> None:
    await make_customer(harness6)
    token = await login(harness6)
    body = {"new_password": "other1234"}
    answers = [
        await harness6.put(f"{CC}/UpdatePassWord", {**body, "old_password": f"guess{i}xx"}, token=token)
        for i in range(7)
    ]
    assert [a["message"] for a in answers[:5]] == ["原密码错误"] * 5
    assert [(a["statusCode"], a["message"]) for a in answers[5:]] == [
        (429, "原密码错误次数过多，请 15 分钟后再试")
    ] * 2
    right = await harness6.put(f"{CC}/UpdatePassWord", {**body, "old_password": "secret123"}, token=token)
    assert right["statusCode"] == 429
    # The account's failures are shared with the login form.
    again = await harness6.post(
        f"{CC}/LoginByPass", {"mobile": "13900000001", "password": stamped("secret123")}
    )
    assert again["statusCode"] == 429


async def test_a_wrong_old_password_keeps_the_code(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000001"}, token=token)
    code = await latest_code(harness, "13900000001")
    body = {"new_password": "other1234", "validate_code": code, "mobile": "13900000001"}
    wrong = await harness.put(f"{CC}/UpdatePassWord", {**body, "old_password": "guess1234"}, token=token)
    assert wrong["message"] == "原密码错误"
    right = await harness.put(f"{CC}/UpdatePassWord", {**body, "old_password": "secret123"}, token=token)
    assert right["statusCode"] == 200, right
