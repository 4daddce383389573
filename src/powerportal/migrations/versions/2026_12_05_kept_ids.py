"""SQLite never reuses the id of a deleted project, building, alarm or offline spell

Revision ID: 2026_12_05_kept_ids
Revises: 2026_12_04_account_of_device
Create Date: 2026-11-28 05:10:00

Rows that outlive these keep their ids without a foreign key: a load event its building, a notice
its project and the alarm or offline spell it is about (those go with their device), a texting rule
its projects. Without AUTOINCREMENT, SQLite gave the next row, anyone's, the id of the newest one
deleted, and the old rows were read as that stranger's: a load event listed under another customer's
building, an old notice naming another customer's device and gateway. PostgreSQL's sequences never
reuse an id. SQLite cannot add AUTOINCREMENT to a table; it is rebuilt with foreign keys off, as in
``2026_11_24_gateway_identity``.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_12_05_kept_ids"
down_revision: str | None = "2026_12_04_account_of_device"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _sqlite_rebuild(autoincrement: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    raw = bind.connection.dbapi_connection
    if raw is None:
        raise RuntimeError("no database connection")
    raw.commit()  # PRAGMA foreign_keys is ignored inside a transaction
    bind.exec_driver_sql("PRAGMA foreign_keys=OFF")
    try:
        # Only what the rebuild breaks stops it; a row a database already had without its parent stays.
        before = set(bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall())
        for table in ("project", "building", "alarm", "offline_log"):
            with op.batch_alter_table(
                table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
            ):
                pass
        broken = set(bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()) - before
        if broken:
            raise RuntimeError(f"foreign keys broken by the rebuild: {sorted(broken)[:5]}")
        raw.commit()
    finally:
        bind.exec_driver_sql("PRAGMA foreign_keys=ON")


def upgrade() -> None:
    _sqlite_rebuild(autoincrement=True)


def downgrade() -> None:
    _sqlite_rebuild(autoincrement=False)
