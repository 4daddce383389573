"""Raw readings: one row per device and timestamp, the well-known keys as columns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime


class Reading(Base):
    """Values a device reported at one instant (idempotent on device and timestamp)."""

    __tablename__ = "reading"

    device_sysno: Mapped[int] = mapped_column(
        BigId, ForeignKey("device.sysno", ondelete="CASCADE"), primary_key=True
    )
    ts: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    voltage: Mapped[float | None] = mapped_column(Float)
    voltage_a: Mapped[float | None] = mapped_column(Float)
    voltage_b: Mapped[float | None] = mapped_column(Float)
    voltage_c: Mapped[float | None] = mapped_column(Float)
    current: Mapped[float | None] = mapped_column(Float)
    current_a: Mapped[float | None] = mapped_column(Float)
    current_b: Mapped[float | None] = mapped_column(Float)
    current_c: Mapped[float | None] = mapped_column(Float)
    active_power: Mapped[float | None] = mapped_column(Float)
    power_factor: Mapped[float | None] = mapped_column(Float)
    frequency: Mapped[float | None] = mapped_column(Float)
    energy: Mapped[float | None] = mapped_column(Float)
    leakage_current: Mapped[float | None] = mapped_column(Float)
    temperature: Mapped[float | None] = mapped_column(Float)
    switch: Mapped[int | None] = mapped_column(Integer)
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON)
