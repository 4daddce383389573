"""Energy: quarter-hour intervals and roll-ups, meter changes, tariff plans; readings partitioned by month

Revision ID: 2026_11_25_energy
Revises: 2026_11_24_gateway_refusals
Create Date: 2026-11-25 09:00:00

On PostgreSQL the raw ``reading`` table becomes partitioned by month (declarative range
partitioning on ``ts``), keeping its rows: old rows go to the partitions of their months, and a
default partition takes anything no month partition covers. ``telemetry.retention`` adds the months
ahead and drops those older than the retention setting.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

import powerportal.core.database
from powerportal.telemetry import retention

revision: str = "2026_11_25_energy"
down_revision: str | None = "2026_11_24_gateway_refusals"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Time = powerportal.core.database.UTCDateTime(timezone=True)


def _sums() -> list[sa.Column[float]]:
    return [
        *[sa.Column(f"kwh_{i}", sa.Float(), nullable=False) for i in range(5)],
        *[sa.Column(f"cost_{i}", sa.Float(), nullable=False) for i in range(5)],
    ]


def _flags() -> list[sa.Column[int]]:
    return [sa.Column(n, sa.Integer(), nullable=False) for n in ("n_estimated", "n_reset", "n_implausible")]


def _project_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["project_sysno"],
        ["project.sysno"],
        name=op.f(f"fk_{table}_project_sysno_project"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.add_column(
        "project", sa.Column("timezone", sa.String(length=64), server_default="Asia/Shanghai", nullable=False)
    )
    op.create_table(
        "energy_interval",
        sa.Column("device_sysno", sa.BigInteger(), nullable=False),
        sa.Column("start", Time, nullable=False),
        sa.Column("project_sysno", BigId, nullable=False),
        sa.Column("period", sa.SmallInteger(), nullable=False),
        sa.Column("kwh", sa.Float(), nullable=False),
        sa.Column("cost", sa.Float(), nullable=False),
        *_flags(),
        _project_fk("energy_interval"),
        sa.PrimaryKeyConstraint("device_sysno", "start", "project_sysno", name=op.f("pk_energy_interval")),
    )
    op.create_table(
        "energy_rollup",
        sa.Column("scope", sa.SmallInteger(), nullable=False),
        sa.Column("owner_sysno", sa.BigInteger(), nullable=False),
        sa.Column("grain", sa.SmallInteger(), nullable=False),
        sa.Column("start", Time, nullable=False),
        sa.Column("project_sysno", BigId, nullable=False),
        *_sums(),
        *_flags(),
        _project_fk("energy_rollup"),
        sa.PrimaryKeyConstraint(
            "scope", "owner_sysno", "grain", "start", "project_sysno", name=op.f("pk_energy_rollup")
        ),
    )
    op.create_index("ix_energy_rollup_project", "energy_rollup", ["project_sysno", "scope", "grain", "start"])
    op.create_table(
        "meter_change",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("device_sysno", BigId, nullable=False),
        sa.Column("change_time", Time, nullable=False),
        sa.Column("old_final", sa.Float(), nullable=False),
        sa.Column("new_initial", sa.Float(), nullable=False),
        sa.Column("remark", sa.String(length=500), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["device_sysno"],
            ["device.sysno"],
            name=op.f("fk_meter_change_device_sysno_device"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_meter_change")),
    )
    op.create_index("ix_meter_change_device", "meter_change", ["device_sysno", "change_time"])
    op.create_table(
        "tariff_plan",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("customer_sysno", BigId, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("is_default", sa.Boolean(), nullable=False),
        sa.Column("remark", sa.String(length=500), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["customer_sysno"],
            ["customer.sysno"],
            name=op.f("fk_tariff_plan_customer_sysno_customer"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_tariff_plan")),
    )
    op.create_index("ix_tariff_plan_customer", "tariff_plan", ["customer_sysno"])
    op.create_table(
        "tariff_version",
        sa.Column("sysno", BigId, autoincrement=True, nullable=False),
        sa.Column("plan_sysno", BigId, nullable=False),
        sa.Column("effective_date", sa.Date(), nullable=False),
        sa.Column("prices", sa.JSON(), nullable=False),
        sa.Column("seasons", sa.JSON(), nullable=False),
        sa.Column("holidays", sa.JSON(), nullable=True),
        sa.Column("create_time", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_sysno"],
            ["tariff_plan.sysno"],
            name=op.f("fk_tariff_version_plan_sysno_tariff_plan"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_tariff_version")),
    )
    op.create_index("ix_tariff_version_plan", "tariff_version", ["plan_sysno", "effective_date"], unique=True)
    op.create_table(
        "project_tariff",
        sa.Column("project_sysno", BigId, nullable=False),
        sa.Column("plan_sysno", BigId, nullable=False),
        _project_fk("project_tariff"),
        sa.ForeignKeyConstraint(
            ["plan_sysno"],
            ["tariff_plan.sysno"],
            name=op.f("fk_project_tariff_plan_sysno_tariff_plan"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("project_sysno", name=op.f("pk_project_tariff")),
    )
    op.create_table(
        "energy_incoming_main",
        sa.Column("device_sysno", BigId, nullable=False),
        sa.ForeignKeyConstraint(
            ["device_sysno"],
            ["device.sysno"],
            name=op.f("fk_energy_incoming_main_device_sysno_device"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("device_sysno", name=op.f("pk_energy_incoming_main")),
    )
    if op.get_bind().dialect.name == "postgresql":
        _partition_readings()


def _partition_readings() -> None:
    bind = op.get_bind()
    op.execute("ALTER TABLE reading RENAME TO reading_unpartitioned")
    op.execute("ALTER TABLE reading_unpartitioned RENAME CONSTRAINT pk_reading TO pk_reading_unpartitioned")
    op.execute(
        "ALTER TABLE reading_unpartitioned RENAME CONSTRAINT fk_reading_device_sysno_device "
        "TO fk_reading_unpartitioned_device"
    )
    op.execute("CREATE TABLE reading (LIKE reading_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (ts)")
    op.execute("ALTER TABLE reading ADD CONSTRAINT pk_reading PRIMARY KEY (device_sysno, ts)")
    op.execute(
        "ALTER TABLE reading ADD CONSTRAINT fk_reading_device_sysno_device FOREIGN KEY (device_sysno) "
        "REFERENCES device (sysno) ON DELETE CASCADE"
    )
    op.execute(f"CREATE TABLE {retention.DEFAULT_PARTITION} PARTITION OF reading DEFAULT")
    first = bind.execute(sa.text("SELECT min(ts) FROM reading_unpartitioned")).scalar()
    now = datetime.now(UTC)
    past = now - timedelta(days=retention.PAST_DAYS)
    retention.create_partitions(bind, min(first, past) if first else past, now)
    op.execute("INSERT INTO reading SELECT * FROM reading_unpartitioned")
    op.execute("DROP TABLE reading_unpartitioned")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE TABLE reading_flat (LIKE reading INCLUDING DEFAULTS)")
        op.execute("INSERT INTO reading_flat SELECT * FROM reading")
        op.execute("DROP TABLE reading CASCADE")
        op.execute("ALTER TABLE reading_flat RENAME TO reading")
        op.execute("ALTER TABLE reading ADD CONSTRAINT pk_reading PRIMARY KEY (device_sysno, ts)")
        op.execute(
            "ALTER TABLE reading ADD CONSTRAINT fk_reading_device_sysno_device FOREIGN KEY (device_sysno) "
            "REFERENCES device (sysno) ON DELETE CASCADE"
        )
    for table in ("energy_incoming_main", "project_tariff", "tariff_version", "tariff_plan", "meter_change"):
        op.drop_table(table)
    op.drop_index("ix_energy_rollup_project", table_name="energy_rollup")
    op.drop_table("energy_rollup")
    op.drop_table("energy_interval")
    op.drop_column("project", "timezone")
