"""A share keeps the project's name it was made or ended under

Revision ID: 2026_12_06_share_sides
Revises: 2026_12_05_kept_ids
Create Date: 2026-11-28 05:00:00

The share list joined the project's owner and name as they are now. After a transfer, a former sharee
read the new owner's name and mobile number and the name the new owner gave the project, and the new
owner read every share the old owner had ever made, with its contacts. The list now joins the share's
own ``sharer_sysno`` (which a transfer hands to the new owner only for the shares that go on), and a
share no longer in force shows ``project_name``, the name when it was made or ended.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "2026_12_06_share_sides"
down_revision: str | None = "2026_12_05_kept_ids"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("project_share") as batch_op:
        batch_op.add_column(
            sa.Column("project_name", sa.String(length=64), nullable=False, server_default="")
        )
    op.execute(
        "UPDATE project_share SET project_name ="
        " (SELECT project.name FROM project WHERE project.sysno = project_share.project_sysno)"
    )
    # Shares that went on with a transferred project are its owner's now.
    op.execute(
        "UPDATE project_share SET sharer_sysno ="
        " (SELECT project.customer_sysno FROM project WHERE project.sysno = project_share.project_sysno)"
        " WHERE status IN ('pending', 'accepted')"
    )


def downgrade() -> None:
    with op.batch_alter_table("project_share") as batch_op:
        batch_op.drop_column("project_name")
