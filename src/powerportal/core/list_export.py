"""Lists exported to Excel: every row a list's filters keep, written as the screen shows it.

Every list exports through here. ``Listing.every`` reads the ids of the rows in the list's order,
then the rows a few thousand at a time; each chunk takes the list's wire shape (the same render as
its pages) and is written by ``core/xlsx`` in a worker thread, so neither the rows nor the workbook
are ever held whole. The sheet opens with a title block (the list, the filters used, 导出时间, the row count)
above a frozen header with an AutoFilter.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError
from powerportal.core.listing import Listing, Row
from powerportal.core.schemas import PageQuery
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow

MAX_EXPORT_ROWS = 200_000
CHUNK = 5000
Kind = Literal["text", "number", "amount", "reading"]
_STYLES: dict[Kind, int] = {
    "text": xlsx.PLAIN,
    "number": xlsx.PLAIN,
    "amount": xlsx.AMOUNT,
    "reading": xlsx.READING,
}


@dataclass(frozen=True, slots=True)
class Column:
    """A column of an exported list: its Chinese title and its value from a rendered row."""

    title: str
    value: str | Callable[[dict[str, Any]], Any]  # a key of the row, or a function of it
    width: float = 14
    kind: Kind = "text"


def filters_shown(*pairs: tuple[str, Any]) -> list[tuple[str, str]]:
    """The filters a call used, as (label, text) for the title block: the empty ones left out."""
    return [(label, str(value)) for label, value in pairs if value is not None and value != ""]


def during(start: str | None, end: str | None) -> str | None:
    """A time filter as typed (``2026-11-01 ~ 2026-11-26``), or None when unbounded."""
    if not start and not end:
        return None
    return f"{start or '…'} ~ {end or '…'}"


def with_unit(value: float | None, unit: str, digits: int) -> str | None:
    """A reading as the screens show it (``220.1 V``), or None when there is none."""
    if value is None:
        return None
    return f"{value:.{digits}f} {unit}" if unit else f"{value:.{digits}f}"


def duration_text(seconds: int | float | None) -> str | None:
    """A duration as the screens show it: 2天3小时, 5小时12分, 3分20秒, 45秒."""
    if seconds is None:
        return None
    s = max(0, int(seconds))
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days:
        return f"{days}天{f'{hours}小时' if hours else ''}"
    if hours:
        return f"{hours}小时{f'{minutes}分' if minutes else ''}"
    if minutes:
        return f"{minutes}分{f'{s % 60}秒' if s % 60 else ''}"
    return f"{s}秒"


async def export_list(
    ctx: AppContext,
    *,
    name: str,
    listing: Listing,
    query: PageQuery,
    values: Mapping[str, Any],
    columns: Sequence[Column],
    filters: Sequence[tuple[str, str]] = (),
    render: Callable[[Row], dict[str, Any]] | None = None,
    render_page: Callable[[Sequence[Row]], Awaitable[list[dict[str, Any]]]] | None = None,
) -> tuple[Path, str]:
    """Write every row the list's filters keep to a temporary workbook; its path and file name.

    ``render`` or ``render_page`` are the list's own (its rows as its page shows them). More than
    ``MAX_EXPORT_ROWS`` rows are refused with a message saying to narrow the filters.
    """
    if (render is None) == (render_page is None):
        raise ValueError("an export renders its rows with render or render_page, one of them")
    total, chunks = await listing.every(ctx, query=query, values=values, most=MAX_EXPORT_ROWS, chunk=CHUNK)
    if total > MAX_EXPORT_ROWS:
        raise ApiError(f"共 {total} 条记录，超过导出上限 {MAX_EXPORT_ROWS} 条，请缩小筛选范围后再导出")
    now = utcnow()
    handle, temp = tempfile.mkstemp(prefix="list-", suffix=".xlsx")
    os.close(handle)
    path = Path(temp)
    getters = [(c.value if callable(c.value) else _key(c.value)) for c in columns]
    styles = [_STYLES[c.kind] for c in columns]
    head = [*(filters or [("筛选条件", "全部")]), ("导出时间", to_display(now)), ("记录数", f"{total} 条")]

    book: xlsx.Workbook | None = None
    try:
        with open(path, "wb") as out:
            book = xlsx.Workbook(out, title=name)
            widths = [c.width for c in columns]
            widths[0] = max(widths[0], 16)
            header_row = 1 + len(head) + 1
            with book.sheet(name[:31], widths=widths, frozen=header_row, filtered=True) as sheet:
                sheet.row([name], xlsx.TITLE)
                for label, text in head:
                    sheet.row([label, text])
                sheet.row([c.title for c in columns], xlsx.HEADER)
                async for rows in chunks:
                    # A render of its own (reading more per page) runs here; a plain one runs with the
                    # writing, off the event loop (5,000 rows take it some 25 ms).
                    if render_page is not None:
                        await asyncio.to_thread(_write, sheet, await render_page(rows), None, getters, styles)
                    else:
                        await asyncio.to_thread(_write, sheet, rows, render, getters, styles)
            await asyncio.to_thread(book.close)
    except BaseException:
        if book is not None:
            book.discard()
        path.unlink(missing_ok=True)
        raise
    return path, f"{name}_{now.astimezone(CUSTOMER_TZ):%Y%m%d-%H%M%S}.xlsx"


def _key(key: str) -> Callable[[dict[str, Any]], Any]:
    return lambda row: row.get(key)


def _write(
    sheet: xlsx.Sheet,
    rows: Sequence[Any],
    render: Callable[[Row], dict[str, Any]] | None,
    getters: Sequence[Callable[[dict[str, Any]], Any]],
    styles: Sequence[int],
) -> None:
    """Write rows already in their wire shape, or database rows through ``render``."""
    for row in rows:
        shaped = render(row) if render is not None else row
        sheet.row([_cell(get(shaped)) for get in getters], styles)


def _cell(value: Any) -> Any:
    """A value as a cell holds it: text, a number, or None (a stored decimal becomes a number)."""
    return float(value) if isinstance(value, Decimal) else value
