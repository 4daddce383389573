"""Remote control: commands sent to devices, timed tasks, device groups and the runs of both."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class ControlRun(Base):
    """One execution of a timed task or a group switch; its commands carry the per-device results.

    ``(task_sysno, scheduled_for)`` is unique: a scheduler claims an occurrence by inserting its run,
    so however many scheduler processes race, an occurrence runs (or is recorded as skipped) once.
    """

    __tablename__ = "control_run"
    __table_args__ = (
        UniqueConstraint("task_sysno", "scheduled_for", name="uq_control_run_task_slot"),
        Index("ix_control_run_customer_time", "customer_sysno", "create_time"),
        Index("ix_control_run_group", "group_sysno", "sysno"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # task | group
    task_sysno: Mapped[int | None] = mapped_column(ForeignKey("timed_task.sysno", ondelete="CASCADE"))
    group_sysno: Mapped[int | None] = mapped_column(ForeignKey("device_group.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    scheduled_for: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), default="running")  # running | done | skipped
    detail: Mapped[str | None] = mapped_column(String(255))
    total: Mapped[int] = mapped_column(Integer, default=0)
    succeeded: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    start_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Command(Base):
    """One command to one device: who or what sent it, what it asked, and how it ended."""

    __tablename__ = "command"
    __table_args__ = (
        Index("ix_command_project_time", "project_sysno", "create_time"),
        Index("ix_command_run", "run_sysno"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int | None] = mapped_column(ForeignKey("device.sysno", ondelete="SET NULL"))
    # The customer who pressed the button, or who owns the task or group that sent it.
    customer_sysno: Mapped[int | None] = mapped_column(ForeignKey("customer.sysno", ondelete="SET NULL"))
    run_sysno: Mapped[int | None] = mapped_column(ForeignKey("control_run.sysno", ondelete="SET NULL"))
    source: Mapped[str] = mapped_column(String(16))  # manual | task | group | billing | load
    operator: Mapped[str] = mapped_column(String(128))
    target_name: Mapped[str] = mapped_column(String(128))
    gateway_sn: Mapped[str] = mapped_column(String(64))
    device_id: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    request_id: Mapped[str | None] = mapped_column(String(64))
    # pending | succeeded | failed | timeout | offline
    status: Mapped[str] = mapped_column(String(16), default="pending")
    reason: Mapped[str | None] = mapped_column(String(255))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    sent_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    answer_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TimedTask(Base):
    """Switch some devices on or off at times of day on chosen weekdays, or once at a date and time."""

    __tablename__ = "timed_task"
    __table_args__ = (Index("ix_timed_task_customer", "customer_sysno", "create_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))  # switch_on | switch_off
    repeat: Mapped[str] = mapped_column(String(16))  # weekly | once
    # Bit 0 Monday … bit 6 Sunday (weekly tasks).
    weekdays: Mapped[int] = mapped_column(Integer, default=0)
    run_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # once tasks
    timezone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # Occurrences before this instant are never run (set on creation, enabling and editing).
    active_since: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    remark: Mapped[str | None] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TimedTaskPeriod(Base):
    """A time of day (``HH:MM``, in the task's time zone) at which a weekly task runs."""

    __tablename__ = "timed_task_period"
    __table_args__ = (UniqueConstraint("task_sysno", "time_of_day", name="uq_timed_task_period_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    task_sysno: Mapped[int] = mapped_column(ForeignKey("timed_task.sysno", ondelete="CASCADE"))
    time_of_day: Mapped[str] = mapped_column(String(5))


class TimedTaskDevice(Base):
    """A device a timed task switches."""

    __tablename__ = "timed_task_device"
    __table_args__ = (
        UniqueConstraint("task_sysno", "device_sysno", name="uq_timed_task_device_pair"),
        Index("ix_timed_task_device_device", "device_sysno"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    task_sysno: Mapped[int] = mapped_column(ForeignKey("timed_task.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))


class DeviceGroup(Base):
    """A named set of devices, across gateways and projects, switched together."""

    __tablename__ = "device_group"
    __table_args__ = (
        UniqueConstraint("customer_sysno", "name", name="uq_device_group_name"),
        Index("ix_device_group_customer_time", "customer_sysno", "create_time"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    remark: Mapped[str | None] = mapped_column(String(255))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class DeviceGroupMember(Base):
    """A device in a group."""

    __tablename__ = "device_group_member"
    __table_args__ = (
        UniqueConstraint("group_sysno", "device_sysno", name="uq_device_group_member_pair"),
        Index("ix_device_group_member_device", "device_sysno"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    group_sysno: Mapped[int] = mapped_column(ForeignKey("device_group.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
