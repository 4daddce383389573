"""过户 hands a room to a new holder with nothing owed: the old holder's debt is paid first, not passed on."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from powerportal.billing.models import BusinessOrder, LedgerEntry
from powerportal.core.timeutil import utcnow
from powerportal.energy.counting import quarter_of
from powerportal.energy.observer import EnergyObserver
from tests.billing.test_billing_api import B, account_row, backdate, feed, opened
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project

TO_LI_SI = {"business_type": 3, "new_holder_name": "李四", "new_holder_mobile": "13987654321"}


async def entries(h: Harness, sysno: int) -> list[tuple[int, int]]:
    async with h.ctx.sessions() as session:
        found = await session.execute(
            select(LedgerEntry.kind, LedgerEntry.amount_fen)
            .where(LedgerEntry.account_sysno == sysno)
            .order_by(LedgerEntry.sysno)
        )
        return [(kind, amount) for kind, amount in found]


async def test_an_account_in_debt_is_not_transferred_until_the_debt_is_paid(harness: Harness) -> None:
    # The old holder's negative balance became the new holder's first debt (the docs: "starts at 0").
    h = harness
    me = await make_account(h, "13900000068")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    made = await h.post(f"{B}/AddAccount", opened(device, opening_balance=10, cutoff_balance=-100), me.token)
    sysno = made["data"]["sysno"]
    owed = await h.post(
        f"{B}/AdjustBalance", {"account_sysno": sysno, "amount": -50, "remark": "用电"}, me.token
    )
    assert owed["data"]["balance"] == -40

    # the request is taken (the old holder may pay at the handover); its review is not, nothing changed
    order = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, **TO_LI_SI}, me.token)
    assert order["statusCode"] == 200, order
    review = {"sysno": order["data"]["sysno"], "approve": True}
    before = await entries(h, sysno)
    refused = await h.post(f"{B}/ReviewOrder", review, me.token)
    assert refused["statusCode"] == 400
    assert refused["message"] == (
        "结算至今账户欠费 40.00 元，请先为原户主充值结清（多充的部分过户时退还）后再审核过户"
    )
    row = await account_row(h, sysno)
    assert (row.holder_name, row.balance_fen) == ("张三", -4000) and await entries(h, sysno) == before
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(BusinessOrder.review_state)) == 1  # still 未审核

    # the old holder pays what they owe; the transfer then starts the new holder at 0
    await h.post(f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 40, "method": "cash"}, me.token)
    passed = await h.post(f"{B}/ReviewOrder", review, me.token)
    assert passed["data"]["done_state_name"] == "已完成"
    row = await account_row(h, sysno)
    assert (row.holder_name, row.holder_mobile, row.balance_fen) == ("李四", "13987654321", 0)


async def test_use_charged_at_the_review_that_leaves_a_debt_refuses_the_transfer(harness: Harness) -> None:
    # The review charges the use to now before the new holder takes over: a debt that appears only
    # then is named with its amount, and the order waits, nothing changed, until it is paid.
    h = harness
    me = await make_account(h, "13900000069")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project, rated_current=63)
    made = await h.post(f"{B}/AddAccount", opened(device, opening_balance=10, cutoff_balance=-100), me.token)
    sysno = made["data"]["sysno"]
    start = quarter_of(utcnow() - timedelta(hours=2))
    await backdate(h, sysno, start)
    order = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, **TO_LI_SI}, me.token)
    assert order["statusCode"] == 200
    # 10 kWh at 1.5 ¥ used since the last charge: 15 ¥ against the 10 ¥ left
    await feed(
        h,
        EnergyObserver(h.ctx.sessions),
        device,
        [(start + timedelta(minutes=i), 100 + i / 6) for i in range(61)],
    )
    before = await entries(h, sysno)

    review = {"sysno": order["data"]["sysno"], "approve": True}
    refused = await h.post(f"{B}/ReviewOrder", review, me.token)
    assert refused["statusCode"] == 400
    assert refused["message"] == (
        "结算至今账户欠费 5.00 元，请先为原户主充值结清（多充的部分过户时退还）后再审核过户"
    )
    row = await account_row(h, sysno)
    assert (row.holder_name, row.balance_fen) == ("张三", 1000) and await entries(h, sysno) == before
    waiting = await h.post(f"{B}/GetOrderList", {"account_sysno": sysno}, me.token)
    assert [o["review_state_name"] for o in waiting["data"]["dataSource"]] == ["未审核"]

    # paid more than owed: the use is charged, the rest refunded to the old holder, the new one at 0
    await h.post(f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 8, "method": "cash"}, me.token)
    passed = await h.post(f"{B}/ReviewOrder", review, me.token)
    assert passed["statusCode"] == 200, passed
    row = await account_row(h, sysno)
    assert (row.holder_name, row.balance_fen) == ("李四", 0)
    assert (await entries(h, sysno))[-2:] == [(2, -1500), (4, -300)]  # charged 15, refunded 3
