"""Hot read-only queries outside the ORM session, as cheaply as the backend allows.

On a SQLite file the ``Reader`` keeps one read-only ``sqlite3`` connection and uses it on the event
loop itself. A page served by an index takes ~15 µs there; sending the same statement through an
``AsyncSession`` costs ~0.7 ms, nearly all of it thread hand-offs to aiosqlite and the GIL traffic
they cause, and SQLAlchemy's execution machinery adds ~30 µs more than the query. So each statement
is compiled once by SQLAlchemy (same SQL, same type conversions as everywhere else) and then run
on the driver directly. WAL lets the connection read while another one writes; it never writes,
so it never waits for the write lock.

Because a read holds the loop while it runs, give the reader only statements an index bounds (a
page, a count of one customer's rows), built once with ``bindparam`` (building a statement costs
more than running it). Elsewhere (PostgreSQL, in-memory SQLite) it runs them on a connection of the
async engine. It sees committed data only, never a request's own unflushed writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, TypeVarTuple, cast

from sqlalchemy import Select
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql.compiler import SQLCompiler

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
AnySelect = Select[*tuple[Any, ...]]

# A read on the event loop waits at most this long for SQLite (WAL readers almost never wait).
INLINE_BUSY_SECONDS = 1.0
# Statements are meant to be built once; this only bounds the harm of one built per call.
MAX_PREPARED = 512
# Answers kept until the database changes, bounded by their total rows.
MAX_CACHED_ROWS = 50_000

Processor = Callable[[Any], Any]


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for the inline connection, with its parameter and column conversions."""

    compiled: SQLCompiler
    binds: tuple[tuple[str, Processor | None], ...]
    columns: tuple[tuple[int, Processor], ...]

    @classmethod
    def compile(cls, statement: AnySelect, dialect: Dialect) -> Prepared:
        """Compile once: the SQL, the conversion of each positional parameter and of each column."""
        compiled = statement.compile(dialect=dialect)
        if any(bind.expanding for bind in compiled.binds.values()):
            raise ValueError("statements with expanding (IN) parameters cannot be prepared")
        binds = tuple(
            (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
            for name in compiled.positiontup or ()
        )
        columns = []
        for index, column in enumerate(statement.selected_columns):
            processor = column.type.dialect_impl(dialect).result_processor(dialect, None)
            if processor is not None:
                columns.append((index, processor))
        return cls(compiled, binds, tuple(columns))

    def run(self, connection: sqlite3.Connection, params: Mapping[str, Any]) -> tuple[tuple[Any, ...], ...]:
        """Execute on the driver and convert the rows as SQLAlchemy would."""
        values = self.compiled.construct_params(params)
        arguments = [values[name] if bind is None else bind(values[name]) for name, bind in self.binds]
        rows: list[tuple[Any, ...]] = connection.execute(self.compiled.string, arguments).fetchall()
        if not self.columns:
            return tuple(rows)
        converted = []
        for row in rows:
            fields = list(row)
            for index, processor in self.columns:
                fields[index] = processor(fields[index])
            converted.append(tuple(fields))
        return tuple(converted)


class Reader:
    """Runs prepared read-only statements; see the module notes."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        url = engine.url
        self._uri: str | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._uri = Path(url.database).resolve().as_uri() + "?mode=ro"
        self._connection: sqlite3.Connection | None = None
        self._prepared: dict[AnySelect, Prepared] = {}
        self._version: int | None = None
        self._results: dict[Hashable, tuple[tuple[Any, ...], ...]] = {}
        self._cached_rows = 0

    async def all(self, statement: Select[*Ts], params: Mapping[str, Any]) -> Sequence[tuple[*Ts]]:
        """Every row the statement selects."""
        if self._uri is None:
            async with self._engine.connect() as conn:
                result = await conn.execute(statement, params)
                return tuple(row._tuple() for row in result)
        return cast("Sequence[tuple[*Ts]]", self._run(self._uri, statement, params))

    async def scalar(self, statement: Select[T], params: Mapping[str, Any]) -> T | None:
        """The first column of the first row."""
        if self._uri is None:
            async with self._engine.connect() as conn:
                return await conn.scalar(statement, params)
        rows = self._run(self._uri, statement, params)
        return cast("T", rows[0][0]) if rows else None

    def _run(self, uri: str, statement: AnySelect, params: Mapping[str, Any]) -> tuple[tuple[Any, ...], ...]:
        if self._connection is None:
            self._connection = sqlite3.connect(
                uri, uri=True, timeout=INLINE_BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
        connection = self._connection
        try:
            # data_version moves whenever any other connection, in any process, commits: until it
            # does, an answer computed before is still the answer.
            version = connection.execute("PRAGMA data_version").fetchone()[0]
            if version != self._version:
                self._results.clear()
                self._cached_rows = 0
                self._version = version
            prepared = self._prepare(statement)
            key = (statement, tuple(params.items()))
            rows = self._results.get(key)
            if rows is None:
                rows = prepared.run(connection, params)
                if self._cached_rows + len(rows) > MAX_CACHED_ROWS:
                    self._results.clear()
                    self._cached_rows = 0
                self._results[key] = rows
                self._cached_rows += len(rows) + 1
            return rows
        except sqlite3.Error:
            self.close()
            raise

    def _prepare(self, statement: AnySelect) -> Prepared:
        prepared = self._prepared.get(statement)
        if prepared is None:
            if len(self._prepared) >= MAX_PREPARED:
                self._prepared.clear()
            prepared = self._prepared[statement] = Prepared.compile(statement, self._engine.dialect)
        return prepared

    def close(self) -> None:
        """Release the inline connection."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
