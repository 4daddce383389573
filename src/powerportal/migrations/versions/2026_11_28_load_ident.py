"""Load identification: identified load events, policies and trips (issue 19)

Revision ID: 2026_11_28_load_ident
Revises: 2026_11_27_billing
Create Date: 2026-11-26 18:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_28_load_ident"
down_revision: str | None = "2026_11_27_billing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "load_event",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("project_sysno", BigId, sa.ForeignKey("project.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("building_sysno", BigId, nullable=True),
        sa.Column("gateway_sysno", BigId, sa.ForeignKey("gateway.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("device_sysno", BigId, sa.ForeignKey("device.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("device_id", sa.String(64), nullable=False),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("event_time", Time, nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("delta_power", sa.Float(), nullable=False),
        sa.Column("power", sa.Float(), nullable=False),
        sa.Column("appliance", sa.String(16), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("forbidden", sa.Integer(), nullable=False),
        sa.Column("whitelisted", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(8), nullable=False),
        sa.Column("alarm_sysno", BigId, nullable=True),
        sa.Column("trip_state", sa.String(16), nullable=True),
        sa.Column("trip_reason", sa.String(255), nullable=True),
        sa.Column("trip_time", Time, nullable=True),
        sa.Column("command_sysno", BigId, nullable=True),
        sa.Column("reclose_state", sa.String(16), nullable=True),
        sa.Column("reclose_at", Time, nullable=True),
        sa.Column("reclose_command_sysno", BigId, nullable=True),
        sa.Column("claim_time", Time, nullable=True),
        sa.Column("has_waveform", sa.Integer(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("create_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
        sa.UniqueConstraint("device_sysno", "event_time", "code", name="uq_load_event_device_time_code"),
    )
    op.create_index("ix_load_event_project_time", "load_event", ["project_sysno", "event_time"])
    op.create_index("ix_load_event_trip_state", "load_event", ["trip_state"])
    op.create_index("ix_load_event_reclose_state", "load_event", ["reclose_state"])
    op.create_table(
        "load_policy",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("project_sysno", BigId, sa.ForeignKey("project.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column(
            "building_sysno", BigId, sa.ForeignKey("building.sysno", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("forbidden", sa.JSON(), nullable=False),
        sa.Column("power_limit", sa.Float(), nullable=False),
        sa.Column("action", sa.String(8), nullable=False),
        sa.Column("reclose_minutes", sa.Integer(), nullable=False),
        sa.Column("max_reclose", sa.Integer(), nullable=False),
        sa.Column("update_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
        sa.UniqueConstraint("project_sysno", "building_sysno", name="uq_load_policy_project_building"),
    )
    op.create_index(
        "ux_load_policy_project",
        "load_policy",
        ["project_sysno"],
        unique=True,
        postgresql_where=sa.text("building_sysno IS NULL"),
        sqlite_where=sa.text("building_sysno IS NULL"),
    )
    op.create_table(
        "load_whitelist",
        sa.Column("device_sysno", BigId, sa.ForeignKey("device.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("project_sysno", BigId, sa.ForeignKey("project.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("appliances", sa.JSON(), nullable=False),
        sa.Column("update_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("device_sysno"),
    )


def downgrade() -> None:
    op.drop_table("load_whitelist")
    op.drop_index("ux_load_policy_project", table_name="load_policy")
    op.drop_table("load_policy")
    op.drop_index("ix_load_event_reclose_state", table_name="load_event")
    op.drop_index("ix_load_event_trip_state", table_name="load_event")
    op.drop_index("ix_load_event_project_time", table_name="load_event")
    op.drop_table("load_event")
