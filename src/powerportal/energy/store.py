"""Writing consumption: quarter changes priced and added to the intervals, then to every roll-up.

Everything the energy screens read is a sum of intervals. Each change of a device's quarter is
added to its interval, and noted in ``energy_pending``, in the writer's transaction; ``fold`` adds
what is noted to the device's day, month and year and the project's quarter, day and month, in one
transaction that takes the notes away, so that the sums always agree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, cast

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.database import SQLITE_STAMP, sqlite_time
from powerportal.energy import counting
from powerportal.energy.counting import Point, Quarter
from powerportal.energy.models import (
    DAY,
    DEVICE,
    MONTH,
    QUARTER,
    ROLLUPS,
    EnergyInterval,
    ProjectTariff,
    TariffPlan,
    TariffVersion,
)
from powerportal.energy.tariffs import Pricing, Version, pricing, zone
from powerportal.projects.models import Project
from powerportal.telemetry.models import Reading

# Readings either side of a change that decide which quarters it touches (see counting.SPAN).
CONTEXT = 3 * counting.SPAN + 2
_ROLLUP_VALUES = tuple(f"{k}_{i}" for k in ("kwh", "cost") for i in range(5)) + (
    "n_estimated",
    "n_reset",
    "n_implausible",
)
_INTERVAL_VALUES = ("kwh", "cost", "n_estimated", "n_reset", "n_implausible")


@dataclass(frozen=True, slots=True)
class Meter:
    """What the counting needs of a device."""

    sysno: int
    project_sysno: int
    kw: float


@dataclass(frozen=True, slots=True)
class Change:
    """A change of one device's quarter while it belonged to a project."""

    device_sysno: int
    project_sysno: int
    start: datetime
    quarter: Quarter


# -- what the counting needs --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Facts:
    """What counting a device's readings depends on, as the database holds it.

    The observer keeps a copy per device and has the database say, as it writes a batch's
    quarters, which copies differ (``write``): a device edit or a meter change recorded by any
    process is seen in the transaction of the next batch holding the device.
    """

    meter: Meter
    rated_current: float | None
    phases: int | None
    changes: tuple[counting.MeterChange, ...] = ()


# Devices with their meter changes, oldest first: one statement for a batch's devices, its ids one
# parameter (an IN list of a batch's length cost SQLAlchemy more to render than the read itself).
_METERS_SELECT = (
    "SELECT d.sysno, d.project_sysno, d.rated_current, d.phases,"
    " c.change_time, c.old_final, c.new_initial"
    " FROM device d LEFT JOIN meter_change c ON c.device_sysno = d.sysno"
)
_METERS_SQL = {
    "sqlite": _METERS_SELECT  # noqa: S608 - constant text
    + " WHERE d.sysno IN (SELECT value FROM json_each(?)) ORDER BY c.change_time",
    "postgresql": _METERS_SELECT + " WHERE d.sysno = ANY($1::bigint[]) ORDER BY c.change_time",  # noqa: S608
}


def _facts_of(rows: Iterable[Any], sqlite: bool) -> dict[int, Facts | None]:
    """Facts from rows of (sysno, project, rated current, phases, change time, old final, new initial).

    A row without a project is a device that is gone: None.
    """
    found: dict[int, Facts | None] = {}
    changes: dict[int, list[counting.MeterChange]] = defaultdict(list)
    for sysno, project, rated, phases, at, old, new in rows:
        if project is None:
            found[sysno] = None
            continue
        if sysno not in found:
            found[sysno] = Facts(Meter(sysno, project, counting.max_kw(rated, phases or 1)), rated, phases)
        if at is not None:
            when = cast("datetime", sqlite_time(at) if sqlite else at.astimezone(UTC))
            changes[sysno].append(counting.MeterChange(when, old, new))
    for sysno, kept in changes.items():
        facts = found[sysno]
        if facts is not None:
            found[sysno] = replace(facts, changes=tuple(kept))
    return found


