"""Accounts: login, tokens, registration, password and account-transfer rules."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from powerportal.accounts.models import Customer, CustomerToken, UsedLoginLink
from powerportal.accounts.schemas import (
    CustomerRead,
    CustomerUpdate,
    FindPasswordBody,
    LoginResult,
    RegisterBody,
    TransformBody,
    UpdatePasswordBody,
)
from powerportal.brands.service import Brand
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError
from powerportal.core.security import code_digest, new_token, seal, token_digest, unseal
from powerportal.core.timeutil import now_ms, utcnow
from powerportal.core.tokens import Resolved
from powerportal.logs import recording as logs
from powerportal.sms import service as sms

BAD_CREDENTIALS = "账号或密码错误"
REPLAYED = "登录请求已使用过，请重新输入密码登录"
TOO_MANY_LOGINS = "登录失败次数过多，请 {minutes} 分钟后再试"
TOO_MANY_OLD_PASSWORDS = "原密码错误次数过多，请 {minutes} 分钟后再试"
STAMP_DIGITS = 13
STAMP_TOLERANCE_MS = 5 * 60 * 1000
TOUCH_INTERVAL = timedelta(seconds=60)


def unstamp_password(stamped: str, *, now: int) -> str:
    """Take the password out of ``timestamp + password + timestamp``; the stamps must agree and be recent."""
    head, tail = stamped[:STAMP_DIGITS], stamped[-STAMP_DIGITS:]
    if len(stamped) <= 2 * STAMP_DIGITS or head != tail or not head.isdigit():
        raise ApiError("登录请求格式不正确，请刷新页面后重试")
    if abs(now - int(head)) > STAMP_TOLERANCE_MS:
        raise ApiError("登录请求已过期，请校准本机时间后重试")
    return stamped[STAMP_DIGITS:-STAMP_DIGITS]


PROFILE_FIELDS = tuple(CustomerRead.model_fields)


def profile(customer: Customer) -> dict[str, Any]:
    """The profile in the shape of ``CustomerRead``, read straight off the customer's columns.

    Served on every page load; the columns need no validation, and building the model cost more
    than the rest of the call.
    """
    return {field: getattr(customer, field) for field in PROFILE_FIELDS}


async def get_by_mobile(*, session: AsyncSession, mobile: str) -> Customer | None:
    """The active customer with this login number."""
    return await session.scalar(select(Customer).where(Customer.mobile == mobile, Customer.is_active))


def cached_customer(ctx: AppContext, token: str) -> Customer | None:
    """The customer of a token this process validated moments ago (no database, no coroutine)."""
    found = ctx.tokens.get(token)
    return found if isinstance(found, Customer) else None


async def authenticate(*, ctx: AppContext, token: str) -> Customer | None:
    """The customer a live token belongs to (a detached snapshot; routes that change it merge it first).

    Callers ask ``cached_customer`` first, which answers most calls; this runs one short transaction
    that checks the token and refreshes its idle clock, at most once a minute.
    """
    found = await ctx.tokens.check(token, lambda: _check_token(ctx, token_digest(token)))
    return found if isinstance(found, Customer) else None


async def _check_token(ctx: AppContext, digest: str) -> Resolved[object] | None:
    """The token's customer (a snapshot) and until when that holds; refreshes the idle clock when due."""
    now = utcnow()
    async with ctx.sessions.begin() as session:
        row = (
            await session.execute(
                select(CustomerToken, Customer)
                .join(Customer, Customer.sysno == CustomerToken.customer_sysno)
                .where(CustomerToken.token_hash == digest)
            )
        ).first()
        if row is None:
            return None
        record, customer = row
        idle_limit = record.last_seen + timedelta(seconds=ctx.settings.token_idle_seconds)
        if record.revoked or not customer.is_active or record.expires_at <= now or idle_limit <= now:
            return None
        if now - record.last_seen > TOUCH_INTERVAL:
            record.last_seen = now
    # Until the idle clock is due to be refreshed again, and never past the token's end.
    until = min(record.expires_at, record.last_seen + TOUCH_INTERVAL)
    return Resolved(snapshot(customer), owner=customer.sysno, until=until)


def snapshot(customer: Customer) -> Customer:
    """A detached copy of the customer that can be merged into any session without a query."""
    columns = {attr.key: getattr(customer, attr.key) for attr in inspect(Customer).column_attrs}
    copy = Customer(**columns)
    make_transient_to_detached(copy)
    return copy


