"""The energy observer against a real database: any delivery order gives the quarters of counting at once.

The property test sends random counter streams (gaps, glitches to 0, resets, implausible spikes) in
shuffled batches with duplicates, restarting the observer now and then, and checks every invariant
of issue 12: intervals equal counting everything at once; intervals = quarter = day = month roll-ups
of the device and of the project; equal to the counter's increase when nothing was flagged.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, update

from powerportal.accounts.models import Customer
from powerportal.core.database import create_engine, create_sessionmaker
from powerportal.devices.models import Device
from powerportal.energy import counting, store
from powerportal.energy.counting import Point
from powerportal.energy.models import (
    DAY,
    DEVICE,
    PROJECT,
    ROLLUPS,
    EnergyFacts,
    EnergyInterval,
    EnergyPending,
    EnergyRollup,
    MeterChange,
)
from powerportal.energy.observer import EnergyObserver
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Project
from powerportal.telemetry import service
from powerportal.telemetry.ingest import BatchReport

START = datetime(2026, 10, 31, 15, 0, tzinfo=UTC)  # 23:00 in Shanghai, the last day of a month
KW = counting.max_kw(63, 1)
# Hypothesis seeds ``random`` for each example: numbers that must differ come from here.
_serial = itertools.count(int(time.time()) % 10**6 * 100)


async def setup(sessions: Any) -> tuple[int, int]:
    async with sessions() as session:
        number = f"139{next(_serial):08d}"
        customer = Customer(account=number, mobile=number, password_hash="x", name="能耗")
        session.add(customer)
        await session.flush()
        project = Project(customer_sysno=customer.sysno, name="能耗项目")
        session.add(project)
        await session.flush()
        gateway = Gateway(project_sysno=project.sysno, sn=f"EN{number}", name="网关", secret_hash="x")
        session.add(gateway)
        await session.flush()
        device = Device(
            gateway_sysno=gateway.sysno,
            project_sysno=project.sysno,
            device_id="1",
            name="断路器",
            rated_current=63,
        )
        session.add(device)
        await session.commit()
        return device.sysno, project.sysno


async def deliver(
    sessions: Any, device: int, batches: list[list[Point]], restarts: set[int]
) -> EnergyObserver:
    observer = EnergyObserver(sessions)
    for index, batch in enumerate(batches):
        if index in restarts:
            observer = EnergyObserver(sessions)
        await send(sessions, observer, device, batch)
    return observer


async def send(
    sessions: Any, observer: EnergyObserver, device: int, batch: list[Point], *, settle: bool = True
) -> None:
    """One batch as the ingest writes it: readings and quarters in a transaction, then ``committed``.

    ``settle``: then the ingest goes idle (its drain settles the observers), as after every batch here.
    """
    rows = [
        service.reading_row(device_sysno=device, ts=p.ts, values={"energy": p.value}, extra={}) for p in batch
    ]
    async with sessions() as session:
        await observer.prepare(session, rows)
        await service.insert_readings(session=session, rows=rows)
        report = BatchReport(readings=rows, events=[], transitions=[])
        await observer.observe(session, report)
        await session.commit()
    await observer.committed(report)
    if settle:
        await observer.settle()


async def stored(sessions: Any, device: int, project: int) -> dict[str, Any]:
    async with sessions() as session:
        intervals = {
            r.start: r
            for r in (
                await session.scalars(select(EnergyInterval).where(EnergyInterval.device_sysno == device))
            )
        }
        sums: dict[tuple[int, int], float] = defaultdict(float)
        for scope, owner, grain, *kwh in await session.execute(
            select(
                EnergyRollup.scope,
                EnergyRollup.owner_sysno,
                EnergyRollup.grain,
                *[getattr(EnergyRollup, f"kwh_{i}") for i in range(5)],
            ).where(EnergyRollup.project_sysno == project)
        ):
            if (scope == DEVICE and owner == device) or (scope == PROJECT and owner == project):
                sums[(scope, grain)] += sum(kwh)
        days = await session.scalar(
            select(func.count()).where(
                EnergyRollup.scope == DEVICE, EnergyRollup.owner_sysno == device, EnergyRollup.grain == DAY
            )
        )
    return {"intervals": intervals, "sums": sums, "days": days}


def check(points: list[Point], found: dict[str, Any]) -> None:
    ordered = sorted({p.ts: p for p in points}.values(), key=lambda p: p.ts)
    expected = counting.quarters(
        ordered, [], KW, counting.quarter_of(ordered[0].ts), counting.quarter_of(ordered[-1].ts)
    )
    intervals = found["intervals"]
    for q, quarter in expected.items():
        row = intervals.get(q)
        kwh = row.kwh if row is not None else 0.0
        assert kwh == pytest.approx(quarter.kwh, abs=1e-6), q
        if row is not None:
            assert (row.n_estimated > 0) == (quarter.estimated > 0)
            assert (row.n_reset > 0) == (quarter.reset > 0)
            assert (row.n_implausible > 0) == (quarter.implausible > 0)
    assert {q for q, r in intervals.items() if abs(r.kwh) > 1e-9} <= set(expected)
    whole = sum(r.kwh for r in intervals.values())
    for key in ROLLUPS:
        assert found["sums"][key] == pytest.approx(whole, abs=0.001), key
    flagged = any(r.n_reset or r.n_implausible for r in intervals.values())
    if not flagged:
        assert whole == pytest.approx(ordered[-1].value - ordered[0].value, abs=0.001)


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[Point], list[list[Point]], set[int]]:
    n = draw(st.integers(min_value=2, max_value=60))
    ts = START
    value = draw(st.floats(min_value=0, max_value=50_000))
    points: list[Point] = []
    for _ in range(n):
        ts += timedelta(seconds=draw(st.sampled_from([10, 30, 60, 300, 900, 1800, 7200, 30_000])))
        kind = draw(st.sampled_from(["rise"] * 8 + ["glitch", "reset", "spike", "flat"]))
        if kind == "rise":
            value += draw(st.floats(min_value=0, max_value=0.3))
            points.append(Point(ts, round(value, 3)))
        elif kind == "flat":
            points.append(Point(ts, round(value, 3)))
        elif kind == "glitch":
            points.append(Point(ts, 0.0))
        elif kind == "spike":
            points.append(Point(ts, 9_999_999.0))
        else:
            value = draw(st.floats(min_value=0, max_value=0.2))
            points.append(Point(ts, round(value, 3)))
    # duplicates (same instant, maybe another value: the first stored wins), then any order, any batches
    resent = draw(st.lists(st.sampled_from(points), max_size=10))
    order = points + resent if draw(st.booleans()) else draw(st.permutations(points + resent))
    cuts = sorted(draw(st.lists(st.integers(min_value=1, max_value=len(order)), max_size=8)))
    batches, last = [], 0
    for cut in [*cuts, len(order)]:
        if cut > last:
            batches.append(order[last:cut])
            last = cut
    restarts = set(draw(st.lists(st.integers(min_value=1, max_value=10), max_size=2)))
    return points, batches, restarts


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator[Any]:
    """A session maker on the test's database (SQLite or PostgreSQL), its engine disposed after."""
    engine = create_engine(database_url)
    yield create_sessionmaker(engine)
    await engine.dispose()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> str:
    target = tmp_path_factory.mktemp("energy") / "energy.db"
    shutil.copy(sqlite_template, target)
    return f"sqlite+aiosqlite:///{target}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=streams())
