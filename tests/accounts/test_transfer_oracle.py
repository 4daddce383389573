"""A logged-in customer learns whether a number is taken only by holding that number's code."""

from __future__ import annotations

from sqlalchemy import select

from powerportal.accounts.models import Customer
from tests.conftest import Harness, latest_code, login, make_customer

CC = "/api/CustomerCenter"
TAKEN, FREE = "13900000002", "13900000009"


async def test_a_taken_and_a_free_target_answer_alike_until_the_codes_are_checked(harness: Harness) -> None:
    await make_customer(harness)
    await make_customer(harness, mobile=TAKEN)
    token = await login(harness)

    async def story(target: str) -> list[dict[str, object]]:
        return [
            await harness.post(f"{CC}/SendTransformSms", {"mobile": target, "type": 2}, token=token),
            await harness.post(
                f"{CC}/TransformUsername",
                {
                    "old_mobile": "13900000001",
                    "new_mobile": target,
                    "validate_code": "000000",
                    "target_validate_code": "000000",
                },
                token=token,
            ),
        ]

    taken, free = await story(TAKEN), await story(FREE)
    assert taken == free
    assert taken[0]["message"] == "短信发送成功"
    assert str(taken[1]["message"]).startswith("验证码")


async def test_the_holder_of_both_codes_is_told_the_target_is_taken(harness: Harness) -> None:
    await make_customer(harness)
    await make_customer(harness, mobile=TAKEN)
    token = await login(harness)
    await harness.post(f"{CC}/SendTransformSms", {"mobile": "13900000001", "type": 1}, token=token)
    await harness.post(f"{CC}/SendTransformSms", {"mobile": TAKEN, "type": 2}, token=token)
    body = {
        "old_mobile": "13900000001",
        "new_mobile": TAKEN,
        "validate_code": await latest_code(harness, "13900000001"),
        "target_validate_code": await latest_code(harness, TAKEN),
    }
    refused = await harness.post(f"{CC}/TransformUsername", body, token=token)
    assert refused["message"] == "目标手机号已被注册"
    async with harness.ctx.sessions() as session:
        mobiles = sorted((await session.scalars(select(Customer.mobile))).all())
    assert mobiles == ["13900000001", TAKEN]
    assert (await harness.post(f"{CC}/MyInfo", token=token))["statusCode"] == 200
