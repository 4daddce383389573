"""A report as a document: what every report hands to the Excel and PDF writers.

A report (energy, alarms, availability, control) builds one ``Document`` from the figures its screen
shows: a title, the filters it was made with, summary figures, charts and tables. The writers
(``reports.render``) turn any document into a workbook or an A4 PDF, so a new report gets both
exports by building a document, and every export of every report looks the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from powerportal.core.xlsx import Workbook

# How a column's values are shown: text; a count; kWh, ¥ or a meter reading with 2 decimals;
# a percentage (the value is already ×100); a duration in seconds (shown as 1天2小时3分).
Kind = Literal["text", "int", "kwh", "money", "reading", "percent", "duration"]


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its Chinese header, how its values are shown and its width in characters."""

    title: str
    kind: Kind = "text"
    width: float = 12


@dataclass(slots=True)
class Table:
    """A titled table; ``rows`` hold one value per column (``None`` is an empty cell)."""

    title: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[Any]]


@dataclass(slots=True)
class Series:
    """One named series of a chart, a value per category."""

    name: str
    values: Sequence[float]


@dataclass(slots=True)
class Chart:
    """A bar, line or pie chart over ``categories`` (a pie has one series)."""

    title: str
    kind: Literal["bar", "line", "pie"]
    categories: Sequence[str]
    series: Sequence[Series]
    unit: str = ""


@dataclass(slots=True)
class Document:
    """A report ready to write.

    ``name`` is the report's kind (能耗报表, 告警报表 …); ``filters`` the conditions it was made with
    (label, text) and ``summary`` its headline figures (label, value: a number is shown with 2
    decimals unless an int). ``stem`` is the file name without extension.
    """

    name: str
    project_name: str
    filters: list[tuple[str, str]]
    summary: list[tuple[str, Any]]
    tables: list[Table]
    charts: list[Chart] = field(default_factory=list)
    stem: str = ""

    @property
    def title(self) -> str:
        """The report's name and its project."""
        return f"{self.name} · {self.project_name}"


# Told how far a file is written (0..1): the report centre's progress.
Progress = Callable[[float], Awaitable[None]]


async def no_progress(done: float) -> None:
    """For a download: nobody is watching."""


@dataclass(slots=True)
class Built:
    """A report ready to write: its document, and sheets after the document's (the energy 明细)."""

    document: Document
    more: Callable[[Workbook, Progress], Awaitable[None]] | None = None


def duration_text(seconds: float | None) -> str:
    """A duration as 1天2小时3分 (under a minute: 秒)."""
    if seconds is None:
        return ""
    whole = int(round(seconds))
    if whole < 60:
        return f"{whole}秒"
    days, rest = divmod(whole // 60, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days}天" if days else "", f"{hours}小时" if hours else "", f"{minutes}分" if minutes else ""]
    return "".join(parts)
