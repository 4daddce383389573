"""Index the gateways by building

Revision ID: 2026_12_01_gateway_building
Revises: 2026_11_30_dashboard
Create Date: 2026-11-27 01:00:00

A share limited to buildings finds the gateways in view by ``gateway.building_sysno``, and deleting a
building sets it to NULL on its gateways: both read the gateways by building.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_12_01_gateway_building"
down_revision: str | None = "2026_11_30_dashboard"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_gateway_building", "gateway", ["building_sysno"])


def downgrade() -> None:
    op.drop_index("ix_gateway_building", table_name="gateway")
