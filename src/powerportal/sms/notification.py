"""SMS alarm notification: rules, templates, balance, recharge orders, and the sender the alarm engine feeds.

An alarm opened by the engine is queued; a background task finds the notification rules of every
customer who may see its project (type, project and quiet hours), takes one text from that
customer's balance per recipient and sends it through the SMS provider. When the balance is empty
the text is recorded as refused and the customer gets one notice until the next recharge.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import BY_CODE, LEVEL_LABELS, Level
from powerportal.core.context import AppContext
from powerportal.core.database import fetch_page
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.filters import time_range
from powerportal.core.schemas import Page
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.projects.access import visible_project_ids
from powerportal.projects.models import Project
from powerportal.sms.models import (
    SmsAccount,
    SmsNotificationRule,
    SmsOutbox,
    SmsRecharge,
    SmsTemplate,
    SmsUsage,
)
from powerportal.sms.providers import SmsSendError
from powerportal.sms.schemas import (
    NotificationRead,
    NotificationUpdate,
    NotificationWrite,
    RechargeCreate,
    RechargeQuery,
    RechargeRead,
    SmsAccountRead,
    TemplatePreview,
    TemplateRead,
    TemplateVariable,
    UsageQuery,
    UsageRead,
)

log = logging.getLogger("powerportal.sms")

# Yuan per text; recharge orders are priced with it (no payment gateway is in scope).
PRICE_PER_TEXT = 0.05
MAX_RULES = 50
SEGMENT = 70
# The sender waits this long (tries × seconds) for the alarm's batch to commit before dropping it.
COMMIT_WAIT_TRIES = 20
COMMIT_WAIT_SECONDS = 0.5
NOTICE_SYSTEM = 1
BALANCE_EMPTY_NOTICE = "短信余额已用完，告警短信已停止发送，请在“短信充值”中充值"

VARIABLES: tuple[TemplateVariable, ...] = (
    TemplateVariable(key="project", label="项目名称", example="阳光实验学校"),
    TemplateVariable(key="device", label="设备名称", example="101宿舍"),
    TemplateVariable(key="device_id", label="设备编号", example="2"),
    TemplateVariable(key="type", label="告警类型", example="过流"),
    TemplateVariable(key="level", label="告警等级", example="紧急"),
    TemplateVariable(key="detail", label="告警内容", example="电流 41.6 A，阈值 40 A"),
    TemplateVariable(key="time", label="告警时间", example="2026-11-21 13:20:48"),
)
VARIABLE_KEYS = {v.key for v in VARIABLES}
TEMPLATES: dict[str, tuple[str, str]] = {
    "alarm": (
        "告警通知",
        "【{level}告警】{project} {device}（{device_id}）发生{type}告警：{detail}，时间 {time}，请及时处理。",
    ),
    "offline": ("离线通知", "【离线提醒】{project} {device}（{device_id}）于 {time} 离线，请及时检查。"),
}
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
USAGE_STATUS = {"sent": "已发送", "failed": "发送失败", "no_balance": "余额不足"}
RECHARGE_STATE = {0: "待确认", 1: "已到账", 2: "已拒绝"}


# -- rules -------------------------------------------------------------------------------------


async def _project_names(session: AsyncSession, sysnos: set[int]) -> dict[int, str]:
    if not sysnos:
        return {}
    return dict(
        (await session.execute(select(Project.sysno, Project.name).where(Project.sysno.in_(sysnos)))).all()
    )


def _rule_read(rule: SmsNotificationRule, names: dict[int, str]) -> NotificationRead:
    return NotificationRead(
        sysno=rule.sysno,
        name=rule.name,
        mobiles=list(rule.mobiles),
        alarm_types=list(rule.alarm_types),
        alarm_type_names=[BY_CODE[t].label for t in rule.alarm_types if t in BY_CODE],
        project_sysnos=list(rule.project_sysnos),
        project_names=[names[p] for p in rule.project_sysnos if p in names],
        quiet_start=rule.quiet_start,
        quiet_end=rule.quiet_end,
        enabled=rule.enabled,
        create_time=to_display(rule.create_time),
    )


async def list_rules(*, session: AsyncSession, customer: Customer) -> list[NotificationRead]:
    """The customer's notification rules, oldest first."""
    rules = (
        await session.scalars(
            select(SmsNotificationRule)
            .where(SmsNotificationRule.customer_sysno == customer.sysno)
            .order_by(SmsNotificationRule.sysno)
        )
    ).all()
    names = await _project_names(session, {p for r in rules for p in r.project_sysnos})
    return [_rule_read(r, names) for r in rules]


