"""Alarms, the notices and texts that tell customers about them and about offline spells, notice counters."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Alarm(Base):
    """One alarm of a device (or a gateway, for offline): open while ``end_time`` is null."""

    __tablename__ = "alarm"
    __table_args__ = (
        Index("ix_alarm_project_start", "project_sysno", "start_time"),
        Index("ix_alarm_device_open", "device_sysno", "alarm_type", "end_time"),
        # Notices keep an alarm's id after it is deleted with its device: SQLite must not reuse it.
        {"sqlite_autoincrement": True},
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int | None] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    # The device's address on its gateway, or the gateway's serial number for a gateway alarm.
    device_id: Mapped[str] = mapped_column(String(64))
    target_name: Mapped[str] = mapped_column(String(128))
    alarm_type: Mapped[str] = mapped_column(String(32))
    level: Mapped[int] = mapped_column(Integer)
    # rule (a threshold of the device), device (the device reported it) or offline.
    source: Mapped[str] = mapped_column(String(16))
    value: Mapped[float | None] = mapped_column(Float)
    threshold: Mapped[float | None] = mapped_column(Float)
    detail: Mapped[str] = mapped_column(String(255))
    offline_sysno: Mapped[int | None] = mapped_column(BigId)
    start_time: Mapped[datetime] = mapped_column(UTCDateTime)
    end_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    process_state: Mapped[int] = mapped_column(Integer, default=0)
    process_remark: Mapped[str | None] = mapped_column(String(200))
    process_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    process_customer_sysno: Mapped[int | None] = mapped_column(
        ForeignKey("customer.sysno", ondelete="SET NULL")
    )
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CustomerNotice(Base):
    """A message to one customer about an alarm (type 2) or an offline record (type 3)."""

    __tablename__ = "customer_notice"
    __table_args__ = (
        Index("ix_customer_notice_customer_time", "customer_sysno", "create_time", "sysno"),
        Index("ix_customer_notice_customer_read_time", "customer_sysno", "is_read", "create_time", "sysno"),
        # The poll looks for notices not yet pushed; they are few, so a partial index keeps it tiny.
        Index(
            "ix_customer_notice_unpushed",
            "customer_sysno",
            postgresql_where=text("is_push = 0"),
            sqlite_where=text("is_push = 0"),
        ),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    notice_type: Mapped[int] = mapped_column(Integer)
    # No foreign key: a notice is history and outlives its project (the counters stay exact).
    project_sysno: Mapped[int | None] = mapped_column(BigId)
    device_id: Mapped[str | None] = mapped_column(String(64))
    notice_detail: Mapped[str] = mapped_column(String(500))
    source_sysno: Mapped[int | None] = mapped_column(BigId)
    is_read: Mapped[int] = mapped_column(Integer, default=0)
    is_push: Mapped[int] = mapped_column(Integer, default=0)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    read_time: Mapped[datetime | None] = mapped_column(UTCDateTime)


class NoticeCounter(Base):
    """How many notices of one type a customer has, and how many are unread (so counts cost nothing)."""

    __tablename__ = "customer_notice_counter"

    customer_sysno: Mapped[int] = mapped_column(
        ForeignKey("customer.sysno", ondelete="CASCADE"), primary_key=True
    )
    notice_type: Mapped[int] = mapped_column(Integer, primary_key=True)
    total: Mapped[int] = mapped_column(Integer, default=0)
    unread: Mapped[int] = mapped_column(Integer, default=0)


class SmsNotificationRule(Base):
    """Who gets a text for which alarm types in which projects, and when to stay quiet."""

    __tablename__ = "sms_notification_rule"
    __table_args__ = (Index("ix_sms_notification_rule_customer", "customer_sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    mobiles: Mapped[list[str]] = mapped_column(JSON)
    # Empty lists mean every alarm type, every project the customer may see.
    alarm_types: Mapped[list[str]] = mapped_column(JSON)
    project_sysnos: Mapped[list[int]] = mapped_column(JSON)
    # Local times HH:MM; a window may run over midnight (22:00-07:00).
    quiet_start: Mapped[str | None] = mapped_column(String(5))
    quiet_end: Mapped[str | None] = mapped_column(String(5))
    enabled: Mapped[int] = mapped_column(Integer, default=1)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SmsTemplate(Base):
    """A customer's wording of one kind of alarm text (the built-in wording applies when absent)."""

    __tablename__ = "sms_template"
    __table_args__ = (
        UniqueConstraint("customer_sysno", "template_key", name="uq_sms_template_customer_key"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    template_key: Mapped[str] = mapped_column(String(32))
    content: Mapped[str] = mapped_column(String(300))
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
