"""A report's charts drawn as PDF vector graphics (bars, lines, pie slices), and the text helpers they share.

A bar or line chart has a value axis with round ticks and grid lines, category labels (every n-th
when they would overlap) and a legend of its series; a pie lists each slice's value and share beside
it. The colours are ECharts' (the screens' charts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from powerportal.reports import pdf_fonts as fonts
from powerportal.reports.document import Chart

if TYPE_CHECKING:
    from fpdf import FPDF

PT = 25.4 / 72  # mm in a point
Colour = tuple[int, int, int]
INK: Colour = (48, 49, 51)
GREY: Colour = (120, 124, 132)
AXIS: Colour = (160, 165, 175)
GRID: Colour = (228, 231, 237)
PALETTE: tuple[Colour, ...] = (
    (84, 112, 198),
    (145, 204, 117),
    (250, 200, 88),
    (238, 102, 102),
    (115, 192, 222),
    (59, 162, 114),
    (252, 132, 82),
    (154, 96, 180),
    (234, 124, 204),
)
OTHER: Colour = (192, 196, 204)  # a pie's slice 其他: the smallest slices beyond the palette's colours
LABEL = 7.0
NO_DATA = "无数据"
# Control characters fpdf2 would draw as missing glyphs; a line break is read by ``Ink.wrap``.
_CONTROLS = dict.fromkeys((*range(0x00, 0x0A), *range(0x0B, 0x20), 0x7F), " ")


class Ink:
    """Text and rules on a PDF in the report's font: measured from the font's widths, drawn as vector."""

    def __init__(self, pdf: FPDF) -> None:
        self.pdf = pdf
        self._widths = {False: fonts.widths(pdf, ""), True: fonts.widths(pdf, "B")}

    def width(self, text: str, size: float, *, bold: bool = False) -> float:
        """The text's width in mm at ``size`` points."""
        return sum(map(self._widths[bold].__getitem__, map(ord, text))) * size * PT / 1000

    def text(
        self, x: float, y: float, text: str, size: float, *, bold: bool = False, color: Colour = INK
    ) -> None:
        """Draw a line of text from ``x`` on the baseline ``y``."""
        pdf = self.pdf
        pdf.set_font(fonts.FAMILY, "B" if bold else "", size)
        pdf.set_text_color(*color)
        pdf.text(x, y, text.translate(_CONTROLS))

    def wrap(self, text: str, width: float, size: float, *, bold: bool = False) -> list[str]:
        """The text in lines no wider than ``width``: broken at a space in a Latin word, else anywhere."""
        scale = size * PT / 1000
        widths = self._widths[bold]
        lines: list[str] = []
        for paragraph in text.translate(_CONTROLS).split("\n"):
            start, used, space = 0, 0.0, -1
            for i, char in enumerate(paragraph):
                wide = widths[ord(char)] * scale
                if used + wide > width and i > start:
                    cut = space + 1 if space > start else i
                    lines.append(paragraph[start:cut].rstrip())
                    start, space = cut, -1
                    used = self.width(paragraph[start:i], size, bold=bold)
                if char == " ":
                    space = i
                used += wide
            lines.append(paragraph[start:].rstrip())
        return lines

    def fit(self, text: str, width: float, size: float, *, bold: bool = False) -> str:
        """The text, cut and ended with … if it is wider than ``width``."""
        text = text.translate(_CONTROLS).replace("\n", " ")
        if self.width(text, size, bold=bold) <= width:
            return text
        room = width - self.width("…", size, bold=bold)
        scale = size * PT / 1000
        widths = self._widths[bold]
        used = 0.0
        for i, char in enumerate(text):
            used += widths[ord(char)] * scale
            if used > room:
                return text[:i].rstrip() + "…"
        return text

    def box(self, x: float, y: float, w: float, h: float, fill: Colour) -> None:
        """A filled rectangle without a border."""
        self.pdf.set_fill_color(*fill)
        self.pdf.rect(x, y, w, h, style="F")

    def rule(self, x1: float, y1: float, x2: float, y2: float, color: Colour, width: float) -> None:
        """A straight line."""
        self.pdf.set_draw_color(*color)
        self.pdf.set_line_width(width)
        self.pdf.line(x1, y1, x2, y2)


