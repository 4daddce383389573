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
    __table_args__ = (
        Index("ix_operation_log_customer_time", "customer_sysno", "create_time", "sysno"),
        # An id stands for one row forever (SQLite would otherwise hand out a deleted newest id again).
        {"sqlite_autoincrement": True},
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int | None] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    operate_type: Mapped[int] = mapped_column(Integer)
    detail: Mapped[str] = mapped_column(String(500))
    ip: Mapped[str | None] = mapped_column(String(64))
    is_success: Mapped[bool] = mapped_column(Boolean, default=True)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class OfflineLog(Base):
    """A spell offline of a gateway or device: when it went, when it came back, how long."""

    __tablename__ = "offline_log"
    # Notices keep a spell's id after it is deleted with its device: SQLite must not reuse it.
    __table_args__ = (
        Index("ix_offline_log_project_time", "project_sysno", "offline_time"),
        {"sqlite_autoincrement": True},
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int | None] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    target_name: Mapped[str] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(String(64))
    offline_time: Mapped[datetime] = mapped_column(UTCDateTime)
    online_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    duration_seconds: Mapped[int | None] = mapped_column(Integer)


class StatusLog(Base):
    """A state change: online, offline, switched on, switched off."""

    __tablename__ = "status_log"
    __table_args__ = (Index("ix_status_log_project_time", "project_sysno", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int | None] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    target_name: Mapped[str] = mapped_column(String(128))
    status_type: Mapped[str] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
