"""FastAPI dependencies: context, session, caller, client address, brand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.brands.service import Brand, brand_for
from powerportal.core.context import AppContext
from powerportal.core.database import session_scope
from powerportal.core.envelope import Unauthorized


async def get_ctx(request: Request) -> AppContext:
    """The process-wide context."""
    ctx: AppContext = request.app.state.ctx
    return ctx


Ctx = Annotated[AppContext, Depends(get_ctx)]


async def get_session(ctx: Ctx) -> AsyncIterator[AsyncSession]:
    """A database session for one request, committed when the route succeeds."""
    async for session in session_scope(ctx.sessions):
        yield session


# scope="function": commit before the response is sent, so a failed commit is never reported as success.
Session = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def client_ip(request: Request, ctx: Ctx) -> str:
    """The caller's address (from X-Forwarded-For only when told to trust it)."""
    if ctx.settings.request_trust_forwarded:
        forwarded = request.headers.get("x-forwarded-for", "")
        if forwarded:
            return forwarded.split(",")[0].strip()[:64]
    return request.client.host if request.client else "unknown"


ClientIp = Annotated[str, Depends(client_ip)]


async def current_brand(request: Request, ctx: Ctx) -> Brand:
    """The brand variant this request is served under."""
    return brand_for(
        default=ctx.settings.brand, host=request.headers.get("host"), host_map=ctx.settings.brand_hosts
    )


CurrentBrand = Annotated[Brand, Depends(current_brand)]


async def current_customer(
    ctx: Ctx,
    session: Session,
    systoken: Annotated[str | None, Header(alias="SYSTOKEN", max_length=128)] = None,
) -> Customer:
    """The logged-in customer, or a 401 envelope."""
    if not systoken:
        raise Unauthorized()
    customer = await accounts.customer_for_token(session=session, ctx=ctx, token=systoken)
    if customer is None:
        raise Unauthorized()
    return customer


CurrentCustomer = Annotated[Customer, Depends(current_customer)]


async def current_token(
    systoken: Annotated[str | None, Header(alias="SYSTOKEN", max_length=128)] = None,
) -> str:
    """The raw token of the request."""
    return systoken or ""
