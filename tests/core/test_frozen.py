"""Pages of an append-only log: ids from the database every time, each row turned into JSON once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import bindparam, delete, select

from powerportal.core.frozen import FrozenRows
from powerportal.logs.models import OperationLog
from tests.conftest import Harness, make_customer
from tests.core.test_reads import add_log


def newest(*columns: Any) -> Any:
    """The customer's newest ``limit`` rows."""
    return (
        select(*columns)
        .where(OperationLog.customer_sysno == bindparam("customer"))
        .order_by(OperationLog.sysno.desc())
        .limit(bindparam("limit"))
    )


IDS = newest(OperationLog.sysno)
ROWS = newest(OperationLog.sysno, OperationLog.detail)


async def read_page(
    harness: Harness, frozen: FrozenRows, customer: int, limit: int, render: Callable[[Any], dict[str, Any]]
) -> list[orjson.Fragment]:
    """A page as the operation-log list reads it: ids first, the whole page only for rows new here."""
    params = {"customer": customer, "limit": limit}
    page = frozen.remembered(await harness.ctx.reads.all(IDS, params))
    if page is None:
        page = frozen.remember(await harness.ctx.reads.all(ROWS, params), render)
    return page


def as_json(page: list[orjson.Fragment]) -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = orjson.loads(orjson.dumps(page))
    return loaded


async def test_rows_are_rendered_once_and_pages_follow_the_database(harness: Harness) -> None:
    customer = await make_customer(harness)
    for detail in ("一", "二", "三"):
        await add_log(harness, customer, detail)
    frozen, rendered = FrozenRows(), []

    def render(row: Any) -> dict[str, Any]:
        rendered.append(row[0])
        return {"sysno": row[0], "detail": row[1]}

    async def page(limit: int = 3) -> list[dict[str, Any]]:
        return as_json(await read_page(harness, frozen, customer, limit, render))

    first = await page()
    assert [row["detail"] for row in first] == ["三", "二", "一"] and len(rendered) == 3
    assert await page() == first and len(rendered) == 3, "the same rows again come from memory"

    await add_log(harness, customer, "四")  # written elsewhere: nothing told the cache
    assert [row["detail"] for row in await page()] == ["四", "三", "二"]
    assert len(rendered) == 6, "a page with a row new to the process is read whole once"

    async with harness.ctx.sessions() as session:
        await session.execute(delete(OperationLog).where(OperationLog.detail == "三"))
        await session.commit()
    assert [row["detail"] for row in await page()] == ["四", "二", "一"]


async def test_memory_stays_within_its_bound(harness: Harness) -> None:
    customer = await make_customer(harness)
    for n in range(12):
        await add_log(harness, customer, f"第{n}条")
    frozen = FrozenRows(max_entries=5)
    for limit in (3, 6, 12):
        page = await read_page(harness, frozen, customer, limit, lambda row: {"sysno": row[0]})
        assert len(page) == limit
        assert len(frozen) <= 5


async def test_an_operation_log_id_stands_for_one_row_forever(harness: Harness) -> None:
    customer = await make_customer(harness)
    await add_log(harness, customer, "旧")
    async with harness.ctx.sessions() as session:
        deleted = await session.scalar(select(OperationLog.sysno).where(OperationLog.detail == "旧"))
        await session.execute(delete(OperationLog).where(OperationLog.sysno == deleted))
        await session.commit()
    await add_log(harness, customer, "新")
    async with harness.ctx.sessions() as session:
        fresh = await session.scalar(select(OperationLog.sysno).where(OperationLog.detail == "新"))
    assert deleted is not None and fresh is not None and fresh > deleted
