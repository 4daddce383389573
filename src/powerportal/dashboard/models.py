"""Kiosk links of the data dashboard: a read-only, revocable, expiring way onto a wall display."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class KioskLink(Base):
    """A secret link showing one customer's large screen without a login, until it expires or is revoked.

    Only the token's SHA-256 is kept: the link is shown once, when it is made.
    """

    __tablename__ = "dashboard_kiosk_link"
    __table_args__ = (Index("ix_dashboard_kiosk_link_customer", "customer_sysno", "sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expire_time: Mapped[datetime] = mapped_column(UTCDateTime)
    revoke_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