async def facts(session: AsyncSession, sysnos: Iterable[int]) -> dict[int, Facts]:
    """The facts of the devices that exist."""
    ids = list(set(sysnos))
    if not ids:
        return {}
    conn = await session.connection()
    sqlite = conn.dialect.name == "sqlite"
    result = await conn.exec_driver_sql(
        _METERS_SQL[conn.dialect.name], (orjson.dumps(ids).decode() if sqlite else ids,)
    )
    return {sysno: f for sysno, f in _facts_of(result, sqlite).items() if f is not None}


async def meters(
    session: AsyncSession, sysnos: Iterable[int]
) -> tuple[dict[int, Meter], dict[int, list[counting.MeterChange]]]:
    """Devices' projects and plausible power, and their recorded meter changes, oldest first."""
    found = await facts(session, sysnos)
    changes: dict[int, list[counting.MeterChange]] = defaultdict(list)
    changes.update((sysno, list(f.changes)) for sysno, f in found.items() if f.changes)
    return {sysno: f.meter for sysno, f in found.items()}, changes


async def pricings(session: AsyncSession, project_sysnos: Iterable[int]) -> dict[int, Pricing]:
    """Each project's clock and plan (its own, else its owner's default)."""
    ids = list(set(project_sysnos))
    if not ids:
        return {}
    projects = (
        await session.execute(
            select(Project.sysno, Project.customer_sysno, Project.timezone, ProjectTariff.plan_sysno)
            .outerjoin(ProjectTariff, ProjectTariff.project_sysno == Project.sysno)
            .where(Project.sysno.in_(ids))
        )
    ).all()
    defaults = dict(
        (
            await session.execute(
                select(TariffPlan.customer_sysno, TariffPlan.sysno).where(
                    TariffPlan.customer_sysno.in_({c for _, c, _, _ in projects}), TariffPlan.is_default
                )
            )
        ).all()
    )
    plan_of = {p: plan or defaults.get(customer) for p, customer, _, plan in projects}
    versions: dict[int, list[Version]] = defaultdict(list)
    plans = {plan for plan in plan_of.values() if plan}
    if plans:
        for row in (
            await session.execute(select(TariffVersion).where(TariffVersion.plan_sysno.in_(plans)))
        ).scalars():
            versions[row.plan_sysno].append(
                Version.of(
                    effective=row.effective_date,
                    prices=row.prices,
                    seasons=row.seasons,
                    holidays=row.holidays,
                )
            )
    return {p: pricing(tz, versions.get(plan_of[p] or 0, ())) for p, _, tz, _ in projects}


async def points(
    session: AsyncSession, device_sysno: int, *, before: datetime, after: datetime, around: int
) -> tuple[list[Point], bool, bool]:
    """A device's counter readings from ``before`` to ``after`` and ``around`` more either side.

    Also says whether the readings reach the first and the last the device has.
    """
    energy = Reading.energy.is_not(None)
    base = select(Reading.ts, Reading.energy).where(Reading.device_sysno == device_sysno, energy)
    earlier = (
        await session.execute(base.where(Reading.ts < before).order_by(Reading.ts.desc()).limit(around))
    ).all()
    inside = (
        await session.execute(base.where(Reading.ts >= before, Reading.ts <= after).order_by(Reading.ts))
    ).all()
    later = (await session.execute(base.where(Reading.ts > after).order_by(Reading.ts).limit(around))).all()
    found = [Point(ts, float(value or 0.0)) for ts, value in [*reversed(earlier), *inside, *later]]
    return found, len(earlier) < around, len(later) < around


def _within(
    changes: Sequence[counting.MeterChange], found: Sequence[Point], first: bool, last: bool
) -> list[counting.MeterChange]:
    """The meter changes among readings (those before or after them only where they are the first or last)."""
    if not found:
        return list(changes)
    lo, hi = found[0].ts, found[-1].ts
    return [c for c in changes if (first or c.at > lo) and (last or c.at <= hi)]


