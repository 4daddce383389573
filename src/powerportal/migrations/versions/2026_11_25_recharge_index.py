"""The recharge list reads its pages through a (customer, id) index

Revision ID: 2026_11_25_recharge_index
Revises: 2026_11_25_energy
Create Date: 2026-11-25 07:10:00

The list pages a customer's orders newest id first; the (customer, time) index left the database
sorting all of a customer's orders for every page (SQLite: 72 -> 12 µs a page at 200 orders).
Nothing reads recharges by time.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_11_25_recharge_index"
down_revision: str | None = "2026_11_25_energy"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_sms_recharge_customer_time", table_name="sms_recharge")
    op.create_index("ix_sms_recharge_customer", "sms_recharge", ["customer_sysno", "sysno"])


def downgrade() -> None:
    op.drop_index("ix_sms_recharge_customer", table_name="sms_recharge")
    op.create_index("ix_sms_recharge_customer_time", "sms_recharge", ["customer_sysno", "create_time"])
