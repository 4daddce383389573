"""Verification codes: issue with limits, verify with expiry and a cap on wrong tries."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError
from powerportal.core.security import code_digest
from powerportal.core.sms import SmsSendError
from powerportal.core.timeutil import utcnow
from powerportal.sms.models import SmsCode, SmsOutbox

PURPOSE_TEXT = {
    "login": "登录",
    "register": "注册",
    "update_password": "修改密码",
    "find_password": "找回密码",
    "transfer_old": "转移账号（原账号）",
    "transfer_new": "转移账号（目标账号）",
    "transfer_project": "项目转移",
}


TOO_MANY_TRIES = "验证码错误次数过多，请重新获取"

# How long a provider takes to send, as last measured: a code not sent waits as long (no timing tells).
_send_seconds = 0.0


async def send_code(
    *, ctx: AppContext, session: AsyncSession, mobile: str, purpose: str, ip: str, deliver: bool = True
) -> None:
    """Send a fresh 6-digit code, within the per-number and per-IP limits.

    With ``deliver`` off (a number without an account, where a code could not be used) everything
    happens alike, limits, the stored code and the time it takes, except that no message goes out:
    the answer tells nobody whether the number has an account.
    """
    global _send_seconds
    settings = ctx.settings
    latest = await session.scalar(
        select(SmsCode.create_time)
        .where(SmsCode.mobile == mobile, SmsCode.purpose == purpose)
        .order_by(SmsCode.create_time.desc())
        .limit(1)
    )
    now = utcnow()
    if latest is not None and (now - latest).total_seconds() < settings.sms_resend_seconds:
        wait = settings.sms_resend_seconds - int((now - latest).total_seconds())
        raise ApiError(f"验证码发送过于频繁，请 {wait} 秒后再试", status_code=429)
    if await ctx.limiter.count(f"sms:ip:{ip}", 3600) >= settings.sms_per_ip_per_hour:
        raise ApiError("短信发送次数过多，请稍后再试", status_code=429)
    if await ctx.limiter.count(f"sms:mobile:{mobile}", 86400) >= settings.sms_per_number_per_day:
        raise ApiError("该手机号今日短信次数已达上限", status_code=429)
    # The stored code is written after the provider answers: requests sent at once all passed the check
    # above (five texts in 1.4 s). The first to claim the number and purpose sends; the others wait.
    resend = f"sms:resend:{mobile}:{purpose}"
    if await ctx.limiter.hit(resend, settings.sms_resend_seconds) > 1:
        raise ApiError(f"验证码发送过于频繁，请 {settings.sms_resend_seconds} 秒后再试", status_code=429)
    await ctx.limiter.hit(f"sms:ip:{ip}", 3600)
    await ctx.limiter.hit(f"sms:mobile:{mobile}", 86400)

    code = f"{secrets.randbelow(1_000_000):06d}"
    minutes = settings.sms_code_ttl_seconds // 60
    content = f"您的{PURPOSE_TEXT.get(purpose, '')}验证码为 {code}，{minutes} 分钟内有效，请勿泄露给他人。"
    if deliver:
        outbox = SmsOutbox(mobile=mobile, purpose=purpose, content=content, provider=ctx.sms.name, ip=ip)
        started = time.perf_counter()
        try:
            await ctx.sms.send(mobile=mobile, content=content, params={"code": code})
        except SmsSendError as exc:
            outbox.status, outbox.error = "failed", str(exc)[:255]
            session.add(outbox)
            await session.commit()
            await ctx.limiter.clear(resend)  # nothing went out: asking again at once is fair
            raise ApiError("短信发送失败，请稍后再试", status_code=502) from exc
        _send_seconds = 0.8 * _send_seconds + 0.2 * (time.perf_counter() - started)
        outbox.status = "sent"
        session.add(outbox)
    else:
        await asyncio.sleep(_send_seconds)
    session.add_all(
        [
            SmsCode(
                mobile=mobile,
                purpose=purpose,
                code_hash=code_digest(settings.effective_secret_key, code),
                expires_at=now + timedelta(seconds=settings.sms_code_ttl_seconds),
            ),
        ]
    )


async def check_code(*, ctx: AppContext, session: AsyncSession, mobile: str, purpose: str, code: str) -> None:
    """Accept the latest unused, unexpired code once; count wrong tries against it.

    Both the count and the use are conditional updates that only one request can win, so tries sent
    at once never pass the cap and one code is never accepted twice.
    """
    most = ctx.settings.sms_max_attempts
    row = (
        await session.execute(
            select(SmsCode.sysno, SmsCode.code_hash, SmsCode.expires_at, SmsCode.failed_attempts)
            .where(SmsCode.mobile == mobile, SmsCode.purpose == purpose, SmsCode.used_at.is_(None))
            .order_by(SmsCode.create_time.desc())
            .limit(1)
        )
    ).first()
    now = utcnow()
    if row is None or row.expires_at <= now:
        raise ApiError("验证码已失效，请重新获取")
    if row.failed_attempts >= most:
        raise ApiError(TOO_MANY_TRIES)
    if row.code_hash != code_digest(ctx.settings.effective_secret_key, code.strip()):
        counted = await session.scalar(
            update(SmsCode)
            .where(SmsCode.sysno == row.sysno, SmsCode.failed_attempts < most)
            .values(failed_attempts=SmsCode.failed_attempts + 1)
            .returning(SmsCode.failed_attempts)
        )
        await session.commit()
        left = most - counted if counted is not None else 0
        raise ApiError(f"验证码错误，还可尝试 {left} 次" if left > 0 else TOO_MANY_TRIES)
    won = await session.scalar(
        update(SmsCode)
        .where(
            SmsCode.sysno == row.sysno,
            SmsCode.used_at.is_(None),
            SmsCode.failed_attempts < most,
            SmsCode.expires_at > now,
        )
        .values(used_at=now)
        .returning(SmsCode.sysno)
    )
    if won is None:
        # Another request used the code (or burnt it) meanwhile.
        raise ApiError("验证码已失效，请重新获取")


async def peek_code(*, ctx: AppContext, session: AsyncSession, mobile: str) -> SmsOutbox | None:
    """The latest message sent to a number (for the demo and the command line)."""
    return await session.scalar(
        select(SmsOutbox).where(SmsOutbox.mobile == mobile).order_by(SmsOutbox.sysno.desc()).limit(1)
    )
