"""A customer belongs to the brand it registered under

Revision ID: 2026_12_08_customer_brand
Revises: 2026_12_07_energy_departure
Create Date: 2026-11-28 11:45:00

A deployment may serve several brands by host name (``POWERPORTAL_BRAND_HOSTS``), and the brand's
flags decide what an account's operations need (an SMS code to change the password or move the
account). Customers had no brand, so a request under another brand's host name ran a brand-0
account's operations under brand 6's rules: a stolen token moved the account to another number
without either code. ``brand`` is the brand a customer registered under; null is the deployment's own
(every account made before this revision, by the command line or the demo).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "2026_12_08_customer_brand"
down_revision: str | None = "2026_12_07_energy_departure"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Plain ALTER TABLE on both databases: SQLite adds and drops a column in place, where a batch would
# copy the table and drop the old one, which every table naming a customer refuses once it holds rows.


def upgrade() -> None:
    op.add_column("customer", sa.Column("brand", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("customer", "brand")