async def issue_token(
    *, session: AsyncSession, settings: Settings, customer: Customer, ip: str, user_agent: str | None
) -> LoginResult:
    """Start a session for the customer."""
    token = new_token()
    session.add(
        CustomerToken(
            token_hash=token_digest(token),
            customer_sysno=customer.sysno,
            expires_at=utcnow() + timedelta(seconds=settings.token_absolute_seconds),
            ip=ip,
            user_agent=(user_agent or "")[:255],
        )
    )
    return LoginResult(token=token, account=customer.account, name=customer.name, mobile=customer.mobile)


async def revoke_all_tokens(*, ctx: AppContext, session: AsyncSession, customer_sysno: int) -> None:
    """Log the customer out everywhere."""
    ctx.tokens.forget_owner(customer_sysno)
    await session.execute(
        update(CustomerToken)
        .where(CustomerToken.customer_sysno == customer_sysno, CustomerToken.revoked.is_(False))
        .values(revoked=True)
    )


async def logout(*, ctx: AppContext, session: AsyncSession, customer: Customer, token: str, ip: str) -> None:
    """End this session only."""
    digest = token_digest(token)
    ctx.tokens.forget(token)
    await session.execute(
        update(CustomerToken).where(CustomerToken.token_hash == digest).values(revoked=True)
    )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.LOGOUT,
        detail="退出登录",
        ip=ip,
    )


def _account_key(mobile: str, how: str = "password") -> str:
    """The failure count of one way into one account: passwords and SMS codes are counted apart.

    Five wrong passwords sent by anyone lock password logins, and locked the code login too: a stranger
    kept the owner out for good with five requests each quarter of an hour. The code login, which needs
    the owner's phone, has its own count, and either success (or a password reset) clears both.
    """
    return f"login:{'acct' if how == 'password' else how}:{mobile}"


