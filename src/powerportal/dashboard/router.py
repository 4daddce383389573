"""Data dashboard routes: the large screen's data (logged in, or through a kiosk link) and the links."""

from __future__ import annotations

from fastapi import APIRouter

from powerportal.api.deps import ClientIp, Ctx, CurrentBrand, CurrentCustomer, Session
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page
from powerportal.dashboard import service
from powerportal.dashboard.schemas import (
    DashboardData,
    KioskDataQuery,
    KioskLinkCreate,
    KioskLinkCreated,
    KioskLinkQuery,
    KioskLinkRead,
    KioskLinkRevoke,
)

router = api_router("/api/CustomerDashboard", "数据大屏")
kiosk = api_router("/api/Kiosk", "数据大屏（展示链接）")


@router.post("/GetDashboardData", response_model=Envelope[DashboardData])
async def get_dashboard_data(ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand) -> EnvelopeResponse:
    """Everything the large screen shows: equipment, alarms, energy, power, top consumers, the map."""
    return ok(await service.dashboard(ctx=ctx, customer=customer, brand=brand))


@router.post("/GetKioskLinkList", response_model=Envelope[Page[KioskLinkRead]])
async def get_kiosk_link_list(query: KioskLinkQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's kiosk links with their state (the tokens are never shown again)."""
    return ok(await service.list_links(ctx=ctx, customer=customer, query=query))


@router.post("/AddKioskLink", response_model=Envelope[KioskLinkCreated])
async def add_kiosk_link(
    body: KioskLinkCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """A new read-only link to the caller's large screen, answered with its token this once."""
    created = await service.create_link(session=session, customer=customer, body=body, ip=ip)
    return ok(created, "大屏链接已生成")


@router.post("/RevokeKioskLink", response_model=Envelope[None])
async def revoke_kiosk_link(
    body: KioskLinkRevoke, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """End a kiosk link at once."""
    await service.revoke_link(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "大屏链接已撤销")


@kiosk.post("/GetDashboardData", response_model=Envelope[DashboardData])
async def get_kiosk_dashboard_data(body: KioskDataQuery, ctx: Ctx, brand: CurrentBrand) -> EnvelopeResponse:
    """The large screen of the link's customer, without a login (read-only; 403 once revoked or expired)."""
    customer = await service.kiosk_customer(ctx=ctx, token=body.token)
    return ok(await service.dashboard(ctx=ctx, customer=customer, brand=brand))


routers: tuple[APIRouter, ...] = (router, kiosk)
