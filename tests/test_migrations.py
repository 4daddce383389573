"""The migrations build exactly the schema the models declare, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from powerportal.core.database import create_engine
from powerportal.models import Base


def _declared(obj: Any, name: str | None, kind: str, reflected: bool, _compare_to: Any) -> bool:
    # PostgreSQL keeps readings in monthly partitions that the ingest creates; the models know the parent.
    return not (kind == "table" and reflected and name is not None and name.startswith("reading_"))


async def test_the_migrated_schema_is_the_models_schema(database_url: str) -> None:
    def differences(connection: Connection) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"include_object": _declared})
        return list(compare_metadata(context, Base.metadata))

    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            found = await conn.run_sync(differences)
    finally:
        await engine.dispose()
    assert found == []
