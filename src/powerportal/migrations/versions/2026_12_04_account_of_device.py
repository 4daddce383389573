"""A billing account is always in its device's project

Revision ID: 2026_12_04_account_of_device
Revises: 2026_12_03_whitelist_of_device
Create Date: 2026-11-28 04:50:00

``billing_account.project_sysno`` is what every billing query filters and checks access by. It was
copied from the device when the account opened, and a gateway moved to another project left it
behind: the room's account was listed under the old project, its viewers were told of its balance,
and a transfer of the old project handed it to another customer. A trigger keeps it the device's,
whatever moves the device; accounts that moved earlier are put right here.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_12_04_account_of_device"
down_revision: str | None = "2026_12_03_whitelist_of_device"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FOLLOW = (
    "UPDATE billing_account SET project_sysno = {n}.project_sysno"
    " WHERE device_sysno = {n}.sysno AND project_sysno <> {n}.project_sysno"
)
_NAME = "billing_account_follows_device"


def upgrade() -> None:
    op.execute(
        "UPDATE billing_account SET project_sysno ="
        " (SELECT device.project_sysno FROM device WHERE device.sysno = billing_account.device_sysno)"
        " WHERE project_sysno <>"
        " (SELECT device.project_sysno FROM device WHERE device.sysno = billing_account.device_sysno)"
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"CREATE FUNCTION {_NAME}() RETURNS trigger LANGUAGE plpgsql AS"
            f" $$ BEGIN {_FOLLOW.format(n='NEW')}; RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE TRIGGER {_NAME} AFTER UPDATE OF project_sysno ON device FOR EACH ROW"
            f" WHEN (OLD.project_sysno IS DISTINCT FROM NEW.project_sysno) EXECUTE FUNCTION {_NAME}()"
        )
        return
    op.execute(
        f"CREATE TRIGGER {_NAME} AFTER UPDATE OF project_sysno ON device"
        f" WHEN old.project_sysno IS NOT new.project_sysno BEGIN {_FOLLOW.format(n='new')}; END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER {_NAME} ON device")
        op.execute(f"DROP FUNCTION {_NAME}()")
    else:
        op.execute(f"DROP TRIGGER {_NAME}")
