"""End to end on a running server: the breaker cut once, restored after a recharge, never twice.

The simulator consumes, the balance falls, the breaker is cut once, a recharge restores it, the
command log shows both; a restart neither misses nor repeats a cut-off.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from powerportal.billing import power
from powerportal.billing.models import BillingAccount, PowerAction
from powerportal.billing.worker import BillingWorker
from powerportal.control.models import Command
from powerportal.core.timeutil import utcnow
from tests.billing.test_billing_api import B, opened
from tests.control.conftest import Field, start_field


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Field]:
    """One simulated gateway with three online breakers drawing power, on the embedded broker."""
    async for f in start_field(database_url):
        yield f


async def billing_commands(f: Field, device: int) -> list[Command]:
    async with f.h.ctx.sessions() as session:
        found = await session.scalars(
            select(Command)
            .where(Command.device_sysno == device, Command.source == "billing")
            .order_by(Command.sysno)
        )
        return list(found)


async def until(check: object, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while not await check():  # type: ignore[operator]
            await asyncio.sleep(0.2)


async def test_balance_runs_out_cut_once_recharge_restores(site: Field) -> None:
    f = site
    device = (await f.devices())[0]
    made = await f.h.post(
        f"{B}/AddAccount",
        opened(device.sysno, flat_price=100, opening_balance=0.5, warn_balance=0.3, cutoff_balance=0),
        f.owner.token,
    )
    assert made["statusCode"] == 200, made
    sysno = made["data"]["sysno"]

    async def cut() -> bool:
        commands = await billing_commands(f, device.sysno)
        return (
            bool(commands)
            and commands[-1].status == "succeeded"
            and (await f.device(device.sysno)).switch_state == 0
        )

    await until(cut, 60)
    await asyncio.sleep(3)  # more folds and charges: still one cut-off
    commands = await billing_commands(f, device.sysno)
    assert [(c.action, c.status) for c in commands] == [("switch_off", "succeeded")]
    async with f.h.ctx.sessions() as session:
        account = await session.get(BillingAccount, sysno)
        assert account is not None and account.power == "cut" and account.balance_fen <= 0
        assert account.cut_command_sysno == commands[0].sysno

    paid = await f.h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 50, "method": "cash"}, f.owner.token
    )
    assert paid["data"]["restores"] == 1
    started = utcnow()

    async def restored() -> bool:
        return (await f.device(device.sysno)).switch_state == 1

    await until(restored, 60)
    assert (utcnow() - started).total_seconds() < 60
    commands = await billing_commands(f, device.sysno)
    assert [(c.action, c.status) for c in commands] == [
        ("switch_off", "succeeded"),
        ("switch_on", "succeeded"),
    ]
    log = await f.h.post("/api/CustomerCommandLog/GetCommandLogList", {"source": "billing"}, f.owner.token)
    assert log["data"]["totalCount"] == 2
    assert {row["source_name"] for row in log["data"]["dataSource"]} == {"电费管理"}
    async with f.h.ctx.sessions() as session:
        account = await session.get(BillingAccount, sysno)
        assert account is not None and account.power == "on" and account.cut_command_sysno is None


async def test_manual_switch_off_is_not_undone_and_restart_sends_once(site: Field) -> None:
    f = site
    devices = await f.devices()
    worker = f.h.runtime.billing
    assert worker is not None
    made = await f.h.post(
        f"{B}/AddAccount", opened(devices[1].sysno, flat_price=100, opening_balance=0), f.owner.token
    )  # opened at its cut-off level: cut at once
    sysno = made["data"]["sysno"]

    async def cut() -> bool:
        return (await f.device(devices[1].sysno)).switch_state == 0

    await until(cut, 60)
    # the manager switches the breaker off by hand as well: it is off for another reason now
    sent = await f.h.post(
        "/api/CustomerControl/SendCommand",
        {"device_sysno": devices[1].sysno, "action": "switch_off"},
        f.owner.token,
    )
    assert sent["statusCode"] == 200, sent
    await f.h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 50, "method": "cash"}, f.owner.token
    )
    await worker.run_due()
    async with f.h.ctx.sessions() as session:
        actions = (await session.scalars(select(PowerAction).where(PowerAction.account_sysno == sysno))).all()
        restore = [a for a in actions if a.action == "switch_on"]
        assert [a.state for a in restore] == ["skipped"] and "其他原因" in (restore[0].outcome or "")
    assert (await f.device(devices[1].sysno)).switch_state == 0
    assert [c.action for c in await billing_commands(f, devices[1].sysno)] == ["switch_off"]
    # billing supplies the room again, the breaker stays off: the list says both
    listed = await f.h.post(f"{B}/GetAccountList", {}, f.owner.token)
    (row,) = [a for a in listed["data"]["dataSource"] if a["sysno"] == sysno]
    assert (row["power"], row["switch_state"]) == ("on", 0)

    # a process stopped after claiming a cut-off: before it recorded the command, it is sent once;
    # after, it is not sent again (the running worker is stopped: the fresh one alone sends)
    await worker.stop()
    account_b = await f.h.post(
        f"{B}/AddAccount", opened(devices[2].sysno, flat_price=1, opening_balance=0), f.owner.token
    )
    sysno_b = account_b["data"]["sysno"]
    async with f.h.ctx.sessions() as session:
        (action,) = (
            await session.scalars(select(PowerAction).where(PowerAction.account_sysno == sysno_b))
        ).all()
        action.state, action.claim_time = (
            power.SENDING,
            utcnow() - timedelta(minutes=5),
        )  # then the process died
        await session.commit()
    fresh = BillingWorker(f.h.ctx, f.h.runtime.commander)
    await fresh.recover()
    await fresh.run_due()
    assert [c.action for c in await billing_commands(f, devices[2].sysno)] == ["switch_off"]
    async with f.h.ctx.sessions() as session:
        account = await session.get(BillingAccount, sysno_b)
        assert account is not None and account.power == "cut"
        # the same again: its command is in the log now, so a second recovery sends nothing
        (action,) = (
            await session.scalars(select(PowerAction).where(PowerAction.account_sysno == sysno_b))
        ).all()
        action.state, action.claim_time = power.SENDING, utcnow() - timedelta(minutes=5)
        await session.commit()
    await fresh.recover()
    await fresh.run_due()
    assert [c.action for c in await billing_commands(f, devices[2].sysno)] == ["switch_off"]
