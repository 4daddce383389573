"""Gateways: the boxes in the field that speak MQTT for the devices on their bus."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, ColumnElement, ForeignKey, Index, Integer, String, case, literal
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow


class Gateway(Base):
    """A registered gateway; its serial number is its MQTT username."""

    __tablename__ = "gateway"
    # AUTOINCREMENT: a deleted gateway's id is never handed to the next one (ids identify registrations).
    __table_args__ = (
        Index("ix_gateway_project", "project_sysno"),
        # Which gateways stand in a building: a share's view, a building's deletion (SET NULL).
        Index("ix_gateway_building", "building_sysno"),
        {"sqlite_autoincrement": True},
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="RESTRICT"))
    building_sysno: Mapped[int | None] = mapped_column(ForeignKey("building.sysno", ondelete="SET NULL"))
    sn: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(255))
    # Raised by every secret reset and move: sessions and caches of an older generation are stale.
    generation: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    online: Mapped[bool] = mapped_column(Boolean, default=False)
    last_seen: Mapped[datetime | None] = mapped_column(UTCDateTime)
    firmware: Mapped[str | None] = mapped_column(String(64))
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GatewayRevocation(Base):
    """A gateway's credentials changed (reset, move, delete): every process ends older sessions.

    The broker and the ingest of every process read these rows as they are written (by id), so an
    HTTP call served by any process takes effect on the broker within a poll; old rows are pruned,
    but for deletions: they date the end of a serial number's registration (``deleted_before``).
    """

    __tablename__ = "gateway_revocation"
    __table_args__ = (Index("ix_gateway_revocation_sn", "sn"), {"sqlite_autoincrement": True})

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    gateway_sysno: Mapped[int] = mapped_column(BigInteger)
    sn: Mapped[str] = mapped_column(String(64))
    # Sessions of a lower generation end; None: the gateway was deleted, all end.
    valid_from: Mapped[int | None] = mapped_column(Integer)
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GatewayRefusal(Base):
    """How often the platform refused or repaired something a gateway sent, by reason (kept across restarts).

    The gateway's owner reads it (接入日志) to see why a device is missing or a value never arrives.
    """

    __tablename__ = "gateway_refusal"

    gateway_sysno: Mapped[int] = mapped_column(
        ForeignKey("gateway.sysno", ondelete="CASCADE"), primary_key=True
    )
    reason: Mapped[str] = mapped_column(String(32), primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
    last_time: Mapped[datetime] = mapped_column(UTCDateTime)
    last_detail: Mapped[str | None] = mapped_column(String(255))


# A gateway moved on to another project (maybe another customer's, and renamed there) is named by
# none of the rows it left behind in the old one: their lists and reports say this instead.
MOVED_AWAY = "已移出本项目的网关"


def name_in(project: Any) -> ColumnElement[str]:
    """The gateway's name while it is in ``project`` (a log row's own project), else ``MOVED_AWAY``."""
    return case((Gateway.project_sysno == project, Gateway.name), else_=literal(MOVED_AWAY))
