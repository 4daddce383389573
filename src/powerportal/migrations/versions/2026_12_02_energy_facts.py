"""Count the changes of what energy counting depends on (energy_facts)

Revision ID: 2026_12_02_energy_facts
Revises: 2026_12_01_gateway_building
Create Date: 2026-11-27 04:30:00

The ingest's energy observer keeps each device's project, rated current, phases and meter changes
between batches. It used to have the database compare its copies of a batch's devices with their
rows in every batch. Triggers now add 1 to ``energy_facts.generation`` whenever one of those
changes (a device's project, rated current or phases updated, a device deleted, a meter change
added, edited or removed): the observer reads the number in each batch and compares its copies only
when it moved.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "2026_12_02_energy_facts"
down_revision: str | None = "2026_12_01_gateway_building"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# An upsert: the row comes back should anything have emptied the table (the observer reads 0 then).
_BUMP = (
    "INSERT INTO energy_facts (id, generation) VALUES (1, 1)"
    " ON CONFLICT (id) DO UPDATE SET generation = energy_facts.generation + 1"
)
_DEVICE_CHANGED = (
    "{o}.project_sysno IS DISTINCT FROM {n}.project_sysno OR {o}.rated_current IS DISTINCT FROM"
    " {n}.rated_current OR {o}.phases IS DISTINCT FROM {n}.phases"
)
# (name, event, table, condition or None)
_TRIGGERS = (
    (
        "energy_facts_device_update",
        "UPDATE OF project_sysno, rated_current, phases",
        "device",
        _DEVICE_CHANGED,
    ),
    ("energy_facts_device_delete", "DELETE", "device", None),
    ("energy_facts_meter_change", "INSERT OR UPDATE OR DELETE", "meter_change", None),
)


def upgrade() -> None:
    op.create_table(
        "energy_facts",
        sa.Column("id", sa.SmallInteger(), nullable=False),
        sa.Column("generation", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_energy_facts")),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION energy_facts_bump() RETURNS trigger LANGUAGE plpgsql AS"
            f" $$ BEGIN {_BUMP}; RETURN NULL; END $$"
        )
        for name, event, table, condition in _TRIGGERS:
            when = f" WHEN ({condition.format(o='OLD', n='NEW')})" if condition else ""
            op.execute(
                f"CREATE TRIGGER {name} AFTER {event} ON {table} FOR EACH ROW{when}"
                " EXECUTE FUNCTION energy_facts_bump()"
            )
        return
    for name, event, table, condition in _sqlite_triggers():
        when = f" WHEN {condition.format(o='old', n='new')}" if condition else ""
        op.execute(f"CREATE TRIGGER {name} AFTER {event} ON {table}{when} BEGIN {_BUMP}; END")


def _sqlite_triggers() -> list[tuple[str, str, str, str | None]]:
    """SQLite's triggers: one an event (named after it where there are several); IS NOT for IS DISTINCT FROM."""
    return [
        (name if " OR " not in events else f"{name}_{event.lower()}", event, table,
         condition.replace("IS DISTINCT FROM", "IS NOT") if condition else None)
        for name, events, table, condition in _TRIGGERS
        for event in events.split(" OR ")
    ]  # fmt: skip


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name, _, table, _ in _TRIGGERS:
            op.execute(f"DROP TRIGGER {name} ON {table}")
        op.execute("DROP FUNCTION energy_facts_bump()")
    else:
        for name, _, _, _ in _sqlite_triggers():
            op.execute(f"DROP TRIGGER {name}")
    op.drop_table("energy_facts")
