"""Wire shapes of the text balance: the account, usage and recharge orders."""

from __future__ import annotations

from pydantic import Field

from powerportal.core.schemas import DisplayTime, PageQuery, Reply, Schema, Sysno


class SmsAccountRead(Reply):
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