async def _check_rule(session: AsyncSession, customer: Customer, body: NotificationWrite) -> None:
    if (body.quiet_start is None) != (body.quiet_end is None):
        raise ApiError("免打扰时段需同时填写开始和结束时间")
    if body.project_sysnos:
        visible = set(
            (
                await session.scalars(
                    select(Project.sysno).where(
                        Project.sysno.in_(body.project_sysnos),
                        Project.sysno.in_(visible_project_ids(customer)),
                    )
                )
            ).all()
        )
        if visible != set(body.project_sysnos):
            raise NotFound("项目")


async def add_rule(*, session: AsyncSession, customer: Customer, body: NotificationWrite) -> NotificationRead:
    """Add a notification rule."""
    await _check_rule(session, customer, body)
    count = await session.scalar(
        select(func.count())
        .select_from(SmsNotificationRule)
        .where(SmsNotificationRule.customer_sysno == customer.sysno)
    )
    if (count or 0) >= MAX_RULES:
        raise ApiError(f"最多可设置 {MAX_RULES} 条短信通知")
    rule = SmsNotificationRule(customer_sysno=customer.sysno, **body.model_dump())
    session.add(rule)
    await session.flush()
    return _rule_read(rule, await _project_names(session, set(rule.project_sysnos)))


async def _own_rule(session: AsyncSession, customer: Customer, sysno: int) -> SmsNotificationRule:
    rule = await session.scalar(
        select(SmsNotificationRule).where(
            SmsNotificationRule.sysno == sysno, SmsNotificationRule.customer_sysno == customer.sysno
        )
    )
    if rule is None:
        raise NotFound("短信通知")
    return rule


async def update_rule(
    *, session: AsyncSession, customer: Customer, body: NotificationUpdate
) -> NotificationRead:
    """Replace a notification rule."""
    rule = await _own_rule(session, customer, body.sysno)
    await _check_rule(session, customer, body)
    for key, value in body.model_dump(exclude={"sysno"}).items():
        setattr(rule, key, value)
    await session.flush()
    return _rule_read(rule, await _project_names(session, set(rule.project_sysnos)))


async def delete_rule(*, session: AsyncSession, customer: Customer, sysno: int) -> None:
    """Delete a notification rule."""
    rule = await _own_rule(session, customer, sysno)
    await session.delete(rule)


# -- templates ---------------------------------------------------------------------------------


def check_template(content: str) -> None:
    """Refuse a template with a placeholder that is not a known variable."""
    for name in PLACEHOLDER.findall(content):
        if name not in VARIABLE_KEYS:
            raise ApiError(
                f"模板中有未知变量 {{{name}}}，可用变量：" + "、".join(f"{{{k}}}" for k in VARIABLE_KEYS)
            )


def render(content: str, values: dict[str, str]) -> str:
    """Fill a template's placeholders."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), content)


async def _customized(session: AsyncSession, customer_sysno: int) -> dict[str, str]:
    rows = await session.execute(
        select(SmsTemplate.template_key, SmsTemplate.content).where(
            SmsTemplate.customer_sysno == customer_sysno
        )
    )
    return dict(rows.all())


async def list_templates(*, session: AsyncSession, customer: Customer) -> list[TemplateRead]:
    """Every template with the customer's wording (or the built-in one)."""
    custom = await _customized(session, customer.sysno)
    return [
        TemplateRead(
            template_key=key,
            name=name,
            content=custom.get(key, default),
            default_content=default,
            customized=int(key in custom),
            variables=list(VARIABLES),
        )
        for key, (name, default) in TEMPLATES.items()
    ]


async def update_template(
    *, session: AsyncSession, customer: Customer, key: str, content: str
) -> TemplateRead:
    """Change (or, with empty content, restore) a template."""
    if key not in TEMPLATES:
        raise NotFound("短信模板")
    await session.execute(
        delete(SmsTemplate).where(
            SmsTemplate.customer_sysno == customer.sysno, SmsTemplate.template_key == key
        )
    )
    if content:
        check_template(content)
        session.add(
            SmsTemplate(
                customer_sysno=customer.sysno, template_key=key, content=content, update_time=utcnow()
            )
        )
    await session.flush()
    return next(t for t in await list_templates(session=session, customer=customer) if t.template_key == key)