def draw(ink: Ink, chart: Chart, x: float, y: float, w: float, h: float) -> None:
    """Draw the chart in the box (title and unit on top, then the legend and the plot)."""
    ink.text(x, y + 4, ink.fit(chart.title, w * 0.7, 10.5, bold=True), 10.5, bold=True)
    if chart.unit:
        unit = f"单位：{chart.unit}"
        ink.text(x + w - ink.width(unit, LABEL), y + 4, unit, LABEL, color=GREY)
    top = y + 8
    if chart.kind == "pie":
        _pie(ink, chart, x, top, w, y + h - top)
        return
    top = _legend(ink, [s.name for s in chart.series], x, top, w) + 2
    _axes_chart(ink, chart, x, top, w, y + h - top)


def _legend(ink: Ink, names: Sequence[str], x: float, y: float, w: float) -> float:
    """A swatch and a name per series, wrapping to more lines; where the legend ends."""
    left = x
    for i, name in enumerate(names):
        label = ink.fit(name, w / 2, LABEL)
        item = 4.5 + ink.width(label, LABEL) + 5
        if left > x and left + item > x + w:
            left, y = x, y + 4.5
        ink.box(left, y + 0.6, 3.2, 2.4, PALETTE[i % len(PALETTE)])
        ink.text(left + 4.5, y + 2.9, label, LABEL)
        left += item
    return y + 4.5 if names else y


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 × 10ⁿ) covering ``low``..``high``."""
    if not high > low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    return [first + i * step for i in range(round((last - first) / step) + 1)]


def tick_text(value: float, step: float) -> str:
    """A tick's value with as many decimals as its step needs, thousands separated."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else (1 if step % 1 else 0)
    return f"{value:,.{decimals}f}"


def _finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if isinstance(v, int | float) and math.isfinite(v)]


def _axes_chart(ink: Ink, chart: Chart, x: float, y: float, w: float, h: float) -> None:
    """A bar or line chart: value axis on the left, a slot per category along the bottom."""
    pdf = ink.pdf
    values = [v for s in chart.series for v in _finite(s.values)]
    if not values or not chart.categories:
        ink.text(x + (w - ink.width(NO_DATA, 9)) / 2, y + h / 2, NO_DATA, 9, color=GREY)
        return
    ticks = nice_ticks(min([0.0, *values]), max([0.0, *values]))
    step = ticks[1] - ticks[0]
    labels = [tick_text(t, step) for t in ticks]
    axis_x = x + max(ink.width(t, LABEL) for t in labels) + 2
    plot_w, plot_h = x + w - axis_x, h - 6
    bottom = y + plot_h
    low, span = ticks[0], ticks[-1] - ticks[0]

    def at(value: float) -> float:
        return bottom - (value - low) / span * plot_h

    for tick, label in zip(ticks, labels, strict=True):
        ty = at(tick)
        ink.rule(axis_x, ty, axis_x + plot_w, ty, GRID, 0.15)
        ink.text(axis_x - 1.5 - ink.width(label, LABEL), ty + 1.2, label, LABEL, color=GREY)
    zero = at(0.0)
    ink.rule(axis_x, zero, axis_x + plot_w, zero, AXIS, 0.3)
    categories = list(chart.categories)
    slot = plot_w / max(len(categories), 1)
    widest = max((ink.width(c, LABEL) for c in categories), default=0)
    every = max(1, math.ceil((widest + 2) / slot))
    for i in range(0, len(categories), every):
        label = ink.fit(categories[i], slot * every - 1, LABEL)
        cx = axis_x + (i + 0.5) * slot
        ink.rule(cx, zero, cx, zero + 1, AXIS, 0.2)
        ink.text(cx - ink.width(label, LABEL) / 2, bottom + 4.5, label, LABEL, color=GREY)
    series = list(chart.series)
    if chart.kind == "bar":
        group = slot * 0.7
        bar = group / max(len(series), 1)
        for n, one in enumerate(series):
            pdf.set_fill_color(*PALETTE[n % len(PALETTE)])
            for i, value in enumerate(one.values[: len(categories)]):
                if not isinstance(value, int | float) or not math.isfinite(value) or value == 0:
                    continue
                left = axis_x + i * slot + (slot - group) / 2 + n * bar
                top = min(at(value), zero)
                pdf.rect(left, top, bar, abs(at(value) - zero), style="F")
        return
    for n, one in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        pdf.set_draw_color(*colour)
        pdf.set_fill_color(*colour)
        pdf.set_line_width(0.5)
        run: list[tuple[float, float]] = []
        points: list[tuple[float, float]] = []
        for i, value in enumerate([*one.values[: len(categories)], math.nan]):
            if isinstance(value, int | float) and math.isfinite(value):
                point = (axis_x + (i + 0.5) * slot, at(value))
                run.append(point)
                points.append(point)
            elif run:
                if len(run) > 1:
                    pdf.polyline(run)
                run = []
        if len(points) <= 40:
            for px, py in points:
                pdf.circle(px, py, 0.7, style="F")


