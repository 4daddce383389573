"""The reader answers as the ORM would, sees every commit at once, and never writes."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from sqlalchemy import bindparam, func, select

from powerportal.core.reads import Connections
from powerportal.logs.models import OperationLog
from tests.conftest import Harness, make_customer

PAGE = (
    select(OperationLog.sysno, OperationLog.detail, OperationLog.is_success, OperationLog.create_time)
    .where(OperationLog.customer_sysno == bindparam("customer"))
    .where(OperationLog.create_time >= bindparam("since"))
    .order_by(OperationLog.sysno)
)
COUNT = (
    select(func.count()).select_from(OperationLog).where(OperationLog.customer_sysno == bindparam("customer"))
)
SINCE = datetime(2000, 1, 1, tzinfo=UTC)


async def add_log(harness: Harness, customer: int, detail: str, *, success: bool = True) -> None:
    async with harness.ctx.sessions() as session:
        session.add(
            OperationLog(customer_sysno=customer, operate_type=1, detail=detail, ip=None, is_success=success)
        )
        await session.commit()


async def test_rows_match_the_orm_and_every_commit_shows_at_once(harness: Harness) -> None:
    customer = await make_customer(harness)
    reads = harness.ctx.reads
    params = {"customer": customer, "since": SINCE}
    assert await reads.all(PAGE, params) == ()
    assert await reads.scalar(COUNT, params) == 0

    await add_log(harness, customer, "第一条", success=False)
    rows = await reads.all(PAGE, params)
    async with harness.ctx.sessions() as session:
        expected = tuple(tuple(row) for row in (await session.execute(PAGE, params)).all())
    assert rows == expected and len(rows) == 1
    _sysno, detail, success, created = rows[0]
    assert detail == "第一条" and success is False
    assert created.tzinfo is not None and created.utcoffset().total_seconds() == 0

    await add_log(harness, customer, "第二条")
    assert [row[1] for row in await reads.all(PAGE, params)] == ["第一条", "第二条"]
    assert await reads.scalar(COUNT, params) == 2
    later = {"customer": customer, "since": datetime(2999, 1, 1, tzinfo=UTC)}
    assert await reads.all(PAGE, later) == (), "datetime parameters are converted as the ORM converts them"


async def test_the_readers_own_connections_cannot_write(harness: Harness) -> None:
    customer = await make_customer(harness)
    reads = harness.ctx.reads
    await reads.all(PAGE, {"customer": customer, "since": SINCE})
    if harness.ctx.engine.dialect.name == "sqlite":
        assert reads._sqlite is not None
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reads._sqlite.execute("DELETE FROM operation_log")
    else:
        assert reads._pool is not None
        async with (await reads._pool).acquire() as connection:
            with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
                await connection.execute("DELETE FROM operation_log")


async def test_statements_with_in_lists_are_refused(harness: Harness) -> None:
    listed = select(OperationLog.sysno).where(OperationLog.sysno.in_(bindparam("ids", expanding=True)))
    with pytest.raises(ValueError, match="execution time"):
        await harness.ctx.reads.all(listed, {"ids": [1, 2]})


class FakeConnection:
    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed

    def terminate(self) -> None:
        self.closed = True

    async def close(self) -> None:
        self.closed = True


async def test_the_reader_connections_wait_their_turn_and_drop_broken_ones() -> None:
    opened: list[FakeConnection] = []

    async def connect() -> Any:
        opened.append(FakeConnection())
        return opened[-1]

    pool = Connections(connect, 2)
    first, second = await pool.get(), await pool.get()
    assert len(opened) == 2
    third = asyncio.ensure_future(pool.get())
    cancelled = asyncio.ensure_future(pool.get())
    await asyncio.sleep(0)
    assert not third.done(), "at most two open: the third waits"
    cancelled.cancel()
    pool.put(first)
    assert await third is first, "the connection put back goes to the one waiting"
    pool.put(second, broken=True)
    assert second.closed, "a connection whose read failed is closed, never handed out again"
    assert await pool.get() not in (first, second) and len(opened) == 3
    await pool.close()
    pool.put(first)
    assert first.closed, "put back after closing: closed"
    with pytest.raises(asyncpg.InterfaceError):
        await pool.get()


async def test_a_connection_put_back_goes_to_the_longest_waiting_call() -> None:
    async def connect() -> Any:
        return FakeConnection()

    pool = Connections(connect, 1)
    held = await pool.get()
    waiting = asyncio.ensure_future(pool.get())
    await asyncio.sleep(0)
    pool.put(held)
    late = asyncio.ensure_future(pool.get())
    assert await waiting is held
    await asyncio.sleep(0)
    assert not late.done(), "a call that came later waits its turn"
    pool.put(held)
    assert await late is held
