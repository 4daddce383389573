"""Verification codes, the outbox of every message sent, and the text balance with its use and recharges."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class SmsCode(Base):
    """A verification code sent to a number for one purpose."""

    __tablename__ = "sms_code"
    __table_args__ = (Index("ix_sms_code_lookup", "mobile", "purpose", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    mobile: Mapped[str] = mapped_column(String(20))
    purpose: Mapped[str] = mapped_column(String(32))
    code_hash: Mapped[str] = mapped_column(String(64))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    failed_attempts: Mapped[int] = mapped_column(Integer, default=0)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class SmsOutbox(Base):
    """Every SMS the platform sent, whatever the provider."""

    __tablename__ = "sms_outbox"
    __table_args__ = (Index("ix_sms_outbox_mobile", "mobile", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    mobile: Mapped[str] = mapped_column(String(20))
    purpose: Mapped[str] = mapped_column(String(32))
    content: Mapped[str] = mapped_column(String(500))
    provider: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    error: Mapped[str | None] = mapped_column(String(255))
    ip: Mapped[str | None] = mapped_column(String(64))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SmsAccount(Base):
    """A customer's balance of alarm texts."""

    __tablename__ = "sms_account"

    customer_sysno: Mapped[int] = mapped_column(
        ForeignKey("customer.sysno", ondelete="CASCADE"), primary_key=True
    )
    balance: Mapped[int] = mapped_column(Integer, default=0)
    # Set when a text was refused for want of balance, so the customer is told once, not per alarm.
    empty_noticed: Mapped[int] = mapped_column(Integer, default=0)


class SmsUsage(Base):
    """One alarm text sent (or refused) on a customer's account."""

    __tablename__ = "sms_usage"
    __table_args__ = (Index("ix_sms_usage_customer_time", "customer_sysno", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    alarm_sysno: Mapped[int | None] = mapped_column(BigId)
    mobile: Mapped[str] = mapped_column(String(20))
    content: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(16))
    error: Mapped[str | None] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SmsRecharge(Base):
    """An order for more texts; a brand administrator confirms it (no payment gateway)."""

    __tablename__ = "sms_recharge"
    __table_args__ = (Index("ix_sms_recharge_customer", "customer_sysno", "sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    quantity: Mapped[int] = mapped_column(Integer)
    amount: Mapped[float] = mapped_column(Float)
    # 0 waiting for confirmation, 1 confirmed (balance credited), 2 refused.
    state: Mapped[int] = mapped_column(Integer, default=0)
    remark: Mapped[str | None] = mapped_column(String(200))
    confirm_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    confirm_customer_sysno: Mapped[int | None] = mapped_column(
        ForeignKey("customer.sysno", ondelete="SET NULL")
    )
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
