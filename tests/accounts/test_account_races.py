"""Two requests claiming one mobile number at once: one wins, the other is told as if it came second."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from powerportal.accounts.models import Customer
from tests.conftest import Harness, latest_code, login, make_customer, make_settings, start_harness

CC = "/api/CustomerCenter"


@pytest.fixture
async def harness6(database_url: str) -> AsyncIterator[Harness]:
    """Brand 6: registration and transfer without SMS codes."""
    async for h in start_harness(make_settings(database_url, brand=6)):
        yield h


async def _holders(h: Harness, mobile: str) -> int:
    async with h.ctx.sessions() as session:
        return int(await session.scalar(select(func.count()).where(Customer.mobile == mobile)) or 0)


async def test_four_registrations_of_one_number_at_once(harness6: Harness) -> None:
    body = {"mobile": "13900000066", "password": "secret123"}
    answers = await asyncio.gather(*(harness6.post(f"{CC}/Register", body) for _ in range(4)))
    assert sorted(a["statusCode"] for a in answers) == [200, 400, 400, 400], answers
    assert {a["message"] for a in answers if a["statusCode"] != 200} == {
        "该手机号已注册，请直接登录或找回密码"
    }
    assert await _holders(harness6, "13900000066") == 1


async def test_registrations_with_one_code_at_once(harness: Harness) -> None:
    mobile = "13900000067"
    await harness.post(f"{CC}/SendRegisterSms", {"mobile": mobile})
    code = await latest_code(harness, mobile)
    body = {"mobile": mobile, "password": "secret123", "validate_code": code}
    answers = await asyncio.gather(*(harness.post(f"{CC}/Register", body) for _ in range(4)))
    assert [a["statusCode"] for a in answers].count(200) == 1, answers
    assert await _holders(harness, mobile) == 1


async def test_two_accounts_moving_to_one_number_at_once(harness6: Harness) -> None:
    await make_customer(harness6, mobile="13900000001")
    await make_customer(harness6, mobile="13900000002")
    first = await login(harness6, "13900000001")
    second = await login(harness6, "13900000002")
    answers = await asyncio.gather(
        *(
            harness6.post(
                f"{CC}/TransformUsername", {"old_mobile": old, "new_mobile": "13900000099"}, token=t
            )
            for old, t in (("13900000001", first), ("13900000002", second))
        )
    )
    assert sorted(a["statusCode"] for a in answers) == [200, 400], answers
    assert [a["message"] for a in answers if a["statusCode"] != 200] == ["目标手机号已被注册"]
    assert await _holders(harness6, "13900000099") == 1
    assert await _holders(harness6, "13900000001") + await _holders(harness6, "13900000002") == 1
