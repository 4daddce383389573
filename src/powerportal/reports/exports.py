"""Every report's export, as a workbook or an A4 PDF, by one path.

A report kind names its query and how to build its ``Document`` (and, for the energy report, the
明细 sheet a document has no room for). ``export`` writes the file: the download routes stream it,
the report centre's jobs keep it. The caller's permissions are the report's own checks, made as the
document is built, so a job run later sees what its customer may see then.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from powerportal.accounts.models import Customer
from powerportal.brands.service import ASSETS_DIR, Brand
from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.energy import service as energy
from powerportal.reports import alarm, availability, control, pdf, render, scope, service
from powerportal.reports.document import Built, Progress, no_progress
from powerportal.reports.schemas import (
    AlarmReportQuery,
    AvailabilityReportQuery,
    ControlReportQuery,
    EnergyReportQuery,
    Format,
)


@dataclass(frozen=True, slots=True)
class ReportKind:
    """A report the exports and the report centre know: its query and how to build it."""

    key: str
    name: str
    query: type[BaseModel]
    build: Callable[[AppContext, Customer, Any], Awaitable[Built]]
    # Refuses a query naming what the caller may not see (a project, building or device), as ``build`` would.
    check: Callable[[AppContext, Customer, Any], Awaitable[object]]


KINDS: dict[str, ReportKind] = {
    kind.key: kind
    for kind in (
        ReportKind("energy", "能耗报表", EnergyReportQuery, service.build_energy, energy.check_scope),
        ReportKind("alarm", "告警报表", AlarmReportQuery, alarm.build_alarm, scope.resolve),
        ReportKind(
            "availability",
            "在线率报表",
            AvailabilityReportQuery,
            availability.build_availability,
            scope.resolve,
        ),
        ReportKind("control", "控制报表", ControlReportQuery, control.build_control, scope.resolve),
    )
}


async def export(
    *,
    ctx: AppContext,
    customer: Customer,
    kind: str,
    query: Any,
    fmt: Format,
    brand: Brand,
    target: Path | None = None,
    progress: Progress = no_progress,
) -> tuple[Path, str]:
    """Write a report's file to ``target`` (default: a new temporary file); its path and file name."""
    built = await KINDS[kind].build(ctx, customer, query)
    if target is None:
        handle, name = tempfile.mkstemp(prefix="report-", suffix=f".{fmt}")
        os.close(handle)
        target = Path(name)
    book: xlsx.Workbook | None = None
    try:
        with open(target, "wb") as out:
            if fmt == "pdf":
                logo = ASSETS_DIR / f"logo-{brand.type}.svg"
                await asyncio.to_thread(
                    pdf.write_pdf,
                    built.document,
                    out,
                    product_name=brand.product_name,
                    logo=logo,
                    font_dir=ctx.settings.pdf_font_dir,
                )
            else:
                book = xlsx.Workbook(out, title=built.document.title)
                await asyncio.to_thread(render.write_xlsx, built.document, book)
                if built.more is not None:
                    await built.more(book, progress)
                await asyncio.to_thread(book.close)
    except BaseException:
        if book is not None:
            book.discard()
        target.unlink(missing_ok=True)
        raise
    await progress(1.0)
    return target, f"{built.document.stem or built.document.name}.{fmt}"
