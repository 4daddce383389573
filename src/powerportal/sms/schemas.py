"""Wire shapes of SMS alarm notification: rules, templates, balance, usage and recharge orders."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from powerportal.alarms.rules import BY_CODE
from powerportal.core.schemas import MAX_SYSNO, PageQuery, Schema, Sysno

MOBILE = re.compile(r"^1[3-9]\d{9}$")
CLOCK = r"^([01]\d|2[0-3]):[0-5]\d$"
DisplayTime = Field(default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$")


class NotificationWrite(Schema):
    """Who gets a text for which alarm types in which projects (empty lists: all), and quiet hours."""

    name: str = Field(min_length=1, max_length=64)
    mobiles: list[str] = Field(min_length=1, max_length=10)
    alarm_types: list[str] = Field(default_factory=list, max_length=20)
    project_sysnos: list[int] = Field(default_factory=list, max_length=200)
    quiet_start: str | None = Field(default=None, pattern=CLOCK)
    quiet_end: str | None = Field(default=None, pattern=CLOCK)
    enabled: int = Field(default=1, ge=0, le=1)

    @field_validator("mobiles")
    @classmethod
    def _mobiles(cls, value: list[str]) -> list[str]:
        cleaned = [m.strip() for m in value]
        if any(not MOBILE.match(m) for m in cleaned):
            raise ValueError("手机号格式不正确")
        if len(set(cleaned)) != len(cleaned):
            raise ValueError("手机号重复")
        return cleaned

    @field_validator("alarm_types")
    @classmethod
    def _types(cls, value: list[str]) -> list[str]:
        if any(t not in BY_CODE for t in value):
            raise ValueError("告警类型不正确")
        return sorted(set(value))

    @field_validator("project_sysnos")
    @classmethod
    def _projects(cls, value: list[int]) -> list[int]:
        if any(p < 1 or p > MAX_SYSNO for p in value):
            raise ValueError("项目编号不正确")
        return sorted(set(value))


class NotificationUpdate(NotificationWrite):
    """Replace a rule."""

    sysno: Sysno


class NotificationRead(Schema):
    """One notification rule."""

    sysno: int
    name: str
    mobiles: list[str]
    alarm_types: list[str]
    alarm_type_names: list[str]
    project_sysnos: list[int]
    project_names: list[str]
    quiet_start: str | None
    quiet_end: str | None
    enabled: int
    create_time: str | None


class TemplateVariable(Schema):
    """A placeholder a template may use."""

    key: str
    label: str
    example: str


class TemplateRead(Schema):
    """One message template, as the customer has it."""

    template_key: str
    name: str
    content: str
    default_content: str
    customized: int
    variables: list[TemplateVariable]


class TemplateUpdate(Schema):
    """Change a template's wording (an empty content restores the built-in one)."""

    template_key: str = Field(max_length=32)
    content: str = Field(default="", max_length=300)


class TemplatePreviewQuery(Schema):
    """Render a template (the stored one, or ``content`` when given) with example values."""

    template_key: str = Field(max_length=32)
    content: str | None = Field(default=None, max_length=300)


class TemplatePreview(Schema):
    """A rendered example and how many messages it takes."""

    text: str
    length: int
    segments: int


class SmsAccountRead(Schema):
    """The account's balance of alarm texts and its use."""

    balance: int
    sent_total: int
    sent_this_month: int
    price: float
    # 1 for a brand administrator, who confirms everyone's recharge orders.
    can_confirm: int


class UsageQuery(PageQuery):
    """Filters of the usage records."""

    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    mobile: str | None = Field(default=None, max_length=20)


class UsageRead(Schema):
    """One alarm text sent or refused."""

    sysno: int
    alarm_sysno: int | None
    mobile: str
    content: str
    status: str
    status_name: str
    error: str | None
    create_time: str | None


class RechargeCreate(Schema):
    """Order more texts."""

    quantity: int = Field(ge=100, le=100_000)
    remark: str | None = Field(default=None, max_length=200)


class RechargeQuery(PageQuery):
    """Filters of the recharge orders; ``all`` (brand administrators) lists every customer's."""

    state: int | None = Field(default=None, ge=0, le=2)
    all: bool = False


class RechargeRead(Schema):
    """One recharge order."""

    sysno: int
    customer_sysno: int
    customer_mobile: str
    quantity: int
    amount: float
    state: int
    state_name: str
    remark: str | None
    confirm_time: str | None
    create_time: str | None


class RechargeConfirm(Schema):
    """A brand administrator confirms (credits) or refuses an order."""

    sysno: Sysno
    approve: bool