async def preview_template(
    *, session: AsyncSession, customer: Customer, key: str, content: str | None
) -> TemplatePreview:
    """A template rendered with example values, its length and message count."""
    if key not in TEMPLATES:
        raise NotFound("短信模板")
    if content is None:
        content = (await _customized(session, customer.sysno)).get(key, TEMPLATES[key][1])
    check_template(content)
    text = render(content, {v.key: v.example for v in VARIABLES})
    return TemplatePreview(text=text, length=len(text), segments=max(1, math.ceil(len(text) / SEGMENT)))


# -- balance, usage, recharge ------------------------------------------------------------------


async def account(*, session: AsyncSession, customer: Customer) -> SmsAccountRead:
    """Balance and counts of texts sent."""
    balance = await session.scalar(
        select(SmsAccount.balance).where(SmsAccount.customer_sysno == customer.sysno)
    )
    month_start = utcnow().astimezone(CUSTOMER_TZ).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    sent = [SmsUsage.customer_sysno == customer.sysno, SmsUsage.status == "sent"]
    total = await session.scalar(select(func.count()).select_from(SmsUsage).where(*sent))
    month = await session.scalar(
        select(func.count()).select_from(SmsUsage).where(*sent, SmsUsage.create_time >= month_start)
    )
    return SmsAccountRead(
        balance=balance or 0,
        sent_total=total or 0,
        sent_this_month=month or 0,
        price=PRICE_PER_TEXT,
        can_confirm=int(customer.is_brand_admin),
    )


async def list_usage(*, session: AsyncSession, customer: Customer, query: UsageQuery) -> Page[UsageRead]:
    """The customer's alarm texts, newest first."""
    conditions: list[Any] = [SmsUsage.customer_sysno == customer.sysno]
    conditions += time_range(SmsUsage.create_time, query.start_time, query.end_time)
    if query.mobile:
        conditions.append(SmsUsage.mobile == query.mobile)
    result, total = await fetch_page(
        session, select(SmsUsage).where(*conditions).order_by(*query.ordered(SmsUsage.sysno)), query
    )
    rows = result.scalars().all()
    return Page(
        dataSource=[
            UsageRead(
                sysno=r.sysno,
                alarm_sysno=r.alarm_sysno,
                mobile=r.mobile,
                content=r.content,
                status=r.status,
                status_name=USAGE_STATUS.get(r.status, r.status),
                error=r.error,
                create_time=to_display(r.create_time),
            )
            for r in rows
        ],
        totalCount=total,
    )


async def add_recharge(*, session: AsyncSession, customer: Customer, body: RechargeCreate) -> RechargeRead:
    """Order more texts; the order waits for a brand administrator."""
    pending = await session.scalar(
        select(func.count())
        .select_from(SmsRecharge)
        .where(SmsRecharge.customer_sysno == customer.sysno, SmsRecharge.state == 0)
    )
    if (pending or 0) >= 5:
        raise ApiError("待确认的充值订单过多，请等待管理员确认后再下单")
    order = SmsRecharge(
        customer_sysno=customer.sysno,
        quantity=body.quantity,
        amount=round(body.quantity * PRICE_PER_TEXT, 2),
        state=0,
        remark=body.remark or None,
        create_time=utcnow(),
    )
    session.add(order)
    await session.flush()
    return _recharge_read(order, customer.mobile)


def _recharge_read(order: SmsRecharge, mobile: str) -> RechargeRead:
    return RechargeRead(
        sysno=order.sysno,
        customer_sysno=order.customer_sysno,
        customer_mobile=mobile,
        quantity=order.quantity,
        amount=order.amount,
        state=order.state,
        state_name=RECHARGE_STATE.get(order.state, str(order.state)),
        remark=order.remark,
        confirm_time=to_display(order.confirm_time),
        create_time=to_display(order.create_time),
    )


async def list_recharges(
    *, session: AsyncSession, customer: Customer, query: RechargeQuery
) -> Page[RechargeRead]:
    """The customer's recharge orders (every customer's for a brand administrator asking for ``all``)."""
    conditions: list[Any] = []
    if query.all:
        if not customer.is_brand_admin:
            raise ApiError("仅品牌管理员可查看全部充值订单", status_code=403)
    else:
        conditions.append(SmsRecharge.customer_sysno == customer.sysno)
    if query.state is not None:
        conditions.append(SmsRecharge.state == query.state)
    rows, total = await fetch_page(
        session,
        select(SmsRecharge, Customer.mobile)
        .join(Customer, Customer.sysno == SmsRecharge.customer_sysno)
        .where(*conditions)
        .order_by(*query.ordered(SmsRecharge.sysno)),
        query,
    )
    return Page(dataSource=[_recharge_read(o, m) for o, m in rows], totalCount=total)


