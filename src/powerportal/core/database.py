"""Database engine, sessions and the declarative base shared by every domain."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any, TypeVarTuple

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    event,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect, processors
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Ts = TypeVarTuple("Ts")

# The text a UTCDateTime is stored as on SQLite (UTC), for rows written by raw SQL to read back alike.
SQLITE_STAMP = "%Y-%m-%d %H:%M:%S.%f"

# BIGINT keys on PostgreSQL, INTEGER on SQLite so that it still auto-increments.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored as UTC and always read back timezone-aware."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Store UTC (naive on SQLite, which has no zone)."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read back as aware UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], datetime | None] | None:
        """``process_result_value`` in one step from the driver's value (what every read of a time runs).

        SQLite hands out the stored text, which lists read again and again: each text's time is
        remembered (~0.07 µs against ~0.8 µs for parsing it and setting the zone through the generic
        decorator); the times are immutable, so one object serves every row that shows it. asyncpg
        hands out aware times, nearly always in UTC already.
        """
        impl = self.impl_instance.dialect_impl(dialect).result_processor(dialect, coltype)
        if dialect.name == "sqlite" and impl is processors.str_to_datetime:
            return sqlite_time
        if dialect.name == "postgresql" and impl is None:
            return _aware_time
        return super().result_processor(dialect, coltype)


# Stored SQLite texts to their aware UTC times (emptied when full, as pages show a few recent rows).
_SQLITE_TIMES: dict[str, datetime] = {}
MAX_REMEMBERED_TIMES = 16_384


def sqlite_time(value: str | None) -> datetime | None:
    """A time as SQLite stores it, read back as aware UTC (each text parsed once)."""
    if value is None:
        return None
    found = _SQLITE_TIMES.get(value)
    if found is None:
        parsed = datetime.fromisoformat(value)
        found = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
        if len(_SQLITE_TIMES) >= MAX_REMEMBERED_TIMES:
            _SQLITE_TIMES.clear()
        _SQLITE_TIMES[value] = found
    return found


def _aware_time(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is UTC:
        return value
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class joined_text(FunctionElement[str]):  # noqa: N801 - an SQL function, named as one
    """The text values of a group joined by commas, in no set order (``group_concat`` / ``string_agg``)."""

    type = String()
    inherit_cache = True
    name = "joined_text"


@compiles(joined_text, "sqlite")
def _joined_text_sqlite(element: joined_text, compiler: Any, **kw: Any) -> str:
    return f"group_concat({compiler.process(element.clauses, **kw)}, ',')"


@compiles(joined_text, "postgresql")
def _joined_text_postgresql(element: joined_text, compiler: Any, **kw: Any) -> str:
    return f"string_agg({compiler.process(element.clauses, **kw)}, ',')"


class utc_hour(FunctionElement[str]):  # noqa: N801 - an SQL function, named as one
    """A stored time's UTC hour as text ``YYYY-MM-DD HH`` (to group rows by the hour in the database)."""

    type = String()
    inherit_cache = True
    name = "utc_hour"


@compiles(utc_hour, "sqlite")
def _utc_hour_sqlite(element: utc_hour, compiler: Any, **kw: Any) -> str:
    return f"substr({compiler.process(element.clauses, **kw)}, 1, 13)"  # the stored text is UTC


@compiles(utc_hour, "postgresql")
def _utc_hour_postgresql(element: utc_hour, compiler: Any, **kw: Any) -> str:
    return f"to_char({compiler.process(element.clauses, **kw)} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')"


class seconds_between(FunctionElement[float]):  # noqa: N801 - an SQL function, named as one
    """Seconds from the first stored time to the second (fractional; negative when the second is earlier)."""

    type = Float()
    inherit_cache = True
    name = "seconds_between"


