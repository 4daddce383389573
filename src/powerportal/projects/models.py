"""Projects (sites) and their buildings."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Project(Base):
    """A customer's site; the unit of ownership and sharing."""

    __tablename__ = "project"
    # SQLite never hands a deleted project's id to a new one: notices and rules keep ids without a key.
    __table_args__ = (Index("ix_project_customer", "customer_sysno"), {"sqlite_autoincrement": True})

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(255))
    longitude: Mapped[float | None] = mapped_column(Float)
    latitude: Mapped[float | None] = mapped_column(Float)
    contact_name: Mapped[str | None] = mapped_column(String(64))
    contact_phone: Mapped[str | None] = mapped_column(String(32))
    remark: Mapped[str | None] = mapped_column(String(500))
    # Where its days begin and end (energy statistics count local days, months and tariff slots).
    timezone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai", server_default="Asia/Shanghai")
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class Building(Base):
    """A building of a project; gateways hang under it."""

    __tablename__ = "building"
    # Nor a deleted building's: load events keep the building they happened in, without a key.
    __table_args__ = (Index("ix_building_project", "project_sysno"), {"sqlite_autoincrement": True})

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
