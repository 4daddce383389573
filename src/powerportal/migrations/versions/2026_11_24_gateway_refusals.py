"""What the platform refused of each gateway, by reason, kept across restarts

Revision ID: 2026_11_24_gateway_refusals
Revises: 2026_11_24_gateway_identity
Create Date: 2026-11-24 23:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_24_gateway_refusals"
down_revision: str | None = "2026_11_24_gateway_identity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gateway_refusal",
        sa.Column("gateway_sysno", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("count", sa.BigInteger(), nullable=False),
        sa.Column("last_time", powerportal.core.database.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_detail", sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(
            ["gateway_sysno"],
            ["gateway.sysno"],
            name=op.f("fk_gateway_refusal_gateway_sysno_gateway"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("gateway_sysno", "reason", name=op.f("pk_gateway_refusal")),
    )


def downgrade() -> None:
    op.drop_table("gateway_refusal")
