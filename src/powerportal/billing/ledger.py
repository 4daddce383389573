"""The append-only ledger: every movement of an account's money, and the balance it adds up to.

``post`` is the only writer of money. It takes an account ``hold`` locked, adds the entry and
moves the account's balance by the same amount in the same transaction, so ``balance = Σ amounts``
holds whatever commits or rolls back.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import ColumnElement, func, select, update
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


async def hold(session: AsyncSession, *where: ColumnElement[bool]) -> list[BillingAccount]:
    """The accounts matching ``where``, locked against other writers until the transaction ends, as stored.

    PostgreSQL locks the rows (``FOR UPDATE``). SQLite has no row locks and reads outside a
    transaction until its first write: an empty update first takes its one write lock, so the
    accounts are read after every other writer's commit and none can commit before this one ends
    (read first, two writers would both add to the balance they read, and one addition be lost).
    """
    if (await session.connection()).dialect.name == "sqlite":
        await session.execute(update(BillingAccount).where(*where).values(sysno=BillingAccount.sysno))
    found = await session.scalars(
        select(BillingAccount)
        .where(*where)
        .order_by(BillingAccount.sysno)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return list(found)


async def locked(session: AsyncSession, sysno: int) -> BillingAccount | None:
    """One account, held (``hold``)."""
    found = await hold(session, BillingAccount.sysno == sysno)
    return found[0] if found else None


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
