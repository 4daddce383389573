"""Project shares and transfers (issue 15)

Revision ID: 2026_11_29_shares
Revises: 2026_11_28_load_ident
Create Date: 2026-11-26 18:00:00

``project_share`` is an invitation to see (or also control) a project and its life; access.py reads
the accepted, unexpired ones; ``project_share_building`` the buildings a share is limited to.
``project_transfer`` is a project offered to another account.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_29_shares"
down_revision: str | None = "2026_11_28_load_ident"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def _customer(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["customer.sysno"], name=op.f(f"fk_{table}_{column}_customer"), ondelete="CASCADE"
    )


def _project(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["project_sysno"],
        ["project.sysno"],
        name=op.f(f"fk_{table}_project_sysno_project"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "project_share",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("project_sysno", BigId, nullable=False),
        sa.Column("sharer_sysno", BigId, nullable=False),
        sa.Column("grantee_sysno", BigId, nullable=False),
        sa.Column("permission", sa.Integer(), nullable=False),
        sa.Column("building_sysnos", sa.JSON(), nullable=True),
        sa.Column("expire_time", Time, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("invite_expire_time", Time, nullable=False),
        sa.Column("remark", sa.String(500), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("respond_time", Time, nullable=True),
        sa.Column("end_time", Time, nullable=True),
        _project("project_share"),
        _customer("project_share", "sharer_sysno"),
        _customer("project_share", "grantee_sysno"),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_project_share")),
    )
    op.create_index("ix_project_share_grantee", "project_share", ["grantee_sysno", "status"])
    op.create_index("ix_project_share_project", "project_share", ["project_sysno", "status"])
    op.create_table(
        "project_share_building",
        sa.Column("share_sysno", BigId, nullable=False),
        sa.Column("building_sysno", BigId, nullable=False),
        sa.ForeignKeyConstraint(
            ["share_sysno"],
            ["project_share.sysno"],
            name=op.f("fk_project_share_building_share_sysno_project_share"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["building_sysno"],
            ["building.sysno"],
            name=op.f("fk_project_share_building_building_sysno_building"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("share_sysno", "building_sysno", name=op.f("pk_project_share_building")),
    )
    op.create_index("ix_project_share_building_building", "project_share_building", ["building_sysno"])
    op.create_table(
        "project_transfer",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("project_sysno", BigId, nullable=False),
        sa.Column("project_name", sa.String(64), nullable=False),
        sa.Column("from_sysno", BigId, nullable=False),
        sa.Column("to_sysno", BigId, nullable=False),
        sa.Column("keep_shares", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("expire_time", Time, nullable=False),
        sa.Column("remark", sa.String(500), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("respond_time", Time, nullable=True),
        _project("project_transfer"),
        _customer("project_transfer", "from_sysno"),
        _customer("project_transfer", "to_sysno"),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_project_transfer")),
    )
    op.create_index("ix_project_transfer_from", "project_transfer", ["from_sysno", "sysno"])
    op.create_index("ix_project_transfer_to", "project_transfer", ["to_sysno", "sysno"])
    op.create_index("ix_project_transfer_project", "project_transfer", ["project_sysno", "status"])


def downgrade() -> None:
    op.drop_table("project_transfer")
    op.drop_table("project_share_building")
    op.drop_table("project_share")
