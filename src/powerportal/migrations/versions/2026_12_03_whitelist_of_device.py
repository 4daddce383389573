"""A load whitelist belongs to its device alone

Revision ID: 2026_12_03_whitelist_of_device
Revises: 2026_12_02_energy_facts
Create Date: 2026-11-28 04:30:00

``load_whitelist.project_sysno`` kept the project a device was in when its whitelist was saved: after
the gateway moved, the whitelist was still in force but listed under the old project. The device's
own project is the only one that counts, so the column goes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "2026_12_03_whitelist_of_device"
down_revision: str | None = "2026_12_02_energy_facts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("load_whitelist") as batch_op:
        batch_op.drop_column("project_sysno")


def downgrade() -> None:
    with op.batch_alter_table("load_whitelist") as batch_op:
        batch_op.add_column(sa.Column("project_sysno", BigId, nullable=True))
    op.execute(
        "UPDATE load_whitelist SET project_sysno = "
        "(SELECT project_sysno FROM device WHERE device.sysno = load_whitelist.device_sysno)"
    )
    op.execute("DELETE FROM load_whitelist WHERE project_sysno IS NULL")  # of no device (none with the key)
    with op.batch_alter_table("load_whitelist") as batch_op:
        batch_op.alter_column("project_sysno", nullable=False)
        batch_op.create_foreign_key(
            "fk_load_whitelist_project_sysno_project",
            "project",
            ["project_sysno"],
            ["sysno"],
            ondelete="CASCADE",
        )
