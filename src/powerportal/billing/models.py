"""Prepaid and post-paid electricity: accounts per room (device), their ledger, bills and power actions.

Money is kept in fen (分, integers): exact on SQLite and PostgreSQL alike, summed by the database
without rounding. The API shows yuan with two decimals.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow

# Charge types (the spec's code table).
PREPAY, PRESTORE, POSTPAY = 1, 2, 3
CHARGE_TYPES = {PREPAY: "预付费", PRESTORE: "后付费（预存）", POSTPAY: "后付费"}

# Account states.
OPEN, CLOSED = 1, 2
ACCOUNT_STATES = {OPEN: "正常", CLOSED: "已销户"}

# Ledger entry kinds; ``amount`` is what the entry adds to the balance (a charge is negative).
RECHARGE, CHARGE, ADJUSTMENT, REFUND, SETTLEMENT = 1, 2, 3, 4, 5
ENTRY_KINDS = {RECHARGE: "充值", CHARGE: "电费扣费", ADJUSTMENT: "调整", REFUND: "退款", SETTLEMENT: "结算"}

# Where the account's breaker stands as far as billing is concerned.
POWER_ON, POWER_CUT_PENDING, POWER_CUT, POWER_RESTORE_PENDING = "on", "cut_pending", "cut", "restore_pending"
POWER_STATES = {
    POWER_ON: "供电",
    POWER_CUT_PENDING: "待断电",
    POWER_CUT: "已断电",
    POWER_RESTORE_PENDING: "待恢复",
}


class BillingAccount(Base):
    """An electricity account (电费账户): one room's breaker, its holder, how it pays and its balance.

    ``balance_fen`` is the sum of the ledger's amounts, kept in step by every posting (the ledger
    is the truth; a test checks they agree). Consumption is charged from the device's energy
    roll-ups: ``charged_fen`` is what the charges since the account opened add up to, ``base_*`` the
    account's use (and what it came to at the old price) when the pricing last changed.
    """

    __tablename__ = "billing_account"
    __table_args__ = (
        Index("ix_billing_account_project", "project_sysno", "sysno"),
        # One open account per device.
        Index(
            "ux_billing_account_open_device",
            "device_sysno",
            unique=True,
            postgresql_where=text("state = 1"),
            sqlite_where=text("state = 1"),
        ),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    # Always the device's project: a trigger moves the account with its device (2026_12_04_account_of_device).
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    holder_name: Mapped[str] = mapped_column(String(32))
    holder_mobile: Mapped[str | None] = mapped_column(String(20))
    notify_holder: Mapped[bool] = mapped_column(Boolean, default=False)
    charge_type: Mapped[int] = mapped_column(SmallInteger)
    # Priced by the project's tariff plan (the energy intervals' cost), or at a flat price per kWh.
    flat_price_e4: Mapped[int | None] = mapped_column(Integer)  # ¥/kWh × 10,000
    warn_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    cutoff_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    overdraft_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    keep_power: Mapped[bool] = mapped_column(Boolean, default=False)  # 保电: never cut
    state: Mapped[int] = mapped_column(SmallInteger, default=OPEN)
    balance_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    charged_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    charged_kwh: Mapped[float] = mapped_column(Float, default=0.0)
    base_kwh: Mapped[float] = mapped_column(Float, default=0.0)
    base_cost: Mapped[float] = mapped_column(Float, default=0.0)
    base_fen: Mapped[int] = mapped_column(BigInteger, default=0)
    base_charged_kwh: Mapped[float] = mapped_column(Float, default=0.0)
    warned: Mapped[bool] = mapped_column(Boolean, default=False)
    power: Mapped[str] = mapped_column(String(16), default=POWER_ON)
    cut_command_sysno: Mapped[int | None] = mapped_column(BigId)
    last_recharge_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Where its use begins: the quarter-hour it opened in and the local day, month and year holding it.
    opened_quarter: Mapped[datetime] = mapped_column(UTCDateTime)
    opened_day: Mapped[datetime] = mapped_column(UTCDateTime)
    opened_month: Mapped[datetime] = mapped_column(UTCDateTime)
    opened_year: Mapped[datetime] = mapped_column(UTCDateTime)
    remark: Mapped[str | None] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    close_time: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LedgerEntry(Base):
    """One movement of an account's money; rows are only ever added (the balance is their sum)."""

    __tablename__ = "billing_ledger"
    __table_args__ = (Index("ix_billing_ledger_account", "account_sysno", "sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_sysno: Mapped[int] = mapped_column(ForeignKey("billing_account.sysno", ondelete="CASCADE"))
    customer_sysno: Mapped[int] = mapped_column(BigId)
    kind: Mapped[int] = mapped_column(SmallInteger)
    amount_fen: Mapped[int] = mapped_column(BigInteger)
    balance_fen: Mapped[int] = mapped_column(BigInteger)  # the balance after this entry
    kwh: Mapped[float | None] = mapped_column(Float)
    method: Mapped[str | None] = mapped_column(String(16))  # how a recharge or refund was paid
    operator: Mapped[str] = mapped_column(String(128))
    remark: Mapped[str | None] = mapped_column(String(255))
    bill_sysno: Mapped[int | None] = mapped_column(BigId)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Bill(Base):
    """A post-paid account's month: its consumption by tariff period and what it costs."""

    __tablename__ = "billing_bill"
    __table_args__ = (Index("ux_billing_bill_month", "account_sysno", "month", unique=True),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_sysno: Mapped[int] = mapped_column(ForeignKey("billing_account.sysno", ondelete="CASCADE"))
    customer_sysno: Mapped[int] = mapped_column(BigId)
    month: Mapped[str] = mapped_column(String(7))  # YYYY-MM, the project's local month
    kwh: Mapped[float] = mapped_column(Float)
    periods: Mapped[list[dict[str, float]]] = mapped_column(JSON)  # [{kwh, cost}] per tariff period
    amount_fen: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[int] = mapped_column(SmallInteger)  # 1 settled, 2 unsettled (the spec's table)
    settle_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PowerAction(Base):
    """A cut-off or restore billing decided: sent once when due (kept across restarts)."""

    __tablename__ = "billing_power_action"
    __table_args__ = (Index("ix_billing_power_action_state", "state", "due_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_sysno: Mapped[int] = mapped_column(ForeignKey("billing_account.sysno", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(16))  # switch_off | switch_on
    state: Mapped[str] = mapped_column(String(16))  # pending | sending | done | cancelled | skipped
    due_time: Mapped[datetime] = mapped_column(UTCDateTime)
    claim_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    command_sysno: Mapped[int | None] = mapped_column(BigId)
    outcome: Mapped[str | None] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class BillingRule(Base):
    """When a customer's accounts may not be cut: a nightly window, weekends, holidays (local time)."""

    __tablename__ = "billing_rule"

    customer_sysno: Mapped[int] = mapped_column(
        ForeignKey("customer.sysno", ondelete="CASCADE"), primary_key=True
    )
    quiet_start: Mapped[str | None] = mapped_column(String(5))  # HH:MM
    quiet_end: Mapped[str | None] = mapped_column(String(5))
    quiet_weekends: Mapped[bool] = mapped_column(Boolean, default=False)
    holidays: Mapped[list[str]] = mapped_column(JSON, default=list)  # YYYY-MM-DD


# Business order types (the spec's code table) and the review states an order passes through: the
# spec's State 5 (1 unreviewed, 2 passed, 3 not passed) for the review and State 6 (1 completed,
# 2 voided, otherwise in progress) for the outcome.
REPAIR, METER_CHANGE, TRANSFER, CLOSE = 1, 2, 3, 4
BUSINESS_TYPES = {REPAIR: "补电", METER_CHANGE: "换表", TRANSFER: "过户", CLOSE: "销户"}
UNREVIEWED, PASSED, NOT_PASSED = 1, 2, 3
REVIEW_STATES = {UNREVIEWED: "未审核", PASSED: "已通过", NOT_PASSED: "未通过"}
IN_PROGRESS, COMPLETED, VOIDED = 0, 1, 2
DONE_STATES = {IN_PROGRESS: "进行中", COMPLETED: "已完成", VOIDED: "已作废"}


class BusinessOrder(Base):
    """A business order (业务办理) on an account: created, reviewed, then carried out or voided."""

    __tablename__ = "billing_order"
    __table_args__ = (Index("ix_billing_order_account", "account_sysno", "sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_sysno: Mapped[int] = mapped_column(ForeignKey("billing_account.sysno", ondelete="CASCADE"))
    customer_sysno: Mapped[int] = mapped_column(BigId)
    business_type: Mapped[int] = mapped_column(SmallInteger)
    review_state: Mapped[int] = mapped_column(SmallInteger, default=UNREVIEWED)
    done_state: Mapped[int] = mapped_column(SmallInteger, default=IN_PROGRESS)
    details: Mapped[dict[str, object]] = mapped_column(JSON)
    remark: Mapped[str | None] = mapped_column(String(255))
    creator: Mapped[str] = mapped_column(String(128))
    reviewer: Mapped[str | None] = mapped_column(String(128))
    review_remark: Mapped[str | None] = mapped_column(String(255))
    review_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
