"""What an account's balance means for its breaker: warnings, cut-offs and restores.

``review`` runs in the transaction that moved the balance (a charge, a recharge, a settlement) and
decides: a warning once the balance reaches the warning level, a cut-off (a ``PowerAction``) once
it reaches the cut-off level, a restore once a cut account's balance is above it again. The
actions are rows in that same transaction, so a decision is never lost and never taken twice; the
worker sends each once when it is due (a cut-off waits out the customer's quiet times).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.billing import notify
from powerportal.billing.models import (
    OPEN,
    POSTPAY,
    POWER_CUT,
    POWER_CUT_PENDING,
    POWER_ON,
    POWER_RESTORE_PENDING,
    PREPAY,
    PRESTORE,
    BillingAccount,
    BillingRule,
    PowerAction,
)
from powerportal.core.timeutil import utcnow

SWITCH_OFF, SWITCH_ON = "switch_off", "switch_on"
PENDING, SENDING, DONE, CANCELLED, SKIPPED, FAILED = (
    "pending",
    "sending",
    "done",
    "cancelled",
    "skipped",
    "failed",
)
ACTION_STATES = {
    PENDING: "待执行",
    SENDING: "发送中",
    DONE: "已执行",
    CANCELLED: "已取消",
    SKIPPED: "未执行",
    FAILED: "失败",
}


@dataclass(frozen=True, slots=True)
class Quiet:
    """When cut-offs wait: a nightly window (local HH:MM, may run over midnight), weekends, holidays."""

    start: str | None = None
    end: str | None = None
    weekends: bool = False
    holidays: frozenset[str] = frozenset()

    @classmethod
    def of(cls, rule: BillingRule | None) -> Quiet:
        """A customer's rule as quiet times (none without a rule)."""
        if rule is None:
            return cls()
        return cls(rule.quiet_start, rule.quiet_end, rule.quiet_weekends, frozenset(rule.holidays or ()))

    def _window(self, local: datetime) -> datetime | None:
        """The end of the nightly window ``local`` lies in, or None."""
        if not (self.start and self.end) or self.start == self.end:
            return None
        begin, end = time.fromisoformat(self.start), time.fromisoformat(self.end)
        now = local.time()
        day = local.date()
        if begin < end:
            return datetime.combine(day, end, local.tzinfo) if begin <= now < end else None
        if now >= begin:  # over midnight: from begin today to end tomorrow
            return datetime.combine(day + timedelta(days=1), end, local.tzinfo)
        return datetime.combine(day, end, local.tzinfo) if now < end else None

    def _day_off(self, day: date) -> bool:
        return (self.weekends and day.weekday() >= 5) or day.isoformat() in self.holidays

    def next_allowed(self, at: datetime, zone: ZoneInfo) -> datetime:
        """The first instant from ``at`` when a cut-off may be sent."""
        local = at.astimezone(zone)
        for _ in range(800):  # at most two years of days off and windows
            if self._day_off(local.date()):
                local = datetime.combine(local.date() + timedelta(days=1), time(), zone)
                continue
            end = self._window(local)
            if end is not None:
                local = end
                continue
            return local.astimezone(at.tzinfo)
        return at


def limit_fen(account: BillingAccount) -> int | None:
    """The balance at or below which the account is cut (None: never, e.g. post-pay)."""
    if account.charge_type == PREPAY:
        return account.cutoff_fen
    if account.charge_type == PRESTORE:
        return -account.overdraft_fen
    return None


@dataclass
class Review:
    """What a review decided beyond the account's own columns (told after the commit)."""

    warned: bool = False
    action: str | None = None


async def review(
    session: AsyncSession,
    account: BillingAccount,
    *,
    quiet: Quiet,
    zone: ZoneInfo,
    now: datetime | None = None,
) -> Review:
    """Decide, in the transaction that moved the balance, what the balance means for the breaker."""
    now = now or utcnow()
    out = Review()
    if account.state != OPEN:
        account.warned = False
        if account.power in (POWER_CUT_PENDING, POWER_RESTORE_PENDING):
            await _cancel(session, account)
            account.power = POWER_ON if account.power == POWER_CUT_PENDING else POWER_CUT
        return out
    if account.charge_type == POSTPAY:
        # never warned nor cut for its balance; a cut from before it turned 后付费 is restored below
        account.warned = False
    elif account.balance_fen <= account.warn_fen:
        if not account.warned:
            account.warned = out.warned = True
            await notify.write_notice(session, account)
    else:
        account.warned = False
    limit = limit_fen(account)
    short = limit is not None and account.balance_fen <= limit and not account.keep_power
    if short and account.power == POWER_ON:
        account.power = POWER_CUT_PENDING
        session.add(
            PowerAction(
                account_sysno=account.sysno,
                action=SWITCH_OFF,
                state=PENDING,
                due_time=quiet.next_allowed(now, zone),
                create_time=now,
            )
        )
        out.action = SWITCH_OFF
    elif short and account.power == POWER_RESTORE_PENDING:
        await _cancel(session, account)
        account.power = POWER_CUT
    elif not short and account.power == POWER_CUT_PENDING:
        await _cancel(session, account)
        account.power = POWER_ON
    elif not short and account.power == POWER_CUT:
        account.power = POWER_RESTORE_PENDING
        session.add(
            PowerAction(
                account_sysno=account.sysno, action=SWITCH_ON, state=PENDING, due_time=now, create_time=now
            )
        )
        out.action = SWITCH_ON
    return out


async def _cancel(session: AsyncSession, account: BillingAccount) -> None:
    """Cancel the account's actions not yet sent (one sent already is left to finish)."""
    await session.execute(
        update(PowerAction)
        .where(PowerAction.account_sysno == account.sysno, PowerAction.state == PENDING)
        .values(state=CANCELLED, outcome="余额变化，已取消")
    )
