"""Account routes under ``/api/CustomerCenter`` (paths and fields as the spec lists them)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts import service
from powerportal.accounts.schemas import (
    CreateLoginLinkBody,
    CustomerRead,
    CustomerUpdate,
    FindPasswordBody,
    LoginByPassBody,
    LoginBySmsBody,
    LoginLinkBody,
    LoginLinkRead,
    LoginResult,
    MobileBody,
    RegisterBody,
    TransformBody,
    TransformSmsBody,
    UpdatePasswordBody,
    ValidateCodeBody,
)
from powerportal.api.deps import (
    AttachedCustomer,
    ClientIp,
    Ctx,
    CurrentBrand,
    CurrentCustomer,
    Session,
    brand_of,
    current_token,
)
from powerportal.brands.service import Brand
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.dashboard import service as kiosk

router = api_router("/api/CustomerCenter", "账号")

UserAgent = Annotated[str | None, Header(alias="user-agent", max_length=512, include_in_schema=False)]
Token = Annotated[str, Depends(current_token)]
SMS_SENT = "短信发送成功"


async def _of_this_brand(ctx: AppContext, session: AsyncSession, brand: Brand, mobile: str) -> None:
    """Refuse, as a wrong password or code is refused, to log in an account of another brand."""
    found = await service.get_by_mobile(session=session, mobile=mobile)
    if found is not None and brand_of(ctx, found) != brand.type:
        raise ApiError(service.BAD_CREDENTIALS)


@router.post("/LoginByPass", response_model=Envelope[LoginResult])
async def login_by_pass(
    body: LoginByPassBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    ip: ClientIp,
    user_agent: UserAgent = None,
) -> EnvelopeResponse:
    """Log in with mobile and stamped password."""
    await _of_this_brand(ctx, session, brand, body.mobile)
    result = await service.login_by_password(
        ctx=ctx,
        session=session,
        mobile=body.mobile,
        stamped_password=body.password,
        ip=ip,
        user_agent=user_agent,
    )
    return ok(result, "登录成功")


@router.post("/SendLoginSms", response_model=Envelope[None])
async def send_login_sms(
    body: MobileBody, ctx: Ctx, session: Session, brand: CurrentBrand, ip: ClientIp
) -> EnvelopeResponse:
    """Send a login code."""
    service.require_sms_brand(brand)
    await service.send_login_code(ctx=ctx, session=session, mobile=body.mobile, ip=ip)
    return ok(None, SMS_SENT)


@router.post("/LoginBySms", response_model=Envelope[LoginResult])
async def login_by_sms(
    body: LoginBySmsBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    ip: ClientIp,
    user_agent: UserAgent = None,
) -> EnvelopeResponse:
    """Log in with an SMS code."""
    service.require_sms_brand(brand)
    await _of_this_brand(ctx, session, brand, body.mobile)
    result = await service.login_by_sms(
        ctx=ctx, session=session, mobile=body.mobile, code=body.validate_code, ip=ip, user_agent=user_agent
    )
    return ok(result, "登录成功")


@router.post("/LoginByLink", response_model=Envelope[LoginResult])
async def login_by_link(
    body: LoginLinkBody, ctx: Ctx, session: Session, ip: ClientIp, user_agent: UserAgent = None
) -> EnvelopeResponse:
    """Log in with a passwordless link's parameter (the ``/auth-redirect`` landing)."""
    result = await service.login_by_link(
        ctx=ctx, session=session, param=body.param, ip=ip, user_agent=user_agent
    )
    return ok(result, "登录成功")


@router.post("/CreateLoginLink", response_model=Envelope[LoginLinkRead])
async def create_login_link(
    body: CreateLoginLinkBody, ctx: Ctx, session: Session, brand: CurrentBrand, caller: CurrentCustomer
) -> EnvelopeResponse:
    """Issue a passwordless link for a customer (brand administrators, where ``adminAuth`` is on)."""
    if not brand.flags.adminAuth or not caller.is_brand_admin:
        raise ApiError("无权执行此操作", status_code=403)
    customer = await service.get_by_mobile(session=session, mobile=body.mobile)
    if customer is None or brand_of(ctx, customer) != brand.type:  # only the customers of its own brand
        raise ApiError("账号不存在", status_code=404)
    param = service.create_login_link(settings=ctx.settings, customer=customer)
    return ok(
        LoginLinkRead(
            param=param, url=f"/auth-redirect?param={param}", expires_in_ms=ctx.settings.login_link_max_age_ms
        )
    )


@router.post("/LoginOut", response_model=Envelope[None])
async def login_out(
    ctx: Ctx, customer: CurrentCustomer, session: Session, token: Token, ip: ClientIp
) -> EnvelopeResponse:
    """End this session."""
    await service.logout(ctx=ctx, session=session, customer=customer, token=token, ip=ip)
    return ok(None, "已退出登录")


