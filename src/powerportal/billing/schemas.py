"""Wire shapes of electricity billing: accounts, ledger, recharges, bills, power actions, orders, rules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from powerportal.core.schemas import DisplayTime, Mobile, PageQuery, Reply, Schema, Sysno

# Money as people type it: yuan as a JSON number with at most two decimals (a float's last-digit noise,
# 0.5700000000000001, is taken as the 0.57 that was meant); prices with at most four.


def _places(digits: int) -> Callable[[float], float]:
    scale = 10**digits

    def check(value: float) -> float:
        scaled = value * scale
        whole = round(scaled)
        # more than a float's noise off a whole number of fen: more decimals (or a dust above 0)
        if abs(scaled - whole) > 1e-12 * max(abs(scaled), 1.0) or (whole == 0 and value != 0):
            raise ValueError(f"最多 {digits} 位小数")
        return float(whole / scale)

    return check


_CENTS = {"multipleOf": 0.01}
Yuan = Annotated[
    float,
    Field(ge=-1_000_000, le=1_000_000, allow_inf_nan=False, json_schema_extra=_CENTS),
    AfterValidator(_places(2)),
]
NonNegativeYuan = Annotated[
    float,
    Field(ge=0, le=1_000_000, allow_inf_nan=False, json_schema_extra=_CENTS),
    AfterValidator(_places(2)),
]
PositiveYuan = Annotated[
    float,
    Field(gt=0, le=1_000_000, allow_inf_nan=False, json_schema_extra=_CENTS),
    AfterValidator(_places(2)),
]
Price = Annotated[
    float,
    Field(gt=0, le=100, allow_inf_nan=False, json_schema_extra={"multipleOf": 0.0001}),
    AfterValidator(_places(4)),
]


def _real_day(value: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError("不是有效的日期") from exc
    return value


# A calendar day, ``YYYY-MM-DD``, that exists: the pattern alone lets 2026-13-45 and 2026-02-30 through
# (the document says so with the format, so that a client's generated dates are all taken).
Day = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", json_schema_extra={"format": "date"}),
    AfterValidator(_real_day),
]
METHODS = {"cash": "现金", "transfer": "银行转账", "wechat": "微信", "alipay": "支付宝", "other": "其他"}
Method = Literal["cash", "transfer", "wechat", "alipay", "other"]


class AccountFields(Schema):
    """What a manager sets on an electricity account."""

    holder_name: str = Field(title="户主姓名", min_length=1, max_length=32)
    holder_mobile: Mobile | None = Field(default=None, title="户主手机号")
    notify_holder: bool = False
    charge_type: Literal[1, 2, 3] = Field(title="计费方式")
    flat_price: Price | None = Field(default=None, title="固定电价")
    warn_balance: NonNegativeYuan = Field(default=20.0, title="预警余额")
    cutoff_balance: Yuan = Field(default=0.0, title="断电余额")
    overdraft_limit: NonNegativeYuan = Field(default=0.0, title="透支额度")
    keep_power: bool = False
    remark: str | None = Field(default=None, max_length=255, title="备注")


class AccountCreate(AccountFields):
    """Open an account for a device (a room's breaker); ``opening_balance`` is its first recharge."""

    device_sysno: Sysno
    opening_balance: NonNegativeYuan = Field(default=0.0, title="开户金额")
    method: Method = "cash"


class AccountUpdate(AccountFields):
    """Change an account's settings (money moves only through recharges, charges and orders)."""

    sysno: Sysno


class AccountQuery(PageQuery):
    """Filters of the account list."""

    project_sysno: Sysno | None = None
    keyword: str | None = Field(default=None, max_length=64, title="关键字")
    charge_type: Literal[1, 2, 3] | None = None
    state: Literal[1, 2] | None = None
    power: Literal["on", "cut_pending", "cut", "restore_pending"] | None = None
    low: bool = False  # only accounts at or below their warning level


class AccountRead(Schema):
    """One electricity account."""

    sysno: int
    project_sysno: int
    project_name: str
    device_sysno: int
    device_name: str
    device_id: str
    gateway_sn: str
    holder_name: str
    holder_mobile: str | None
    notify_holder: bool
    charge_type: int
    charge_type_name: str
    flat_price: float | None
    warn_balance: float
    cutoff_balance: float
    overdraft_limit: float
    keep_power: bool
    state: int
    state_name: str
    balance: float
    charged_kwh: float
    power: str
    power_name: str
    switch_state: int | None  # the breaker as last reported: 1 on, 0 off, null unknown
    low: bool
    last_recharge_time: str | None
    remark: str | None
    create_time: str | None


class RechargeCreate(Schema):
    """Money paid into one account, or the same sum into several (batch recharge)."""

    account_sysnos: list[Sysno] = Field(min_length=1, max_length=500, title="电费账户")
    amount: PositiveYuan = Field(title="充值金额")
    method: Method = Field(title="支付方式")
    remark: str | None = Field(default=None, max_length=255, title="备注")


class AdjustCreate(Schema):
    """A correction of an account's balance, up or down, with its reason."""

    account_sysno: Sysno
    amount: Yuan = Field(title="调整金额")
    remark: str = Field(min_length=1, max_length=255, title="调整原因")


class PowerCommand(Schema):
    """Cut or restore several accounts' power by hand (batch cut/restore)."""

    account_sysnos: list[Sysno] = Field(min_length=1, max_length=500, title="电费账户")
    action: Literal["switch_off", "switch_on"]


class LedgerQuery(PageQuery):
    """Filters of the ledger (one account's, or every recharge of the customer's accounts)."""

    account_sysno: Sysno | None = None
    kind: Literal[1, 2, 3, 4, 5] | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime


class LedgerRead(Schema):
    """One ledger entry."""

    sysno: int
    account_sysno: int
    holder_name: str
    device_name: str
    kind: int
    kind_name: str
    amount: float
    balance: float
    kwh: float | None
    method: str | None
    method_name: str | None
    operator: str
    remark: str | None
    create_time: str | None


class BillQuery(PageQuery):
    """Filters of the bills."""

    account_sysno: Sysno | None = None
    status: Literal[1, 2] | None = None
    month: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}$")