def test_any_delivery_gives_the_quarters_of_counting_at_once(scratch: str, case: Any) -> None:
    points, batches, restarts = case

    async def run() -> None:
        engine = create_engine(scratch)
        sessions = create_sessionmaker(engine)
        try:
            device, project = await setup(sessions)
            await deliver(sessions, device, batches, restarts)
            # the value kept for an instant is the first one delivered
            first: dict[datetime, Point] = {}
            for batch in batches:
                for p in batch:
                    first.setdefault(p.ts, p)
            check(list(first.values()), await stored(sessions, device, project))
        finally:
            await engine.dispose()

    asyncio.run(run())


async def test_in_order_and_shuffled_delivery_agree_on_both_databases(sessions: Any) -> None:
    rng = random.Random(12)
    value, points = 1000.0, []
    for i in range(400):
        value += rng.uniform(0, 0.4) if i != 200 else 0
        points.append(Point(START + timedelta(seconds=45 * i + rng.randint(0, 20)), round(value, 3)))
    points[150] = Point(points[150].ts, 0.0)  # a glitch
    results = []
    for shuffle in (False, True):
        device, project = await setup(sessions)
        order = list(points)
        if shuffle:
            rng.shuffle(order)
            order += rng.sample(points, 40)  # sent twice
        batches = [order[i : i + 37] for i in range(0, len(order), 37)]
        await deliver(sessions, device, batches, restarts={3} if shuffle else set())
        found = await stored(sessions, device, project)
        check(points, found)
        results.append({q: round(r.kwh, 9) for q, r in found["intervals"].items() if abs(r.kwh) > 1e-12})
        # a local day: the stream crosses midnight in Shanghai (16:00 UTC) and a month's end
        assert found["days"] == 2
    assert results[0] == pytest.approx(results[1])


