"""Alarm texts: who gets which (notification rules), in what words (templates), and the sender.

The alarm engine hands over the alarms a batch opened once that batch has committed; a background
task finds the notification rules of every customer who may see the alarm's project (type,
project and quiet hours) and sends the texts through the SMS channel, on that customer's text
balance. When the balance runs out, the customer gets one notice until the next recharge.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from dataclasses import dataclass
from datetime import datetime, time

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.alarms.models import Alarm, SmsNotificationRule, SmsTemplate
from powerportal.alarms.rules import BY_CODE, LEVEL_LABELS, Level
from powerportal.alarms.schemas import (
    NotificationRead,
    NotificationUpdate,
    NotificationWrite,
    TemplatePreview,
    TemplateRead,
    TemplateVariable,
)
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.projects.access import visible_project_ids
from powerportal.projects.models import Project
from powerportal.sms import billing

log = logging.getLogger("powerportal.alarms.texting")

MAX_RULES = 50
SEGMENT = 70
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


# -- rules -------------------------------------------------------------------------------------


async def _project_names(session: AsyncSession, customer: Customer, sysnos: set[int]) -> dict[int, str]:
    """The names of those of these projects the customer still sees (a share ends, a project moves on)."""
    if not sysnos:
        return {}
    return dict(
        (
            await session.execute(
                select(Project.sysno, Project.name).where(
                    Project.sysno.in_(sysnos), Project.sysno.in_(visible_project_ids(customer))
                )
            )
        ).all()
    )


def _rule_read(rule: SmsNotificationRule, names: dict[int, str]) -> NotificationRead:
    seen = [p for p in rule.project_sysnos if p in names]
    return NotificationRead(
        sysno=rule.sysno,
        name=rule.name,
        mobiles=list(rule.mobiles),
        alarm_types=list(rule.alarm_types),
        alarm_type_names=[BY_CODE[t].label for t in rule.alarm_types if t in BY_CODE],
        project_sysnos=seen,
        project_names=[names[p] for p in seen],
        lost_projects=len(rule.project_sysnos) - len(seen),
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
    names = await _project_names(session, customer, {p for r in rules for p in r.project_sysnos})
    return [_rule_read(r, names) for r in rules]


async def _check_rule(session: AsyncSession, customer: Customer, body: NotificationWrite) -> None:
    if (body.quiet_start is None) != (body.quiet_end is None):
        raise ApiError("免打扰时段需同时填写开始和结束时间")
    if set(await _project_names(session, customer, set(body.project_sysnos))) != set(body.project_sysnos):
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
    return _rule_read(rule, await _project_names(session, customer, set(rule.project_sysnos)))


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
    return _rule_read(rule, await _project_names(session, customer, set(rule.project_sysnos)))


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
    # An answer, not a request: a multi-line template renders to multi-line text, which is not refused.
    return TemplatePreview.model_construct(
        text=text, length=len(text), segments=max(1, math.ceil(len(text) / SEGMENT))
    )


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
    gateway_sysno: int


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
        gateway_sysno=alarm.gateway_sysno,
    )


async def notify_alarm(*, ctx: AppContext, alarm: AlarmText, now: datetime | None = None) -> int:
    """Send the texts one alarm calls for; return how many were sent."""
    now = now or utcnow()
    async with ctx.sessions() as session:
        place = (alarm.project_sysno, alarm.gateway_sysno)
        customers = (await notices.viewers(session=session, places=[place]))[place]
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
        wording = {sysno: await _customized(session, sysno) for sysno in wanted}
    values = _values(alarm, project_name)
    template_key = "offline" if alarm.alarm_type == "offline" else "alarm"
    sent = 0
    for customer_sysno, mobiles in wanted.items():
        content = render(wording[customer_sysno].get(template_key, TEMPLATES[template_key][1]), values)[:500]
        outcome = await billing.send_charged(
            ctx=ctx,
            customer_sysno=customer_sysno,
            texts=[billing.ChargedText(mobile=m, content=content) for m in mobiles],
            purpose="alarm",
            params=values,
            alarm_sysno=alarm.sysno,
            now=now,
        )
        sent += outcome.sent
        if outcome.ran_out:
            await _tell_balance_empty(ctx, customer_sysno)
    return sent


def _values(alarm: AlarmText, project_name: str) -> dict[str, str]:
    kind = BY_CODE.get(alarm.alarm_type)
    level = Level(alarm.level) if alarm.level in (1, 2, 3) else Level.HINT
    return {
        "project": project_name,
        "device": alarm.target_name,
        "device_id": alarm.device_id,
        "type": kind.label if kind else alarm.alarm_type,
        "level": LEVEL_LABELS[level],
        "detail": alarm.detail,
        "time": to_display(alarm.start_time) or "",
    }


async def _tell_balance_empty(ctx: AppContext, customer_sysno: int) -> None:
    """Tell the customer (once until the next recharge) that alarm texts stopped."""
    async with ctx.sessions() as session:
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
        await session.commit()


class AlarmTexter:
    """Takes committed alarms from the engine and sends their texts in the background, not in the ingest."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.queue: asyncio.Queue[AlarmText] = asyncio.Queue(10_000)
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the sending task."""
        self.task = asyncio.create_task(self._run(), name="alarm-sms")

    def enqueue(self, alarms: list[Alarm]) -> None:
        """Take alarms whose batch just committed (dropped with a warning if the queue is full)."""
        for alarm in alarms:
            try:
                self.queue.put_nowait(alarm_text(alarm))
            except asyncio.QueueFull:
                log.warning("alarm SMS queue full; alarm %s not texted", alarm.sysno)

    async def _run(self) -> None:
        while True:
            alarm = await self.queue.get()
            try:
                await notify_alarm(ctx=self.ctx, alarm=alarm)
            except Exception:
                log.exception("alarm SMS for alarm %s failed", alarm.sysno)

    async def stop(self) -> None:
        """Stop sending."""
        if self.task is not None:
            await stop_tasks([self.task])
