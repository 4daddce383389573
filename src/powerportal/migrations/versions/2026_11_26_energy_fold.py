"""Energy roll-ups are added after the batch commits (energy_pending); devices get year roll-ups

Revision ID: 2026_11_26_energy_fold
Revises: 2026_11_25_recharge_index
Create Date: 2026-11-26 09:00:00

The ingest writes a batch's intervals and one ``energy_pending`` row of their changes; once it
committed the changes are added to the roll-ups. A device's year (grain 3, from its local 1 January)
joins its day and month: a year's ranking reads one row per device. Existing month roll-ups are
summed into years here.
"""

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from alembic import op

import powerportal.core.database

revision: str = "2026_11_26_energy_fold"
down_revision: str | None = "2026_11_25_recharge_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)
DEVICE, MONTH, YEAR = 0, 2, 3
VALUES = [
    *(f"kwh_{i}" for i in range(5)),
    *(f"cost_{i}" for i in range(5)),
    "n_estimated",
    "n_reset",
    "n_implausible",
]


def upgrade() -> None:
    op.create_table(
        "energy_pending",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("changes", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_energy_pending")),
    )
    _years_from_months()


def _years_from_months() -> None:
    rollup = sa.table(
        "energy_rollup",
        *(sa.column(c) for c in ("scope", "owner_sysno", "grain", "project_sysno", *VALUES)),
        sa.column("start", Time),
    )
    project = sa.table("project", sa.column("sysno"), sa.column("timezone"))
    bind = op.get_bind()
    zones = {
        sysno: ZoneInfo(tz) for sysno, tz in bind.execute(sa.select(project.c.sysno, project.c.timezone))
    }
    years: dict[tuple[int, datetime, int], list[float]] = defaultdict(lambda: [0.0] * len(VALUES))
    months = sa.select(
        rollup.c.owner_sysno, rollup.c.start, rollup.c.project_sysno, *(rollup.c[v] for v in VALUES)
    )
    for owner, start, project_sysno, *values in bind.execute(
        months.where(rollup.c.scope == DEVICE, rollup.c.grain == MONTH)
    ):
        tz = zones.get(project_sysno, ZoneInfo("Asia/Shanghai"))
        local = start.astimezone(tz)
        first = datetime(local.year, 1, 1, tzinfo=tz).astimezone(UTC)
        sums = years[(owner, first, project_sysno)]
        for i, v in enumerate(values):
            sums[i] += v or 0
    if years:
        op.bulk_insert(
            rollup,
            [
                {"scope": DEVICE, "owner_sysno": o, "grain": YEAR, "start": s, "project_sysno": p}
                | dict(zip(VALUES, sums, strict=True))
                for (o, s, p), sums in years.items()
            ],
        )


def downgrade() -> None:
    op.execute("DELETE FROM energy_rollup WHERE grain = 3")  # YEAR
    op.drop_table("energy_pending")
