"""Gateways are told apart by registration, not serial number; credential changes reach every process

Revision ID: 2026_11_24_gateway_identity
Revises: 2026_11_24_list_indexes
Create Date: 2026-11-24 21:10:00

A deleted gateway's serial number can be registered again by another customer. The broker and the
ingest therefore key what they hold by gateway id and a generation (raised by every secret reset and
move), and SQLite must never hand a deleted gateway's or device's id to a new one (AUTOINCREMENT).
``gateway_revocation`` carries each credential change to every process's broker and ingest.

SQLite cannot add AUTOINCREMENT to a table; the table is rebuilt with foreign keys off (dropping a
referenced table with them on would cascade into every reading), as SQLite's own procedure says.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "2026_11_24_gateway_identity"
down_revision: str | None = "2026_11_24_list_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _generation() -> sa.Column[int]:
    return sa.Column("generation", sa.Integer(), server_default="1", nullable=False)


def _sqlite_rebuild(autoincrement: bool, add_generation: bool) -> None:
    bind = op.get_bind()
    raw = bind.connection.dbapi_connection
    if raw is None:
        raise RuntimeError("no database connection")
    raw.commit()  # PRAGMA foreign_keys is ignored inside a transaction
    bind.exec_driver_sql("PRAGMA foreign_keys=OFF")
    try:
        with op.batch_alter_table(
            "gateway", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ) as batch:
            if add_generation:
                batch.add_column(_generation())
            else:
                batch.drop_column("generation")
        with op.batch_alter_table(
            "device", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass
        broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"foreign keys broken by the rebuild: {broken[:5]}")
        raw.commit()
    finally:
        bind.exec_driver_sql("PRAGMA foreign_keys=ON")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rebuild(autoincrement=True, add_generation=True)
    else:
        op.add_column("gateway", _generation())
    op.create_table(
        "gateway_revocation",
        sa.Column(
            "sysno", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("gateway_sysno", sa.BigInteger(), nullable=False),
        sa.Column("sn", sa.String(length=64), nullable=False),
        sa.Column("valid_from", sa.Integer(), nullable=True),
        sa.Column("create_time", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sysno", name=op.f("pk_gateway_revocation")),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("gateway_revocation")
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rebuild(autoincrement=False, add_generation=False)
    else:
        op.drop_column("gateway", "generation")
