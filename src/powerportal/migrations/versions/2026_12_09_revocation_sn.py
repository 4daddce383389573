"""Deletions of gateways are kept, found by serial number

Revision ID: 2026_12_09_revocation_sn
Revises: 2026_12_08_customer_brand
Create Date: 2026-12-08 01:40:00

A serial number deleted and registered again, by anyone, is the same box, still holding the backlog
of its former owner's site. The ingest drops what is dated before the former registration's
deletion, which it reads from the revocation rows of that serial number: those of deletions are no
longer pruned, and are found by serial number.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_12_09_revocation_sn"
down_revision: str | None = "2026_12_08_customer_brand"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_gateway_revocation_sn", "gateway_revocation", ["sn"])


def downgrade() -> None:
    op.drop_index("ix_gateway_revocation_sn", table_name="gateway_revocation")
