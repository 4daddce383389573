"""The demo account a fresh install starts with."""

from __future__ import annotations

import logging

from sqlalchemy import select

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext

log = logging.getLogger("powerportal.demo")

DEMO_MOBILE = "13800000000"
DEMO_PASSWORD = "demo123456"  # noqa: S105 - published demo login
DEMO_NAME = "演示用户"


async def seed(ctx: AppContext) -> Customer:
    """Create the demo account once (a brand administrator, so login links can be tried)."""
    async with ctx.sessions() as session:
        customer = await session.scalar(select(Customer).where(Customer.mobile == DEMO_MOBILE))
        if customer is None:
            customer = await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile=DEMO_MOBILE,
                password=DEMO_PASSWORD,
                name=DEMO_NAME,
                is_brand_admin=True,
            )
            customer.email = "demo@example.com"
            customer.screen_title = "智慧用电演示大屏"
            customer.category_name1 = "演示客户"
            customer.category_name2 = "学校"
            await session.commit()
            log.info("seeded demo account %s", DEMO_MOBILE)
        return customer