async def _check_throttle(
    ctx: AppContext, *, mobile: str, ip: str, refused: str = TOO_MANY_LOGINS, how: str = "password"
) -> None:
    """Count this try as a failure before it is judged, so tries sent at once cannot all slip under the cap.

    A try refused here is taken back (it was never judged); a success takes its count back too.
    """
    window = ctx.settings.login_failure_window_seconds
    keys = (_account_key(mobile, how), f"login:ip:{ip}")
    counts = [await ctx.limiter.hit(key, window) for key in keys]
    if (
        counts[0] > ctx.settings.login_max_failures_per_account
        or counts[1] > ctx.settings.login_max_failures_per_ip
    ):
        for key in keys:
            await ctx.limiter.release(key)
        raise ApiError(refused.format(minutes=window // 60), status_code=429)


async def own_password(
    ctx: AppContext, *, customer: Customer, password: str, ip: str, refused: str = TOO_MANY_OLD_PASSWORDS
) -> bool:
    """Whether a logged-in caller typed its own password; a wrong one counts as a failed login.

    So a stolen token is no unlimited password oracle (past the cap: 429 ``refused``).
    """
    await _check_throttle(ctx, mobile=customer.mobile, ip=ip, refused=refused)
    if not await ctx.passwords.verify(customer.password_hash, password):
        return False
    await ctx.limiter.clear(_account_key(customer.mobile))
    await ctx.limiter.release(f"login:ip:{ip}")
    return True


async def _fail_login(
    ctx: AppContext, session: AsyncSession, *, mobile: str, ip: str, customer: Customer | None, how: str
) -> ApiError:
    """Log a failed login (already counted by ``_check_throttle``) and return its error."""
    logs.record(
        session=session,
        customer_sysno=customer.sysno if customer else None,
        operate_type=logs.OperateType.LOGIN_FAILED,
        detail=f"{how}失败：{mobile}",
        ip=ip,
        success=False,
    )
    await session.commit()
    return ApiError(BAD_CREDENTIALS)


async def _clear_failures(ctx: AppContext, mobile: str) -> None:
    """The owner proved it is the owner: neither way into the account stays locked."""
    for how in ("password", "sms"):
        await ctx.limiter.clear(_account_key(mobile, how))


async def _succeed_login(
    ctx: AppContext, session: AsyncSession, *, customer: Customer, ip: str, user_agent: str | None, how: str
) -> LoginResult:
    await _clear_failures(ctx, customer.mobile)
    await ctx.limiter.release(f"login:ip:{ip}")
    result = await issue_token(
        session=session, settings=ctx.settings, customer=customer, ip=ip, user_agent=user_agent
    )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.LOGIN,
        detail=f"{how}成功",
        ip=ip,
    )
    return result


async def login_by_password(
    *,
    ctx: AppContext,
    session: AsyncSession,
    mobile: str,
    stamped_password: str,
    ip: str,
    user_agent: str | None,
) -> LoginResult:
    """Password login with stamp check and failure throttling."""
    password = unstamp_password(stamped_password, now=now_ms())
    await _check_throttle(ctx, mobile=mobile, ip=ip)
    # A stamped password is accepted once: a captured request cannot be sent again (in any process).
    used = f"login:stamp:{code_digest(ctx.settings.effective_secret_key, mobile + stamped_password)}"
    if await ctx.limiter.hit(used, STAMP_TOLERANCE_MS / 1000 * 2) > 1:
        raise ApiError(REPLAYED)
    customer = await get_by_mobile(session=session, mobile=mobile)
    if customer is None:
        await ctx.passwords.burn(password)
        raise await _fail_login(ctx, session, mobile=mobile, ip=ip, customer=None, how="密码登录")
    if not await ctx.passwords.verify(customer.password_hash, password):
        raise await _fail_login(ctx, session, mobile=mobile, ip=ip, customer=customer, how="密码登录")
    return await _succeed_login(ctx, session, customer=customer, ip=ip, user_agent=user_agent, how="密码登录")


def require_sms_brand(brand: Brand) -> None:
    """Refuse SMS features on brands without SMS codes."""
    if not brand.flags.SmsCode:
        raise ApiError("当前版本未开通短信验证码功能")


async def send_login_code(*, ctx: AppContext, session: AsyncSession, mobile: str, ip: str) -> None:
    """Send a login code; an unknown number gets the same answer, limits and delay, but no message."""
    known = await get_by_mobile(session=session, mobile=mobile) is not None
    await sms.send_code(ctx=ctx, session=session, mobile=mobile, purpose="login", ip=ip, deliver=known)


async def login_by_sms(
    *, ctx: AppContext, session: AsyncSession, mobile: str, code: str, ip: str, user_agent: str | None
) -> LoginResult:
    """SMS-code login (its failures counted apart from the password's: ``_account_key``)."""
    await _check_throttle(ctx, mobile=mobile, ip=ip, how="sms")
    customer = await get_by_mobile(session=session, mobile=mobile)
    try:
        await sms.check_code(ctx=ctx, session=session, mobile=mobile, purpose="login", code=code)
    except ApiError:
        await _fail_login(ctx, session, mobile=mobile, ip=ip, customer=customer, how="短信登录")
        raise
    if customer is None:
        raise ApiError("验证码已失效，请重新获取")
    return await _succeed_login(ctx, session, customer=customer, ip=ip, user_agent=user_agent, how="短信登录")


def link_stamp(customer: Customer) -> str:
    """What a passwordless link must still find: the account's password and number as when it was issued.

    A password change or reset, or a move of the account to another number, ends every session; the
    links issued before it end with them, not a minute later.
    """
    return hashlib.sha256(f"{customer.password_hash}\n{customer.mobile}".encode()).hexdigest()[:32]


def create_login_link(*, settings: Settings, customer: Customer) -> str:
    """An encrypted single-use parameter holding the customer, the issue time and the account's stamp."""
    return seal(
        settings.effective_secret_key,
        {"c": customer.sysno, "t": now_ms(), "j": secrets.token_hex(16), "k": link_stamp(customer)},
    )


async def login_by_link(
    *, ctx: AppContext, session: AsyncSession, param: str, ip: str, user_agent: str | None
) -> LoginResult:
    """Accept a passwordless link once, within its maximum age."""
    payload = unseal(ctx.settings.effective_secret_key, param)
    expired = ApiError("登录链接无效或已过期，请重新获取")
    if payload is None:
        raise expired
    issued, customer_sysno, link_id = payload.get("t"), payload.get("c"), payload.get("j")
    if not isinstance(issued, int) or not isinstance(customer_sysno, int) or not isinstance(link_id, str):
        raise expired
    age = now_ms() - issued
    if age < -1000 or age > ctx.settings.login_link_max_age_ms:
        raise expired
    customer = await session.get(Customer, customer_sysno)
    if customer is None or not customer.is_active:
        raise expired
    if not hmac.compare_digest(str(payload.get("k", "")), link_stamp(customer)):
        raise expired
    try:
        async with session.begin_nested():
            session.add(UsedLoginLink(link_id=link_id))
    except IntegrityError as exc:
        raise ApiError("登录链接已被使用，请重新获取") from exc
    return await _succeed_login(
        ctx, session, customer=customer, ip=ip, user_agent=user_agent, how="免密链接登录"
    )


async def send_register_code(*, ctx: AppContext, session: AsyncSession, mobile: str, ip: str) -> None:
    """Send a registration code (a taken number is told at registration, after its code is checked)."""
    await sms.send_code(ctx=ctx, session=session, mobile=mobile, purpose="register", ip=ip)


async def validate_register_code(*, ctx: AppContext, session: AsyncSession, mobile: str, code: str) -> None:
    """Check a registration code without consuming it."""
    await sms.check_code(ctx=ctx, session=session, mobile=mobile, purpose="register", code=code)
    await session.rollback()


async def register(
    *,
    ctx: AppContext,
    session: AsyncSession,
    brand: Brand,
    body: RegisterBody,
    ip: str,
    user_agent: str | None,
) -> LoginResult:
    """Create an account and log it in."""
    if brand.flags.SmsCode:
        if not body.validate_code:
            raise ApiError("请输入验证码")
        await sms.check_code(
            ctx=ctx, session=session, mobile=body.mobile, purpose="register", code=body.validate_code
        )
    taken = ApiError("该手机号已注册，请直接登录或找回密码")
    if await session.scalar(select(Customer.sysno).where(Customer.mobile == body.mobile)) is not None:
        raise taken
    try:
        # Another registration of the number may commit between the look-up and this insert.
        async with session.begin_nested():
            customer = await create_customer(
                session=session,
                ctx=ctx,
                mobile=body.mobile,
                password=body.password,
                name=body.name or f"用户{body.mobile[-4:]}",
            )
            # Of the brand it registers under; null for the deployment's own (which a re-brand moves).
            customer.brand = brand.type if brand.type != ctx.settings.brand else None
    except IntegrityError as exc:
        raise taken from exc
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.REGISTER,
        detail="注册账号",
        ip=ip,
    )
    return await issue_token(
        session=session, settings=ctx.settings, customer=customer, ip=ip, user_agent=user_agent
    )


