"""Password login, tokens, logout, throttling."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from sqlalchemy import event, update

from powerportal.accounts.models import Customer, CustomerToken
from powerportal.core.timeutil import utcnow
from powerportal.core.tokens import Resolved
from tests.conftest import Harness, latest_code, login, make_customer, stamped

LOGIN = "/api/CustomerCenter/LoginByPass"


async def test_login_returns_token_that_opens_my_info(harness: Harness) -> None:
    await make_customer(harness, email="a@b.cn")
    body = await harness.post(LOGIN, {"mobile": "13900000001", "password": stamped("secret123")})
    assert body["statusCode"] == 200
    assert body["data"]["mobile"] == "13900000001" and body["data"]["account"] == "13900000001"
    info = await harness.post("/api/CustomerCenter/MyInfo", token=body["data"]["token"])
    assert info["statusCode"] == 200
    assert info["data"]["email"] == "a@b.cn"
    assert set(info["data"]) == {
        "sysno",
        "account",
        "mobile",
        "name",
        "email",
        "remark",
        "serial_no",
        "category_name1",
        "category_name2",
        "screen_title",
    }


async def test_stamps_must_match_and_be_recent(harness: Harness) -> None:
    await make_customer(harness)
    now = int(time.time() * 1000)
    mismatched = f"{now}secret123{now + 1}"
    assert (await harness.post(LOGIN, {"mobile": "13900000001", "password": mismatched}))["message"] == (
        "登录请求格式不正确，请刷新页面后重试"
    )
    old = stamped("secret123", now - 10 * 60 * 1000)
    assert "已过期" in (await harness.post(LOGIN, {"mobile": "13900000001", "password": old}))["message"]


async def test_wrong_password_and_unknown_account_look_the_same(harness: Harness) -> None:
    await make_customer(harness)
    wrong = await harness.post(LOGIN, {"mobile": "13900000001", "password": stamped("nope12345")})
    unknown = await harness.post(LOGIN, {"mobile": "13900000009", "password": stamped("nope12345")})
    assert wrong == unknown == {"statusCode": 400, "message": "账号或密码错误", "data": None}


async def test_failed_logins_are_throttled_per_account(harness: Harness) -> None:
    await make_customer(harness)
    for _ in range(5):
        await harness.post(LOGIN, {"mobile": "13900000001", "password": stamped("bad-pass")})
    blocked = await harness.post(LOGIN, {"mobile": "13900000001", "password": stamped("secret123")})
    assert blocked["statusCode"] == 429
    assert "登录失败次数过多" in blocked["message"]


async def test_a_stranger_locking_the_password_does_not_keep_the_owner_out(harness: Harness) -> None:
    """Five wrong passwords from anyone lock password logins; the owner's phone still lets them in."""
    mobile, cc = "13900000001", "/api/CustomerCenter"
    await make_customer(harness)
    for _ in range(6):
        await harness.post(LOGIN, {"mobile": mobile, "password": stamped("bad-pass")})
    assert (await harness.post(LOGIN, {"mobile": mobile, "password": stamped("secret123")}))[
        "statusCode"
    ] == 429
    await harness.post(f"{cc}/SendLoginSms", {"mobile": mobile})
    by_code = await harness.post(
        f"{cc}/LoginBySms", {"mobile": mobile, "validate_code": await latest_code(harness, mobile)}
    )
    assert by_code["statusCode"] == 200, by_code
    # The owner proved it is the owner: the password works again at once.
    assert (await harness.post(LOGIN, {"mobile": mobile, "password": stamped("secret123")}))[
        "statusCode"
    ] == 200
    # So does a password reset by SMS code.
    for _ in range(6):
        await harness.post(LOGIN, {"mobile": mobile, "password": stamped("bad-pass")})
    await harness.post(f"{cc}/SendFindPassWordSms", {"mobile": mobile})
    reset = {
        "mobile": mobile,
        "validate_code": await latest_code(harness, mobile),
        "new_password": "newpass123",
    }
    assert (await harness.put(f"{cc}/FindPassWord", reset))["statusCode"] == 200
    assert (await harness.post(LOGIN, {"mobile": mobile, "password": stamped("newpass123")}))[
        "statusCode"
    ] == 200


async def test_missing_bad_and_revoked_tokens_are_401(harness: Harness) -> None:
    await make_customer(harness)
    expired_message = "您的登录已经失效,请重新登录..."
    assert (await harness.post("/api/CustomerCenter/MyInfo"))["statusCode"] == 401
    bad = await harness.post("/api/CustomerCenter/MyInfo", token="garbage")
    assert bad == {"statusCode": 401, "message": expired_message, "data": None}
    token = await login(harness)
    other = await login(harness)
    assert (await harness.post("/api/CustomerCenter/LoginOut", token=token))["statusCode"] == 200
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=token))["statusCode"] == 401
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=other))["statusCode"] == 200


