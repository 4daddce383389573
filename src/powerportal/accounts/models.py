"""Customers, their login tokens and used passwordless links."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Customer(Base):
    """A customer account; its mobile number is its login name."""

    __tablename__ = "customer"

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account: Mapped[str] = mapped_column(String(32), unique=True)
    mobile: Mapped[str] = mapped_column(String(20), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str | None] = mapped_column(String(128))
    remark: Mapped[str | None] = mapped_column(String(500))
    serial_no: Mapped[str | None] = mapped_column(String(64))
    category_name1: Mapped[str | None] = mapped_column(String(64))
    category_name2: Mapped[str | None] = mapped_column(String(64))
    screen_title: Mapped[str | None] = mapped_column(String(128))
    password_hash: Mapped[str] = mapped_column(String(255))
    is_brand_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    # The brand it registered under (a deployment may serve several by host name); null: the deployment's.
    # It is served, logged in and administered under that brand alone.
    brand: Mapped[int | None] = mapped_column(Integer)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class CustomerToken(Base):
    """A login session; only the token's digest is stored."""

    __tablename__ = "customer_token"
    __table_args__ = (Index("ix_customer_token_customer", "customer_sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(255))


class UsedLoginLink(Base):
    """A passwordless link that was already accepted, so it cannot be used twice."""

    __tablename__ = "used_login_link"

    link_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    used_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
