"""Project shares (共享) and project transfers (项目转移)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from powerportal.core.database import Base, BigId, UTCDateTime
from powerportal.core.timeutil import utcnow

# A share's permission: see the project, or see it and switch its devices.
VIEW = 1
CONTROL = 2


class ProjectShare(Base):
    """An invitation to another account to see (or also control) a project, and its life.

    ``status`` is what people did: pending, accepted, declined, revoked (by the owner), left (by the
    sharee), ended (the project changed hands to the sharee, or the transfer dropped it). Time ends
    two states without anyone acting: a pending invitation after ``invite_expire_time``, an accepted
    share after ``expire_time``; access.py compares those times in SQL, so no sweep is needed.
    """

    __tablename__ = "project_share"
    __table_args__ = (
        Index("ix_project_share_grantee", "grantee_sysno", "status"),
        Index("ix_project_share_project", "project_sysno", "status"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    # Who invited, or the owner who took the share over with the project: whose list it is in.
    sharer_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    grantee_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    # The project's name when the share was made or ended: what a share no longer in force shows, so
    # neither side learns what the project is called after it (a new owner's renaming, say).
    project_name: Mapped[str] = mapped_column(String(64), default="")
    permission: Mapped[int] = mapped_column(Integer)
    # Buildings the share is limited to (None: the whole project), as shown; access reads
    # ``project_share_building``.
    building_sysnos: Mapped[list[int] | None] = mapped_column(JSON)
    expire_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    invite_expire_time: Mapped[datetime] = mapped_column(UTCDateTime)
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    respond_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_time: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ProjectShareBuilding(Base):
    """A building a share is limited to (a share without any reaches the whole project)."""

    __tablename__ = "project_share_building"
    __table_args__ = (Index("ix_project_share_building_building", "building_sysno"),)

    share_sysno: Mapped[int] = mapped_column(
        ForeignKey("project_share.sysno", ondelete="CASCADE"), primary_key=True
    )
    building_sysno: Mapped[int] = mapped_column(
        ForeignKey("building.sysno", ondelete="CASCADE"), primary_key=True
    )


class ProjectTransfer(Base):
    """A project offered to another account; it moves when the recipient accepts in time."""

    __tablename__ = "project_transfer"
    __table_args__ = (
        Index("ix_project_transfer_from", "from_sysno", "sysno"),
        Index("ix_project_transfer_to", "to_sysno", "sysno"),
        Index("ix_project_transfer_project", "project_sysno", "status"),
    )

    sysno: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project_sysno: Mapped[int] = mapped_column(ForeignKey("project.sysno", ondelete="CASCADE"))
    # Kept as text too: the list still names the project for the sender after it moved.
    project_name: Mapped[str] = mapped_column(String(64))
    from_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    to_sysno: Mapped[int] = mapped_column(ForeignKey("customer.sysno", ondelete="CASCADE"))
    keep_shares: Mapped[bool] = mapped_column(Boolean, default=True)
    # pending, accepted, declined, cancelled (by the sender); expired is pending past expire_time.
    status: Mapped[str] = mapped_column(String(16), default="pending")
    expire_time: Mapped[datetime] = mapped_column(UTCDateTime)
    remark: Mapped[str | None] = mapped_column(String(500))
    create_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    respond_time: Mapped[datetime | None] = mapped_column(UTCDateTime)
