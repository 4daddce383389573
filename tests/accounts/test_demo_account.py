"""The demo account's password is printed for all: it is an ordinary customer, never an administrator."""

from __future__ import annotations

from sqlalchemy import select, update

from powerportal import demo
from powerportal.accounts.models import Customer
from tests.conftest import Harness, login, make_customer

CC = "/api/CustomerCenter"


async def _is_admin(h: Harness) -> bool:
    async with h.ctx.sessions() as session:
        found = await session.scalar(
            select(Customer.is_brand_admin).where(Customer.mobile == demo.DEMO_MOBILE)
        )
    return bool(found)


async def test_the_demo_account_cannot_log_in_as_a_real_customer(harness: Harness) -> None:
    await demo.seed(harness.ctx)
    await make_customer(harness, mobile="13900000002")
    token = await login(harness, demo.DEMO_MOBILE, demo.DEMO_PASSWORD)
    issued = await harness.post(f"{CC}/CreateLoginLink", {"mobile": "13900000002"}, token=token)
    assert (issued["statusCode"], issued["message"]) == (403, "无权执行此操作")
    assert not await _is_admin(harness)


async def test_a_demo_administrator_of_an_older_release_is_demoted(harness: Harness) -> None:
    await demo.seed(harness.ctx)
    async with harness.ctx.sessions() as session:
        await session.execute(
            update(Customer).where(Customer.mobile == demo.DEMO_MOBILE).values(is_brand_admin=True)
        )
        await session.commit()
    await demo.seed(harness.ctx)
    assert not await _is_admin(harness)
