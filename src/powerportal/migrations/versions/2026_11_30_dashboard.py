"""Data dashboard kiosk links (issue 15)

Revision ID: 2026_11_30_dashboard
Revises: 2026_11_29_shares
Create Date: 2026-11-26 18:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = "2026_11_30_dashboard"
down_revision: str | None = "2026_11_29_shares"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
