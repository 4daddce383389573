"""Share and transfer routes.

The two lists stay under ``/api/CustomerProject`` where the spec names them; the actions are under
``/api/CustomerShare``.
"""

from __future__ import annotations

from powerportal.api.deps import ClientIp, Ctx, CurrentBrand, CurrentCustomer, Session
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page
from powerportal.shares import service, transfers
from powerportal.shares.schemas import (
    ShareAction,
    ShareCreate,
    ShareQuery,
    ShareRead,
    TransferCreate,
    TransferQuery,
    TransferRead,
    TransferSms,
)

project_router = api_router("/api/CustomerProject", "项目")
share_router = api_router("/api/CustomerShare", "共享")


@project_router.post("/ShareProjectList", response_model=Envelope[Page[ShareRead]])
async def share_project_list(query: ShareQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Shares the caller gave and received (``direction``), with their state, newest first."""
    return ok(await service.list_shares(ctx=ctx, customer=customer, query=query))


@project_router.post("/TransferProjectList", response_model=Envelope[Page[TransferRead]])
async def transfer_project_list(
    query: TransferQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """Project transfers out of and into the caller's account, with their state, newest first."""
    return ok(await transfers.list_transfers(ctx=ctx, customer=customer, query=query))


@share_router.post("/AddShare", response_model=Envelope[ShareRead])
async def add_share(
    body: ShareCreate, ctx: Ctx, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Invite an account by mobile number to one of the caller's projects."""
    return ok(
        await service.invite(ctx=ctx, session=session, customer=customer, body=body, ip=ip), "邀请已发送"
    )


@share_router.post("/AcceptShare", response_model=Envelope[None])
async def accept_share(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Accept an invitation to the caller."""
    await service.respond(session=session, customer=customer, sysno=body.sysno, accept=True, ip=ip)
    return ok(None, "已接受共享")


@share_router.post("/DeclineShare", response_model=Envelope[None])
async def decline_share(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Decline an invitation to the caller."""
    await service.respond(session=session, customer=customer, sysno=body.sysno, accept=False, ip=ip)
    return ok(None, "已拒绝共享")


@share_router.post("/RevokeShare", response_model=Envelope[None])
async def revoke_share(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """The owner ends a share at once."""
    await service.revoke(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "已撤销共享")


@share_router.post("/LeaveShare", response_model=Envelope[None])
async def leave_share(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """The sharee gives a share up."""
    await service.leave(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "已退出共享")


@share_router.post("/SendTransferProjectSms", response_model=Envelope[None])
async def send_transfer_project_sms(
    body: TransferSms,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: CurrentCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Send the code confirming a project transfer to the caller's own number."""
    await transfers.send_code(
        ctx=ctx, session=session, brand=brand, customer=customer, mobile=body.mobile, ip=ip
    )
    return ok(None, "短信发送成功")


@share_router.post("/TransferProject", response_model=Envelope[TransferRead])
async def transfer_project(
    body: TransferCreate,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: CurrentCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Offer one of the caller's projects to another account, confirmed by password (and SMS code)."""
    offered = await transfers.offer(
        ctx=ctx, session=session, brand=brand, customer=customer, body=body, ip=ip
    )
    return ok(offered, "转移已发起，等待对方接收")


@share_router.post("/AcceptTransfer", response_model=Envelope[None])
async def accept_transfer(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Take a project offered to the caller."""
    await transfers.accept(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "项目已转入您的账号")


@share_router.post("/DeclineTransfer", response_model=Envelope[None])
async def decline_transfer(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Refuse a project offered to the caller."""
    await transfers.decline(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "已拒绝接收")


@share_router.post("/CancelTransfer", response_model=Envelope[None])
async def cancel_transfer(
    body: ShareAction, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Withdraw a transfer the caller offered, before it is accepted."""
    await transfers.cancel(session=session, customer=customer, sysno=body.sysno, ip=ip)
    return ok(None, "已取消转移")


routers = (project_router, share_router)
