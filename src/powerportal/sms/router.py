"""The text balance routes (account, usage, recharge orders), for brands with the SmsConfig flag."""

from __future__ import annotations

from fastapi import Depends
from fastapi.responses import StreamingResponse

from powerportal.api.deps import Ctx, CurrentCustomer, Session, sms_config_on
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page
from powerportal.sms import billing as service
from powerportal.sms.schemas import (
    RechargeConfirm,
    RechargeCreate,
    RechargeQuery,
    RechargeRead,
    SmsAccountRead,
    UsageQuery,
    UsageRead,
)

router = api_router("/api/CustomerSms", "短信通知", dependencies=[Depends(sms_config_on)])


@router.get("/GetSmsAccount", response_model=Envelope[SmsAccountRead])
async def get_sms_account(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Balance and use of alarm texts."""
    return ok(await service.account(session=session, customer=customer))


@router.post("/GetUsageList", response_model=Envelope[Page[UsageRead]])
async def get_usage_list(query: UsageQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Alarm texts sent or refused."""
    return ok(await service.list_usage(ctx=ctx, customer=customer, query=query))


@router.post("/ExportUsageList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_usage_list(query: UsageQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every alarm text the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_usage(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="sms")


@router.post("/GetRechargeList", response_model=Envelope[Page[RechargeRead]])
async def get_recharge_list(query: RechargeQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Recharge orders."""
    return ok(await service.list_recharges(ctx=ctx, customer=customer, query=query))


@router.post("/ExportRechargeList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_recharge_list(
    query: RechargeQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every recharge order the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_recharges(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="recharges")


@router.post("/AddRecharge", response_model=Envelope[RechargeRead])
async def add_recharge(body: RechargeCreate, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Order more texts (a brand administrator confirms the order)."""
    return ok(
        await service.add_recharge(session=session, customer=customer, body=body),
        message="订单已提交，等待确认",
    )


@router.post("/ConfirmRecharge", response_model=Envelope[RechargeRead])
async def confirm_recharge(
    body: RechargeConfirm, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Credit or refuse an order (brand administrators)."""
    order = await service.confirm_recharge(
        session=session, admin=customer, sysno=body.sysno, approve=body.approve
    )
    return ok(order, message="已到账" if body.approve else "已拒绝")
