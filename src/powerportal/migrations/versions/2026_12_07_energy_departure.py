"""Record devices leaving a project (energy_departure), so that its history stays as it was

Revision ID: 2026_12_07_energy_departure
Revises: 2026_12_06_share_sides
Create Date: 2026-11-28 08:00:00

A project's energy figures left out its 总进线 by the devices in it now: a main moved to another
project (or deleted) became a load in its old project's history, which then counted its branches
twice. The table of the project a device moved to showed readings taken before the move. Triggers
on ``device`` now note each move (every device) and each deletion of a 总进线: the project left, the
project joined, when, and whether the device was the left project's 总进线 then.

Moves made before this revision are read from the consumption: a device with consumption in a
project other than its own left it for its own at the end of its last quarter there, a 总进线 if it
is marked now. (A 总进线 deleted before this revision took its mark with it: nothing tells it apart.)
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_12_07_energy_departure"
down_revision: str | None = "2026_12_06_share_sides"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = powerportal.core.database.UTCDateTime(timezone=True)

_MARKED = "EXISTS (SELECT 1 FROM energy_incoming_main m WHERE m.device_sysno = {d})"
_INTO = "INSERT INTO energy_departure (device_sysno, left_at, project_sysno, to_project_sysno, incoming_main)"
# Devices with consumption in a project other than their own (their year roll-ups say so), and when
# their last quarter there ends.
_EARLIER = (
    "SELECT c.device, {end} AS left_at, c.project, c.joined, c.main FROM (SELECT DISTINCT"  # noqa: S608
    " r.owner_sysno AS device, r.project_sysno AS project, d.project_sysno AS joined, "
    + _MARKED.format(d="r.owner_sysno")
    + " AS main FROM energy_rollup r JOIN device d ON d.sysno = r.owner_sysno"
    " WHERE r.scope = 0 AND r.grain = 3 AND r.project_sysno <> d.project_sysno) c"
)
_LAST_QUARTER = "(SELECT max(i.start) FROM energy_interval i WHERE i.device_sysno = c.device AND i.project_sysno = c.project)"


def _note_earlier(end: str) -> None:
    """The moves made before this revision, as the consumption shows them (``end``: the last quarter's end)."""
    op.execute(f"{_INTO} SELECT * FROM ({_EARLIER.format(end=end)}) e WHERE e.left_at IS NOT NULL")  # noqa: S608


def _note(old: str, now: str, to: str) -> str:
    """The statement a trigger notes a departure with (``old``: the device's row before)."""
    return (
        f"{_INTO} VALUES ({old}.sysno, {now}, {old}.project_sysno, {to}, {_MARKED.format(d=old + '.sysno')})"
    )


def upgrade() -> None:
    op.create_table(
        "energy_departure",
        sa.Column("device_sysno", sa.BigInteger(), nullable=False),
        sa.Column("left_at", Time, nullable=False),
        sa.Column("project_sysno", sa.BigInteger(), nullable=False),
        sa.Column("to_project_sysno", sa.BigInteger(), nullable=True),
        sa.Column("incoming_main", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("device_sysno", "left_at", "project_sysno", name=op.f("pk_energy_departure")),
    )
    op.create_index("ix_energy_departure_project", "energy_departure", ["project_sysno"], unique=False)
    op.create_index(
        "ix_energy_departure_to_project", "energy_departure", ["to_project_sysno", "left_at"], unique=False
    )
    if op.get_bind().dialect.name == "postgresql":
        _note_earlier(f"{_LAST_QUARTER} + interval '15 minutes'")
        # A move: any device; a deletion: a 总进线 (a trigger's WHEN takes no sub-query here). BEFORE
        # the deletion, which takes the device's mark away.
        op.execute(
            "CREATE FUNCTION energy_departure_note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF TG_OP = 'UPDATE' THEN {_note('OLD', 'now()', 'NEW.project_sysno')} ON CONFLICT DO NOTHING;"
            f" ELSIF {_MARKED.format(d='OLD.sysno')} THEN {_note('OLD', 'now()', 'NULL')} ON CONFLICT DO NOTHING;"
            " END IF; RETURN OLD; END $$"
        )
        op.execute(
            "CREATE TRIGGER energy_departure_move AFTER UPDATE OF project_sysno ON device FOR EACH ROW"
            " WHEN (OLD.project_sysno IS DISTINCT FROM NEW.project_sysno) EXECUTE FUNCTION energy_departure_note()"
        )
        op.execute(
            "CREATE TRIGGER energy_departure_delete BEFORE DELETE ON device FOR EACH ROW"
            " EXECUTE FUNCTION energy_departure_note()"
        )
        return
    _note_earlier(f"strftime('%Y-%m-%d %H:%M:%f', {_LAST_QUARTER}, '+15 minutes') || '000'")
    now = "strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'"  # six decimals, as the models store times
    moved = _note("old", now, "new.project_sysno").replace("INSERT", "INSERT OR IGNORE", 1)
    deleted = _note("old", now, "NULL").replace("INSERT", "INSERT OR IGNORE", 1)
    op.execute(
        "CREATE TRIGGER energy_departure_move AFTER UPDATE OF project_sysno ON device"
        f" WHEN old.project_sysno IS NOT new.project_sysno BEGIN {moved}; END"
    )
    op.execute(
        f"CREATE TRIGGER energy_departure_delete BEFORE DELETE ON device WHEN {_MARKED.format(d='old.sysno')}"
        f" BEGIN {deleted}; END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER energy_departure_move ON device")
        op.execute("DROP TRIGGER energy_departure_delete ON device")
        op.execute("DROP FUNCTION energy_departure_note()")
    else:
        op.execute("DROP TRIGGER energy_departure_move")
        op.execute("DROP TRIGGER energy_departure_delete")
    op.drop_index("ix_energy_departure_to_project", table_name="energy_departure")
    op.drop_index("ix_energy_departure_project", table_name="energy_departure")
    op.drop_table("energy_departure")