async def _anchored(
    session: AsyncSession,
    meter: Meter,
    changes: Sequence[counting.MeterChange],
    *,
    before: datetime,
    after: datetime,
    margin: int,
) -> tuple[list[Point], list[counting.MeterChange], int | None, int | None]:
    """Readings from ``before`` to ``after`` reaching a settled reading either side (see counting.settled).

    Returns the readings, the meter changes among them and the positions of the settled readings
    nearest the span, at least ``margin`` readings outside it (None where the readings begin or end
    first). Usually ``CONTEXT`` readings either side hold them; after a long run of glitches more
    are read.
    """
    around = CONTEXT + margin
    while True:
        found, first, last = await points(session, meter.sysno, before=before, after=after, around=around)
        within = _within(changes, found, first, last)
        calm = counting.settled(found, within, meter.kw, first=first, last=last)
        lo = _position(found, before) - margin
        hi = _position(found, after + _TICK) - 1 + margin
        left = next((i for i in range(lo - 1, -1, -1) if calm[i]), None)
        right = next((i for i in range(max(hi + 1, 0), len(found)) if calm[i]), None)
        if (left is not None or first) and (right is not None or last):
            return found, within, left, right
        around *= 4


_TICK = timedelta(microseconds=1)


async def recount(
    session: AsyncSession,
    meter: Meter,
    changes: Sequence[counting.MeterChange],
    *,
    since: datetime,
    until: datetime,
) -> list[Change]:
    """Recompute the quarters a change of readings (or meter changes) from ``since`` to ``until`` touches.

    Compares them with the stored quarters and returns the differences (not yet written). Used for
    readings that arrive late or twice, after a restart, and when a meter change is recorded. The
    readings more than ``SPAN`` readings away from the change keep their status; pairs before the
    settled one nearest before it, and after the one nearest after it, are as they were: the quarters
    from the one to the other are recounted, from readings reaching settled ones around them.

    A quarter stays with the project it was counted for (the device may have moved since): a stored
    quarter changes under its own project (``_shared``), and one not stored yet goes to the project of
    the device's next stored quarter, the one it was in then, or where none follows, to its project
    now (as in-order readings are counted).
    """
    near, _, left, right = await _anchored(
        session, meter, changes, before=since, after=until, margin=counting.SPAN
    )
    lo = near[left].ts if left is not None else (near[0].ts if near else since)
    hi = near[right].ts if right is not None else (near[-1].ts if near else until)
    q_lo, q_hi = counting.quarter_of(min(lo, since)), counting.quarter_of(max(hi, until))
    span, within, _, _ = await _anchored(
        session, meter, changes, before=q_lo, after=q_hi + counting.QUARTER, margin=0
    )
    fresh = counting.quarters(span, within, meter.kw, q_lo, q_hi)
    stored = await session.execute(
        select(EnergyInterval).where(
            EnergyInterval.device_sysno == meter.sysno,
            EnergyInterval.start >= q_lo,
            EnergyInterval.start <= q_hi,
        )
    )
    held: dict[datetime, dict[int, Quarter]] = defaultdict(dict)
    for row in stored.scalars():
        held[row.start][row.project_sysno] = Quarter(row.kwh, row.n_estimated, row.n_reset, row.n_implausible)
    out: list[Change] = []
    later: int | None = None  # the project of the nearest stored quarter after the one at hand
    for q in sorted(fresh.keys() | held.keys(), reverse=True):
        counted = fresh.get(q, Quarter())
        holders = held.get(q)
        if holders:
            out += [
                Change(meter.sysno, p, q, new.minus(holders[p]))
                for p, new in _shared(counted, holders).items()
            ]
            # Of a quarter within which the device moved, the project it left is the one it was in before.
            later = min((p == later, p) for p in holders)[1]
        elif not counted.empty:
            if later is None:
                later = await _next_project(session, meter, q_hi)
            out.append(Change(meter.sysno, later, q, counted))
    return out


async def _next_project(session: AsyncSession, meter: Meter, after: datetime) -> int:
    """The project of the device's first stored quarter after ``after``; with none, its project now."""
    found = await session.scalar(
        select(EnergyInterval.project_sysno)
        .where(EnergyInterval.device_sysno == meter.sysno, EnergyInterval.start > after)
        .order_by(EnergyInterval.start, EnergyInterval.project_sysno)
        .limit(1)
    )
    return meter.project_sysno if found is None else found


_FLAGS = ("estimated", "reset", "implausible")