@compiles(seconds_between, "sqlite")
def _seconds_between_sqlite(element: seconds_between, compiler: Any, **kw: Any) -> str:
    first, second = (compiler.process(c, **kw) for c in element.clauses)
    return f"((julianday({second}) - julianday({first})) * 86400.0)"


@compiles(seconds_between, "postgresql")
def _seconds_between_postgresql(element: seconds_between, compiler: Any, **kw: Any) -> str:
    first, second = (compiler.process(c, **kw) for c in element.clauses)
    return f"CAST(EXTRACT(EPOCH FROM ({second} - {first})) AS DOUBLE PRECISION)"


class later_of(FunctionElement[datetime]):  # noqa: N801 - an SQL function, named as one
    """The later of two stored times (neither null)."""

    type = UTCDateTime()
    inherit_cache = True
    name = "later_of"


class earlier_of(FunctionElement[datetime]):  # noqa: N801 - an SQL function, named as one
    """The earlier of two stored times (neither null)."""

    type = UTCDateTime()
    inherit_cache = True
    name = "earlier_of"


@compiles(later_of, "sqlite")
def _later_of_sqlite(element: later_of, compiler: Any, **kw: Any) -> str:
    return f"max({compiler.process(element.clauses, **kw)})"  # stored texts sort as their times


@compiles(later_of, "postgresql")
def _later_of_postgresql(element: later_of, compiler: Any, **kw: Any) -> str:
    return f"GREATEST({compiler.process(element.clauses, **kw)})"


@compiles(earlier_of, "sqlite")
def _earlier_of_sqlite(element: earlier_of, compiler: Any, **kw: Any) -> str:
    return f"min({compiler.process(element.clauses, **kw)})"


@compiles(earlier_of, "postgresql")
def _earlier_of_postgresql(element: earlier_of, compiler: Any, **kw: Any) -> str:
    return f"LEAST({compiler.process(element.clauses, **kw)})"


class Base(DeclarativeBase):
    """Declarative base with a constraint naming convention PostgreSQL and SQLite share."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# aiosqlite logs every statement with its parameters at DEBUG (token digests, password hashes, message
# texts): turning on debug logging must not turn those into log lines.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


async def hold_rows(session: AsyncSession, model: type[Any], *where: ColumnElement[bool]) -> list[int]:
    """Hold the rows of ``model`` matching ``where`` against other writers until the transaction ends.

    PostgreSQL locks them (``FOR UPDATE``, in ``sysno`` order, as every holder takes them). SQLite has
    no row locks and reads outside a transaction until its first write: an empty update first takes its
    one write lock, so what is read next is read after every other writer's commit and none can commit
    before this one ends. Answers the held rows' ``sysno``.
    """
    if (await session.connection()).dialect.name == "sqlite":
        await session.execute(update(model).where(*where).values(sysno=model.sysno))
    found = await session.scalars(select(model.sysno).where(*where).order_by(model.sysno).with_for_update())
    return list(found)


async def upsert_insert(session: AsyncSession) -> Any:
    """The session database's ``insert``, the one with ``on_conflict_do_update`` (PostgreSQL, SQLite)."""
    dialect = (await session.connection()).dialect.name
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def create_engine(url: str) -> AsyncEngine:
    """Create the async engine, tuned for the backend."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs.update(pool_size=20, max_overflow=20, pool_pre_ping=True)
    # Statement parameters hold token digests, password hashes and message texts: never in an error's text.
    engine = create_async_engine(url, hide_parameters=True, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

    return engine


def create_sessionmaker(
    engine: AsyncEngine, info: dict[str, Any] | None = None, sync_session_class: type[Session] = Session
) -> async_sessionmaker[AsyncSession]:
    """Session factory that keeps objects usable after commit; ``info`` reaches every session."""
    return async_sessionmaker(
        engine, expire_on_commit=False, info=info or {}, sync_session_class=sync_session_class
    )


async def session_scope(factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """Yield a session that commits on success and rolls back on error."""
    async with factory() as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise
