"""Energy: quarter-hour consumption per device, its roll-ups, meter changes and tariff plans."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    SmallInteger,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow

# Tariff periods in display order: 尖, 峰, 平, 谷, 深谷 (the digits of a slot table).
PERIODS = ("sharp", "peak", "flat", "valley", "deep")
PERIOD_LABELS = ("尖", "峰", "平", "谷", "深谷")

# Roll-up scopes and grains (a year only of devices: the ranking and table of a year).
DEVICE, PROJECT = 0, 1
QUARTER, DAY, MONTH, YEAR = 0, 1, 2, 3
# The roll-ups kept: (scope, grain).
ROLLUPS = (
    (DEVICE, DAY),
    (DEVICE, MONTH),
    (DEVICE, YEAR),
    (PROJECT, QUARTER),
    (PROJECT, DAY),
    (PROJECT, MONTH),
)


class EnergyInterval(Base):
    """A device's consumption in one quarter-hour (``start``, UTC) while it belonged to a project.

    Written by the ingest in the same transaction as the readings. No foreign key to the device: a
    deleted device's consumption stays in its project's history (and totals stay equal to the sum of
    their devices). The flag counts say how many counted pairs touching the quarter were estimated
    (readings missing), a reset or implausible; the quarter is marked where one is above 0.
    """

    __tablename__ = "energy_interval"

    device_sysno: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    project_sysno: Mapped[int] = mapped_column(
        ForeignKey("project.sysno", ondelete="CASCADE"), primary_key=True
    )
    period: Mapped[int] = mapped_column(SmallInteger)
    kwh: Mapped[float] = mapped_column(Float)
    cost: Mapped[float] = mapped_column(Float)
    n_estimated: Mapped[int] = mapped_column(Integer, default=0)
    n_reset: Mapped[int] = mapped_column(Integer, default=0)
    n_implausible: Mapped[int] = mapped_column(Integer, default=0)


class EnergyRollup(Base):
    """Sums of intervals: a device's day, month and year, a project's quarter-hour, day and month.

    The intervals' changes are added here once their batch committed (``energy_pending``), split by
    tariff period; ``start`` is the UTC instant the local day, month or year (or the quarter) begins.
    """

    __tablename__ = "energy_rollup"
    __table_args__ = (Index("ix_energy_rollup_project", "project_sysno", "scope", "grain", "start"),)

    scope: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    owner_sysno: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    grain: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    project_sysno: Mapped[int] = mapped_column(
        ForeignKey("project.sysno", ondelete="CASCADE"), primary_key=True
    )
    kwh_0: Mapped[float] = mapped_column(Float, default=0.0)
    kwh_1: Mapped[float] = mapped_column(Float, default=0.0)
    kwh_2: Mapped[float] = mapped_column(Float, default=0.0)
    kwh_3: Mapped[float] = mapped_column(Float, default=0.0)
    kwh_4: Mapped[float] = mapped_column(Float, default=0.0)
    cost_0: Mapped[float] = mapped_column(Float, default=0.0)
    cost_1: Mapped[float] = mapped_column(Float, default=0.0)
    cost_2: Mapped[float] = mapped_column(Float, default=0.0)
    cost_3: Mapped[float] = mapped_column(Float, default=0.0)
    cost_4: Mapped[float] = mapped_column(Float, default=0.0)
    n_estimated: Mapped[int] = mapped_column(Integer, default=0)
    n_reset: Mapped[int] = mapped_column(Integer, default=0)
    n_implausible: Mapped[int] = mapped_column(Integer, default=0)


class EnergyPending(Base):
    """Interval changes written but not yet added to the roll-ups: one row per write, in its transaction.

    ``changes`` (JSON): ``[[device, project, period, kwh, cost, estimated, reset, implausible,
    quarter, day, month, year], ...]``, the four starts (of the quarter and of the project's local
    day, month and year holding it) as SQLite stores them, or epoch seconds on PostgreSQL. Folding
    takes the rows away and adds them to the roll-ups in one transaction, so a crash in between
    loses nothing.
    """

    __tablename__ = "energy_pending"

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    changes: Mapped[bytes] = mapped_column(LargeBinary)


class EnergyFacts(Base):
    """How many times what counting depends on has changed (one row, once something changed).

    Triggers (migration ``2026_12_02_energy_facts``) add 1 whenever a device's project, rated
    current or phases change, a device is deleted, or a meter change is added, edited or removed:
    the ingest's observer compares its copies of devices' facts with the database only when the
    number moved.
    """

    __tablename__ = "energy_facts"

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    generation: Mapped[int] = mapped_column(BigInteger)


class MeterChange(Base):
    """A device's meter replaced: the old meter's final reading and the new one's initial reading."""

    __tablename__ = "meter_change"
    __table_args__ = (Index("ix_meter_change_device", "device_sysno", "change_time"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    device_sysno: Mapped[int] = mapped_column(ForeignKey("device.sysno", ondelete="CASCADE"))
    change_time: Mapped[datetime] = mapped_column(UTCDateTime)
    old_final: Mapped[float] = mapped_column(Float)
    new_initial: Mapped[float] = mapped_column(Float)
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TariffPlan(Base):
    """A customer's electricity price plan; its versions say the prices from their effective date."""

    __tablename__ = "tariff_plan"
    __table_args__ = (Index("ix_tariff_plan_customer", "customer_sysno"),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    customer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TariffVersion(Base):
    """A plan's prices from ``effective_date`` (local) until the next version's.

    ``prices``: ¥/kWh per period name (``PERIODS``; null for a period the plan does not use);
    ``seasons``: ``[{name, months, slots}]`` with every month in exactly one season, ``slots`` 48
    digits (one per half hour from 00:00) naming the period; ``holidays``: ``{dates, slots}`` or null.
    """

    __tablename__ = "tariff_version"
    __table_args__ = (Index("ix_tariff_version_plan", "plan_sysno", "effective_date", unique=True),)

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    plan_sysno: Mapped[int] = mapped_column(ForeignKey("tariff_plan.sysno", ondelete="CASCADE"))
    effective_date: Mapped[date] = mapped_column(Date)
    prices: Mapped[dict[str, Any]] = mapped_column(JSON)
    seasons: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    holidays: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ProjectTariff(Base):
    """The plan a project's costs use (a project without one uses its owner's default plan)."""

    __tablename__ = "project_tariff"

    project_sysno: Mapped[int] = mapped_column(
        ForeignKey("project.sysno", ondelete="CASCADE"), primary_key=True
    )
    plan_sysno: Mapped[int] = mapped_column(ForeignKey("tariff_plan.sysno", ondelete="CASCADE"))


class Departure(Base):
    """A device leaving a project: every move to another project, and a 总进线 deleted.

    Written by triggers on ``device`` (migration ``2026_12_07_energy_departure``), whoever moves or
    deletes it. What a project's history needs of a device no longer in it: whether it was a 总进线
    there (its consumption there stays a reference); and of the project it moved to (``to_project``,
    none where deleted), when it came (its readings there begin then). Kept for good, like the
    consumption it describes.
    """

    __tablename__ = "energy_departure"
    __table_args__ = (
        Index("ix_energy_departure_project", "project_sysno"),
        Index("ix_energy_departure_to_project", "to_project_sysno", "left_at"),
    )

    device_sysno: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    left_at: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    project_sysno: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    to_project_sysno: Mapped[int | None] = mapped_column(BigInteger)
    incoming_main: Mapped[bool] = mapped_column(Boolean)


class IncomingMain(Base):
    """A device that measures its building's incoming supply (总进线): the others are its branches."""

    __tablename__ = "energy_incoming_main"

    device_sysno: Mapped[int] = mapped_column(
        ForeignKey("device.sysno", ondelete="CASCADE"), primary_key=True
    )