async def confirm_recharge(
    *, session: AsyncSession, admin: Customer, sysno: int, approve: bool
) -> RechargeRead:
    """A brand administrator credits (or refuses) a waiting order."""
    if not admin.is_brand_admin:
        raise ApiError("仅品牌管理员可确认充值订单", status_code=403)
    found = (
        await session.execute(
            select(SmsRecharge, Customer.mobile)
            .join(Customer, Customer.sysno == SmsRecharge.customer_sysno)
            .where(SmsRecharge.sysno == sysno)
        )
    ).first()
    if found is None:
        raise NotFound("充值订单")
    order, mobile = found
    if order.state != 0:
        raise ApiError("该订单已处理，不能重复确认")
    order.state = 1 if approve else 2
    order.confirm_time = utcnow()
    order.confirm_customer_sysno = admin.sysno
    if approve:
        await _credit(session, order.customer_sysno, order.quantity)
    await session.flush()
    return _recharge_read(order, mobile)


async def _credit(session: AsyncSession, customer_sysno: int, quantity: int) -> None:
    held = await session.get(SmsAccount, customer_sysno, with_for_update=True)
    if held is None:
        session.add(SmsAccount(customer_sysno=customer_sysno, balance=quantity, empty_noticed=0))
    else:
        held.balance += quantity
        held.empty_noticed = 0


# -- sending -----------------------------------------------------------------------------------


def in_quiet_hours(start: str | None, end: str | None, at: datetime) -> bool:
    """Whether a local time falls in a quiet window (which may run over midnight)."""
    if not start or not end or start == end:
        return False
    now = at.astimezone(CUSTOMER_TZ).time()
    begin, finish = time.fromisoformat(start), time.fromisoformat(end)
    return begin <= now < finish if begin < finish else now >= begin or now < finish


@dataclass(frozen=True, slots=True)
class AlarmText:
    """What a text needs of an alarm, copied out of the engine's transaction."""

    sysno: int
    project_sysno: int
    alarm_type: str
    level: int
    target_name: str
    device_id: str
    detail: str
    start_time: datetime


def alarm_text(alarm: Alarm) -> AlarmText:
    """The alarm's fields for a text."""
    return AlarmText(
        sysno=alarm.sysno,
        project_sysno=alarm.project_sysno,
        alarm_type=alarm.alarm_type,
        level=alarm.level,
        target_name=alarm.target_name,
        device_id=alarm.device_id,
        detail=alarm.detail,
        start_time=alarm.start_time,
    )


async def take_one(session: AsyncSession, customer_sysno: int) -> bool:
    """Take one text from the balance; false when it is empty."""
    taken = await session.execute(
        update(SmsAccount)
        .where(SmsAccount.customer_sysno == customer_sysno, SmsAccount.balance > 0)
        .values(balance=SmsAccount.balance - 1)
        .returning(SmsAccount.balance)
    )
    return taken.first() is not None


