"""Requests on the same accounts at the same moment take turns: no deadlock, no rule broken by a race."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from powerportal.billing.models import BillingAccount, BusinessOrder, LedgerEntry
from tests.billing.test_billing_api import B, opened
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project


async def sent(h: Harness, path: str, body: dict[str, Any], token: str) -> tuple[int, dict[str, Any]]:
    """The HTTP status and the envelope (a 500 is kept, not raised, so every answer can be shown)."""
    response = await h.client.post(f"{B}{path}", json=body, headers={"SYSTOKEN": token})
    return response.status_code, response.json()


async def test_batch_recharges_naming_the_same_accounts_in_opposite_orders_both_pay_in(
    harness: Harness,
) -> None:
    # Each account was locked as the request named it: two batches in opposite orders each held
    # half and waited for the other's, and PostgreSQL ended one as a deadlock (HTTP 500).
    h = harness
    me = await make_account(h, "13900000061")
    project = await make_project(h, me.sysno)
    gateway = await make_gateway(h, project)
    sysnos = []
    for _ in range(20):
        device = await make_device(h, gateway, project)
        made = await h.post(f"{B}/AddAccount", opened(device, opening_balance=100), me.token)
        sysnos.append(made["data"]["sysno"])
    answers = []
    for _ in range(3):
        answers += await asyncio.gather(
            sent(h, "/Recharge", {"account_sysnos": sysnos, "amount": 1, "method": "cash"}, me.token),
            sent(h, "/Recharge", {"account_sysnos": sysnos[::-1], "amount": 1, "method": "cash"}, me.token),
        )
    assert [(status, body["statusCode"]) for status, body in answers] == [(200, 200)] * 6, answers
    assert all(body["data"] == {"count": 20, "restores": 0} for _, body in answers)
    async with h.ctx.sessions() as session:
        for sysno in sysnos:
            account = await session.get(BillingAccount, sysno)
            total = await session.scalar(
                select(func.sum(LedgerEntry.amount_fen)).where(LedgerEntry.account_sysno == sysno)
            )
            assert account is not None and account.balance_fen == total == 10000 + 6 * 100


async def test_a_batch_naming_an_account_of_another_customer_pays_in_nothing(harness: Harness) -> None:
    h = harness
    me, other = await make_account(h, "13900000062"), await make_account(h, "13900000063")
    mine, theirs = await make_project(h, me.sysno), await make_project(h, other.sysno)
    account = (
        await h.post(
            f"{B}/AddAccount", opened(await make_device(h, await make_gateway(h, mine), mine)), me.token
        )
    )["data"]["sysno"]
    foreign = (
        await h.post(
            f"{B}/AddAccount",
            opened(await make_device(h, await make_gateway(h, theirs), theirs)),
            other.token,
        )
    )["data"]["sysno"]
    status, body = await sent(
        h, "/Recharge", {"account_sysnos": [account, foreign], "amount": 5, "method": "cash"}, me.token
    )
    assert (status, body["statusCode"], body["message"]) == (200, 404, "电费账户不存在或无权访问")
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(LedgerEntry)) == 2  # the openings


async def test_orders_sent_together_leave_one_waiting_and_refuse_the_rest(harness: Harness) -> None:
    # The rule "one unreviewed order per account" was read before the insert, with nothing held:
    # on PostgreSQL four orders sent at once were all stored.
    h = harness
    me = await make_account(h, "13900000064")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    sysno = (await h.post(f"{B}/AddAccount", opened(device), me.token))["data"]["sysno"]
    order = {"account_sysno": sysno, "business_type": 1, "amount": 100}
    answers = await asyncio.gather(*(sent(h, "/AddOrder", order, me.token) for _ in range(4)))
    codes = sorted(body["statusCode"] for _, body in answers)
    assert all(status == 200 for status, _ in answers) and codes == [200, 409, 409, 409], answers
    refused = {body["message"] for _, body in answers if body["statusCode"] == 409}
    assert refused == {"该账户已有待审核的业务单，请先审核"}
    async with h.ctx.sessions() as session:
        stored = await session.scalar(
            select(func.count()).select_from(BusinessOrder).where(BusinessOrder.account_sysno == sysno)
        )
    assert stored == 1
