"""Operation-log routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query
from fastapi.responses import StreamingResponse

from powerportal.api.deps import Ctx, CurrentCustomer, Session
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import MAX_SYSNO, Page
from powerportal.logs import service
from powerportal.logs.schemas import (
    OfflineLogQuery,
    OfflineLogRead,
    OperationLogQuery,
    OperationLogRead,
    OperationTypeRead,
    StatusLogQuery,
    StatusLogRead,
    StatusTypeRead,
)

router = api_router("/api/CustomerOperationLog", "操作日志")


@router.post("/GetCustomerOperationLogList", response_model=Envelope[Page[OperationLogRead]])
async def get_operation_log_list(
    query: OperationLogQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The caller's operation log, paged and filtered."""
    return ok(await service.list_operations(ctx=ctx, customer_sysno=customer.sysno, query=query))


@router.post("/ExportCustomerOperationLogList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_operation_log_list(
    query: OperationLogQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every entry of the caller's operation log the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_operations(ctx=ctx, customer_sysno=customer.sysno, query=query)
    return send_file(path, name, fallback="operations")


@router.get("/GetCustomerOperationType", response_model=Envelope[list[OperationTypeRead]])
async def get_operation_types(customer: CurrentCustomer) -> EnvelopeResponse:
    """The kinds of action the log records."""
    return ok(service.operate_types())


offline_router = api_router("/api/CustomerOfflineLog", "离线日志")
status_router = api_router("/api/CustomerStatusLog", "状态日志")


@offline_router.post("/GetOfflineLogList", response_model=Envelope[Page[OfflineLogRead]])
async def get_offline_log_list(
    query: OfflineLogQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """Offline spells of gateways and devices, paged and filtered."""
    return ok(await service.list_offline(ctx=ctx, customer=customer, query=query))


@offline_router.post("/ExportOfflineLogList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_offline_log_list(
    query: OfflineLogQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every offline spell the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_offline(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="offline")


@offline_router.get("/GetSingleOfflineLog", response_model=Envelope[OfflineLogRead])
async def get_single_offline_log(
    sysno: Annotated[int, Query(ge=1, le=MAX_SYSNO)], customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One offline spell."""
    return ok(await service.get_offline(session=session, customer=customer, sysno=sysno))


@status_router.post("/GetStatusLogList", response_model=Envelope[Page[StatusLogRead]])
async def get_status_log_list(query: StatusLogQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """State changes (online, offline, switched on or off), paged and filtered."""
    return ok(await service.list_status(ctx=ctx, customer=customer, query=query))


@status_router.post("/ExportStatusLogList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_status_log_list(
    query: StatusLogQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every state change the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_status(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="status")


@status_router.get("/GetStatusType", response_model=Envelope[list[StatusTypeRead]])
async def get_status_types(customer: CurrentCustomer) -> EnvelopeResponse:
    """The kinds of state change the log records."""
    return ok(service.status_types())
