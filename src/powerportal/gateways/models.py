"""Gateways: the boxes in the field that speak MQTT for the devices on their bus."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Gateway(Base):
    """A registered gateway; its serial number is its MQTT username."""

    __tablename__ = "gateway"
    __table_args__ = (Index("ix_gateway_project", "project_sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="RESTRICT"))
    building_sysno: Mapped[int | None] = mapped_column(ForeignKey("building.sysno", ondelete="SET NULL"))
    sn: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(255))
    online: Mapped[bool] = mapped_column(Boolean, default=False)
    last_seen: Mapped[datetime | None] = mapped_column(UTCDateTime)
    firmware: Mapped[str | None] = mapped_column(String(64))
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