async def notify_alarm(*, ctx: AppContext, alarm: AlarmText, now: datetime | None = None) -> int:
    """Send the texts one alarm calls for; return how many were sent."""
    now = now or utcnow()
    sent = 0
    async with ctx.sessions() as session:
        audience = await notices.viewers(session=session, project_sysnos=[alarm.project_sysno])
        customers = audience.get(alarm.project_sysno, [])
        if not customers:
            return 0
        rules = (
            await session.scalars(
                select(SmsNotificationRule).where(
                    SmsNotificationRule.customer_sysno.in_(customers), SmsNotificationRule.enabled == 1
                )
            )
        ).all()
        project_name = (
            await session.scalar(select(Project.name).where(Project.sysno == alarm.project_sysno)) or ""
        )
        kind = BY_CODE.get(alarm.alarm_type)
        level = Level(alarm.level) if alarm.level in (1, 2, 3) else Level.HINT
        values = {
            "project": project_name,
            "device": alarm.target_name,
            "device_id": alarm.device_id,
            "type": kind.label if kind else alarm.alarm_type,
            "level": LEVEL_LABELS[level],
            "detail": alarm.detail,
            "time": to_display(alarm.start_time) or "",
        }
        template_key = "offline" if alarm.alarm_type == "offline" else "alarm"
        wanted: dict[int, list[str]] = {}
        for rule in rules:
            if rule.alarm_types and alarm.alarm_type not in rule.alarm_types:
                continue
            if rule.project_sysnos and alarm.project_sysno not in rule.project_sysnos:
                continue
            if in_quiet_hours(rule.quiet_start, rule.quiet_end, now):
                continue
            numbers = wanted.setdefault(rule.customer_sysno, [])
            numbers.extend(m for m in rule.mobiles if m not in numbers)
        for customer_sysno, mobiles in wanted.items():
            custom = await _customized(session, customer_sysno)
            content = render(custom.get(template_key, TEMPLATES[template_key][1]), values)[:500]
            for mobile in mobiles:
                if not await take_one(session, customer_sysno):
                    session.add(
                        SmsUsage(
                            customer_sysno=customer_sysno,
                            alarm_sysno=alarm.sysno,
                            mobile=mobile,
                            content=content,
                            status="no_balance",
                            create_time=now,
                        )
                    )
                    await _tell_balance_empty(session, customer_sysno)
                    continue
                status, error = "sent", None
                try:
                    await ctx.sms.send(mobile=mobile, content=content, params=values)
                    sent += 1
                except (SmsSendError, OSError) as exc:
                    status, error = "failed", str(exc)[:255]
                    log.warning("alarm SMS to %s failed: %s", mobile, exc)
                session.add(
                    SmsUsage(
                        customer_sysno=customer_sysno,
                        alarm_sysno=alarm.sysno,
                        mobile=mobile,
                        content=content,
                        status=status,
                        error=error,
                        create_time=now,
                    )
                )
                session.add(
                    SmsOutbox(
                        mobile=mobile,
                        purpose="alarm",
                        content=content,
                        provider=ctx.sms.name,
                        status=status,
                        error=error,
                    )
                )
        await session.commit()
    return sent


async def _tell_balance_empty(session: AsyncSession, customer_sysno: int) -> None:
    """Tell the customer once (until the next recharge) that alarm texts stopped."""
    account_row = await session.get(SmsAccount, customer_sysno)
    if account_row is None:
        account_row = SmsAccount(customer_sysno=customer_sysno, balance=0, empty_noticed=0)
        session.add(account_row)
    if account_row.empty_noticed:
        return
    account_row.empty_noticed = 1
    await session.flush()
    await notices.send(
        session=session,
        notices=[
            notices.NewNotice(
                project_sysno=0,
                notice_type=NOTICE_SYSTEM,
                device_id=None,
                detail=BALANCE_EMPTY_NOTICE,
                source_sysno=0,
            )
        ],
        audience={0: [customer_sysno]},
    )


class AlarmTexter:
    """Queues alarms from the engine and sends their texts in the background (never in the ingest)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.queue: asyncio.Queue[AlarmText] = asyncio.Queue(10_000)
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the sending task."""
        self.task = asyncio.create_task(self._run(), name="alarm-sms")

    def enqueue(self, alarms: list[Alarm]) -> None:
        """Take alarms just opened (dropped with a warning if the queue is full)."""
        for alarm in alarms:
            try:
                self.queue.put_nowait(alarm_text(alarm))
            except asyncio.QueueFull:
                log.warning("alarm SMS queue full; alarm %s not texted", alarm.sysno)

    async def _run(self) -> None:
        while True:
            alarm = await self.queue.get()
            try:
                if await self._committed(alarm.sysno):
                    await notify_alarm(ctx=self.ctx, alarm=alarm)
                else:
                    log.warning("alarm %s was rolled back; no SMS", alarm.sysno)
            except Exception:
                log.exception("alarm SMS for alarm %s failed", alarm.sysno)

    async def _committed(self, sysno: int) -> bool:
        """Wait for the ingest batch that opened the alarm to commit (it is queued before the commit)."""
        for _ in range(COMMIT_WAIT_TRIES):
            async with self.ctx.sessions() as session:
                if await session.scalar(select(Alarm.sysno).where(Alarm.sysno == sysno)) is not None:
                    return True
            await asyncio.sleep(COMMIT_WAIT_SECONDS)
        return False

    async def stop(self) -> None:
        """Stop sending."""
        if self.task is not None:
            await stop_tasks([self.task])
