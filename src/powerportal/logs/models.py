"""The customer operation log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class OperationLog(Base):
    """One customer action: what, when, from where, and whether it worked."""

    __tablename__ = "operation_log"
    __table_args__ = (Index("ix_operation_log_customer_time", "customer_sysno", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int | None] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    operate_type: Mapped[int] = mapped_column(Integer)
    detail: Mapped[str] = mapped_column(String(500))
    ip: Mapped[str | None] = mapped_column(String(64))
    is_success: Mapped[bool] = mapped_column(Boolean, default=True)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
