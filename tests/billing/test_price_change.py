"""A new price applies from the change on: what was used before it is charged or billed at the old one."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from powerportal.billing import bills
from powerportal.billing.models import CHARGE, LedgerEntry
from powerportal.core.timeutil import utcnow
from powerportal.energy.observer import EnergyObserver
from tests.billing.test_billing_api import account_row, backdate, feed, opened
from tests.conftest import Harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project

B = "/api/CustomerElectricity"


async def _charges(h: Harness, account: int) -> int:
    """What the account's charges add up to, in fen (positive)."""
    async with h.ctx.sessions() as session:
        total = await session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount_fen), 0)).where(
                LedgerEntry.account_sysno == account, LedgerEntry.kind == CHARGE
            )
        )
    return -int(total or 0)


async def _reprice(
    h: Harness, me: Account, device: int, sysno: int, price: float | None, **fields: Any
) -> None:
    body = {**opened(device, flat_price=price, **fields), "sysno": sysno}
    for key in ("device_sysno", "opening_balance", "method"):
        body.pop(key)
    changed = await h.post(f"{B}/UpdateAccount", body, me.token)
    assert changed["statusCode"] == 200, changed


def _kwh(
    start: datetime, first_minute: int, first_value: float, minutes: int
) -> list[tuple[datetime, float]]:
    """A counter's readings a minute apart, rising 0.1 kWh a minute (6 kWh an hour)."""
    return [(start + timedelta(minutes=first_minute + i), first_value + 0.1 * i) for i in range(minutes)]


@pytest.mark.parametrize("charge_type", [2, 3])
async def test_post_paid_use_before_a_price_change_is_billed_at_the_old_price(
    harness: Harness, charge_type: int
) -> None:
    h = harness
    me = await make_account(h, "13900000041")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project, rated_current=63)
    terms = {"charge_type": charge_type, "overdraft_limit": 1000}
    made = await h.post(f"{B}/AddAccount", opened(device, opening_balance=0, **terms), me.token)
    assert made["statusCode"] == 200, made
    sysno = made["data"]["sysno"]
    await backdate(h, sysno, utcnow() - timedelta(days=40))  # opened last month: the next run bills it
    observer = EnergyObserver(h.ctx.sessions)
    start = utcnow().replace(microsecond=0) - timedelta(hours=3)

    await feed(h, observer, device, _kwh(start, 0, 10.0, 61))  # 6 kWh at 1.5 ¥ = 9 ¥
    await _reprice(h, me, device, sysno, 2.0, **terms)
    await feed(h, observer, device, _kwh(start, 61, 16.1, 30))  # 3 kWh at 2 ¥ = 6 ¥
    assert await _charges(h, sysno) == 0  # post-paid: nothing charged before the bill

    next_month = (utcnow().replace(day=1) + timedelta(days=32)).replace(day=2)
    assert await bills.issue_due(h.ctx, now=next_month) == 1
    (bill,) = (await h.post(f"{B}/GetBillList", {"account_sysno": sysno}, me.token))["data"]["dataSource"]
    assert bill["amount"] == 15.0 and bill["kwh"] == pytest.approx(9.0, abs=0.001)

    # after the bill: 1 kWh at 2 ¥, then the tariff (the project has no plan: ¥0) for 1 kWh more
    await feed(h, observer, device, _kwh(start, 91, 19.1, 10))
    await _reprice(h, me, device, sysno, None, **terms)
    await feed(h, observer, device, _kwh(start, 101, 20.1, 10))
    close = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, "business_type": 4}, me.token)
    done = await h.post(f"{B}/ReviewOrder", {"sysno": close["data"]["sysno"], "approve": True}, me.token)
    assert done["statusCode"] == 200, done
    assert await _charges(h, sysno) == 1500 + 200
    row = await account_row(h, sysno)
    assert row.state == 2 and row.charged_kwh == pytest.approx(11.0, abs=0.001)