async def create_customer(
    *,
    session: AsyncSession,
    ctx: AppContext,
    mobile: str,
    password: str,
    name: str,
    is_brand_admin: bool = False,
) -> Customer:
    """Insert a customer with a hashed password."""
    customer = Customer(
        account=mobile,
        mobile=mobile,
        name=name,
        password_hash=await ctx.passwords.hash(password),
        is_brand_admin=is_brand_admin,
    )
    session.add(customer)
    await session.flush()
    return customer


async def send_find_password_code(*, ctx: AppContext, session: AsyncSession, mobile: str, ip: str) -> None:
    """Send a recovery code; an unknown number gets the same answer, limits and delay, but no message."""
    known = await get_by_mobile(session=session, mobile=mobile) is not None
    await sms.send_code(
        ctx=ctx, session=session, mobile=mobile, purpose="find_password", ip=ip, deliver=known
    )


async def find_password(*, ctx: AppContext, session: AsyncSession, body: FindPasswordBody, ip: str) -> None:
    """Set a new password by SMS code and end every session."""
    await sms.check_code(
        ctx=ctx, session=session, mobile=body.mobile, purpose="find_password", code=body.validate_code
    )
    customer = await get_by_mobile(session=session, mobile=body.mobile)
    if customer is None:
        raise ApiError("验证码已失效，请重新获取")
    await _set_password(
        ctx=ctx,
        session=session,
        customer=customer,
        password=body.new_password,
        logged=(logs.OperateType.FIND_PASSWORD, "通过短信找回密码"),
        ip=ip,
    )
    await _clear_failures(ctx, customer.mobile)


async def _set_password(
    *,
    ctx: AppContext,
    session: AsyncSession,
    customer: Customer,
    password: str,
    logged: tuple[logs.OperateType, str],
    ip: str,
) -> None:
    """Store a new password, end every session of the customer, and log why."""
    customer.password_hash = await ctx.passwords.hash(password)
    await revoke_all_tokens(ctx=ctx, session=session, customer_sysno=customer.sysno)
    operate_type, detail = logged
    logs.record(
        session=session, customer_sysno=customer.sysno, operate_type=operate_type, detail=detail, ip=ip
    )