def _shared(counted: Quarter, holders: Mapping[int, Quarter]) -> dict[int, Quarter]:
    """A recounted quarter under the projects holding it: one, or those the device moved between within it.

    Several share its kWh in proportion to what each held (evenly where they held none); each keeps
    its flag counts up to what it held, the largest holder takes the rest.
    """
    if len(holders) == 1:
        return dict.fromkeys(holders, counted)
    whole = sum(q.kwh for q in holders.values())
    out = {
        p: Quarter(counted.kwh * (q.kwh / whole if whole > 1e-12 else 1 / len(holders)))
        for p, q in holders.items()
    }
    largest = max(holders, key=lambda p: (holders[p].kwh, -p))
    for flag in _FLAGS:
        left = getattr(counted, flag)
        for p in sorted(holders, key=lambda p: p == largest):  # the largest last
            kept = left if p == largest else min(getattr(holders[p], flag), left)
            setattr(out[p], flag, kept)
            left -= kept
    return out


def _position(found: Sequence[Point], ts: datetime) -> int:
    """The index of the first reading at or after ``ts``."""
    return next((i for i, p in enumerate(found) if p.ts >= ts), len(found))


# -- writing ------------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _starts(tz_name: str, quarter: datetime, sqlite: bool) -> tuple[str | int, ...]:
    """A quarter's start and those of the local day, month and year holding it, as a fold binds them.

    SQLite: the text it stores; PostgreSQL: epoch seconds.
    """
    tz = zone(tz_name)
    local = quarter.astimezone(tz)
    starts = (
        quarter,
        datetime(local.year, local.month, local.day, tzinfo=tz),
        datetime(local.year, local.month, 1, tzinfo=tz),
        datetime(local.year, 1, 1, tzinfo=tz),
    )
    if sqlite:
        return tuple(t.astimezone(UTC).strftime(SQLITE_STAMP) for t in starts)
    return tuple(int(t.timestamp()) for t in starts)


async def write(session: AsyncSession, changes: Iterable[Change], prices: dict[int, Pricing]) -> int:
    """Add quarter changes to the intervals and note them for the roll-ups; return how many quarters changed.

    The roll-ups take the changes once the transaction committed (``fold``).
    """
    return (await write_checked(session, changes, prices)).quarters


@dataclass(frozen=True, slots=True)
class Written:
    """What ``write_checked`` did: quarters written, facts that differ, and the facts' generation."""

    quarters: int
    differ: dict[int, Facts | None]
    generation: int | None


async def write_checked(
    session: AsyncSession,
    changes: Iterable[Change],
    prices: dict[int, Pricing],
    known: Mapping[int, Facts] | None = None,
    generation: int | None = None,
) -> Written:
    """As ``write``; also says which of the ``known`` devices' facts the database holds otherwise.

    (None: the device is gone.) The ``known`` facts were read, or last found equal, at the facts'
    ``generation`` (``energy_facts``): the devices are compared only when it has moved since. On
    PostgreSQL the intervals, the note and the generation are one statement: one round trip a batch.
    """
    conn = await session.connection()
    dialect = conn.dialect.name
    sqlite = dialect == "sqlite"
    rows, noted = _rows(changes, prices, sqlite)
    if not rows and known is None:
        return Written(0, {}, None)
    # Raw driver SQL, as the readings are written: the ORM's per-row parameter processing cost as
    # much as the counting.
    now: int | None = None
    if sqlite:
        # aiosqlite's own calls, in the batch's transaction: one hop to its thread a statement, where
        # SQLAlchemy's adaptor takes four (cursor, execute, fetch, close: 0.3 ms against 0.07).
        driver: Any = (await conn.get_raw_connection()).driver_connection
        if rows:
            await driver.executemany(_INTERVAL_SQL[dialect], rows)
            await driver.execute_fetchall(_PENDING_SQL[dialect], (orjson.dumps(noted),))
        if known is not None:
            now = (await driver.execute_fetchall(_GENERATION_SQL))[0][0]
    else:
        sql = _WRITE_SQL[known is not None] if rows else _GENERATION_SQL
        result = await conn.exec_driver_sql(sql, (orjson.dumps(noted),) if rows else ())
        if known is not None:
            now = result.scalar_one()
    differ: dict[int, Facts | None] = {}
    if known and now != generation:
        differ = await _differing(conn, known, sqlite)
    return Written(len(rows), differ, now)


