"""Gateway routes under ``/api/CustomerGateway``."""

from __future__ import annotations

from fastapi.responses import StreamingResponse

from powerportal.api.deps import ClientIp, Ctx, CurrentCustomer, Latest, Session
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.gateways import service
from powerportal.gateways.refusals import refusals_of
from powerportal.gateways.schemas import (
    GatewayCreate,
    GatewayCreated,
    GatewayMove,
    GatewayQuery,
    GatewayRead,
    GatewayRefusalRead,
    GatewaySecret,
    GatewaySysno,
    GatewayUpdate,
)

router = api_router("/api/CustomerGateway", "网关")


@router.post("/GetGatewayList", response_model=Envelope[Page[GatewayRead]])
async def get_gateway_list(query: GatewayQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Gateways of the visible projects, paged and filtered."""
    return ok(await service.list_gateways(ctx=ctx, customer=customer, query=query))


@router.post("/ExportGatewayList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_gateway_list(query: GatewayQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every gateway the list's filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_gateways(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="gateways")


@router.get("/GetSingleGateway", response_model=Envelope[GatewayRead])
async def get_single_gateway(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One gateway."""
    return ok(await service.get_gateway(session=session, customer=customer, sysno=sysno))


@router.get("/GetGatewayRefusals", response_model=Envelope[list[GatewayRefusalRead]])
async def get_gateway_refusals(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """接入日志: what the platform refused or repaired of this gateway's messages, by reason."""
    gateway = await service.get_gateway(session=session, customer=customer, sysno=sysno)
    return ok(await refusals_of(session=session, gateway_sysno=gateway["sysno"]))


@router.post("/AddGateway", response_model=Envelope[GatewayCreated])
async def add_gateway(
    body: GatewayCreate, ctx: Ctx, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Register a gateway by serial number; the answer shows its secret this one time."""
    created = await service.register_gateway(session=session, ctx=ctx, customer=customer, body=body, ip=ip)
    return ok(created, "注册成功，请立即记下网关密钥，它只显示这一次")


@router.put("/UpdateGateway", response_model=Envelope[GatewayRead])
async def update_gateway(
    body: GatewayUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Rename, annotate or re-house a gateway within its project."""
    return ok(await service.update_gateway(session=session, customer=customer, body=body, ip=ip), "修改成功")


@router.put("/MoveGateway", response_model=Envelope[GatewayRead])
async def move_gateway(
    body: GatewayMove, ctx: Ctx, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Move a gateway and its devices to another project."""
    moved = await service.move_gateway(session=session, ctx=ctx, customer=customer, body=body, ip=ip)
    return ok(moved, "移动成功")


@router.post("/ResetGatewaySecret", response_model=Envelope[GatewaySecret])
async def reset_gateway_secret(
    body: GatewaySysno, ctx: Ctx, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Issue a new secret (shown this once); the old one stops working."""
    secret = await service.reset_secret(session=session, ctx=ctx, customer=customer, sysno=body.sysno, ip=ip)
    return ok(secret, "密钥已重置，请立即记下新密钥，它只显示这一次")


@router.delete("/DeleteGateway", response_model=Envelope[None])
async def delete_gateway(
    sysno: SysnoParam, hot: Latest, ctx: Ctx, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a gateway with its devices."""
    device_sysnos = await service.delete_gateway(
        session=session, ctx=ctx, customer=customer, sysno=sysno, ip=ip
    )
    if hot is not None:
        hot.forget(device_sysnos)
    return ok(None, "删除成功")
