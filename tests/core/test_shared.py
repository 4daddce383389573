"""Calls that arrive together share one run; giving up or failing never strands the others."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, cast

import pytest
from sqlalchemy import bindparam, func, select

from powerportal.core.counting import CountCache
from powerportal.core.reads import Reader
from powerportal.core.shared import SharedRuns
from powerportal.logs.models import OperationLog
from tests.conftest import Harness, make_customer
from tests.core.test_reads import add_log


async def test_one_run_answers_every_caller_of_a_key() -> None:
    runs = SharedRuns[int]()
    started: list[str] = []
    release = asyncio.Event()

    async def work(key: str) -> int:
        started.append(key)
        await release.wait()
        return len(key)

    callers = [asyncio.ensure_future(runs.run(key, partial(work, key))) for key in ("ab", "ab", "ab", "xyz")]
    await asyncio.sleep(0)
    callers[0].cancel()  # one caller gives up
    release.set()
    assert await asyncio.gather(*callers[1:]) == [2, 2, 3]
    assert started == ["ab", "xyz"]
    assert await runs.run("ab", lambda: work("ab")) == 2 and started == ["ab", "xyz", "ab"], (
        "finished runs go"
    )


async def test_a_failure_reaches_every_caller_and_a_forgotten_key_starts_afresh() -> None:
    runs = SharedRuns[int]()
    release = asyncio.Event()
    owned: list[bool] = []

    async def failing() -> int:
        await release.wait()
        raise RuntimeError("数据库不可用")

    async def slow() -> int:
        await release.wait()
        owned.append(runs.owns("k"))
        return 1

    first = [asyncio.ensure_future(runs.run("bad", failing)) for _ in range(3)]
    old = asyncio.ensure_future(runs.run("k", slow))
    await asyncio.sleep(0)
    runs.forget("k")
    new = asyncio.ensure_future(runs.run("k", slow))
    await asyncio.sleep(0)
    release.set()
    for caller in first:
        with pytest.raises(RuntimeError):
            await caller
    assert await old == 1 and await new == 1
    assert sorted(owned) == [False, True], "only the run started after forget still owns the key"


async def test_counts_read_once_for_calls_arriving_together(harness: Harness) -> None:
    customer = await make_customer(harness)
    await add_log(harness, customer, "一")
    reads = harness.ctx.reads
    asked: list[Any] = []

    class CountingReader:
        def data_version(self) -> None:
            return None

        async def scalar(self, statement: Any, params: Any, *, inline: bool = True) -> Any:
            asked.append(statement)
            await asyncio.sleep(0.01)  # a count that takes a while, as on a long log
            return await reads.scalar(statement, params, inline=inline)

    statement = (
        select(func.count()).select_from(OperationLog).where(OperationLog.customer_sysno == bindparam("c"))
    )
    counts, reader = CountCache(ttl_seconds=60), cast(Reader, CountingReader())
    key, params = ("log", customer), {"c": customer}
    totals = await asyncio.gather(
        *(
            counts.count(reader, key=key, tables=("operation_log",), statement=statement, params=params)
            for _ in range(10)
        )
    )
    assert totals == [1] * 10 and len(asked) == 1
