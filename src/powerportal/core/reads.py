"""Hot read-only queries outside the ORM session, as cheaply as the backend allows.

Each statement is compiled once by SQLAlchemy (same SQL, same type conversions as everywhere
else) and then run on the database driver directly: SQLAlchemy's execution machinery costs more
than a page read through an index.

- A SQLite file is read through one read-only ``sqlite3`` connection on the event loop itself: an
  index-served page takes ~15 µs there, while an ``AsyncSession`` costs ~0.7 ms, nearly all of it
  thread hand-offs to aiosqlite and the GIL traffic they cause. WAL lets the connection read while
  another one writes; it never writes, so it never waits for the write lock.
- PostgreSQL is read through a few read-only asyncpg connections of its own (``Connections``; the
  engine's pool pings every connection it hands out, and its async adapter adds greenlet switches
  to every statement).
- Anything else (an in-memory SQLite database in tests) goes through the async engine.

Because an inline SQLite read holds the loop while it runs, read inline only statements an index
bounds (a page, a count of one customer's rows); a statement that may scan (a keyword searched
anywhere in a text) is read with ``inline=False``, through the engine in aiosqlite's thread.
Statements are built once with ``bindparam`` (building a statement costs more than running it;
``core/listing.py`` builds them per filter shape). The reader sees committed data only, never a
request's own unflushed writes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, TypeVarTuple, cast

import asyncpg
import orjson
from sqlalchemy import Select, exc
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

Processor = Callable[[Any], Any]
Rows = tuple[tuple[Any, ...], ...]


REQUIRED = object()  # marks a parameter the caller must give (it has no value in the statement)


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for a driver, with its parameter and column conversions."""

    compiled: SQLCompiler
    binds: tuple[tuple[str, Any, Processor | None], ...]
    columns: tuple[tuple[int, Processor], ...]

    @classmethod
    def compile(cls, statement: AnySelect, dialect: Dialect) -> Prepared:
        """Compile once: the SQL, each parameter's default and conversion, each column's conversion."""
        compiled = statement.compile(dialect=dialect)
        if compiled.post_compile_params:
            raise ValueError(
                "statements with parameters rendered at execution time (IN lists) cannot be prepared"
            )
        defaults = compiled.construct_params(_check=False)
        binds = []
        for name in compiled.positiontup or ():
            bind = compiled.binds[name]
            if bind.callable is not None:
                raise ValueError("statements with parameters computed at execution time cannot be prepared")
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            binds.append((name, REQUIRED if bind.required else defaults[name], processor))
        columns = []
        for index, column in enumerate(statement.selected_columns):
            convert = _result_processor(column.type, dialect)
            if convert is not None:
                columns.append((index, convert))
        return cls(compiled, tuple(binds), tuple(columns))

    @property
    def sql(self) -> str:
        """The statement's SQL in the driver's parameter style."""
        return self.compiled.string

    def arguments(self, params: Mapping[str, Any]) -> list[Any]:
        """The positional parameters, converted for the driver (values the statement holds included)."""
        values = []
        for name, default, bind in self.binds:
            value = params.get(name, default)
            if value is REQUIRED:
                raise KeyError(f"a value is required for the parameter {name!r}")
            values.append(value if bind is None else bind(value))
        return values

    def rows(self, raw: Sequence[Sequence[Any]]) -> Rows:
        """The driver's rows as SQLAlchemy would hand them out (plain tuples)."""
        if not self.columns:
            return (
                tuple(cast("Sequence[tuple[Any, ...]]", raw))
                if raw and type(raw[0]) is tuple
                else tuple(map(tuple, raw))
            )
        converted = []
        for row in raw:
            fields = list(row)
            for index, processor in self.columns:
                fields[index] = processor(fields[index])
            converted.append(tuple(fields))
        return tuple(converted)


def _result_processor(column_type: Any, dialect: Dialect) -> Processor | None:
    """How SQLAlchemy converts a column's values from the driver, decided without a result at hand.

    A few types decide by the type the server reports (asyncpg's numbers); those come from asyncpg
    already as the Python type SQLAlchemy would make, so they need no conversion.
    """
    try:
        processor: Processor | None = column_type.dialect_impl(dialect).result_processor(dialect, None)
    except (TypeError, ValueError, exc.InvalidRequestError):
        return None
    return processor


