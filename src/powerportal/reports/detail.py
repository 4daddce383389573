"""A report's 明细 sheet: every row of a log over the period, read a chunk at a time and written as read.

A document holds what a screen shows (counts, a row per device); the log's own rows (each alarm,
offline spell or command) follow in the workbook only, as the energy report's 明细 does. They are
read in key order (time, then id) a few thousand at a time, aside from the event loop, so a year of a
large project is never held in memory at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, and_, bindparam, or_

from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.core.database import UTCDateTime
from powerportal.core.envelope import ApiError
from powerportal.core.reads import AnySelect
from powerportal.reports import render
from powerportal.reports.document import Column, Progress

CHUNK = 5000
_AFTER_TIME = bindparam("after_time", type_=UTCDateTime())
_AFTER_SYSNO = bindparam("after_sysno", type_=BigInteger())


def after(time: Any, sysno: Any) -> ColumnElement[bool]:
    """Rows after the last one read, in (time, id) order: a detail statement's keyset condition."""
    return or_(time > _AFTER_TIME, and_(time == _AFTER_TIME, sysno > _AFTER_SYSNO))


async def write(
    ctx: AppContext,
    book: xlsx.Workbook,
    progress: Progress,
    *,
    name: str,
    columns: Sequence[Column],
    statement: AnySelect,
    params: dict[str, Any],
    total: int,
    key: Callable[[Sequence[Any]], tuple[datetime, int]],
    row: Callable[[Sequence[Any]], list[Any]],
    since: datetime | None = None,
) -> None:
    """Write sheet ``name``: a header, then every row of ``statement`` (ordered by ``key``, ``CHUNK`` a read).

    ``statement`` keeps rows ``after`` the key parameters; ``total`` is how many there are (for the
    progress, and to refuse a sheet Excel could not open before anything is read); ``since``: the
    earliest key time (default the period's start).
    """
    if total + 1 > xlsx.MAX_ROWS:
        raise ApiError(f"{name}超过 Excel 上限（1,048,576 行），请缩小时间范围或选择一个建筑")
    styles = render.styles(columns)
    at: dict[str, Any] = {"after_time": (since or params["lo"]) - timedelta(microseconds=1), "after_sysno": 0}
    written = 0
    with book.sheet(name, widths=[c.width for c in columns], frozen=1, filtered=True) as sheet:
        sheet.row([c.title for c in columns], xlsx.HEADER)

        def put(chunk: Sequence[Sequence[Any]]) -> None:
            for found in chunk:
                sheet.row(render.cells(columns, row(found)), styles)

        while True:
            rows = await ctx.reads.all(statement, params | at, inline=False)
            if not rows:
                break
            await asyncio.to_thread(put, rows)
            written += len(rows)
            last_time, last_sysno = key(rows[-1])
            at = {"after_time": last_time, "after_sysno": last_sysno}
            await progress(min(written / total, 0.99) if total else 0.99)
            if len(rows) < CHUNK:
                break
