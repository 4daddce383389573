"""A report ``Document`` as an Excel workbook (the PDF is ``reports.pdf``).

Sheet 汇总 holds the title block (the title, the filters, the summary figures) and the first table
under a frozen header; every further table gets a sheet of its own. A report with rows too many for
a document (the energy report's 明细) writes them as another sheet after these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from powerportal.core import xlsx
from powerportal.reports.document import Column, Document, Table, duration_text

_STYLE = {
    "text": xlsx.PLAIN,
    "int": xlsx.PLAIN,
    "kwh": xlsx.AMOUNT,
    "money": xlsx.AMOUNT,
    "reading": xlsx.READING,
    "percent": xlsx.AMOUNT,
    "duration": xlsx.PLAIN,
}


def cells(columns: Sequence[Column], values: Sequence[Any]) -> list[Any]:
    """A row's values as written: durations as text, the rest as they are."""
    return [
        duration_text(v) if c.kind == "duration" and v is not None else v
        for c, v in zip(columns, values, strict=True)
    ]


def styles(columns: Sequence[Column]) -> list[int]:
    """The cell style of each column."""
    return [_STYLE[c.kind] for c in columns]


def _table(sheet: xlsx.Sheet, table: Table) -> None:
    sheet.row([c.title for c in table.columns], xlsx.HEADER)
    shown = styles(table.columns)
    for values in table.rows:
        sheet.row(cells(table.columns, values), shown)


def _widths(table: Table | None) -> list[float]:
    return [c.width for c in table.columns] if table else [28, 28]


def write_xlsx(document: Document, book: xlsx.Workbook) -> None:
    """Write the document's sheets: 汇总 (title block and first table), then one per other table."""
    first = document.tables[0] if document.tables else None
    others = document.tables[1:]
    head = 1 + len(document.filters) + len(document.summary)
    widths = _widths(first)
    widths[0] = max(widths[0], 14)
    with book.sheet("汇总", widths=widths, frozen=head + 1 if first else 0) as sheet:
        sheet.row([document.title], xlsx.TITLE)
        for label, text in document.filters:
            sheet.row([label, text])
        for label, value in document.summary:
            number = isinstance(value, float)
            sheet.row([label, value], [xlsx.PLAIN, xlsx.AMOUNT if number else xlsx.PLAIN])
        if first is not None:
            _table(sheet, first)
    for table in others:
        with book.sheet(table.title[:31], widths=_widths(table), frozen=1, filtered=True) as sheet:
            _table(sheet, table)