@router.post("/SendRegisterSms", response_model=Envelope[None])
async def send_register_sms(
    body: MobileBody, ctx: Ctx, session: Session, brand: CurrentBrand, ip: ClientIp
) -> EnvelopeResponse:
    """Send a registration code."""
    service.require_sms_brand(brand)
    await service.send_register_code(ctx=ctx, session=session, mobile=body.mobile, ip=ip)
    return ok(None, SMS_SENT)


@router.post("/ValidateRegisterSms", response_model=Envelope[None])
async def validate_register_sms(
    body: ValidateCodeBody, ctx: Ctx, session: Session, brand: CurrentBrand
) -> EnvelopeResponse:
    """Check a registration code before the rest of the form is filled."""
    service.require_sms_brand(brand)
    await service.validate_register_code(
        ctx=ctx, session=session, mobile=body.mobile, code=body.validate_code
    )
    return ok(None, "验证码正确")


@router.post("/Register", response_model=Envelope[LoginResult])
async def register(
    body: RegisterBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    ip: ClientIp,
    user_agent: UserAgent = None,
) -> EnvelopeResponse:
    """Create an account and log it in."""
    result = await service.register(
        ctx=ctx, session=session, brand=brand, body=body, ip=ip, user_agent=user_agent
    )
    return ok(result, "注册成功")


@router.put("/UpdatePassWord", response_model=Envelope[None])
async def update_password(
    body: UpdatePasswordBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: AttachedCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Change the password; every session ends."""
    await service.update_password(ctx=ctx, session=session, brand=brand, customer=customer, body=body, ip=ip)
    return ok(None, "密码修改成功，请重新登录")


@router.post("/SendUpdatePassWordSms", response_model=Envelope[None])
async def send_update_password_sms(
    body: MobileBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: CurrentCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Send the code for a password change."""
    service.require_sms_brand(brand)
    await service.send_update_password_code(
        ctx=ctx, session=session, customer=customer, mobile=body.mobile, ip=ip
    )
    return ok(None, SMS_SENT)


@router.post("/SendFindPassWordSms", response_model=Envelope[None])
async def send_find_password_sms(
    body: MobileBody, ctx: Ctx, session: Session, brand: CurrentBrand, ip: ClientIp
) -> EnvelopeResponse:
    """Send a password-recovery code."""
    service.require_sms_brand(brand)
    await service.send_find_password_code(ctx=ctx, session=session, mobile=body.mobile, ip=ip)
    return ok(None, SMS_SENT)


@router.put("/FindPassWord", response_model=Envelope[None])
async def find_password(
    body: FindPasswordBody, ctx: Ctx, session: Session, brand: CurrentBrand, ip: ClientIp
) -> EnvelopeResponse:
    """Set a new password with a recovery code."""
    service.require_sms_brand(brand)
    await service.find_password(ctx=ctx, session=session, body=body, ip=ip)
    return ok(None, "密码已重置，请使用新密码登录")


@router.post("/SendTransformSms", response_model=Envelope[None])
async def send_transform_sms(
    body: TransformSmsBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: CurrentCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Send a transfer code to the current (type 1) or target (type 2) number."""
    service.require_sms_brand(brand)
    await service.send_transfer_code(
        ctx=ctx, session=session, customer=customer, mobile=body.mobile, kind=body.type, ip=ip
    )
    return ok(None, SMS_SENT)


@router.post("/TransformUsername", response_model=Envelope[None])
async def transform_username(
    body: TransformBody,
    ctx: Ctx,
    session: Session,
    brand: CurrentBrand,
    customer: AttachedCustomer,
    ip: ClientIp,
) -> EnvelopeResponse:
    """Move the account to another number: its sessions and its kiosk links end."""
    await service.transfer_account(ctx=ctx, session=session, brand=brand, customer=customer, body=body, ip=ip)
    await kiosk.revoke_all_links(session=session, customer_sysno=customer.sysno)
    return ok(None, "转移成功，新账号的密码与原账号相同，请登录后修改密码")


@router.post("/MyInfo", response_model=Envelope[CustomerRead])
async def my_info(customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's profile."""
    return ok(service.profile(customer))


@router.post("/GetSingleCustomer", response_model=Envelope[CustomerRead])
async def get_single_customer(customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's profile (the spec's second name for it)."""
    return ok(service.profile(customer))


@router.put("/UpdateCustomer", response_model=Envelope[CustomerRead])
async def update_customer(
    body: CustomerUpdate, ctx: Ctx, session: Session, customer: AttachedCustomer, ip: ClientIp
) -> EnvelopeResponse:
    """Save name, email, remark and large-screen theme."""
    service.update_info(ctx=ctx, session=session, customer=customer, body=body, ip=ip)
    return ok(service.profile(customer), "保存成功")
