"""Operation-log ids are never handed out twice on SQLite

Revision ID: 2026_11_21_oplog_ids
Revises: 2026_11_21_alarms
Create Date: 2026-11-21 09:40:00

Without AUTOINCREMENT, SQLite gives the next row the id of the newest row once that row is deleted.
The operation-log list remembers each row's JSON by id (rows never change), so an id must stand
for one row forever. PostgreSQL sequences never go back, so only SQLite's table is rebuilt.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2026_11_21_oplog_ids"
down_revision: str | None = "2026_11_21_alarms"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "operation_log", recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "operation_log", recreate="always", table_kwargs={"sqlite_autoincrement": False}
        ):
            pass
