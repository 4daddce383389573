"""Operation-log routes."""

from __future__ import annotations

from fastapi import APIRouter

from powerportal.core.deps import CurrentCustomer, Session
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.schemas import Page
from powerportal.logs import service
from powerportal.logs.schemas import OperationLogQuery, OperationLogRead, OperationTypeRead

router = APIRouter(prefix="/api/CustomerOperationLog", tags=["操作日志"])


@router.post("/GetCustomerOperationLogList", response_model=Envelope[Page[OperationLogRead]])
async def get_operation_log_list(
    query: OperationLogQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """The caller's operation log, paged and filtered."""
    page = await service.list_operations(session=session, customer_sysno=customer.sysno, query=query)
    return ok(page)


@router.get("/GetCustomerOperationType", response_model=Envelope[list[OperationTypeRead]])
async def get_operation_types(customer: CurrentCustomer) -> EnvelopeResponse:
    """The kinds of action the log records."""
    return ok(service.operate_types())
