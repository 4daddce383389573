"""Indexes the lists read their pages through

Revision ID: 2026_11_24_list_indexes
Revises: 2026_11_21_oplog_ids
Create Date: 2026-11-24 19:51:34

The group list shows each group's last run (without an index that look-up scans every run), and the
group and task lists page by creation time within a customer.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_11_24_list_indexes"
down_revision: str | None = "2026_11_21_oplog_ids"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_control_run_group", "control_run", ["group_sysno", "sysno"])
    op.create_index("ix_device_group_customer_time", "device_group", ["customer_sysno", "create_time"])
    op.drop_index("ix_timed_task_customer", table_name="timed_task")
    op.create_index("ix_timed_task_customer", "timed_task", ["customer_sysno", "create_time"])


def downgrade() -> None:
    op.drop_index("ix_timed_task_customer", table_name="timed_task")
    op.create_index("ix_timed_task_customer", "timed_task", ["customer_sysno"])
    op.drop_index("ix_device_group_customer_time", table_name="device_group")
    op.drop_index("ix_control_run_group", table_name="control_run")
