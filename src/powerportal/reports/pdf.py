"""A report ``Document`` as an A4 PDF: vector text in an embedded subset of Noto Sans SC, vector charts.

The page turns to landscape when a table's columns (their widths in characters) would not fit across a
portrait page. Every page has the brand's logo and product name at the top, and the generation time
and ``第 X 页 / 共 Y 页`` at the bottom. The first page opens with the title, the filters and the
summary figures; the charts follow, then the tables. A table fills the width (its columns keep their
proportions), repeats its header on every page and never splits a row: a long text shrinks a step,
then wraps inside its cell. Numbers are right-aligned and shown as the Excel export shows them.

Tables are drawn with fpdf2's low-level text, rect and line calls (its ``cell`` and ``table`` lay out
each string again and cost about ten times more), so 50 pages take about a second.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Literal

from fpdf import FPDF
from fpdf.svg import SVGObject

from powerportal.core.timeutil import CUSTOMER_TZ
from powerportal.reports import pdf_charts as charts
from powerportal.reports import pdf_fonts as fonts
from powerportal.reports.document import Document, Table, duration_text
from powerportal.reports.pdf_charts import GREY, INK, NO_DATA, PT, Ink

log = logging.getLogger("powerportal.reports.pdf")

MARGIN = 12.0
PORTRAIT_WIDTH = 210.0 - 2 * MARGIN
# One character of a column's width, in mm, at the table's type size (about a digit and its share of
# the cell padding): wider tables than a portrait page holds turn the document to landscape.
CHAR_MM = 1.6
CONTENT_TOP = 21.0
BOTTOM_SPACE = 14.0

BODY = 8.0
SMALLER = 7.0
SMALLEST = 6.5
TINIEST = 4.0
PAD_X = 1.5
PAD_Y = 1.1
LINE = 1.32  # line height, in type sizes
ROW_MIN = 6.0
MAX_LINES = 8  # a longer text ends with … rather than make a row taller than a third of a page
CHART_HEIGHT = {"P": 74.0, "L": 84.0}
SUMMARY_COLUMNS = {"P": 4, "L": 6}

RULE = (220, 223, 230)
ZEBRA = (247, 249, 252)
HEAD_FILL = (236, 241, 248)
CARD_FILL = (245, 247, 250)
NUMERIC = frozenset({"int", "kwh", "money", "reading", "percent", "duration"})


def cell_text(kind: str, value: Any) -> str:
    """A table value as the PDF shows it: 2 decimals with thousands separators, ``12.34%``, 1天2小时."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if not math.isfinite(value):
        return ""
    if kind in ("kwh", "money", "reading"):
        return f"{value:,.2f}"
    if kind == "percent":
        return f"{value:.2f}%"
    if kind == "duration":
        return duration_text(value)
    if kind == "int":
        return str(int(value))
    return str(value)


def figure_text(value: Any) -> str:
    """A summary figure: a number with 2 decimals and thousands separators unless an int."""
    if isinstance(value, float):
        return f"{value:,.2f}" if math.isfinite(value) else ""
    return "" if value is None else str(value)


def orientation(document: Document) -> Literal["P", "L"]:
    """Landscape when a table's columns need more width than a portrait page has."""
    widest = max((sum(c.width for c in t.columns) for t in document.tables), default=0)
    return "L" if widest * CHAR_MM > PORTRAIT_WIDTH else "P"


def _align(kind: str) -> str:
    return "R" if kind in NUMERIC else "L"


@dataclass(slots=True)
class _Cell:
    lines: list[str]
    size: float
    align: str

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * PT * LINE


class _Pdf(FPDF):
    """An A4 page with the brand's header and the page-count footer."""

    def __init__(
        self,
        layout: Literal["P", "L"],
        *,
        product_name: str,
        title: str,
        logo: Path | None,
        stamp: str,
        font_dir: Path | None,
    ) -> None:
        super().__init__(orientation=layout, unit="mm", format="A4")
        fonts.add_fonts(self, font_dir)
        self.layout = layout
        self.product_name = product_name
        self.report_title = title
        self.logo = logo
        self.stamp = stamp
        self.set_margins(MARGIN, CONTENT_TOP, MARGIN)
        self.set_auto_page_break(False)
        self.ink = Ink(self)

    @property
    def width(self) -> float:
        """The width between the margins."""
        return float(self.w) - 2 * MARGIN

    @property
    def bottom(self) -> float:
        """Where the content must end."""
        return float(self.h) - BOTTOM_SPACE

    def header(self) -> None:
        """Logo and product name on the left, the report's title on the right, a rule below."""
        x = MARGIN
        if self.logo is not None:
            try:
                self.image(str(self.logo), x=MARGIN, y=7.5, h=7)
                x += 9
            except Exception as exc:  # an image fpdf2 reads only here (an SVG was read before)
                log.warning("PDF logo %s cannot be drawn (%s); the PDF has none", self.logo, exc)
                self.logo = None
        ink = self.ink
        ink.text(x, 13.2, self.product_name, 10.5, bold=True)
        title = ink.fit(self.report_title, self.width / 2, 8)
        ink.text(float(self.w) - MARGIN - ink.width(title, 8), 13.2, title, 8, color=GREY)
        ink.rule(MARGIN, 16.5, float(self.w) - MARGIN, 16.5, (200, 205, 214), 0.3)
        self.y = CONTENT_TOP

    def footer(self) -> None:
        """The generation time on the left, ``第 X 页 / 共 Y 页`` on the right, a rule above."""
        line = float(self.h) - 11
        self.ink.rule(MARGIN, line, float(self.w) - MARGIN, line, RULE, 0.2)
        self.set_font(fonts.FAMILY, "", 7.5)
        self.set_text_color(*GREY)
        self.set_xy(MARGIN, line + 1.2)
        self.cell(self.width / 2, 4, f"生成时间：{self.stamp}")
        self.set_xy(MARGIN + self.width / 2, line + 1.2)
        self.cell(self.width / 2, 4, f"第 {self.page_no()} 页 / 共 {{nb}} 页", align="R")