async def test_rollups_take_the_changes_after_the_commit_and_after_a_stop(sessions: Any) -> None:
    device, project = await setup(sessions)
    points = [Point(START + timedelta(minutes=5 * i), 100.0 + i) for i in range(12)]
    fold_every = 0.5
    observer = EnergyObserver(sessions, fold_every)

    async def day_and_pending() -> tuple[float, int]:
        found = await stored(sessions, device, project)
        async with sessions() as session:
            pending = await session.scalar(select(func.count()).select_from(EnergyPending)) or 0
        return round(found["sums"][(DEVICE, DAY)], 6), pending

    await send(sessions, observer, device, points[:4], settle=False)
    assert await day_and_pending() == (3.0, 0)  # the first batch is folded at once
    await send(sessions, observer, device, points[4:6], settle=False)
    # the last fold is not fold_every old: the roll-ups wait, the change waits with them
    assert await day_and_pending() == (3.0, 1)
    async with asyncio.timeout(3 * fold_every):  # until the last fold is that old
        while await day_and_pending() != (5.0, 0):
            await asyncio.sleep(0.05)
    await send(sessions, observer, device, points[6:8], settle=False)
    assert await day_and_pending() == (5.0, 1)
    # the process stops here; the next one folds what was left at its first commit, empty as it is
    fresh = EnergyObserver(sessions, fold_every)
    await send(sessions, fresh, device, [], settle=False)
    assert await day_and_pending() == (7.0, 0)
    await observer.settle()  # (the stopped one's put-off fold: nothing is left for it)
    await send(sessions, fresh, device, points[8:])  # the ingest goes idle: its drain settles
    assert await day_and_pending() == (11.0, 0)
    check(points, await stored(sessions, device, project))


async def test_a_meter_change_recorded_elsewhere_is_honoured_by_the_next_batch(sessions: Any) -> None:
    """The observer keeps devices' facts between batches; a meter change recorded elsewhere counts."""
    device, project = await setup(sessions)
    old = [Point(START + timedelta(minutes=i), round(900 + 0.1 * i, 3)) for i in range(30)]
    new = [Point(START + timedelta(minutes=40 + i), round(2 + 0.1 * i, 3)) for i in range(30)]
    observer = EnergyObserver(sessions)
    for i in range(0, 30, 10):
        await send(sessions, observer, device, old[i : i + 10])
    # recorded by another process as the meter-change call records it (and counts around it),
    # while the observer keeps its copy of the device's facts
    change = counting.MeterChange(START + timedelta(minutes=35), 903.4, 1.5)
    async with sessions() as session:
        session.add(
            MeterChange(
                device_sysno=device,
                change_time=change.at,
                old_final=change.old_final,
                new_initial=change.new_initial,
            )
        )
        await session.flush()
        meters, changes = await store.meters(session, [device])
        at = change.at
        out = await store.recount(session, meters[device], changes[device], since=at, until=at)
        await store.write(session, out, await store.pricings(session, {project}))
        await session.commit()
    for i in range(0, 30, 10):
        await send(sessions, observer, device, new[i : i + 10])
    found = await stored(sessions, device, project)
    points = old + new
    expected = counting.quarters(
        points, [change], KW, counting.quarter_of(points[0].ts), counting.quarter_of(points[-1].ts)
    )
    intervals = found["intervals"]
    for q, quarter in expected.items():
        row = intervals.get(q)
        assert (row.kwh if row is not None else 0.0) == pytest.approx(quarter.kwh, abs=1e-6), q
    assert not any(r.n_reset or r.n_implausible for r in intervals.values())
    whole = sum(r.kwh for r in intervals.values())
    assert whole == pytest.approx(2.9 + 0.5 + 0.5 + 2.9, abs=0.001)
    for key in ROLLUPS:
        assert found["sums"][key] == pytest.approx(whole, abs=0.001), key


async def test_a_device_edited_elsewhere_is_counted_as_after_a_restart(sessions: Any) -> None:
    """A lower rated current set by another process counts in the next batch as after a restart."""
    points = [Point(START + timedelta(minutes=i), round(500 + 0.1 * i, 3)) for i in range(40)]
    results = []
    for restart in (False, True):
        device, project = await setup(sessions)
        observer = EnergyObserver(sessions)
        for i in range(0, 30, 10):
            await send(sessions, observer, device, points[i : i + 10])
        async with sessions() as session:  # 1 A: at most 0.375 kW, 0.1 kWh a minute is implausible
            await session.execute(update(Device).where(Device.sysno == device).values(rated_current=1))
            await session.commit()
        if restart:
            observer = EnergyObserver(sessions)
        for i in range(30, 40, 5):
            await send(sessions, observer, device, points[i : i + 5])
        found = await stored(sessions, device, project)
        intervals = found["intervals"]
        late = [r for q, r in intervals.items() if q >= counting.quarter_of(points[30].ts)]
        assert late and all(r.n_implausible and abs(r.kwh) < 1e-9 for r in late)
        whole = sum(r.kwh for r in intervals.values())
        for key in ROLLUPS:
            assert found["sums"][key] == pytest.approx(whole, abs=0.001), key
        results.append({q: (round(r.kwh, 9), r.n_implausible) for q, r in intervals.items()})
    assert results[0] == results[1]


