"""Identified load events, the projects' and buildings' load policies, and the devices' whitelists."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class LoadEvent(Base):
    """One ``load`` event a breaker reported, with what the classifier said and what was done about it."""

    __tablename__ = "load_event"
    __table_args__ = (
        # A message delivered again identifies and acts on nothing twice.
        UniqueConstraint("device_sysno", "event_time", "code", name="uq_load_event_device_time_code"),
        Index("ix_load_event_project_time", "project_sysno", "event_time"),
        Index("ix_load_event_trip_state", "trip_state"),
        Index("ix_load_event_reclose_state", "reclose_state"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    # The building of the device's gateway when the event came (no key: the event is history).
    building_sysno: Mapped[int | None] = mapped_column(BigId)
    gateway_sysno: Mapped[int] = mapped_column(ForeignKey("gateway.sysno", ondelete="CASCADE"))
    device_sysno: Mapped[int] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    device_id: Mapped[str] = mapped_column(String(64))
    target_name: Mapped[str] = mapped_column(String(64))
    event_time: Mapped[datetime] = mapped_column(UTCDateTime)
    code: Mapped[str] = mapped_column(String(16))  # appliance_on | appliance_off
    delta_power: Mapped[float] = mapped_column(Float)
    # What the load draws, weighed against the power limit (features.load_power).
    power: Mapped[float] = mapped_column(Float)
    appliance: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float] = mapped_column(Float)
    # The verdict under the policy in force, after the device's whitelist.
    forbidden: Mapped[int] = mapped_column(Integer)
    whitelisted: Mapped[int] = mapped_column(Integer, default=0)
    # none (allowed, or a switch-off) | record | alarm | trip
    action: Mapped[str] = mapped_column(String(8))
    alarm_sysno: Mapped[int | None] = mapped_column(BigId)
    # The trip: pending → sending → done | offline | failed (sent once, never repeated).
    trip_state: Mapped[str | None] = mapped_column(String(16))
    trip_reason: Mapped[str | None] = mapped_column(String(255))
    trip_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    command_sysno: Mapped[int | None] = mapped_column(BigId)
    # The re-close after a trip: pending → sending → done | failed | skipped | moved (the device left
    # the event's project or gateway first: never sent); locked (the day's re-closes used up, or
    # automatic re-close turned off before it fell due) → unlocked by a person; none when the policy
    # re-closes nothing.
    reclose_state: Mapped[str | None] = mapped_column(String(16))
    reclose_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    reclose_command_sysno: Mapped[int | None] = mapped_column(BigId)
    claim_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    has_waveform: Mapped[int] = mapped_column(Integer, default=0)
    # The event's power series, chip features and waveform as the breaker sent them (for the charts).
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LoadPolicy(Base):
    """A project's load policy (``building_sysno`` null), or a building's that overrides it whole."""

    __tablename__ = "load_policy"
    __table_args__ = (
        UniqueConstraint("project_sysno", "building_sysno", name="uq_load_policy_project_building"),
        Index(
            "ux_load_policy_project",
            "project_sysno",
            unique=True,
            postgresql_where=text("building_sysno IS NULL"),
            sqlite_where=text("building_sysno IS NULL"),
        ),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    building_sysno: Mapped[int | None] = mapped_column(ForeignKey("building.sysno", ondelete="CASCADE"))
    forbidden: Mapped[list[str]] = mapped_column(JSON)
    power_limit: Mapped[float] = mapped_column(Float)
    action: Mapped[str] = mapped_column(String(8))  # record | alarm | trip
    reclose_minutes: Mapped[int] = mapped_column(Integer)
    max_reclose: Mapped[int] = mapped_column(Integer)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class LoadWhitelist(Base):
    """Appliances a device may run whatever the policy forbids (a room's 饮水机 is a 热水器).

    It belongs to the device alone, and so follows it when its gateway moves to another project.
    """

    __tablename__ = "load_whitelist"

    device_sysno: Mapped[int] = mapped_column(
        ForeignKey("device.sysno", ondelete="CASCADE"), primary_key=True
    )
    appliances: Mapped[list[str]] = mapped_column(JSON)
    update_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