def write_pdf(
    document: Document,
    out: BinaryIO,
    *,
    product_name: str,
    logo: Path | None,
    generated_at: datetime | None = None,
    font_dir: Path | None = None,
) -> int:
    """Write ``document`` to ``out`` as an A4 PDF and return its number of pages.

    ``logo``: an SVG (drawn as vector) or an image; one that cannot be read is left out.
    ``generated_at``: the time in the footer (default: now), shown in Asia/Shanghai. ``font_dir``:
    where Noto Sans SC is (default: the ``pdf_font_dir`` setting); without it, an ``ApiError``.
    Thread-safe: documents may be written at once on several threads.
    """
    moment = generated_at or datetime.now(CUSTOMER_TZ)
    stamp = (moment.astimezone(CUSTOMER_TZ) if moment.tzinfo else moment).strftime("%Y-%m-%d %H:%M:%S")
    pdf = _Pdf(
        orientation(document),
        product_name=product_name,
        title=document.title,
        logo=_readable(logo),
        stamp=stamp,
        font_dir=font_dir,
    )
    pdf.set_title(document.title)
    pdf.set_author(product_name)
    pdf.set_creator(product_name)
    pdf.set_lang("zh-CN")
    pdf.add_page()
    _title_block(pdf, document)
    for chart in document.charts:
        height = CHART_HEIGHT[pdf.layout]
        if pdf.y + height > pdf.bottom:
            pdf.add_page()
        charts.draw(pdf.ink, chart, MARGIN, pdf.y, pdf.width, height)
        pdf.y += height + 6
    for table in document.tables:
        _TableWriter(pdf, table).write()
    pages = int(pdf.pages_count)
    pdf.output(out)
    return pages


def _readable(logo: Path | None) -> Path | None:
    """The logo if it is there and, for an SVG, parses (drawing half of one would spoil the page)."""
    if logo is None:
        return None
    try:
        if logo.suffix.lower() == ".svg":
            SVGObject(logo.read_bytes())
        elif not logo.is_file():
            raise FileNotFoundError(logo)
    except Exception as exc:
        log.warning("PDF logo %s cannot be read (%s); the PDF has none", logo, exc)
        return None
    return logo


def _title_block(pdf: _Pdf, document: Document) -> None:
    """The title, the filters as label：value pairs, the summary figures as a row of cards."""
    ink = pdf.ink
    y = pdf.y
    for line in ink.wrap(document.title, pdf.width, 15, bold=True):
        ink.text(MARGIN, y + 5.5, line, 15, bold=True)
        y += 7.5
    y += 1.5
    x = MARGIN
    for label, text in document.filters:
        head = f"{label}："
        items = ink.wrap(f"{head}{text}", pdf.width, BODY)
        item_width = ink.width(items[0], BODY) if len(items) == 1 else pdf.width
        if x > MARGIN and x + item_width > MARGIN + pdf.width:
            x, y = MARGIN, y + 5
        for i, line in enumerate(items):
            if i == 0:
                ink.text(x, y + 3.5, head, BODY, color=GREY)
                ink.text(x + ink.width(head, BODY), y + 3.5, line[len(head) :], BODY)
            else:
                y += 4.2
                ink.text(MARGIN, y + 3.5, line, BODY)
        x += item_width + 7
    if document.filters:
        y += 7
    columns = SUMMARY_COLUMNS[pdf.layout]
    gap = 3.0
    card = (pdf.width - gap * (columns - 1)) / columns
    for i, (label, value) in enumerate(document.summary):
        row, column = divmod(i, columns)
        left, top = MARGIN + column * (card + gap), y + row * 17
        ink.box(left, top, card, 14, CARD_FILL)
        ink.text(left + 2.5, top + 4.8, ink.fit(str(label), card - 5, SMALLER), SMALLER, color=GREY)
        text = figure_text(value)
        size = 11.0
        while size > SMALLER and ink.width(text, size, bold=True) > card - 5:
            size -= 0.5
        ink.text(left + 2.5, top + 11, ink.fit(text, card - 5, size, bold=True), size, bold=True)
    if document.summary:
        y += math.ceil(len(document.summary) / columns) * 17
    pdf.y = y + 4


