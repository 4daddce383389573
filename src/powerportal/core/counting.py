"""Remembered ``COUNT(*)`` answers of paged lists, dropped when a table they read is written.

Counting a customer's whole log on every page costs more than reading the page itself once the
log grows (20,000 rows: ~1.6 ms on PostgreSQL, ~4.5 ms on SQLite against ~0.05 ms for the page). A
count is kept with the version of every table its statement reads; every session of this process
bumps the versions of the tables it wrote when it commits (``track_writes``), so this process
answers fresh at once, whoever wrote.

Other processes' writes are caught up with in the background: a count older than half of ``ttl``
is read anew aside (off the event loop on SQLite) while the remembered one still answers, and one
older than ``ttl`` is never answered. On a SQLite file a count is also known exact for as long as
nothing at all was committed since it was read (``Reader.data_version``), however old it is, unless
its statement reads the clock (a share in force until its expiry): time changes its answer without
a write, so such a count lives by ``ttl`` alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Select, event
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.sql.util import find_tables
from sqlalchemy.sql.visitors import iterate

from powerportal.core.reads import Reader
from powerportal.core.shared import SharedRuns

SESSION_INFO_KEY = "count_cache"
_WRITTEN_KEY = "tables_written"
MAX_ENTRIES = 20_000


def tables_of(statement: Select[Any]) -> tuple[str, ...]:
    """The names of every table a statement reads, its sub-queries included."""
    return tuple(sorted({t.name for t in find_tables(statement, include_joins=True, include_aliases=True)}))


_CLOCK_FUNCTIONS = frozenset({"current_timestamp", "current_date", "current_time", "now", "localtimestamp"})


@lru_cache(maxsize=1024)
def reads_the_clock(statement: Select[Any]) -> bool:
    """Whether the statement's answer depends on the database's clock, its sub-queries included."""
    return any(
        isinstance(element, FunctionElement) and element.name.lower() in _CLOCK_FUNCTIONS
        for element in iterate(statement)
    )


@dataclass(slots=True)
class _Count:
    stamp: tuple[int, ...]  # the versions of its tables when it was read
    total: int
    read_at: float  # the clock (time.monotonic) when its read began, or when it was last known exact
    data_version: tuple[int, int] | None  # the database's (SQLite) when its read began


class CountCache:
    """Counts by key, each valid while the tables it read keep their version (and for ``ttl`` at most)."""

    def __init__(self, ttl_seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._ttl = ttl_seconds
        self._refresh_after = ttl_seconds / 2
        self._versions: dict[str, int] = {}
        self._counts: dict[Hashable, _Count] = {}
        self._counting: SharedRuns[int] = SharedRuns()

    def _stamp(self, tables: tuple[str, ...]) -> tuple[int, ...]:
        versions = self._versions
        return tuple(versions.get(t, 0) for t in tables)

    def remembered(self, key: Hashable, tables: tuple[str, ...]) -> int | None:
        """The count from memory if none of its tables changed since and it is fresh, else None."""
        found = self._counts.get(key)
        if found is None or found.stamp != self._stamp(tables) or self._clock() - found.read_at > self._ttl:
            return None
        return found.total

    def current(
        self,
        reader: Reader,
        *,
        key: Hashable,
        tables: tuple[str, ...],
        statement: Select[Any],
        params: Mapping[str, Any],
    ) -> int | None:
        """The count from memory when it may answer now, without a coroutine; else None (call ``count``).

        Past half of ``ttl`` it is read anew in the background, unless SQLite shows that nothing was
        committed since it was read (then it is exact and stays so).
        """
        found = self._counts.get(key)
        if found is None or found.stamp != self._stamp(tables):
            return None
        now = self._clock()
        age = now - found.read_at
        if age <= self._refresh_after:
            return found.total
        version = reader.data_version()
        if version is not None and version == found.data_version:
            found.read_at = now
            return found.total
        if age > self._ttl:
            return None
        stamp = found.stamp
        if not self._counting.running((key, stamp)):
            self._counting.start(
                (key, stamp), lambda: self._count(reader, key, tables, stamp, statement, params, False)
            )
        return found.total

    async def count(
        self,
        reader: Reader,
        *,
        key: Hashable,
        tables: tuple[str, ...],
        statement: Select[Any],
        params: Mapping[str, Any],
        inline: bool = True,
    ) -> int:
        """The statement's count, from memory when its tables have not changed since."""
        remembered = self.remembered(key, tables)
        if remembered is not None:
            return remembered
        stamp = self._stamp(tables)
        # Calls arriving while the count is read share that read (counting a long log takes a while).
        return await self._counting.run(
            (key, stamp), lambda: self._count(reader, key, tables, stamp, statement, params, inline)
        )

    async def _count(
        self,
        reader: Reader,
        key: Hashable,
        tables: tuple[str, ...],
        stamp: tuple[int, ...],
        statement: Select[Any],
        params: Mapping[str, Any],
        inline: bool,
    ) -> int:
        read_at = self._clock()
        version = None if reads_the_clock(statement) else reader.data_version()
        total = int(await reader.scalar(statement, params, inline=inline) or 0)
        if self._stamp(tables) == stamp:  # else a table was written meanwhile: the next call counts again
            if len(self._counts) >= MAX_ENTRIES:
                self._counts.clear()
            self._counts[key] = _Count(stamp, total, read_at, version)
        return total

    def tables_written(self, tables: Iterable[str]) -> None:
        """Forget every count that read any of these tables."""
        for table in tables:
            self._versions[table] = self._versions.get(table, 0) + 1


class CountingSession(Session):
    """A session that tells the process's ``CountCache`` (``info[SESSION_INFO_KEY]``) what it wrote."""


def _track_writes(session_class: type[Session]) -> None:

    def written(session: Session) -> set[str]:
        found: set[str] = session.info.setdefault(_WRITTEN_KEY, set())
        return found

    @event.listens_for(session_class, "after_flush")
    def _flushed(session: Session, _flush: UOWTransaction) -> None:
        tables = written(session)
        for obj in (*session.new, *session.dirty, *session.deleted):
            table = getattr(obj, "__table__", None)
            if table is not None:
                tables.add(table.name)

    @event.listens_for(session_class, "do_orm_execute")
    def _executed(state: ORMExecuteState) -> None:
        if state.is_insert or state.is_update or state.is_delete:
            table = getattr(state.statement, "table", None)
            name = getattr(table, "name", None)
            if isinstance(name, str):
                written(state.session).add(name)

    @event.listens_for(session_class, "after_commit")
    def _committed(session: Session) -> None:
        tables = session.info.pop(_WRITTEN_KEY, None)
        cache = session.info.get(SESSION_INFO_KEY)
        if tables and isinstance(cache, CountCache):
            cache.tables_written(tables)

    @event.listens_for(session_class, "after_rollback")
    def _rolled_back(session: Session) -> None:
        session.info.pop(_WRITTEN_KEY, None)


_track_writes(CountingSession)