async def _json_codecs(connection: asyncpg.Connection) -> None:
    """Decode JSON columns as the engine does (SQLAlchemy sets these codecs on its own connections)."""
    for name in ("json", "jsonb"):
        await connection.set_type_codec(
            name, schema="pg_catalog", encoder=lambda v: orjson.dumps(v).decode(), decoder=orjson.loads
        )


class Connections:
    """Idle read-only PostgreSQL connections, last in first out, opened on demand up to ``size``.

    asyncpg's own pool costs ~25 µs of CPU per read to hand a connection out and take it back
    (timeouts, reset and release hooks, a task per release); a read of an index-served page costs
    about as much. The reader's connections keep no session state (single read-only statements; no
    SET, LISTEN or locks), so a connection goes back as it is; one that failed or was interrupted
    mid-read is closed, never handed out again.
    """

    def __init__(self, connect: Callable[[], Awaitable[asyncpg.Connection]], size: int) -> None:
        self._connect = connect
        self._size = size
        self._idle: list[asyncpg.Connection] = []
        self._opened = 0  # open or being opened
        self._waiting: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._closed = False

    async def get(self) -> asyncpg.Connection:
        """An idle connection, a new one while fewer than ``size`` are open, else the next one put back.

        Calls that wait are served in turn: a connection put back goes straight to the longest
        waiting, never to a call that came later.
        """
        if self._closed:
            raise asyncpg.InterfaceError("the reader is closed")
        while self._idle:
            connection = self._idle.pop()
            if not connection.is_closed():
                return connection
            self._opened -= 1
        if self._opened < self._size:
            return await self._open()
        waiter: asyncio.Future[asyncpg.Connection | None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            handed = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a turn, then cancelled: pass it on
                if (connection := waiter.result()) is not None:
                    self.put(connection)
                else:
                    self._wake()
            else:
                self._waiting.remove(waiter)
            raise
        if handed is None:  # a connection was closed: open one in its place
            if self._closed:
                raise asyncpg.InterfaceError("the reader is closed")
            return await self._open()
        return handed

    async def _open(self) -> asyncpg.Connection:
        self._opened += 1
        try:
            return await self._connect()
        except BaseException:
            self._opened -= 1
            self._wake()
            raise

    def put(self, connection: asyncpg.Connection, *, broken: bool = False) -> None:
        """Take a connection back (``broken``: its read failed or was interrupted, so close it)."""
        if broken or self._closed or connection.is_closed():
            self._opened -= 1
            connection.terminate()
            self._wake()
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return
        self._idle.append(connection)

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection for the block, taken back after it (closed if the block failed)."""
        connection = await self.get()
        try:
            yield connection
        except BaseException:
            self.put(connection, broken=True)
            raise
        self.put(connection)

    def _wake(self) -> None:
        """Let the longest waiting call open a connection in place of one closed."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        """Close the idle connections now and the others when they are put back."""
        self._closed = True
        idle, self._idle = self._idle, []
        self._opened -= len(idle)
        await asyncio.gather(*(connection.close() for connection in idle), return_exceptions=True)
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)


class Reader:
    """Runs prepared read-only statements; see the module notes."""

    def __init__(self, engine: AsyncEngine, *, pool_size: int) -> None:
        self._engine = engine
        self._pool_size = pool_size
        url = engine.url
        self._sqlite_uri: str | None = None
        self._postgres_dsn: str | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._sqlite_uri = Path(url.database).resolve().as_uri() + "?mode=ro"
        elif url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
            self._postgres_dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._sqlite: sqlite3.Connection | None = None
        self._cursor: sqlite3.Cursor | None = None
        self._connections = 0  # SQLite connections opened so far (a version belongs to its connection)
        self._pool: asyncio.Task[Connections] | None = None
        self._ready: Connections | None = None
        self._prepared: dict[AnySelect, Prepared] = {}

    @property
    def lateral(self) -> bool:
        """Whether the database runs LATERAL sub-queries (SQLite does not)."""
        return self._engine.dialect.name != "sqlite"

    async def all(
        self, statement: Select[*Ts], params: Mapping[str, Any], *, inline: bool = True
    ) -> Sequence[tuple[*Ts]]:
        """Every row the statement selects (``inline=False``: it may scan, so SQLite reads it aside)."""
        if inline and self._sqlite_uri is not None:  # inline, without a coroutine of its own
            return cast("Sequence[tuple[*Ts]]", self._sqlite_rows(self._sqlite_uri, statement, params))
        return cast("Sequence[tuple[*Ts]]", await self._rows(statement, params))

    async def scalar(
        self, statement: Select[T], params: Mapping[str, Any], *, inline: bool = True
    ) -> T | None:
        """The first column of the first row."""
        if inline and self._sqlite_uri is not None:
            rows = self._sqlite_rows(self._sqlite_uri, statement, params)
        else:
            rows = await self._rows(statement, params)
        return cast("T", rows[0][0]) if rows else None

    async def _rows(self, statement: AnySelect, params: Mapping[str, Any]) -> Rows:
        """Through the PostgreSQL connections, or one of the engine's (aiosqlite reads in its own thread)."""
        if self._postgres_dsn is not None:
            prepared = self._prepare(statement)
            pool = self._ready
            if pool is None:
                if self._pool is None:
                    self._pool = asyncio.ensure_future(self._open_pool(self._postgres_dsn))
                pool = self._ready = await asyncio.shield(self._pool)
            connection = await pool.get()
            try:
                raw = await connection.fetch(prepared.sql, *prepared.arguments(params))
            except BaseException:
                pool.put(connection, broken=True)
                raise
            pool.put(connection)
            return prepared.rows(raw)
        async with self._engine.connect() as connection:
            # tuple(row): Row._tuple() and Row.tuple() are deprecated and warned on every row (12 µs of 13).
            return tuple(tuple(row) for row in await connection.execute(statement, params))

    async def _open_pool(self, dsn: str) -> Connections:
        async def connect() -> asyncpg.Connection:
            connection: asyncpg.Connection = await asyncpg.connect(
                dsn, server_settings={"default_transaction_read_only": "on"}
            )
            try:
                await _json_codecs(connection)
                if connection.get_server_version().major >= 12:
                    # Plan each statement once: its plans for this and that customer or page are the same
                    # index walks, yet with LIMIT a parameter the generic plan looks dearer than each
                    # custom one, so PostgreSQL planned every read anew (~0.2 ms of a LATERAL page's 0.35).
                    await connection.execute("SET plan_cache_mode = force_generic_plan")
            except BaseException:
                connection.terminate()
                raise
            return connection

        return Connections(connect, self._pool_size)  # connections open as reads need them

    def _sqlite_cursor(self, uri: str) -> sqlite3.Cursor:
        if self._cursor is None:
            self._sqlite = sqlite3.connect(
                uri, uri=True, timeout=INLINE_BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            self._connections += 1
            # One cursor for every read: they run one at a time on the loop, and a cursor apiece costs more
            # than the index read of a page.
            self._cursor = self._sqlite.cursor()
        return self._cursor

    def _sqlite_rows(self, uri: str, statement: AnySelect, params: Mapping[str, Any]) -> Rows:
        prepared = self._prepare(statement)
        cursor = self._sqlite_cursor(uri)
        try:
            return prepared.rows(cursor.execute(prepared.sql, prepared.arguments(params)).fetchall())
        except sqlite3.Error:
            self._drop_sqlite()
            raise

    def _drop_sqlite(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        self._sqlite = self._cursor = None

    def data_version(self) -> tuple[int, int] | None:
        """A value that changes whenever another connection commits to the SQLite file (None elsewhere).

        SQLite's ``PRAGMA data_version`` on the reader's own connection (which never writes), paired with
        that connection's number: a new connection numbers versions afresh.
        """
        if self._sqlite_uri is None:
            return None
        cursor = self._sqlite_cursor(self._sqlite_uri)
        try:
            version: int = cursor.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self._drop_sqlite()
            raise
        return self._connections, version

    def _prepare(self, statement: AnySelect) -> Prepared:
        prepared = self._prepared.get(statement)
        if prepared is None:
            if len(self._prepared) >= MAX_PREPARED:
                self._prepared.clear()
            prepared = self._prepared[statement] = Prepared.compile(statement, self._engine.dialect)
        return prepared

    async def close(self) -> None:
        """Release the reader's own connections."""
        self._drop_sqlite()
        if self._pool is not None:
            pool, self._pool, self._ready = self._pool, None, None
            await (await pool).close()
