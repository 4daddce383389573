"""How long raw readings are kept: old ones go, recent ones and the roll-ups stay, on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, text

from powerportal.core.database import create_engine, create_sessionmaker
from powerportal.telemetry import retention, service
from powerportal.telemetry.models import Reading
from tests.energy.test_energy_observer import setup

NOW = datetime(2026, 11, 25, 8, 0, tzinfo=UTC)


async def test_readings_older_than_the_retention_go(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = create_sessionmaker(engine)
    try:
        device, _ = await setup(sessions)
        # The database made its month partitions from the real date; make those a server running at NOW
        # would have (drops nothing), or the readings of a month before them land in the default partition.
        await retention.maintain(engine, keep_days=0, now=NOW)
        ages = [500, 450, 401, 399, 30, 0]  # days before NOW
        rows = [
            service.reading_row(
                device_sysno=device, ts=NOW - timedelta(days=age), values={"energy": 1.0}, extra={}
            )
            for age in ages
        ]
        async with sessions() as session:
            await service.insert_readings(session=session, rows=rows)
            await session.commit()
        dropped = await retention.maintain(engine, keep_days=400, now=NOW)
        assert dropped >= 2
        async with sessions() as session:
            found = await session.scalars(select(Reading.ts).where(Reading.device_sysno == device))
            kept = sorted(found.all())
        # PostgreSQL drops a month's partition whole once all of it is past the retention: the
        # reading 401 days old shares its month with readings still kept, and stays till that month ends.
        oldest_kept = 401 if engine.dialect.name == "postgresql" else 399
        assert kept == sorted(NOW - timedelta(days=age) for age in ages if age <= oldest_kept)
        # run again: nothing more goes, nothing breaks
        await retention.maintain(engine, keep_days=400, now=NOW)
        async with sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Reading)) == len(kept)
        if engine.dialect.name == "postgresql":
            async with engine.connect() as conn:
                ahead = retention.partition_name(datetime(2027, 2, 1, tzinfo=UTC))
                found = await conn.scalar(text("SELECT to_regclass(:name) IS NOT NULL"), {"name": ahead})
            assert found, "the months ahead get their partitions"
    finally:
        await engine.dispose()


async def test_zero_keeps_everything(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = create_sessionmaker(engine)
    try:
        device, _ = await setup(sessions)
        row = service.reading_row(
            device_sysno=device, ts=NOW - timedelta(days=3000), values={"energy": 1.0}, extra={}
        )
        async with sessions() as session:
            await service.insert_readings(session=session, rows=[row])
            await session.commit()
        await retention.maintain(engine, keep_days=0, now=NOW)
        async with sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Reading)) == 1
    finally:
        await engine.dispose()