def _pie(ink: Ink, chart: Chart, x: float, y: float, w: float, h: float) -> None:
    """A pie of the first series' positive values, largest first, with a legend of value and share."""
    pdf = ink.pdf
    values = chart.series[0].values if chart.series else []
    slices = sorted(
        (
            (float(v), str(c))
            for c, v in zip(chart.categories, values, strict=False)
            if isinstance(v, int | float) and math.isfinite(v) and v > 0
        ),
        reverse=True,
    )
    colours = list(PALETTE[: len(slices)])
    if len(slices) > len(PALETTE):
        slices = [*slices[: len(PALETTE) - 1], (sum(v for v, _ in slices[len(PALETTE) - 1 :]), "其他")]
        colours[-1] = OTHER
    total = sum(v for v, _ in slices)
    radius = min(h - 2, w * 0.4) / 2
    cx, cy = x + radius + 4, y + h / 2
    if not slices:
        ink.text(cx - ink.width(NO_DATA, 9) / 2, cy, NO_DATA, 9, color=GREY)
        return
    pdf.set_draw_color(255, 255, 255)
    pdf.set_line_width(0.3)
    if len(slices) == 1:
        pdf.set_fill_color(*colours[0])
        pdf.circle(cx, cy, radius, style="F")
    else:
        angle = 90.0  # from 12 o'clock, clockwise
        for (value, _name), colour in zip(slices, colours, strict=True):
            sweep = value / total * 360
            pdf.set_fill_color(*colour)
            pdf.solid_arc(cx - radius, cy - radius, 2 * radius, angle - sweep, angle, style="DF")
            angle -= sweep
    left = cx + radius + 10
    room = x + w - left - 4.5
    names = [ink.fit(name, room * 0.5, LABEL) for _value, name in slices]
    figures_x = left + 4.5 + max(ink.width(name, LABEL) for name in names) + 4
    line = 5.0
    top = cy - len(slices) * line / 2
    for n, ((value, _name), name, colour) in enumerate(zip(slices, names, colours, strict=True)):
        ly = top + n * line
        ink.box(left, ly + 0.6, 3.2, 2.4, colour)
        ink.text(left + 4.5, ly + 2.9, name, LABEL)
        share = f"{value:,.2f}{' ' + chart.unit if chart.unit else ''}  {value / total * 100:.1f}%"
        ink.text(figures_x, ly + 2.9, share, LABEL, color=GREY)