class _TableWriter:
    """One table over as many pages as it takes, a row at a time."""

    def __init__(self, pdf: _Pdf, table: Table) -> None:
        self.pdf = pdf
        self.ink = pdf.ink
        self.table = table
        total = sum(max(c.width, 1) for c in table.columns) or 1
        self.widths = [max(c.width, 1) / total * pdf.width for c in table.columns]
        self.head = [
            self._fit(c.title, w, _align(c.kind), bold=True)
            for c, w in zip(table.columns, self.widths, strict=True)
        ]
        self.head_height = self._height(self.head)

    def write(self) -> None:
        """The title, the header and every row; a page ends before a row that would not fit."""
        first = self._row(self.table.rows[0]) if self.table.rows else None
        first_height = self._height(first) if first else ROW_MIN
        if self.pdf.y + 7 + self.head_height + first_height > self.pdf.bottom:
            self.pdf.add_page()
        self._top(self.table.title)
        if first is None:
            self._empty()
        for index, values in enumerate(self.table.rows):
            cells = first if index == 0 and first is not None else self._row(values)
            height = self._height(cells)
            if self.pdf.y + height > self.pdf.bottom:
                self.pdf.add_page()
                self._top(f"{self.table.title}（续）")
            self._draw(cells, height, ZEBRA if index % 2 else None)
        self.pdf.y += 7

    def _top(self, title: str) -> None:
        ink, y = self.ink, self.pdf.y
        ink.text(MARGIN, y + 4, ink.fit(title, self.pdf.width, 10.5, bold=True), 10.5, bold=True)
        self.pdf.y = y + 7
        self._draw(self.head, self.head_height, HEAD_FILL, bold=True)

    def _empty(self) -> None:
        cell = _Cell([NO_DATA], BODY, "C")
        self._draw([cell], ROW_MIN, None, widths=[self.pdf.width], color=GREY)

    def _row(self, values: Sequence[Any]) -> list[_Cell]:
        return [
            self._fit(cell_text(c.kind, v), w, _align(c.kind), numeric=c.kind in NUMERIC)
            for c, v, w in zip(self.table.columns, values, self.widths, strict=False)
        ]

    def _fit(
        self, text: str, width: float, align: str, *, bold: bool = False, numeric: bool = False
    ) -> _Cell:
        """The text in one line, a step smaller in one line, wrapped, or wrapped smaller (≤ MAX_LINES)."""
        room = width - 2 * PAD_X
        ink = self.ink
        if "\n" not in text:
            wide = ink.width(text, BODY, bold=bold)
            if wide <= room:
                return _Cell([text], BODY, align)
            if wide * SMALLER / BODY <= room:
                return _Cell([text], SMALLER, align)
            if numeric:  # a number is never broken: it shrinks to fit (a table far too wide for A4)
                return _Cell([text], max(TINIEST, BODY * room / wide), align)
        lines = ink.wrap(text, room, BODY, bold=bold)
        if len(lines) <= 3:
            return _Cell(lines, BODY, align)
        lines = ink.wrap(text, room, SMALLEST, bold=bold)
        if len(lines) > MAX_LINES:
            lines = [*lines[: MAX_LINES - 1], ink.fit(lines[MAX_LINES - 1] + "…", room, SMALLEST, bold=bold)]
        return _Cell(lines, SMALLEST, align)

    @staticmethod
    def _height(cells: Sequence[_Cell]) -> float:
        return max(ROW_MIN, max((c.height for c in cells), default=0) + 2 * PAD_Y)

    def _draw(
        self,
        cells: Sequence[_Cell],
        height: float,
        fill: tuple[int, int, int] | None,
        *,
        bold: bool = False,
        widths: Sequence[float] | None = None,
        color: tuple[int, int, int] = INK,
    ) -> None:
        ink, top = self.ink, self.pdf.y
        if fill is not None:
            ink.box(MARGIN, top, self.pdf.width, height, fill)
        x = MARGIN
        for cell, width in zip(cells, widths or self.widths, strict=False):
            step = cell.size * PT * LINE
            y = top + (height - cell.height) / 2
            for line in cell.lines:
                baseline = y + (step - cell.size * PT) / 2 + cell.size * PT * 0.86
                if cell.align == "R":
                    left = x + width - PAD_X - ink.width(line, cell.size, bold=bold)
                elif cell.align == "C":
                    left = x + (width - ink.width(line, cell.size, bold=bold)) / 2
                else:
                    left = x + PAD_X
                ink.text(left, baseline, line, cell.size, bold=bold, color=color)
                y += step
            x += width
        ink.rule(MARGIN, top + height, MARGIN + self.pdf.width, top + height, RULE, 0.15)
        self.pdf.y = top + height