async def test_tokens_expire_when_idle_and_absolutely(harness: Harness) -> None:
    await make_customer(harness)
    idle, absolute = await login(harness), await login(harness)
    async with harness.ctx.sessions() as session:
        tokens = (await session.execute(CustomerToken.__table__.select().order_by(CustomerToken.sysno))).all()
        idle_id, absolute_id = tokens[0].sysno, tokens[1].sysno
        await session.execute(
            update(CustomerToken)
            .where(CustomerToken.sysno == idle_id)
            .values(last_seen=utcnow() - timedelta(hours=13))
        )
        await session.execute(
            update(CustomerToken)
            .where(CustomerToken.sysno == absolute_id)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        await session.commit()
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=idle))["statusCode"] == 401
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=absolute))["statusCode"] == 401


async def test_tokens_are_stored_hashed(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    async with harness.ctx.sessions() as session:
        stored = (await session.execute(CustomerToken.__table__.select())).first()
    assert stored is not None and token not in stored.token_hash and len(stored.token_hash) == 64


async def test_profile_change_reaches_every_session_of_the_customer(harness: Harness) -> None:
    await make_customer(harness)
    first, second = await login(harness), await login(harness)
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=second))["data"]["name"] != "新名字"
    changed = await harness.put("/api/CustomerCenter/UpdateCustomer", {"name": "新名字"}, token=first)
    assert changed["statusCode"] == 200
    for token in (first, second):
        assert (await harness.post("/api/CustomerCenter/MyInfo", token=token))["data"]["name"] == "新名字"


async def test_an_overlong_token_is_refused_without_a_lookup(harness: Harness) -> None:
    answer = await harness.post("/api/CustomerCenter/MyInfo", token="x" * 129)
    assert answer["statusCode"] == 401


async def test_calls_arriving_together_share_one_token_check(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    lookups: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if "FROM customer_token" in statement:
            lookups.append(statement)

    event.listen(harness.ctx.engine.sync_engine, "before_cursor_execute", count)
    try:
        harness.ctx.tokens.forget(token)  # as when the cached answer ages out
        answers = await asyncio.gather(
            *(harness.post("/api/CustomerCenter/MyInfo", token=token) for _ in range(20))
        )
        assert [a["statusCode"] for a in answers] == [200] * 20
        assert len(lookups) == 1
        await harness.post("/api/CustomerCenter/MyInfo", token=token)
        assert len(lookups) == 1, "the shared answer is remembered"
    finally:
        event.remove(harness.ctx.engine.sync_engine, "before_cursor_execute", count)


async def test_a_token_forgotten_during_its_check_is_not_remembered(harness: Harness) -> None:
    sysno = await make_customer(harness)
    token = await login(harness)
    tokens = harness.ctx.tokens
    tokens.forget(token)
    release = asyncio.Event()

    async def slow_check() -> Resolved[object] | None:
        await release.wait()
        async with harness.ctx.sessions() as session:
            customer = await session.get_one(Customer, sysno)
        return Resolved(customer, owner=sysno, until=utcnow() + timedelta(minutes=1))

    waiting = asyncio.ensure_future(tokens.check(token, slow_check))
    await asyncio.sleep(0)
    tokens.forget(token)  # logged out while the check was under way
    release.set()
    assert (await waiting) is not None, "the call already waiting gets its answer"
    assert tokens.get(token) is None


async def test_a_stamped_password_is_accepted_once(harness: Harness) -> None:
    await make_customer(harness)
    body = {"mobile": "13900000001", "password": stamped("secret123")}
    first = await harness.post("/api/CustomerCenter/LoginByPass", body)
    assert first["statusCode"] == 200
    replayed = await harness.post("/api/CustomerCenter/LoginByPass", body)
    assert replayed == {"statusCode": 400, "message": "登录请求已使用过，请重新输入密码登录", "data": None}
    again = await harness.post("/api/CustomerCenter/LoginByPass", {**body, "password": stamped("secret123")})
    assert again["statusCode"] == 200


def test_the_caller_is_the_rightmost_address_no_trusted_proxy_wrote() -> None:
    from ipaddress import ip_network

    from powerportal.api.deps import caller_address

    proxies = (ip_network("10.0.0.0/8"), ip_network("127.0.0.1/32"))
    # The caller wrote the first entries itself: only what our proxies appended counts.
    assert caller_address("10.0.0.5", "1.2.3.4, 203.0.113.9, 10.0.0.7", proxies) == "203.0.113.9"
    assert caller_address("10.0.0.5", "203.0.113.9", proxies) == "203.0.113.9"
    assert caller_address("10.0.0.5", "not-an-ip, 10.0.0.7", proxies) == "10.0.0.7"
    # Not from a trusted proxy, or no proxies configured: the header is ignored.
    assert caller_address("198.51.100.1", "1.2.3.4", proxies) == "198.51.100.1"
    assert caller_address("10.0.0.5", "1.2.3.4", ()) == "10.0.0.5"
    assert caller_address("10.0.0.5", None, proxies) == "10.0.0.5"