async def _differing(conn: Any, known: Mapping[int, Facts], sqlite: bool) -> dict[int, Facts | None]:
    """The ``known`` devices whose facts the database holds otherwise (None: gone)."""
    rows = [
        (sysno, f.meter.project_sysno, f.rated_current, f.phases, bool(f.changes))
        for sysno, f in known.items()
    ]
    param = orjson.dumps(rows)
    result = await conn.exec_driver_sql(_CHECK_SQL[conn.dialect.name], (param.decode() if sqlite else param,))
    found = _facts_of(result, sqlite)
    return {sysno: f for sysno, f in found.items() if f != known.get(sysno)}


def _rows(
    changes: Iterable[Change], prices: dict[int, Pricing], sqlite: bool
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The interval rows that changes add (one a device and quarter) and the note's rows for the roll-ups."""
    intervals: dict[tuple[int, datetime, int], list[Any]] = {}
    zones: dict[int, str] = {}
    priced: dict[tuple[int, datetime], tuple[int, float]] = {}  # a batch's devices share their quarters
    for change in changes:
        q = change.quarter
        if q.empty:
            continue
        project = change.project_sysno
        price = prices.get(project)
        if price is None:  # the project was deleted meanwhile: its rows went with it
            continue
        found = priced.get((project, change.start))
        if found is None:
            found = priced[project, change.start] = price.at(change.start)
        period, unit = found
        key = (change.device_sysno, change.start, project)
        row = intervals.get(key)
        if row is None:
            intervals[key] = [period, q.kwh, q.kwh * unit, q.estimated, q.reset, q.implausible]
            zones[project] = price.tz.key
        else:
            for i, v in enumerate((q.kwh, q.kwh * unit, q.estimated, q.reset, q.implausible), start=1):
                row[i] += v
    rows: list[tuple[Any, ...]] = []
    noted: list[tuple[Any, ...]] = []
    for (device, start, project), values in intervals.items():
        starts = _starts(zones[project], start, sqlite)
        rows.append((device, starts[0] if sqlite else start, project, *values))
        noted.append((device, project, *values, *starts))
    return rows, noted


async def fold(session: AsyncSession) -> None:
    """Add the interval changes noted so far to the roll-ups (in the session's transaction).

    Every change noted in a committed transaction is taken exactly once: the rows are taken away
    as they are added, and on PostgreSQL one fold waits for another. The database does the sums
    (``_FOLD_SQL``): no row of a note passes through Python.
    """
    conn = await session.connection()
    if conn.dialect.name == "postgresql":
        await conn.exec_driver_sql("SELECT pg_advisory_xact_lock($1)", (_FOLD_LOCK,))
        await conn.exec_driver_sql(_FOLD_SQL["postgresql"])
        return
    # SQLite: one writer at a time, and the transaction reads one snapshot; the bound keeps the
    # delete to exactly the notes added.
    last = (await conn.exec_driver_sql("SELECT max(sysno) FROM energy_pending")).scalar()
    if last is not None:
        await conn.exec_driver_sql(_FOLD_SQL["sqlite"], (last,))
        await conn.exec_driver_sql("DELETE FROM energy_pending WHERE sysno <= ?", (last,))


# Any number, the same in every process: folds take turns (and so never wait for each other's rows).
_FOLD_LOCK = 0x656E6572  # "ener"
_PENDING_SQL = {
    "sqlite": "INSERT INTO energy_pending (changes) VALUES (?)",
    "postgresql": "INSERT INTO energy_pending (changes) VALUES ($1)",
}


_INTERVAL_KEYS = ("device_sysno", "start", "project_sysno")
_ROLLUP_KEYS = ("scope", "owner_sysno", "grain", "start", "project_sysno")


def _adding(table: str, keys: Sequence[str], values: Sequence[str]) -> str:
    """The upsert clause that adds a new row's values to the row already there."""
    added = ", ".join(f"{v} = {table}.{v} + excluded.{v}" for v in values)
    return f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {added}"


# Intervals inserted, or their changes added to those there (the same text every batch). The columns
# are the keys, the period (taken as it is) and the values (added). SQLite takes a row per execution;
# PostgreSQL takes the batch's note as the rows (``_WRITE_SQL``; a row per execution cost a round trip
# and 7 ms a batch of 200 devices).
_INTERVAL_COLUMNS = ("device_sysno", "start", "project_sysno", "period", *_INTERVAL_VALUES)
_INTERVAL_INTO = f"INSERT INTO energy_interval ({', '.join(_INTERVAL_COLUMNS)})"
_INTERVAL_ADDED = _adding("energy_interval", _INTERVAL_KEYS, _INTERVAL_VALUES)
_INTERVAL_SQL = {
    "sqlite": f"{_INTERVAL_INTO} VALUES ({', '.join('?' for _ in _INTERVAL_COLUMNS)}){_INTERVAL_ADDED}",
}


# The devices (of those given with the project, rated current and phases and whether they have meter
# changes the caller knows) whose facts may differ: those whose columns differ, that are gone (no
# project), or that have or had meter changes (few: the caller compares those). Rows as ``_METERS_SQL``'s.
_CHECK_FROM = (
    " LEFT JOIN device d ON d.sysno = k.sysno LEFT JOIN meter_change c ON c.device_sysno = k.sysno"
    " WHERE d.sysno IS NULL OR k.changed OR c.device_sysno IS NOT NULL OR d.project_sysno <> k.project"
    " OR d.rated_current IS DISTINCT FROM k.rated OR d.phases IS DISTINCT FROM k.phases"
    " ORDER BY c.change_time"
)
_CHECK_SELECT = (
    "SELECT k.sysno, d.project_sysno, d.rated_current, d.phases, c.change_time, c.old_final, c.new_initial"
)


# A note's rows: [device, project, period, kwh, cost, estimated, reset, implausible, quarter, day,
# month, year] (the starts as ``_starts`` gives them). Each row is added to the device's day,
# month and year and the project's quarter, day and month (``ROLLUPS``), the kWh and cost to the
# columns of its tariff period.
_GRAINS = "g(scope, grain) AS (VALUES {})".format(
    ", ".join(f"({scope}, {grain})" for scope, grain in ROLLUPS)
)
_SUMS = ", ".join(
    [f"sum(CASE WHEN period = {i} THEN kwh ELSE 0 END)" for i in range(5)]
    + [f"sum(CASE WHEN period = {i} THEN cost ELSE 0 END)" for i in range(5)]
    + ["sum(est)", "sum(rst)", "sum(imp)"]
)
# The notes' rows summed per device, quarter and period first (a device reporting every few seconds
# has a row in every batch's note): the six roll-ups then group that many fewer rows. The day, month
# and year follow from the quarter and the project's zone (which no call changes): grouped by the
# four keys alone, and the notes' rows read as they are summed, not kept first, the sums of 10,000
# rows took 26 ms on SQLite instead of 48.
_KEYS = ("device", "project", "period", "quarter")
_PRESUMMED = (
    f"s AS (SELECT {', '.join(_KEYS)}, min(day) AS day, min(month) AS month, min(year) AS year,"  # noqa: S608
    " sum(kwh) AS kwh, sum(cost) AS cost, CAST(sum(est) AS INTEGER) AS est,"
    " CAST(sum(rst) AS INTEGER) AS rst, CAST(sum(imp) AS INTEGER) AS imp"
    f" FROM r GROUP BY {', '.join(map(str, range(1, len(_KEYS) + 1)))}) "
)
_ROLLED = (
    f"INSERT INTO energy_rollup ({', '.join(_ROLLUP_KEYS)}, {', '.join(_ROLLUP_VALUES)})"  # noqa: S608
    f" SELECT g.scope, CASE g.scope WHEN {DEVICE} THEN device ELSE project END, g.grain,"
    f" CASE g.grain WHEN {QUARTER} THEN quarter WHEN {DAY} THEN day WHEN {MONTH} THEN month ELSE year END,"
    f" project, {_SUMS} FROM s, g GROUP BY 1, 2, 3, 4, 5"
    + _adding("energy_rollup", _ROLLUP_KEYS, _ROLLUP_VALUES)
)


def _json_rows(source: str, columns: Sequence[tuple[str, str]], before: str = "") -> str:
    """PostgreSQL: the rows of a JSON array of arrays (bytes: ``source``), one column an element.

    Read as ``jsonb``: ``json`` is parsed again at each element taken (a batch's write took 5 ms
    instead of 3.5, a fold of 250 notes 700 ms instead of 420).
    """
    picked = ", ".join(
        (f"to_timestamp((e->>{i})::bigint)" if kind == "timestamptz" else f"(e->>{i})::{kind}") + f" AS {c}"
        for i, (c, kind) in enumerate(columns)
    )
    return f"SELECT {picked} FROM {before}jsonb_array_elements(convert_from({source}, 'UTF8')::jsonb) e"  # noqa: S608


# A note's columns, with the type PostgreSQL reads each as (the starts: epoch seconds).
_NOTE: tuple[tuple[str, str], ...] = (
    *(("device", "bigint"), ("project", "bigint"), ("period", "int"), ("kwh", "float8"), ("cost", "float8")),
    *(("est", "int"), ("rst", "int"), ("imp", "int")),
    *((start, "timestamptz") for start in ("quarter", "day", "month", "year")),
)
_FOLD_SQL = {
    "sqlite": f"WITH {_GRAINS}, r AS (SELECT "  # noqa: S608 - constant text
    + ", ".join(f"json_extract(j.value, '$[{i}]') AS {c}" for i, (c, _) in enumerate(_NOTE))
    + " FROM energy_pending p, json_each(CAST(p.changes AS TEXT)) j WHERE p.sysno <= ?), "
    + _PRESUMMED
    + _ROLLED,
    "postgresql": "WITH taken AS (DELETE FROM energy_pending RETURNING changes), "  # noqa: S608
    + f"{_GRAINS}, r AS ({_json_rows('taken.changes', _NOTE, 'taken, ')}), "
    + _PRESUMMED
    + _ROLLED,
}


# PostgreSQL writes a batch in one statement: the intervals are the note's rows (the note is one
# parameter, JSON: asyncpg checked each element of nine arrays, 2,800 isinstance calls a batch of 200
# devices), the note, and the facts' generation. Comparing a batch's devices with their rows in that
# statement as well cost PostgreSQL a quarter of its time (1.2 ms of 4.9 for 200 devices): they are
# compared in a statement of their own, only when the generation moved.
_WRITE_NOTE = (
    f"WITH n AS ({_json_rows('$1', _NOTE)}), i AS ({_INTERVAL_INTO} SELECT device, quarter, project, period,"  # noqa: S608
    f" kwh, cost, est, rst, imp FROM n{_INTERVAL_ADDED}) "
)
_WRITE_PENDING = "INSERT INTO energy_pending (changes) VALUES ($1)"
_GENERATION_SQL = "SELECT coalesce(max(generation), 0) FROM energy_facts"  # no row: nothing changed yet
_WRITE_SQL = {  # by whether the generation is read
    False: _WRITE_NOTE + _WRITE_PENDING,
    True: f"{_WRITE_NOTE}, p AS ({_WRITE_PENDING}) {_GENERATION_SQL}",
}
_KNOWN: tuple[tuple[str, str], ...] = (
    ("sysno", "bigint"),
    ("project", "bigint"),
    ("rated", "float8"),
    ("phases", "int"),
    ("changed", "bool"),
)
_CHECK_SQL = {
    "sqlite": f"{_CHECK_SELECT} FROM (SELECT "  # noqa: S608 - constant text
    + ", ".join(f"json_extract(j.value, '$[{i}]') AS {c}" for i, (c, _) in enumerate(_KNOWN))
    + f" FROM json_each(?) j) k{_CHECK_FROM.replace('IS DISTINCT FROM', 'IS NOT')}",
    "postgresql": f"{_CHECK_SELECT} FROM ({_json_rows('$1', _KNOWN)}) k{_CHECK_FROM}",  # noqa: S608
}
