"""How long raw readings are kept, and (on PostgreSQL) their monthly partitions.

Raw readings are the bulk of the database; what the energy screens read are roll-ups kept for
good. On PostgreSQL ``reading`` is partitioned by month: the months ahead are created before they
begin, and a month older than the retention is dropped whole (no row-by-row delete, no bloat).
On SQLite old readings are deleted in slices.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine

from powerportal.core.database import SQLITE_STAMP

log = logging.getLogger("powerportal.retention")

DEFAULT_PARTITION = "reading_default"
MONTHS_AHEAD = 3
PAST_DAYS = 400
_DELETE_SLICE = 10_000


def _month(at: datetime) -> datetime:
    return datetime(at.year, at.month, 1, tzinfo=UTC)


def _next(month: datetime) -> datetime:
    return datetime(month.year + month.month // 12, month.month % 12 + 1, 1, tzinfo=UTC)


def partition_name(month: datetime) -> str:
    """The partition of a month: ``reading_y2026m11``."""
    return f"reading_y{month.year:04d}m{month.month:02d}"


def create_partitions(conn: Connection, first: datetime, now: datetime) -> int:
    """Create the month partitions from ``first``'s month to ``MONTHS_AHEAD`` after ``now``'s (PostgreSQL)."""
    existing = set(
        conn.execute(
            text(
                "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'reading'"
            )
        ).scalars()
    )
    made = 0
    month, last = _month(first), _month(now)
    for _ in range(MONTHS_AHEAD):
        last = _next(last)
    while month <= last:
        name = partition_name(month)
        if name not in existing:
            # A month the default partition already holds rows of cannot be split off; it stays there.
            taken = conn.execute(
                text(f"SELECT 1 FROM {DEFAULT_PARTITION} WHERE ts >= :lo AND ts < :hi LIMIT 1"),  # noqa: S608
                {"lo": month, "hi": _next(month)},
            ).first()
            if taken is None:
                conn.execute(
                    text(
                        f"CREATE TABLE {name} PARTITION OF reading "
                        f"FOR VALUES FROM ('{month.isoformat()}') TO ('{_next(month).isoformat()}')"
                    )
                )
                made += 1
        month = _next(month)
    return made


async def maintain(engine: AsyncEngine, *, keep_days: int, now: datetime | None = None) -> int:
    """Create the months' partitions and drop readings older than ``keep_days`` (0: none); return what went.

    Partitions are made from ``PAST_DAYS`` back (a new database's history lands in them) to
    ``MONTHS_AHEAD`` months ahead. Returns partitions plus rows dropped.
    """
    now = now or datetime.now(UTC)
    cutoff = now - timedelta(days=keep_days) if keep_days else datetime(1970, 1, 1, tzinfo=UTC)
    dropped = 0
    if engine.dialect.name == "postgresql":
        async with engine.begin() as conn:
            await conn.run_sync(create_partitions, now - timedelta(days=PAST_DAYS), now)
            names = (
                await conn.execute(
                    text(
                        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                        "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'reading'"
                    )
                )
            ).scalars()
            for name in list(names):
                if name.startswith("reading_y"):
                    month = datetime(int(name[9:13]), int(name[14:16]), 1, tzinfo=UTC)
                    if _next(month) <= cutoff:
                        await conn.execute(text(f"DROP TABLE {name}"))
                        dropped += 1
            result = await conn.execute(
                text(f"DELETE FROM {DEFAULT_PARTITION} WHERE ts < :cutoff"),  # noqa: S608 - our table
                {"cutoff": cutoff},
            )
            dropped += result.rowcount or 0
        return dropped
    while True:
        async with engine.begin() as conn:
            result = await conn.execute(
                text(
                    "DELETE FROM reading WHERE rowid IN "
                    "(SELECT rowid FROM reading WHERE ts < :cutoff LIMIT :n)"
                ),
                {"cutoff": cutoff.astimezone(UTC).strftime(SQLITE_STAMP), "n": _DELETE_SLICE},
            )
        dropped += result.rowcount or 0
        if (result.rowcount or 0) < _DELETE_SLICE:
            return dropped
        await asyncio.sleep(0)
