"""Request wiring above the domains: context, runtime, session, caller, client address, brand."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.brands.service import Brand, brand_for, variant_for
from powerportal.control.commands import Commander
from powerportal.core.context import AppContext
from powerportal.core.database import session_scope
from powerportal.core.envelope import ApiError, Unauthorized
from powerportal.core.middleware import header
from powerportal.runtime import Runtime
from powerportal.telemetry.broker_auth import SECRET_HEADER, BrokerGate
from powerportal.telemetry.latest import LatestValues

LOGIN_HEADER = "SYSTOKEN"
LOGIN_HEADER_KEY = LOGIN_HEADER.lower().encode()
MAX_TOKEN_LENGTH = 128


async def get_ctx(request: Request) -> AppContext:
    """The process-wide context."""
    ctx: AppContext = request.app.state.ctx
    return ctx


Ctx = Annotated[AppContext, Depends(get_ctx)]


async def get_runtime(request: Request) -> Runtime:
    """The process's running parts (MQTT side, command sender, scheduler)."""
    runtime: Runtime = request.app.state.runtime
    return runtime


CurrentRuntime = Annotated[Runtime, Depends(get_runtime)]

BROKER_REFUSED = "消息服务器认证接口拒绝访问：未启用，或 X-Broker-Secret 不正确"


async def broker_gate(request: Request) -> BrokerGate:
    """The process's answers to EMQX, for a caller presenting the shared secret (else HTTP 401)."""
    runtime: Runtime = request.app.state.runtime
    gate = runtime.broker_gate
    if gate is None or not gate.admits(request.headers.get(SECRET_HEADER)):
        raise ApiError(BROKER_REFUSED, status_code=401, http_status=401)
    return gate


Gate = Annotated[BrokerGate, Depends(broker_gate)]


async def get_commander(request: Request) -> Commander:
    """The process's command sender."""
    runtime: Runtime = request.app.state.runtime
    return runtime.commander


CommanderDep = Annotated[Commander, Depends(get_commander)]


def _nothing() -> None:
    return None


async def billing_wake(request: Request) -> Callable[[], None]:
    """What wakes the billing worker (none in an API-only process: the worker elsewhere looks every 30 s)."""
    runtime: Runtime = request.app.state.runtime
    return runtime.billing.wake if runtime.billing is not None else _nothing


BillingWake = Annotated[Callable[[], None], Depends(billing_wake)]


async def latest_values(request: Request) -> LatestValues | None:
    """The ingest's in-memory latest values, when this process runs the ingest."""
    runtime: Runtime = request.app.state.runtime
    return runtime.latest


Latest = Annotated[LatestValues | None, Depends(latest_values)]


async def get_session(ctx: Ctx) -> AsyncIterator[AsyncSession]:
    """A database session for one request, committed when the route succeeds."""
    async for session in session_scope(ctx.sessions):
        yield session


# scope="function": commit before the response is sent, so a failed commit is never reported as success.
Session = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def client_ip(request: Request, ctx: Ctx) -> str:
    """The caller's address: the peer, or behind trusted proxies the last untrusted X-Forwarded-For hop."""
    peer = request.client.host if request.client else "unknown"
    return caller_address(peer, request.headers.get("x-forwarded-for"), ctx.settings.trusted_networks)


def caller_address(peer: str, forwarded: str | None, trusted: tuple[IPv4Network | IPv6Network, ...]) -> str:
    """Walk X-Forwarded-For from the right while the hop is a trusted proxy; the first other is the caller.

    Entries left of it were written by the caller and prove nothing; an entry that is no address ends
    the walk at the last hop that was.
    """
    if not forwarded or not _trusted(peer, trusted):
        return peer
    caller = peer
    for hop in reversed(forwarded.split(",")):
        try:
            address = ip_address(hop.strip())
        except ValueError:
            return caller
        caller = str(address)
        if not _trusted(caller, trusted):
            return caller
    return caller


def _trusted(address: str, trusted: tuple[IPv4Network | IPv6Network, ...]) -> bool:
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in trusted)


ClientIp = Annotated[str, Depends(client_ip)]


async def current_brand(request: Request, ctx: Ctx) -> Brand:
    """The brand variant this request is served under."""
    return brand_for(
        default=ctx.settings.brand, host=request.headers.get("host"), host_map=ctx.settings.brand_hosts
    )


def brand_of(ctx: AppContext, customer: Customer) -> int:
    """The brand a customer belongs to (the one it registered under; else the deployment's own).

    It is served under that brand alone: under another brand's host name its token, password and
    codes open nothing, so no brand's weaker rules (no SMS code, say) reach another brand's accounts.
    """
    return customer.brand if customer.brand is not None else ctx.settings.brand


CurrentBrand = Annotated[Brand, Depends(current_brand)]


class CustomerAuth(APIKeyHeader):
    """The caller named by the ``SYSTOKEN`` header, or a 401 envelope (OpenAPI shows it as the login scheme).

    It takes nothing but the request: it runs on every logged-in call, and each sub-dependency
    would cost FastAPI tens of microseconds more. The customer it gives is a detached snapshot
    shared by the token's requests: read it, or change ``AttachedCustomer`` instead.
    """

    def __init__(self) -> None:
        super().__init__(
            name=LOGIN_HEADER, scheme_name=LOGIN_HEADER, description="登录接口返回的 token", auto_error=False
        )

    async def __call__(self, request: Request) -> Customer:  # type: ignore[override]
        """Authenticate the request."""
        raw = header(request.scope, LOGIN_HEADER_KEY)
        if not raw or len(raw) > MAX_TOKEN_LENGTH:
            raise Unauthorized()
        ctx: AppContext = request.app.state.ctx
        token = raw.decode("latin-1")
        customer = accounts.cached_customer(ctx, token) or await accounts.authenticate(ctx=ctx, token=token)
        if customer is None:
            raise Unauthorized()
        host = header(request.scope, b"host")
        settings = ctx.settings
        served = variant_for(
            default=settings.brand,
            host=host.decode("latin-1") if host else None,
            host_map=settings.brand_hosts,
        )
        if brand_of(ctx, customer) != served:
            raise Unauthorized()
        return customer


CurrentCustomer = Annotated[Customer, Depends(CustomerAuth())]


async def attached_customer(customer: CurrentCustomer, session: Session) -> Customer:
    """The caller as an object of the request's session, for routes that change the customer."""
    return await session.merge(customer, load=False)


AttachedCustomer = Annotated[Customer, Depends(attached_customer)]


async def current_token(request: Request) -> str:
    """The raw token of the request."""
    return request.headers.get(LOGIN_HEADER, "")


async def eletric_list_on(brand: CurrentBrand) -> None:
    """Refuse every billing call where the brand has no electricity billing (``eletricList``)."""
    if not brand.flags.eletricList:
        raise ApiError("当前版本未开放电费管理", status_code=403)


async def sms_config_on(brand: CurrentBrand) -> None:
    """Refuse every call where the brand has no SMS configuration."""
    if not brand.flags.SmsConfig:
        raise ApiError("当前版本未开放短信配置", status_code=403)
