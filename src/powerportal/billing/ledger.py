"""The append-only ledger: every movement of an account's money, and the balance it adds up to.

``post`` is the only writer of money. It takes the account locked (PostgreSQL: ``FOR UPDATE``;
SQLite has one writer at a time), adds the entry and moves the account's balance by the same
amount in the same transaction, so ``balance = Σ amounts`` holds whatever commits or rolls back.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.billing.models import BillingAccount, LedgerEntry
from powerportal.core.timeutil import utcnow

_FEN = Decimal("0.01")


def fen_of_yuan(yuan: float) -> int:
    """Yuan (at most two decimals, as the schemas accept them) in fen."""
    return round(yuan * 100)


def fen_of_cost(cost: float) -> int:
    """A cost in yuan (a float sum of interval costs) rounded half up to the fen."""
    return int(Decimal(repr(cost)).quantize(_FEN, rounding=ROUND_HALF_UP) * 100)


def yuan(fen: int) -> float:
    """Fen as yuan for the API (two decimals are exact enough as a JSON number)."""
    return fen / 100


async def locked(session: AsyncSession, sysno: int) -> BillingAccount | None:
    """The account, locked against other writers until the transaction ends."""
    return await session.scalar(
        select(BillingAccount)
        .where(BillingAccount.sysno == sysno)
        .with_for_update()
        .execution_options(populate_existing=True)
    )


def post(
    session: AsyncSession,
    account: BillingAccount,
    *,
    kind: int,
    amount_fen: int,
    operator: str,
    kwh: float | None = None,
    method: str | None = None,
    remark: str | None = None,
    bill_sysno: int | None = None,
) -> LedgerEntry:
    """Add one entry to a locked account's ledger and move its balance by the same amount."""
    account.balance_fen += amount_fen
    entry = LedgerEntry(
        account_sysno=account.sysno,
        customer_sysno=account.customer_sysno,
        kind=kind,
        amount_fen=amount_fen,
        balance_fen=account.balance_fen,
        kwh=kwh,
        method=method,
        operator=operator[:128],
        remark=remark,
        bill_sysno=bill_sysno,
        create_time=utcnow(),
    )
    session.add(entry)
    return entry


async def ledger_sum(session: AsyncSession, account_sysno: int) -> int:
    """The sum of an account's entries (what its balance must equal)."""
    total = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount_fen), 0)).where(
            LedgerEntry.account_sysno == account_sysno
        )
    )
    return int(total or 0)
