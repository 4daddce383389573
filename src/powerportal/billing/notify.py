"""Telling a low balance: a notice to everyone who sees the project, texts to the manager and the holder.

The notice is written by ``power.review`` in the transaction that moved the balance below the
warning level. The worker texts the warnings its charges and bills decided once they committed,
on the customer's text balance as alarm texts are: to the numbers of the customer's notification
rules that take every alarm type or the ``balance`` type (outside their quiet hours), and to the
account holder where the account says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.alarms import notices
from powerportal.alarms.models import SmsNotificationRule
from powerportal.alarms.texting import in_quiet_hours
from powerportal.billing import ledger
from powerportal.billing.models import BillingAccount
from powerportal.core.context import AppContext
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.sms import billing as texts

RULE_TYPE = "balance"


def wording(account: BillingAccount, device_name: str) -> str:
    """The notice's and the texts' words."""
    return (
        f"电费账户 {account.holder_name}（{device_name}）余额 {ledger.yuan(account.balance_fen):.2f} 元，"
        f"已低于预警值 {ledger.yuan(account.warn_fen):.2f} 元，请及时充值"
    )


async def write_notice(session: AsyncSession, account: BillingAccount) -> None:
    """The low-balance notice, to everyone who sees the account's project (in the caller's transaction)."""
    found = (
        await session.execute(
            select(Device.name, Device.device_id, Device.gateway_sysno).where(
                Device.sysno == account.device_sysno
            )
        )
    ).first()
    name, device_id, gateway = found if found is not None else ("", None, None)
    await notices.send(
        session=session,
        notices=[
            notices.NewNotice(
                account.project_sysno,
                notices.BILLING,
                device_id,
                wording(account, name),
                account.sysno,
                gateway_sysno=gateway,
            )
        ],
    )


async def send_texts(ctx: AppContext, account_sysnos: Sequence[int]) -> int:
    """Text the low balances of the accounts (after their notices committed); return the texts sent."""
    if not account_sysnos:
        return 0
    now = utcnow()
    async with ctx.sessions() as session:
        rows = (
            await session.execute(
                select(BillingAccount, Device.name)
                .join(Device, Device.sysno == BillingAccount.device_sysno)
                .where(BillingAccount.sysno.in_(list(account_sysnos)))
            )
        ).all()
        customers = {account.customer_sysno for account, _name in rows}
        rules = (
            await session.scalars(
                select(SmsNotificationRule).where(
                    SmsNotificationRule.customer_sysno.in_(customers), SmsNotificationRule.enabled == 1
                )
            )
        ).all()
    sent = 0
    for account, name in rows:
        mobiles: list[str] = []
        for rule in rules:
            if rule.customer_sysno != account.customer_sysno:
                continue
            if rule.alarm_types and RULE_TYPE not in rule.alarm_types:
                continue
            if rule.project_sysnos and account.project_sysno not in rule.project_sysnos:
                continue
            if in_quiet_hours(rule.quiet_start, rule.quiet_end, now):
                continue
            mobiles.extend(m for m in rule.mobiles if m not in mobiles)
        if account.notify_holder and account.holder_mobile and account.holder_mobile not in mobiles:
            mobiles.append(account.holder_mobile)
        if not mobiles:
            continue
        content = wording(account, name)
        outcome = await texts.send_charged(
            ctx=ctx,
            customer_sysno=account.customer_sysno,
            texts=[texts.ChargedText(mobile=m, content=content) for m in mobiles],
            purpose="balance",
            params={"content": content},
            alarm_sysno=None,
        )
        sent += outcome.sent
    return sent