class BillRead(Schema):
    """One month's bill of a post-paid account."""

    sysno: int
    account_sysno: int
    holder_name: str
    device_name: str
    month: str
    kwh: float
    periods: list[dict[str, float]]
    amount: float
    status: int
    status_name: str
    settle_time: str | None
    create_time: str | None


class ActionRead(Schema):
    """A cut-off or restore billing decided, and how it went."""

    sysno: int
    action: str
    action_name: str
    state: str
    state_name: str
    due_time: str | None
    outcome: str | None
    command_sysno: int | None
    create_time: str | None


class AccountDetail(Reply):
    """An account with its recent power actions and its daily consumption of the last 30 days."""

    account: AccountRead
    actions: list[ActionRead]
    days: list[dict[str, float | str]]
    ledger_total: float


class RuleRead(Reply):
    """When the customer's accounts may not be cut (local times)."""

    quiet_start: str | None
    quiet_end: str | None
    quiet_weekends: bool
    holidays: list[str]


class RuleWrite(Schema):
    """Set the quiet times for cut-offs."""

    quiet_start: str | None = Field(
        default=None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", title="禁止断电开始时间"
    )
    quiet_end: str | None = Field(
        default=None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", title="禁止断电结束时间"
    )
    quiet_weekends: bool = False
    holidays: list[Day] = Field(default_factory=list, max_length=100, title="节假日")


class OrderCreate(Schema):
    """A business order on an account; what it needs depends on its type.

    1 补电: ``amount`` (credit in yuan); 2 换表: ``old_final``, ``new_initial`` (kWh) and
    ``change_time``; 3 过户: ``new_holder_name``, ``new_holder_mobile``; 4 销户: ``method`` of the refund.
    """

    account_sysno: Sysno
    business_type: Literal[1, 2, 3, 4] = Field(title="业务类型")
    amount: PositiveYuan | None = Field(default=None, title="补电金额")
    old_final: float | None = Field(default=None, ge=0, le=1e9, title="旧表止码")
    new_initial: float | None = Field(default=None, ge=0, le=1e9, title="新表起码")
    change_time: str | None = Field(
        default=None,
        max_length=19,
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
        title="换表时间",
    )
    new_holder_name: str | None = Field(default=None, min_length=1, max_length=32, title="新户主姓名")
    new_holder_mobile: Mobile | None = Field(default=None, title="新户主手机号")
    method: Method | None = Field(default=None, title="退款方式")
    remark: str | None = Field(default=None, max_length=255, title="备注")


class OrderReview(Schema):
    """Pass (carry out) or refuse an order."""

    sysno: Sysno
    approve: bool
    remark: str | None = Field(default=None, max_length=255, title="审核意见")


class OrderQuery(PageQuery):
    """Filters of the business orders."""

    account_sysno: Sysno | None = None
    business_type: Literal[1, 2, 3, 4] | None = None
    review_state: Literal[1, 2, 3] | None = None


class OrderRead(Schema):
    """One business order."""

    sysno: int
    account_sysno: int
    holder_name: str
    device_name: str
    business_type: int
    business_type_name: str
    review_state: int
    review_state_name: str
    done_state: int
    done_state_name: str
    details: dict[str, object]
    summary: str
    remark: str | None
    creator: str
    reviewer: str | None
    review_remark: str | None
    review_time: str | None
    create_time: str | None
