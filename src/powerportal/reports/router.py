"""Report routes under ``/api/CustomerReport``: the reports and their Excel and PDF exports."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import StreamingResponse

from powerportal.api.deps import Ctx, CurrentBrand, CurrentCustomer
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.reports import service
from powerportal.reports.exports import MEDIA, export
from powerportal.reports.schemas import EnergyReport, EnergyReportQuery

router = api_router("/api/CustomerReport", "报表")

FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {media: {} for media in MEDIA.values()}, "description": "The report as a file"}
}


def send_file(path: Path, name: str) -> StreamingResponse:
    """Stream a written report; the file is gone from the disk once open, however the download ends."""
    handle = open(path, "rb")  # noqa: SIM115, ASYNC230 - closed by the stream
    path.unlink()
    size = os.fstat(handle.fileno()).st_size

    async def chunks() -> AsyncIterator[bytes]:
        try:
            while data := await asyncio.to_thread(handle.read, 1 << 20):
                yield data
        finally:
            handle.close()

    disposition = f"attachment; filename=report.{path.suffix[1:]}; filename*=UTF-8''{quote(name)}"
    return StreamingResponse(
        chunks(),
        media_type=MEDIA[path.suffix[1:]],
        headers={"Content-Disposition": disposition, "Content-Length": str(size)},
    )


@router.post("/GetEnergyReport", response_model=Envelope[EnergyReport])
async def get_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The energy report of a project, building or devices: by device, building or project."""
    return ok(await service.energy_report(ctx=ctx, customer=customer, query=query))


@router.post("/ExportEnergyReport", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def export_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand
) -> StreamingResponse:
    """The energy report as an Excel workbook (汇总 and 明细: every row, not a page) or an A4 PDF."""
    path, name = await export(
        ctx=ctx, customer=customer, kind="energy", query=query, fmt=query.format, brand=brand
    )
    return send_file(path, name)
