"""The report centre: report files generated in the background, and scheduled report subscriptions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class ReportJob(Base):
    """One report file to write or written: asked for on screen, or due for a subscription.

    ``(subscription_sysno, period)`` is unique, and a subscription's ``last_period`` is moved to
    the period in the same transaction: however many server processes race, and long after the job
    has expired, a period is reported once. A worker
    claims a queued job by moving it to ``running``; while it writes it beats ``heartbeat``, and a
    running job whose heartbeat stopped (its process died) is queued again once, then failed.
    """

    __tablename__ = "report_job"
    __table_args__ = (
        UniqueConstraint("subscription_sysno", "period", name="uq_report_job_subscription_period"),
        Index("ix_report_job_customer", "customer_sysno", "sysno"),
        Index("ix_report_job_status", "status", "sysno"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    subscription_sysno: Mapped[int | None] = mapped_column(
        ForeignKey("report_subscription.sysno", ondelete="SET NULL")
    )
    period: Mapped[str | None] = mapped_column(String(32))  # a subscription's: 2026-11-25, 2026-W47, 2026-11
    kind: Mapped[str] = mapped_column(String(16))
    format: Mapped[str] = mapped_column(String(8))
    query: Mapped[dict[str, Any]] = mapped_column(JSON)
    brand: Mapped[int] = mapped_column(Integer, default=0)
    title: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default="queued")  # queued | running | done | failed
    progress: Mapped[int] = mapped_column(Integer, default=0)  # percent
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    file_name: Mapped[str | None] = mapped_column(String(255))
    size: Mapped[int | None] = mapped_column(BigId)
    detail: Mapped[str | None] = mapped_column(String(500))  # why it failed; how it was delivered
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    start_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    heartbeat: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    expire_time: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ReportSubscription(Base):
    """A report delivered every day, week or month: its kind, filters, format and recipients."""

    __tablename__ = "report_subscription"
    __table_args__ = (Index("ix_report_subscription_customer", "customer_sysno", "sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    format: Mapped[str] = mapped_column(String(8))
    frequency: Mapped[str] = mapped_column(String(8))  # day | week | month
    query: Mapped[dict[str, Any]] = mapped_column(JSON)  # the report's filters, without its period
    emails: Mapped[list[str]] = mapped_column(JSON)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    brand: Mapped[int] = mapped_column(Integer, default=0)
    # The newest period claimed (its job may since have expired): a period is reported once.
    last_period: Mapped[str | None] = mapped_column(String(32))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
