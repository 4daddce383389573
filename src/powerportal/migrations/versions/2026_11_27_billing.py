"""Electricity billing: accounts, their ledger, monthly bills, power actions, cut-off rules, business orders

Revision ID: 2026_11_27_billing
Revises: 2026_11_26_report_centre
Create Date: 2026-11-26 15:00:00

Money in fen (integers). ``billing_account`` has at most one open account per device (a partial
unique index); ``billing_ledger`` is only ever added to; ``billing_power_action`` holds cut-offs and
restores until they are sent (kept across restarts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_27_billing"
down_revision: str | None = "2026_11_26_report_centre"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "billing_rule",
        sa.Column(
            "customer_sysno", BigId, sa.ForeignKey("customer.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("quiet_start", sa.String(5), nullable=True),
        sa.Column("quiet_end", sa.String(5), nullable=True),
        sa.Column("quiet_weekends", sa.Boolean(), nullable=False),
        sa.Column("holidays", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("customer_sysno"),
    )
    op.create_table(
        "billing_account",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "customer_sysno", BigId, sa.ForeignKey("customer.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("project_sysno", BigId, sa.ForeignKey("project.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("device_sysno", BigId, sa.ForeignKey("device.sysno", ondelete="CASCADE"), nullable=False),
        sa.Column("holder_name", sa.String(32), nullable=False),
        sa.Column("holder_mobile", sa.String(20), nullable=True),
        sa.Column("notify_holder", sa.Boolean(), nullable=False),
        sa.Column("charge_type", sa.SmallInteger(), nullable=False),
        sa.Column("flat_price_e4", sa.Integer(), nullable=True),
        sa.Column("warn_fen", sa.BigInteger(), nullable=False),
        sa.Column("cutoff_fen", sa.BigInteger(), nullable=False),
        sa.Column("overdraft_fen", sa.BigInteger(), nullable=False),
        sa.Column("keep_power", sa.Boolean(), nullable=False),
        sa.Column("state", sa.SmallInteger(), nullable=False),
        sa.Column("balance_fen", sa.BigInteger(), nullable=False),
        sa.Column("charged_fen", sa.BigInteger(), nullable=False),
        sa.Column("charged_kwh", sa.Float(), nullable=False),
        sa.Column("base_kwh", sa.Float(), nullable=False),
        sa.Column("base_cost", sa.Float(), nullable=False),
        sa.Column("base_fen", sa.BigInteger(), nullable=False),
        sa.Column("base_charged_kwh", sa.Float(), nullable=False),
        sa.Column("warned", sa.Boolean(), nullable=False),
        sa.Column("power", sa.String(16), nullable=False),
        sa.Column("cut_command_sysno", BigId, nullable=True),
        sa.Column("last_recharge_time", Time, nullable=True),
        sa.Column("opened_quarter", Time, nullable=False),
        sa.Column("opened_day", Time, nullable=False),
        sa.Column("opened_month", Time, nullable=False),
        sa.Column("opened_year", Time, nullable=False),
        sa.Column("remark", sa.String(255), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("close_time", Time, nullable=True),
        sa.PrimaryKeyConstraint("sysno"),
    )
    op.create_index("ix_billing_account_project", "billing_account", ["project_sysno", "sysno"])
    op.create_index(
        "ux_billing_account_open_device",
        "billing_account",
        ["device_sysno"],
        unique=True,
        postgresql_where=sa.text("state = 1"),
        sqlite_where=sa.text("state = 1"),
    )
    op.create_table(
        "billing_ledger",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "account_sysno", BigId, sa.ForeignKey("billing_account.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("kind", sa.SmallInteger(), nullable=False),
        sa.Column("amount_fen", sa.BigInteger(), nullable=False),
        sa.Column("balance_fen", sa.BigInteger(), nullable=False),
        sa.Column("kwh", sa.Float(), nullable=True),
        sa.Column("method", sa.String(16), nullable=True),
        sa.Column("operator", sa.String(128), nullable=False),
        sa.Column("remark", sa.String(255), nullable=True),
        sa.Column("bill_sysno", BigId, nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
    )
    op.create_index("ix_billing_ledger_account", "billing_ledger", ["account_sysno", "sysno"])
    op.create_table(
        "billing_bill",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "account_sysno", BigId, sa.ForeignKey("billing_account.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("month", sa.String(7), nullable=False),
        sa.Column("kwh", sa.Float(), nullable=False),
        sa.Column("periods", sa.JSON(), nullable=False),
        sa.Column("amount_fen", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.SmallInteger(), nullable=False),
        sa.Column("settle_time", Time, nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
    )
    op.create_index("ux_billing_bill_month", "billing_bill", ["account_sysno", "month"], unique=True)
    op.create_table(
        "billing_power_action",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "account_sysno", BigId, sa.ForeignKey("billing_account.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("due_time", Time, nullable=False),
        sa.Column("claim_time", Time, nullable=True),
        sa.Column("command_sysno", BigId, nullable=True),
        sa.Column("outcome", sa.String(255), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
    )
    op.create_index("ix_billing_power_action_state", "billing_power_action", ["state", "due_time"])
    op.create_table(
        "billing_order",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column(
            "account_sysno", BigId, sa.ForeignKey("billing_account.sysno", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("business_type", sa.SmallInteger(), nullable=False),
        sa.Column("review_state", sa.SmallInteger(), nullable=False),
        sa.Column("done_state", sa.SmallInteger(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("remark", sa.String(255), nullable=True),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("reviewer", sa.String(128), nullable=True),
        sa.Column("review_remark", sa.String(255), nullable=True),
        sa.Column("review_time", Time, nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.PrimaryKeyConstraint("sysno"),
    )
    op.create_index("ix_billing_order_account", "billing_order", ["account_sysno", "sysno"])


def downgrade() -> None:
    for table in (
        "billing_order",
        "billing_power_action",
        "billing_bill",
        "billing_ledger",
        "billing_account",
    ):
        op.drop_table(table)
    op.drop_table("billing_rule")
