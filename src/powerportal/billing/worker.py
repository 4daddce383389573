"""The billing worker: charges after each energy fold, sends cut-offs and restores, issues monthly bills.

It runs in every process that runs the ingest and the command sender. Charging is the energy
observer's after-fold hook (the roll-ups it reads have just committed). Power actions are rows
(``billing_power_action``) the charge or recharge transaction wrote; the worker sends each due one
once: it claims it (``pending`` → ``sending``, one process wins), sends the command through the
same path as a person's, and records the outcome with the account's new state. An action left
``sending`` by a process that died (claimed longer ago than any send takes) is finished from the
command log if its command was recorded, and sent again only if it was not: no cut-off is missed
and none goes out twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.billing import bills, charging, ledger, notify, power
from powerportal.billing.models import (
    POWER_CUT,
    POWER_CUT_PENDING,
    POWER_ON,
    POWER_RESTORE_PENDING,
    BillingAccount,
    PowerAction,
)
from powerportal.control.commands import Commander, Origin, load_targets
from powerportal.control.models import Command
from powerportal.core.context import AppContext
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device

log = logging.getLogger(__name__)

# How often the worker looks for due actions and bills when nothing wakes it (a recharge in another
# process, the end of a quiet window): a restore is sent within this.
WAKE_SECONDS = 30.0
# A cut-off or restore the gateway did not carry out is tried again after this.
RETRY = timedelta(minutes=10)
# An action ``sending`` for longer than this lost its process (a send ends within the command timeout).
STALE = timedelta(minutes=2)
# How often the worker looks for post-paid accounts whose last month is not billed yet (seconds).
BILL_EVERY = 600.0
OPERATOR = {power.SWITCH_OFF: "电费管理（余额不足断电）", power.SWITCH_ON: "电费管理（充值后恢复供电）"}


class BillingWorker:
    """Charges after folds, sends power actions when due, issues the month's bills."""

    def __init__(self, ctx: AppContext, commander: Commander) -> None:
        self.ctx = ctx
        self.commander = commander
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._texts: set[asyncio.Task[int]] = set()
        self._billed_at = -BILL_EVERY

    def start(self) -> None:
        """Start the worker's loop (it first finishes what a stopped process left)."""
        self._task = asyncio.create_task(self._run(), name="billing-worker")

    async def stop(self) -> None:
        """Stop the loop and the texts still being sent."""
        await stop_tasks([t for t in [self._task, *self._texts] if t is not None])

    def wake(self) -> None:
        """Look for due actions now (a recharge, a charge that decided a cut-off)."""
        self._wake.set()

    async def folded(self, devices: set[int]) -> None:
        """The energy observer's after-fold hook: charge the accounts of the devices that used energy."""
        async with self.ctx.sessions() as session:
            done = await charging.charge(session, device_sysnos=sorted(devices))
            await session.commit()
        if done.actions:
            self.wake()
        if done.warnings:  # texts take their time: not on the ingest's path
            task = asyncio.create_task(notify.send_texts(self.ctx, done.warnings))
            self._texts.add(task)
            task.add_done_callback(self._texts.discard)

    async def _run(self) -> None:
        started = False
        while True:
            self._wake.clear()  # a wake during the round brings the next one at once
            try:
                if not started:
                    await self.charge_all()
                    started = True
                await self.recover()
                await self.run_due()
                if time.monotonic() - self._billed_at >= BILL_EVERY:
                    await bills.issue_due(self.ctx)
                    self._billed_at = time.monotonic()
            except Exception:
                log.exception("billing worker round failed; the next round tries again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), WAKE_SECONDS)

    async def charge_all(self) -> None:
        """Charge every open prepaid account (at start: what was used while no process ran)."""
        async with self.ctx.sessions() as session:
            await charging.charge(session)
            await session.commit()

    async def recover(self, now: datetime | None = None) -> None:
        """Finish the actions a stopped process left ``sending`` (claimed longer ago than any send takes)."""
        stale = (now or utcnow()) - STALE
        async with self.ctx.sessions() as session:
            left = (
                await session.scalars(
                    select(PowerAction).where(
                        PowerAction.state == power.SENDING, PowerAction.claim_time < stale
                    )
                )
            ).all()
            for action in left:
                account = await ledger.locked(session, action.account_sysno)
                command = await _command_since(session, account, action.claim_time) if account else None
                if command is None:
                    action.state, action.claim_time = power.PENDING, None  # never recorded: send it
                    continue
                await _finish(session, action, account, command.sysno, command.status)  # type: ignore[arg-type]
            await session.commit()

    async def run_due(self, now: datetime | None = None) -> int:
        """Send every action due by ``now``; return how many were sent or settled."""
        now = now or utcnow()
        async with self.ctx.sessions() as session:
            due = (
                await session.scalars(
                    select(PowerAction.sysno)
                    .where(PowerAction.state == power.PENDING, PowerAction.due_time <= now)
                    .order_by(PowerAction.due_time)
                    .limit(500)
                )
            ).all()
        count = 0
        for sysno in due:
            count += await self._carry_out(sysno)
        return count

    async def _carry_out(self, sysno: int) -> int:
        async with self.ctx.sessions() as session:
            claimed = await session.execute(
                update(PowerAction)
                .where(PowerAction.sysno == sysno, PowerAction.state == power.PENDING)
                .values(state=power.SENDING, claim_time=utcnow())
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return 0  # another process took it, or it was cancelled meanwhile
            action = await session.get(PowerAction, sysno)
            account = await ledger.locked(session, action.account_sysno) if action else None
            if action is None or account is None:
                await session.rollback()
                return 0
            skip = await _needless(session, action, account)
            if skip is not None:
                action.state, action.outcome = power.SKIPPED, skip
                account.power = POWER_CUT if action.action == power.SWITCH_OFF else POWER_ON
                if action.action == power.SWITCH_OFF:
                    account.cut_command_sysno = None
                await charging.review(session, account)
                await session.commit()
                return 1
            owner = await session.get(Customer, account.customer_sysno)
            targets = (
                await load_targets(session=session, customer=owner, device_sysnos=[account.device_sysno])
                if owner
                else []
            )
            await session.commit()
        if not targets or owner is None:
            outcome_status, command_sysno = "failed", None
        else:
            origin = Origin(customer_sysno=owner.sysno, source="billing", operator=OPERATOR[action.action])
            outcome = (
                await self.commander.execute(
                    targets=targets, action=action.action, params=None, origin=origin
                )
            )[0]
            outcome_status, command_sysno = outcome.status, outcome.command_sysno
        async with self.ctx.sessions() as session:
            action = await session.get(PowerAction, sysno)
            account = await ledger.locked(session, action.account_sysno) if action else None
            if action is not None and account is not None:
                await _finish(session, action, account, command_sysno, outcome_status)
            await session.commit()
        return 1


async def _command_since(
    session: AsyncSession, account: BillingAccount | None, since: datetime | None
) -> Command | None:
    """The billing command recorded for the account's device since an action was claimed."""
    if account is None or since is None:
        return None
    return await session.scalar(
        select(Command)
        .where(
            Command.device_sysno == account.device_sysno,
            Command.source == "billing",
            Command.create_time >= since - timedelta(seconds=1),
        )
        .order_by(Command.sysno.desc())
        .limit(1)
    )


async def _needless(session: AsyncSession, action: PowerAction, account: BillingAccount) -> str | None:
    """Why the action need not be sent: the breaker is already there, or off for another reason."""
    state = await session.scalar(select(Device.switch_state).where(Device.sysno == account.device_sysno))
    if action.action == power.SWITCH_OFF:
        return "断路器已处于分闸状态" if state == 0 else None
    if state == 1:
        return "断路器已处于合闸状态"
    last = await session.scalar(
        select(Command.sysno)
        .where(
            Command.device_sysno == account.device_sysno,
            Command.action.in_([power.SWITCH_OFF, power.SWITCH_ON]),
            Command.status == "succeeded",
        )
        .order_by(Command.sysno.desc())
        .limit(1)
    )
    if account.cut_command_sysno is None or last != account.cut_command_sysno:
        return "断路器因其他原因分闸（手动分闸或负荷识别跳闸），未自动合闸"
    return None


async def _finish(
    session: AsyncSession,
    action: PowerAction,
    account: BillingAccount,
    command_sysno: int | None,
    status: str,
) -> None:
    """Record how a sent action ended, move the account's power state and review it again."""
    action.command_sysno = command_sysno
    if status in ("succeeded", "pending"):  # pending: recorded before a restart, taken as sent
        action.state, action.outcome = power.DONE, None if status == "succeeded" else "进程重启前已发送"
        if action.action == power.SWITCH_OFF:
            account.power, account.cut_command_sysno = POWER_CUT, command_sysno
        else:
            account.power, account.cut_command_sysno = POWER_ON, None
    else:
        action.state, action.outcome = (
            power.FAILED,
            f"命令未执行（{status}），{RETRY.seconds // 60} 分钟后重试",
        )
        if account.power in (POWER_CUT_PENDING, POWER_RESTORE_PENDING):
            session.add(
                PowerAction(
                    account_sysno=account.sysno,
                    action=action.action,
                    state=power.PENDING,
                    due_time=utcnow() + RETRY,
                )
            )
    await charging.review(session, account)
