"""Remembered counts are reused until a table they read is written through this process's sessions."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import bindparam, func, insert, select

from powerportal.core.counting import CountCache, reads_the_clock, tables_of
from powerportal.logs.models import OperationLog
from powerportal.logs.recording import OperateType, record
from powerportal.projects.access import visible_projects
from powerportal.projects.models import Project
from tests.conftest import Harness, make_customer

LOGIN = OperateType.LOGIN
STATEMENT = (
    select(func.count()).select_from(OperationLog).where(OperationLog.customer_sysno == bindparam("customer"))
)


def test_a_count_knows_every_table_it_reads_and_whether_it_reads_the_clock() -> None:
    assert tables_of(STATEMENT) == ("operation_log",)
    nested = select(func.count()).where(OperationLog.customer_sysno.in_(visible_projects(bindparam("c"))))
    assert tables_of(nested) == ("operation_log", "project", "project_share")
    assert not reads_the_clock(STATEMENT)
    assert reads_the_clock(nested)  # a share is in force until its expiry, compared with the clock


async def test_count_is_remembered_until_a_session_writes_its_table(harness: Harness) -> None:
    customer = await make_customer(harness)
    counts = harness.ctx.counts
    reads = harness.ctx.reads
    params = {"customer": customer}
    tables = tables_of(STATEMENT)

    async def count() -> int:
        return await counts.count(reads, key="log", tables=tables, statement=STATEMENT, params=params)

    assert await count() == 0
    # A write this process's sessions do not see (as another process's would be) keeps the count...
    async with harness.ctx.engine.begin() as connection:
        await connection.execute(
            insert(OperationLog).values(
                customer_sysno=customer, operate_type=1, detail="旁路写入", ip=None, is_success=True
            )
        )
    assert await count() == 0, "remembered"
    # ...a write to another table too...
    async with harness.ctx.sessions() as session:
        session.add(Project(customer_sysno=customer, name="别的表"))
        await session.commit()
    assert await count() == 0, "remembered"
    # ...until a session of this process writes the table: then every count of it is read again.
    async with harness.ctx.sessions() as session:
        record(
            session=session, customer_sysno=customer, operate_type=OperateType.LOGIN, detail="登录", ip=None
        )
        await session.commit()
    assert await count() == 2


async def test_a_rolled_back_write_forgets_nothing(harness: Harness) -> None:
    customer = await make_customer(harness)
    counts, reads = harness.ctx.counts, harness.ctx.reads
    tables = tables_of(STATEMENT)
    params = {"customer": customer}
    assert await counts.count(reads, key="k", tables=tables, statement=STATEMENT, params=params) == 0
    async with harness.ctx.sessions() as session:
        record(
            session=session, customer_sysno=customer, operate_type=OperateType.LOGIN, detail="登录", ip=None
        )
        await session.flush()
        await session.rollback()
    assert counts.remembered("k", tables) == 0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def count_call(customer: int) -> dict[str, Any]:
    """The arguments of counting a customer's operation log."""
    return {
        "key": "log",
        "tables": tables_of(STATEMENT),
        "statement": STATEMENT,
        "params": {"customer": customer},
    }


async def write_aside(harness: Harness, customer: int) -> None:
    """A write this process's sessions do not see, as another process's would be."""
    async with harness.ctx.engine.begin() as connection:
        await connection.execute(
            insert(OperationLog).values(
                customer_sysno=customer, operate_type=1, detail="旁路写入", ip=None, is_success=True
            )
        )


async def test_another_writer_is_caught_up_with_in_the_background(harness: Harness) -> None:
    customer = await make_customer(harness)
    clock = Clock()
    counts, reads = CountCache(ttl_seconds=2, clock=clock), harness.ctx.reads
    call = count_call(customer)
    assert await counts.count(reads, **call) == 0
    await write_aside(harness, customer)
    clock.now += 0.5
    assert counts.current(reads, **call) == 0, "young: answered from memory"
    clock.now += 1  # past half the ttl: answered from memory while it is read anew aside
    assert counts.current(reads, **call) == 0
    for _ in range(500):
        await asyncio.sleep(0.01)
        if counts.current(reads, **call) == 1:
            break
    assert counts.current(reads, **call) == 1
    await write_aside(harness, customer)
    clock.now += 2.5  # past the ttl: never answered from memory
    assert counts.current(reads, **call) is None
    assert await counts.count(reads, **call) == 2


async def test_on_sqlite_a_count_stays_exact_while_nothing_is_committed(harness: Harness) -> None:
    customer = await make_customer(harness)
    clock = Clock()
    counts, reads = CountCache(ttl_seconds=2, clock=clock), harness.ctx.reads
    call = count_call(customer)
    assert await counts.count(reads, **call) == 0
    clock.now += 60
    on_sqlite = reads.data_version() is not None
    assert counts.current(reads, **call) == (0 if on_sqlite else None)
    assert await counts.count(reads, **call) == 0
    await write_aside(harness, customer)
    clock.now += 60
    assert counts.current(reads, **call) is None
    assert await counts.count(reads, **call) == 1


async def test_a_count_that_reads_the_clock_lives_by_its_ttl_alone(harness: Harness) -> None:
    """A share's expiry changes such a count without any write: SQLite's data version cannot tell."""
    customer = await make_customer(harness)
    clock = Clock()
    counts, reads = CountCache(ttl_seconds=2, clock=clock), harness.ctx.reads
    statement = (
        select(func.count()).select_from(Project).where(Project.sysno.in_(visible_projects(bindparam("c"))))
    )
    call = {
        "key": "projects",
        "tables": tables_of(statement),
        "statement": statement,
        "params": {"c": customer},
    }
    assert await counts.count(reads, **call) == 0
    clock.now += 60
    assert counts.current(reads, **call) is None