async def send_update_password_code(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, mobile: str, ip: str
) -> None:
    """Send the code for a password change to the account's own number."""
    if mobile != customer.mobile:
        raise ApiError("手机号与当前账号不一致")
    await sms.send_code(ctx=ctx, session=session, mobile=mobile, purpose="update_password", ip=ip)


async def update_password(
    *,
    ctx: AppContext,
    session: AsyncSession,
    brand: Brand,
    customer: Customer,
    body: UpdatePasswordBody,
    ip: str,
) -> None:
    """Change the password and log the customer out everywhere.

    The code comes first (a stolen token alone learns nothing about the old password), and wrong old
    passwords count against the account as failed logins do.
    """
    if body.old_password == body.new_password:
        raise ApiError("新密码不能与原密码相同")
    if brand.flags.SmsCode:
        if not body.mobile:
            raise ApiError("请输入手机号")
        if not body.validate_code:
            raise ApiError("请输入验证码")
        if body.mobile != customer.mobile:
            raise ApiError("手机号与当前账号不一致")
        await sms.check_code(
            ctx=ctx,
            session=session,
            mobile=customer.mobile,
            purpose="update_password",
            code=body.validate_code,
        )
    if not await own_password(ctx, customer=customer, password=body.old_password, ip=ip):
        customer_sysno = customer.sysno
        await session.rollback()  # the code stays usable for the next try
        logs.record(
            session=session,
            customer_sysno=customer_sysno,
            operate_type=logs.OperateType.UPDATE_PASSWORD,
            detail="修改密码失败：原密码错误",
            ip=ip,
            success=False,
        )
        await session.commit()
        raise ApiError("原密码错误")
    await _set_password(
        ctx=ctx,
        session=session,
        customer=customer,
        password=body.new_password,
        logged=(logs.OperateType.UPDATE_PASSWORD, "修改密码"),
        ip=ip,
    )


async def send_transfer_code(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, mobile: str, kind: int, ip: str
) -> None:
    """Send a transfer code to the current number (kind 1) or the target number (kind 2).

    A taken target gets its code too: it is told at the transfer, after the codes are checked, so
    that this call tells a logged-in caller nothing about other people's numbers.
    """
    if kind == 1:
        if mobile != customer.mobile:
            raise ApiError("当前账号手机号不正确")
        purpose = "transfer_old"
    else:
        if mobile == customer.mobile:
            raise ApiError("新旧账号不能相同")
        purpose = "transfer_new"
    await sms.send_code(ctx=ctx, session=session, mobile=mobile, purpose=purpose, ip=ip)


async def transfer_account(
    *, ctx: AppContext, session: AsyncSession, brand: Brand, customer: Customer, body: TransformBody, ip: str
) -> None:
    """Move the account to a new number; it keeps its password, every session ends."""
    if body.old_mobile != customer.mobile:
        raise ApiError("当前账号不正确")
    if body.old_mobile == body.new_mobile:
        raise ApiError("新旧账号不能相同")
    if brand.flags.SmsCode:
        if not body.validate_code or not body.target_validate_code:
            raise ApiError("请输入验证码")
        # The codes first: only the holder of the target number learns that it is taken.
        await sms.check_code(
            ctx=ctx, session=session, mobile=body.old_mobile, purpose="transfer_old", code=body.validate_code
        )
        await sms.check_code(
            ctx=ctx,
            session=session,
            mobile=body.new_mobile,
            purpose="transfer_new",
            code=body.target_validate_code,
        )
    if await session.scalar(select(Customer.sysno).where(Customer.mobile == body.new_mobile)) is not None:
        raise ApiError("目标手机号已被注册")
    old = customer.mobile
    try:
        # Another account may move to the same number between the look-up and this write.
        async with session.begin_nested():
            customer.mobile = body.new_mobile
            customer.account = body.new_mobile
    except IntegrityError as exc:
        raise ApiError("目标手机号已被注册") from exc
    await revoke_all_tokens(ctx=ctx, session=session, customer_sysno=customer.sysno)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.TRANSFER_ACCOUNT,
        detail=f"账号由 {old} 转移至 {body.new_mobile}",
        ip=ip,
    )


def update_info(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, body: CustomerUpdate, ip: str
) -> None:
    """Save the editable profile fields."""
    ctx.tokens.forget_owner(customer.sysno)
    for field, value in body.model_dump().items():
        setattr(customer, field, value if value != "" or field == "name" else None)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.UPDATE_INFO,
        detail="修改个人信息",
        ip=ip,
    )
