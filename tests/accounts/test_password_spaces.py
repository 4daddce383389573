"""Passwords are kept exactly as typed: register, change, recovery and login agree on outer spaces."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import Harness, latest_code, login, make_customer, make_settings, stamped, start_harness

CC = "/api/CustomerCenter"


@pytest.fixture
async def harness6(database_url: str) -> AsyncIterator[Harness]:
    """Brand 6: registration and password change without SMS codes."""
    async for h in start_harness(make_settings(database_url, brand=6)):
        yield h


async def _logs_in(h: Harness, mobile: str, password: str) -> bool:
    answer = await h.post(f"{CC}/LoginByPass", {"mobile": mobile, "password": stamped(password)})
    return bool(answer["statusCode"] == 200)


async def test_a_password_registered_with_outer_spaces_logs_in_as_typed(harness6: Harness) -> None:
    registered = await harness6.post(f"{CC}/Register", {"mobile": "13900000070", "password": " secret123 "})
    assert registered["statusCode"] == 200
    assert await _logs_in(harness6, "13900000070", " secret123 ")
    assert not await _logs_in(harness6, "13900000070", "secret123")


async def test_the_length_rule_counts_the_password_as_typed(harness6: Harness) -> None:
    registered = await harness6.post(f"{CC}/Register", {"mobile": "13900000071", "password": "     x"})
    assert registered["statusCode"] == 200
    assert not await _logs_in(harness6, "13900000071", "x")
    assert await _logs_in(harness6, "13900000071", "     x")
    blank = await harness6.post(f"{CC}/Register", {"mobile": "13900000072", "password": "      "})
    assert blank["statusCode"] == 400 and "不能为空" in blank["message"], blank


async def test_change_and_recovery_keep_outer_spaces(harness: Harness) -> None:
    await make_customer(harness, password=" secret123")
    token = await login(harness, password=" secret123")
    await harness.post(f"{CC}/SendUpdatePassWordSms", {"mobile": "13900000001"}, token=token)
    code = await latest_code(harness, "13900000001")
    change = {"old_password": " secret123", "new_password": " newpass12 ", "validate_code": code}
    changed = await harness.put(f"{CC}/UpdatePassWord", {**change, "mobile": "13900000001"}, token=token)
    assert changed["statusCode"] == 200, changed
    assert await _logs_in(harness, "13900000001", " newpass12 ")
    await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": "13900000001"})
    code = await latest_code(harness, "13900000001")
    recovery = {"mobile": "13900000001", "validate_code": code, "new_password": "fresh1234  "}
    assert (await harness.put(f"{CC}/FindPassWord", recovery))["statusCode"] == 200
    assert await _logs_in(harness, "13900000001", "fresh1234  ")
    assert not await _logs_in(harness, "13900000001", "fresh1234")
