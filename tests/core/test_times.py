"""Stored times read back as aware UTC, through the one-step processors as through the decorator."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy.dialects import postgresql, sqlite

from powerportal.core.database import UTCDateTime


def test_sqlite_texts_read_as_the_decorator_reads_them() -> None:
    dialect = sqlite.dialect()
    fast = UTCDateTime().dialect_impl(dialect).result_processor(dialect, None)
    assert fast is not None
    for text in (
        "2026-11-25 06:23:34.123456",
        "2026-11-25 06:23:34",
        "2026-11-25",
        "2026-11-25T06:23:34+08:00",
    ):
        expected = UTCDateTime().process_result_value(datetime.fromisoformat(text), dialect)
        assert fast(text) == expected and fast(text).tzinfo is UTC  # type: ignore[union-attr]
        assert fast(text) is fast(text)  # remembered
    assert fast(None) is None


def test_postgresql_times_are_aware_utc() -> None:
    dialect = postgresql.asyncpg.dialect()  # type: ignore[attr-defined]
    fast = UTCDateTime().dialect_impl(dialect).result_processor(dialect, None)
    assert fast is not None
    utc = datetime(2026, 11, 25, 6, 23, tzinfo=UTC)
    assert fast(utc) is utc
    shanghai = datetime(2026, 11, 25, 14, 23, tzinfo=timezone(timedelta(hours=8)))
    assert fast(shanghai) == utc and fast(shanghai).tzinfo is UTC
    assert fast(datetime(2026, 11, 25, 6, 23)) == utc
    assert fast(None) is None
