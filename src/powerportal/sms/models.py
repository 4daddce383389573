"""Verification codes and the outbox of every message sent."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String
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
