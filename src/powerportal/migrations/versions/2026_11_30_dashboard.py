"""Data dashboard kiosk links (issue 15)

Revision ID: 2026_11_30_dashboard
Revises: 2026_11_29_shares
Create Date: 2026-11-26 18:00:00

``dashboard_kiosk_link`` keeps a kiosk link's token as its SHA-256 only, with its expiry and revocation.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_30_dashboard"
down_revision: str | None = "2026_11_29_shares"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "dashboard_kiosk_link",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "customer_sysno", BigId, sa.ForeignKey("customer.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("expire_time", Time, nullable=False),
        sa.Column("revoke_time", Time, nullable=True),
        sa.Column("last_used_time", Time, nullable=True),
        sa.PrimaryKeyConstraint("sysno"),
        sa.UniqueConstraint("token_hash", name=op.f("uq_dashboard_kiosk_link_token_hash")),
    )
    op.create_index("ix_dashboard_kiosk_link_customer", "dashboard_kiosk_link", ["customer_sysno", "sysno"])


def downgrade() -> None:
    op.drop_index("ix_dashboard_kiosk_link_customer", table_name="dashboard_kiosk_link")
    op.drop_table("dashboard_kiosk_link")
