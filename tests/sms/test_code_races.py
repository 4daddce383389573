"""Verification codes under concurrency: wrong tries sent at once stay capped, a code is used once."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from powerportal.sms.models import SmsCode
from tests.conftest import Harness, latest_code, make_customer

CC = "/api/CustomerCenter"


def _wrong(code: str, count: int) -> list[str]:
    return [f"{(int(code) + i) % 1_000_000:06d}" for i in range(1, count + 1)]


async def test_wrong_codes_sent_at_once_burn_the_code_after_five(harness: Harness) -> None:
    mobile = "13900000055"
    assert (await harness.post(f"{CC}/SendRegisterSms", {"mobile": mobile}))["statusCode"] == 200
    code = await latest_code(harness, mobile)
    answers = await asyncio.gather(
        *(
            harness.post(f"{CC}/ValidateRegisterSms", {"mobile": mobile, "validate_code": wrong})
            for wrong in _wrong(code, 30)
        )
    )
    counted = [a["message"] for a in answers if a["message"].startswith("验证码错误，还可尝试")]
    assert len(counted) == 4  # the fifth wrong try is told the code is burnt
    async with harness.ctx.sessions() as session:
        attempts = await session.scalar(select(SmsCode.failed_attempts).where(SmsCode.mobile == mobile))
    assert attempts == 5
    right = await harness.post(f"{CC}/ValidateRegisterSms", {"mobile": mobile, "validate_code": code})
    assert right["message"] == "验证码错误次数过多，请重新获取"


async def test_recovery_guesses_sent_at_once_leave_the_password_alone(harness: Harness) -> None:
    mobile = "13900000001"
    await make_customer(harness, mobile=mobile)
    assert (await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": mobile}))["statusCode"] == 200
    code = await latest_code(harness, mobile)
    answers = await asyncio.gather(
        *(
            harness.put(
                f"{CC}/FindPassWord", {"mobile": mobile, "validate_code": w, "new_password": "hacked123"}
            )
            for w in _wrong(code, 40)
        )
    )
    assert all(a["statusCode"] != 200 for a in answers)
    right = await harness.put(
        f"{CC}/FindPassWord", {"mobile": mobile, "validate_code": code, "new_password": "hacked123"}
    )
    assert right["message"] == "验证码错误次数过多，请重新获取"


async def test_one_code_sent_five_times_at_once_is_accepted_once(harness: Harness) -> None:
    mobile = "13900000001"
    await make_customer(harness, mobile=mobile)
    await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": mobile})
    code = await latest_code(harness, mobile)
    answers = await asyncio.gather(
        *(
            harness.put(
                f"{CC}/FindPassWord",
                {"mobile": mobile, "validate_code": code, "new_password": f"newpass{i}aa"},
            )
            for i in range(5)
        )
    )
    assert sorted(a["statusCode"] for a in answers) == [200, 400, 400, 400, 400], answers
    assert {a["message"] for a in answers if a["statusCode"] != 200} == {"验证码已失效，请重新获取"}


async def test_sms_login_guesses_sent_at_once_are_throttled_per_account(harness: Harness) -> None:
    mobile = "13900000001"
    await make_customer(harness, mobile=mobile)
    await harness.post(f"{CC}/SendLoginSms", {"mobile": mobile})
    code = await latest_code(harness, mobile)
    answers = await asyncio.gather(
        *(harness.post(f"{CC}/LoginBySms", {"mobile": mobile, "validate_code": w}) for w in _wrong(code, 30))
    )
    throttled = [a for a in answers if a["statusCode"] == 429]
    assert len(throttled) == 25
    assert {a["message"] for a in throttled} == {"登录失败次数过多，请 15 分钟后再试"}


async def test_codes_asked_for_at_once_send_one_text(harness: Harness) -> None:
    """The 60 s between texts held one request at a time only: 25 at once sent five texts in 1.4 s."""
    from powerportal.sms.models import SmsOutbox

    mobile = "13900000066"
    answers = await asyncio.gather(
        *(harness.post(f"{CC}/SendRegisterSms", {"mobile": mobile}) for _ in range(12))
    )
    assert sorted(a["statusCode"] for a in answers) == [200] + [429] * 11, answers
    async with harness.ctx.sessions() as session:
        sent = await session.scalars(select(SmsOutbox.content).where(SmsOutbox.mobile == mobile))
        codes = await session.scalars(select(SmsCode.sysno).where(SmsCode.mobile == mobile))
        assert len(sent.all()) == 1 and len(codes.all()) == 1
    # The one text carries the code that is checked.
    code = await latest_code(harness, mobile)
    checked = await harness.post(f"{CC}/ValidateRegisterSms", {"mobile": mobile, "validate_code": code})
    assert checked["statusCode"] == 200, checked
