"""SMS codes: login, registration, password recovery, limits, and brands without SMS."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

from sqlalchemy import func, select, update

from powerportal.accounts.models import Customer
from powerportal.core.timeutil import utcnow
from powerportal.sms.models import SmsCode, SmsOutbox
from tests.conftest import Harness, latest_code, login, make_customer, make_settings, stamped, start_harness

CC = "/api/CustomerCenter"


async def test_sms_login_uses_each_code_once(harness: Harness) -> None:
    await make_customer(harness)
    sent = await harness.post(f"{CC}/SendLoginSms", {"mobile": "13900000001"})
    assert sent == {"statusCode": 200, "message": "短信发送成功", "data": None}
    code = await latest_code(harness, "13900000001")
    ok = await harness.post(f"{CC}/LoginBySms", {"mobile": "13900000001", "validate_code": code})
    assert ok["statusCode"] == 200 and ok["data"]["token"]
    again = await harness.post(f"{CC}/LoginBySms", {"mobile": "13900000001", "validate_code": code})
    assert again["message"] == "验证码已失效，请重新获取"


async def test_a_registered_and_an_unregistered_number_get_identical_answers(harness: Harness) -> None:
    await make_customer(harness)
    known, unknown = "13900000001", "13900000077"

    async def story(mobile: str) -> list[dict[str, object]]:
        """Everything a stranger can try on a number, in order."""
        answers = [
            await harness.post(f"{CC}/SendLoginSms", {"mobile": mobile}),
            await harness.post(f"{CC}/SendLoginSms", {"mobile": mobile}),  # too soon
            await harness.post(f"{CC}/LoginBySms", {"mobile": mobile, "validate_code": "000001"}),
            await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": mobile}),
            await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": mobile}),
            await harness.post(
                f"{CC}/FindPassWord",
                {"mobile": mobile, "validate_code": "000001", "new_password": "newpass123"},
            ),
        ]
        # Resend intervals differ only by when they were asked: compare the wording.
        for answer in answers:
            answer["message"] = re.sub(r"\d+ 秒", "N 秒", str(answer["message"]))
        return answers

    assert await story(known) == await story(unknown)
    async with harness.ctx.sessions() as session:
        sent = list(await session.scalars(select(SmsOutbox.mobile)))
    assert sent == [known, known]  # a code goes only where it can be used


async def test_the_unregistered_path_does_the_same_work(harness: Harness) -> None:
    """No timing tells: an unknown number waits as long as a message takes to send (median of several)."""
    import statistics
    import time

    from powerportal.sms import service as sms

    await make_customer(harness)
    original = harness.ctx.sms.send

    async def slow_send(**kwargs: object) -> None:
        await asyncio.sleep(0.05)  # a provider's round trip
        await original(**kwargs)  # type: ignore[arg-type]

    harness.ctx.sms.send = slow_send  # type: ignore[method-assign]
    try:
        timings: dict[str, list[float]] = {"13900000001": [], "13900000088": []}
        for n in range(4):
            for mobile in timings:
                async with harness.ctx.sessions() as session:
                    started = time.perf_counter()
                    await sms.send_code(
                        ctx=harness.ctx, session=session, mobile=mobile, purpose=f"t{n}", ip="10.0.0.1",
                        deliver=mobile == "13900000001",
                    )  # fmt: skip
                    timings[mobile].append(time.perf_counter() - started)
                    await session.rollback()
    finally:
        harness.ctx.sms.send = original  # type: ignore[method-assign]
    known, unknown = (statistics.median(t[1:]) for t in timings.values())
    assert known >= 0.05 and abs(known - unknown) < 0.03, timings


async def test_resend_waits_sixty_seconds(harness: Harness) -> None:
    await make_customer(harness)
    assert (await harness.post(f"{CC}/SendLoginSms", {"mobile": "13900000001"}))["statusCode"] == 200
    again = await harness.post(f"{CC}/SendLoginSms", {"mobile": "13900000001"})
    assert again["statusCode"] == 429 and "秒后再试" in again["message"]


async def test_code_expires_after_five_minutes(harness: Harness) -> None:
    await make_customer(harness)
    await harness.post(f"{CC}/SendLoginSms", {"mobile": "13900000001"})
    code = await latest_code(harness, "13900000001")
    async with harness.ctx.sessions() as session:
        await session.execute(update(SmsCode).values(expires_at=utcnow() - timedelta(seconds=1)))
        await session.commit()
    late = await harness.post(f"{CC}/LoginBySms", {"mobile": "13900000001", "validate_code": code})
    assert late["message"] == "验证码已失效，请重新获取"


async def test_five_wrong_tries_burn_the_code(harness: Harness) -> None:
    await make_customer(harness)
    await harness.post(f"{CC}/SendRegisterSms", {"mobile": "13900000002"})
    code = await latest_code(harness, "13900000002")
    wrong = "000000" if code != "000000" else "111111"
    messages = [
        (await harness.post(f"{CC}/ValidateRegisterSms", {"mobile": "13900000002", "validate_code": wrong}))[
            "message"
        ]
        for _ in range(5)
    ]
    assert messages[0] == "验证码错误，还可尝试 4 次"
    assert messages[-1] == "验证码错误次数过多，请重新获取"
    right = await harness.post(f"{CC}/ValidateRegisterSms", {"mobile": "13900000002", "validate_code": code})
    assert right["message"] == "验证码错误次数过多，请重新获取"


async def test_register_with_code_then_login(harness: Harness) -> None:
    await harness.post(f"{CC}/SendRegisterSms", {"mobile": "13900000003"})
    code = await latest_code(harness, "13900000003")
    checked = await harness.post(
        f"{CC}/ValidateRegisterSms", {"mobile": "13900000003", "validate_code": code}
    )
    assert checked["statusCode"] == 200
    body = {"mobile": "13900000003", "validate_code": code, "password": "newpass1", "name": "王五"}
    registered = await harness.post(f"{CC}/Register", body)
    assert registered["statusCode"] == 200 and registered["data"]["name"] == "王五"
    assert await login(harness, "13900000003", "newpass1")
    await harness.post(f"{CC}/SendRegisterSms", {"mobile": "13900000003"})
    twice = await harness.post(f"{CC}/Register", body)
    assert twice["statusCode"] != 200


async def test_register_requires_code_where_brand_has_sms(harness: Harness) -> None:
    missing = await harness.post(f"{CC}/Register", {"mobile": "13900000004", "password": "newpass1"})
    assert missing["message"] == "请输入验证码"
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Customer)) == 0


async def test_find_password_resets_and_logs_out(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    await harness.post(f"{CC}/SendFindPassWordSms", {"mobile": "13900000001"})
    code = await latest_code(harness, "13900000001")
    reset = await harness.put(
        f"{CC}/FindPassWord", {"mobile": "13900000001", "validate_code": code, "new_password": "another1"}
    )
    assert reset["statusCode"] == 200
    assert (await harness.post(f"{CC}/MyInfo", token=token))["statusCode"] == 401
    assert await login(harness, password="another1")


async def test_brand_without_sms_never_sends_or_asks(database_url: str) -> None:
    async for h in start_harness(make_settings(database_url, brand=6)):
        refused = await h.post(f"{CC}/SendLoginSms", {"mobile": "13900000001"})
        assert refused["message"] == "当前版本未开通短信验证码功能"
        registered = await h.post(f"{CC}/Register", {"mobile": "13900000005", "password": "newpass1"})
        assert registered["statusCode"] == 200
        token = registered["data"]["token"]
        changed = await h.put(
            f"{CC}/UpdatePassWord", {"old_password": "newpass1", "new_password": "newpass2"}, token=token
        )
        assert changed["statusCode"] == 200
        transfer = await h.post(
            f"{CC}/TransformUsername",
            {"old_mobile": "13900000005", "new_mobile": "13900000006"},
            token=(
                await h.post(f"{CC}/LoginByPass", {"mobile": "13900000005", "password": stamped("newpass2")})
            )["data"]["token"],
        )
        assert transfer["statusCode"] == 200
        async with h.ctx.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(SmsOutbox)) == 0
