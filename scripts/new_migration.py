"""Autogenerate an Alembic revision named ``YYYY_MM_DD_<slug>`` from the models.

Usage: uv run python scripts/new_migration.py <slug> "<message>"
"""

import asyncio
import sys
import tempfile
from datetime import date
from pathlib import Path

from alembic import command

from powerportal.core.database import create_engine
from powerportal.core.migrate import alembic_config, upgrade


async def main(slug: str, message: str) -> None:
    """Generate the revision against a scratch database at head."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'gen.db'}"
        engine = create_engine(url)
        await upgrade(engine)
        await engine.dispose()
        config = alembic_config(url)
        rev_id = f"{date.today():%Y_%m_%d}_{slug}"
        await asyncio.to_thread(command.revision, config, message=message, autogenerate=True, rev_id=rev_id)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
