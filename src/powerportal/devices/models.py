"""Devices: breakers and meters on a gateway's bus, with their thresholds and latest state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Device(Base):
    """A device a gateway announced; ``device_id`` is its address on that gateway."""

    __tablename__ = "device"
    __table_args__ = (
        UniqueConstraint("gateway_sysno", "device_id", name="uq_device_gateway_device_id"),
        Index("ix_device_project", "project_sysno"),
        {"sqlite_autoincrement": True},
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    # Copied from the gateway so that access checks and lists need no join.
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    device_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(32), default="breaker")
    phases: Mapped[int] = mapped_column(Integer, default=1)
    model: Mapped[str | None] = mapped_column(String(64))
    rated_current: Mapped[float | None] = mapped_column(Float)
    over_voltage: Mapped[float | None] = mapped_column(Float)
    under_voltage: Mapped[float | None] = mapped_column(Float)
    over_current: Mapped[float | None] = mapped_column(Float)
    leakage_limit: Mapped[float | None] = mapped_column(Float)
    temperature_limit: Mapped[float | None] = mapped_column(Float)
    power_limit: Mapped[float | None] = mapped_column(Float)
    online: Mapped[int] = mapped_column(Integer, default=0)
    switch_state: Mapped[int | None] = mapped_column(Integer)
    last_report_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    latest: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
