"""Report routes under ``/api/CustomerReport``: the energy report and its Excel export."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from urllib.parse import quote

from fastapi.responses import StreamingResponse

from powerportal.api.deps import Ctx, CurrentCustomer
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.reports import service
from powerportal.reports.schemas import EnergyReport, EnergyReportQuery

router = api_router("/api/CustomerReport", "报表")

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@router.post("/GetEnergyReport", response_model=Envelope[EnergyReport])
async def get_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The energy report of a project, building or devices: by device, building or project."""
    return ok(await service.energy_report(ctx=ctx, customer=customer, query=query))


@router.post(
    "/ExportEnergyReport",
    response_class=StreamingResponse,
    responses={200: {"content": {XLSX: {}}, "description": "The report as an Excel workbook"}},
)
async def export_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """The energy report as an Excel workbook: 汇总 (the report's rows) and 明细 (every row, not a page)."""
    path, name = await service.export_energy_report(ctx=ctx, customer=customer, query=query)
    # The file is gone from the disk once open: nothing is left behind, however the download ends.
    handle = open(path, "rb")  # noqa: SIM115, ASYNC230 - closed by the stream
    os.unlink(path)
    size = os.fstat(handle.fileno()).st_size

    async def chunks() -> AsyncIterator[bytes]:
        try:
            while data := await asyncio.to_thread(handle.read, 1 << 20):
                yield data
        finally:
            handle.close()

    disposition = f"attachment; filename=report.xlsx; filename*=UTF-8''{quote(name)}"
    return StreamingResponse(
        chunks(),
        media_type=XLSX,
        headers={"Content-Disposition": disposition, "Content-Length": str(size)},
    )