async def test_a_batch_rolled_back_after_it_was_counted_is_as_never_sent(sessions: Any) -> None:
    """A batch whose transaction fails after the observer counted it (the commit, say) leaves nothing."""
    device, project = await setup(sessions)
    points = [Point(START + timedelta(minutes=i), round(100 + 0.005 * i, 3)) for i in range(30)]
    observer = EnergyObserver(sessions)
    await send(sessions, observer, device, points[:5])
    rows = [  # in the same quarter, a small rise: the usual counting takes them into the tail
        service.reading_row(device_sysno=device, ts=p.ts, values={"energy": p.value}, extra={})
        for p in points[5:10]
    ]
    async with sessions() as session:  # as the ingest does when a write fails: roll back, reset
        await observer.prepare(session, rows)
        await service.insert_readings(session=session, rows=rows)
        await observer.observe(session, BatchReport(readings=rows, events=[], transitions=[]))
        await session.rollback()
    observer.reset()
    quarters = await stored(sessions, device, project)
    assert sum(r.kwh for r in quarters["intervals"].values()) == pytest.approx(0.02)  # the first batch's
    # the next batch counts on from the first batch's readings, not from the failed one's
    await send(sessions, observer, device, points[20:])
    check(points[:5] + points[20:], await stored(sessions, device, project))


async def facts_generation(sessions: Any) -> int:
    async with sessions() as session:
        return int(await session.scalar(select(func.coalesce(func.max(EnergyFacts.generation), 0))) or 0)


async def test_the_facts_generation_moves_only_when_what_counting_reads_changes(sessions: Any) -> None:
    """Triggers count edits of a device's project, rated current and phases, deletions and meter changes."""
    device, _ = await setup(sessions)
    other_project = (await setup(sessions))[1]
    before = await facts_generation(sessions)

    async def edit(**values: Any) -> int:
        async with sessions() as session:
            await session.execute(update(Device).where(Device.sysno == device).values(**values))
            await session.commit()
        return await facts_generation(sessions) - before

    # what the ingest writes every batch, a rename, and the same values again: nothing
    assert await edit(online=1, last_report_time=START, name="改名") == 0
    assert await edit(rated_current=63, phases=1) == 0
    assert await edit(rated_current=40) == 1
    assert await edit(phases=3) == 2
    assert await edit(project_sysno=other_project) == 3
    async with sessions() as session:
        change = MeterChange(device_sysno=device, change_time=START, old_final=10.0, new_initial=0.5)
        session.add(change)
        await session.commit()
        assert await facts_generation(sessions) - before == 4
        change.new_initial = 0.6
        await session.commit()
        assert await facts_generation(sessions) - before == 5
        await session.delete(change)
        await session.commit()
        assert await facts_generation(sessions) - before == 6
        await session.delete(await session.get(Device, device))
        await session.commit()
    assert await facts_generation(sessions) - before == 7


async def test_facts_are_compared_only_once_they_changed_then_for_every_device(sessions: Any) -> None:
    """A batch compares no facts until one changed; a device edited outside a batch is honoured later."""
    edited, project = await setup(sessions)
    bystander, _ = await setup(sessions)
    points = [Point(START + timedelta(minutes=i), round(500 + 0.1 * i, 3)) for i in range(40)]
    observer = EnergyObserver(sessions)
    for i in range(0, 30, 10):
        await send(sessions, observer, edited, points[i : i + 10])
        await send(sessions, observer, bystander, points[i : i + 10])
    assert observer.stats.facts_checks == 1  # the first batch's, from no generation yet
    async with sessions() as session:  # 1 A: at most 0.375 kW, 0.1 kWh a minute is implausible
        await session.execute(update(Device).where(Device.sysno == edited).values(rated_current=1))
        await session.commit()
    await send(sessions, observer, bystander, points[30:35])  # the edited device is not in it
    assert observer.stats.facts_checks == 2
    for i in range(30, 40, 5):
        await send(sessions, observer, edited, points[i : i + 5])
    await send(sessions, observer, bystander, points[35:40])
    assert observer.stats.facts_checks == 2
    found = await stored(sessions, edited, project)
    intervals = found["intervals"]
    late = [r for q, r in intervals.items() if q >= counting.quarter_of(points[30].ts)]
    assert late and all(r.n_implausible and abs(r.kwh) < 1e-9 for r in late)
    first = intervals[counting.quarter_of(START)]  # counted before the edit
    assert not first.n_implausible and first.kwh == pytest.approx(1.5, abs=1e-6)
    whole = sum(r.kwh for r in intervals.values())
    for key in ROLLUPS:
        assert found["sums"][key] == pytest.approx(whole, abs=0.001), key
