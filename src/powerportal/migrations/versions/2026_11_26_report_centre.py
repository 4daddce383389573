"""The report centre: report files generated in the background, and scheduled reports

Revision ID: 2026_11_26_report_centre
Revises: 2026_11_26_energy_fold
Create Date: 2026-11-26 11:00:00

``report_job`` is a file being written or kept (its ``(subscription, period)`` unique: a scheduled
period is claimed once across processes); ``report_subscription`` a report sent every day, week or
month.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_26_report_centre"
down_revision: str | None = "2026_11_26_energy_fold"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "report_subscription",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("project_sysno", BigId, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("frequency", sa.String(8), nullable=False),
        sa.Column("query", sa.JSON(), nullable=False),
        sa.Column("emails", sa.JSON(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("brand", sa.Integer(), nullable=False),
        sa.Column("last_period", sa.String(32), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("update_time", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["customer_sysno"],
            ["customer.sysno"],
            name=op.f("fk_report_subscription_customer_sysno_customer"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["project_sysno"],
            ["project.sysno"],
            name=op.f("fk_report_subscription_project_sysno_project"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_report_subscription")),
    )
    op.create_index("ix_report_subscription_customer", "report_subscription", ["customer_sysno", "sysno"])
    op.create_table(
        "report_job",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("subscription_sysno", BigId, nullable=True),
        sa.Column("period", sa.String(32), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("query", sa.JSON(), nullable=False),
        sa.Column("brand", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(255), nullable=True),
        sa.Column("size", BigId, nullable=True),
        sa.Column("detail", sa.String(500), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.Column("start_time", Time, nullable=True),
        sa.Column("heartbeat", Time, nullable=True),
        sa.Column("end_time", Time, nullable=True),
        sa.Column("expire_time", Time, nullable=True),
        sa.ForeignKeyConstraint(
            ["customer_sysno"],
            ["customer.sysno"],
            name=op.f("fk_report_job_customer_sysno_customer"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["subscription_sysno"],
            ["report_subscription.sysno"],
            name=op.f("fk_report_job_subscription_sysno_report_subscription"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_report_job")),
        sa.UniqueConstraint("subscription_sysno", "period", name="uq_report_job_subscription_period"),
    )
    op.create_index("ix_report_job_customer", "report_job", ["customer_sysno", "sysno"])
    op.create_index("ix_report_job_status", "report_job", ["status", "sysno"])


def downgrade() -> None:
    op.drop_table("report_job")
    op.drop_table("report_subscription")
