"""An account turned 后付费 (never cut for its balance) gets its power back if billing had cut it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from powerportal.billing import ledger
from powerportal.billing.models import PowerAction
from tests.billing.test_billing_api import B, account_row, opened
from tests.conftest import Harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project


def settings(device: int, sysno: int, **fields: Any) -> dict[str, Any]:
    """An UpdateAccount body: the opening's settings with ``fields`` changed."""
    body = opened(device, **fields)
    for opening_only in ("device_sysno", "opening_balance", "method"):
        body.pop(opening_only)
    return {**body, "sysno": sysno}


async def cut_prestore_account(h: Harness, me: Account) -> tuple[int, int]:
    """A 后付费（预存） account with nothing prestored, cut by billing (the command carried out)."""
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    made = await h.post(f"{B}/AddAccount", opened(device, charge_type=2, opening_balance=0), me.token)
    sysno = made["data"]["sysno"]
    assert made["data"]["power"] == "cut_pending"  # at 0 with no overdraft: cut at once
    async with h.ctx.sessions() as session:
        account = await ledger.locked(session, sysno)
        assert account is not None
        account.power, account.cut_command_sysno = "cut", 4242
        await session.execute(
            update(PowerAction).where(PowerAction.account_sysno == sysno).values(state="done")
        )
        await session.commit()
    return device, sysno


async def actions(h: Harness, sysno: int) -> list[tuple[str, str]]:
    async with h.ctx.sessions() as session:
        found = await session.scalars(
            select(PowerAction).where(PowerAction.account_sysno == sysno).order_by(PowerAction.sysno)
        )
        return [(a.action, a.state) for a in found]


async def test_a_cut_prestore_account_turned_post_paid_is_switched_on(harness: Harness) -> None:
    # review() returned early for 后付费: the account stayed cut for good, though nothing it owes
    # can cut a 后付费 account, and no recharge brought the power back.
    h = harness
    me = await make_account(h, "13900000065")
    device, sysno = await cut_prestore_account(h, me)
    changed = await h.post(f"{B}/UpdateAccount", settings(device, sysno, charge_type=3), me.token)
    assert changed["statusCode"] == 200, changed
    assert changed["data"]["power"] == "restore_pending" and changed["data"]["charge_type"] == 3
    assert await actions(h, sysno) == [("switch_off", "done"), ("switch_on", "pending")]
    # paying in changes nothing more: the restore is already on its way
    paid = await h.post(f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 5, "method": "cash"}, me.token)
    assert paid["data"] == {"count": 1, "restores": 0}
    assert (await account_row(h, sysno)).power == "restore_pending"
    assert await actions(h, sysno) == [("switch_off", "done"), ("switch_on", "pending")]


async def test_a_restore_on_its_way_is_not_cancelled_by_turning_post_paid(harness: Harness) -> None:
    # The restore a recharge decided was cancelled and the account put back to 已断电.
    h = harness
    me = await make_account(h, "13900000066")
    device, sysno = await cut_prestore_account(h, me)
    paid = await h.post(f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 5, "method": "cash"}, me.token)
    assert paid["data"] == {"count": 1, "restores": 1}
    changed = await h.post(f"{B}/UpdateAccount", settings(device, sysno, charge_type=3), me.token)
    assert changed["data"]["power"] == "restore_pending"
    assert await actions(h, sysno) == [("switch_off", "done"), ("switch_on", "pending")]


async def test_a_cut_on_its_way_is_cancelled_by_turning_post_paid(harness: Harness) -> None:
    h = harness
    me = await make_account(h, "13900000067")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    made = await h.post(f"{B}/AddAccount", opened(device, charge_type=2, opening_balance=0), me.token)
    sysno = made["data"]["sysno"]
    changed = await h.post(f"{B}/UpdateAccount", settings(device, sysno, charge_type=3), me.token)
    assert changed["data"]["power"] == "on"
    assert await actions(h, sysno) == [("switch_off", "cancelled")]
