"""The ingest observer that turns each batch's counter readings into quarter-hour consumption.

In-order readings are counted from a short tail of each device's newest readings kept in memory
(``counting.appended``; the usual batch, a rising counter within one quarter, by ``_usual``): only
what the new readings change is written. Readings at or before a device's newest stored one (late,
out of order, sent twice), the first batch of a device after a start, and readings after a tail
that cannot tell (a long run of glitches) are recounted from the database (``store.recount``).
Either way the quarters equal what counting every reading at once gives.

Each device's facts (project, rated current, phases, meter changes) are kept too. The statement
that writes a batch's quarters reads how many times facts changed (``energy_facts``, kept by
triggers); where that moved (a device edited, a meter change recorded, by any process), the batch's
devices are compared with their rows, those that differ have their quarters taken back and counted
again with the facts as they are, in the same transaction, and the kept facts of the other devices
are read again with their next batch. A batch costs one round trip on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from operator import itemgetter, le, lt

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from powerportal.energy import counting, store
from powerportal.energy.counting import Point
from powerportal.energy.tariffs import Pricing
from powerportal.telemetry.ingest import BatchReport
from powerportal.telemetry.models import Reading
from powerportal.telemetry.service import READING_COLUMNS, ReadingRow

log = logging.getLogger(__name__)

_ENERGY = READING_COLUMNS.index("energy")
# How long a project's plan is trusted before it is read again (a new version, another plan).
PRICING_TTL = 60.0
# The roll-ups take the committed batches' changes at most this often (seconds): while messages keep
# coming, a fold takes many batches' changes at once. A fold costs the ingest about as much whether it
# takes one second's notes or five (the upserts of the same roll-up rows dominate), and the screens
# refresh every 30 s: at 1 s the folds took a tenth of the ingest's time on SQLite, at 5 s a third of that.
FOLD_EVERY = 5.0


@dataclass(slots=True)
class Tail:
    """A device's newest stored row and its newest counter readings (their instants and values)."""

    last_row: datetime | None
    stamps: list[datetime] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    complete: bool = True  # the readings are all the device's counter readings
    rising: bool = True  # no value is below the one before

    @property
    def points(self) -> list[Point]:
        """The readings as the counting takes them."""
        return list(map(Point, self.stamps, self.values))

    def copy(self) -> Tail:
        """The tail as it is now (sharing the lists: ``keep`` replaces them)."""
        return Tail(self.last_row, self.stamps, self.values, self.complete, self.rising)

    def keep(self, stamps: list[datetime], values: list[float], rising: bool) -> None:
        """Take newer readings (``rising``: they rise from the newest kept)."""
        stamps, values = self.stamps + stamps, self.values + values
        self.complete = self.complete and len(stamps) <= store.CONTEXT
        self.stamps, self.values = stamps[-store.CONTEXT :], values[-store.CONTEXT :]
        self.rising = (self.rising and rising) or all(map(le, self.values, self.values[1:]))


@dataclass
class EnergyStats:
    """What the observer did, for tests and the benchmark."""

    quarters_written: int = 0
    recounts: int = 0
    facts_checks: int = 0  # batches whose devices' facts were compared with the database


# Told, after a fold committed, the devices whose consumption the folded batches changed.
AfterFold = Callable[[set[int]], Awaitable[None]]


class EnergyObserver:
    """Keeps ``energy_interval`` in step with the readings, batch by batch, and the roll-ups after.

    The roll-ups take the committed batches' changes at most once every ``fold_every`` seconds: at
    once when the last fold is that old, else when it will be (many batches' changes together).
    ``after_fold`` hooks (billing) are told which devices the fold changed once it committed.
    """

    def __init__(self, sessions: async_sessionmaker[AsyncSession], fold_every: float = FOLD_EVERY) -> None:
        self.sessions = sessions
        self.stats = EnergyStats()
        self.fold_every = fold_every
        self._folded = -fold_every  # when the roll-ups last took the changes (monotonic)
        self._unfolded = True  # changes may wait for the roll-ups (at a start: left by the last run)
        self._later: asyncio.TimerHandle | None = None  # the fold put off
        self._folding: asyncio.Task[None] | None = None
        self._tails: dict[int, Tail] = {}
        # Each device's project, plausible power and meter changes as last read (compared with the
        # database when ``energy_facts`` moved).
        self._facts: dict[int, store.Facts] = {}
        self._generation: int | None = None  # of ``energy_facts`` when the kept facts were last right
        self._prices: dict[int, tuple[Pricing, float]] = {}
        self.after_fold: list[AfterFold] = []
        self._touched: set[int] = set()  # devices whose quarters changed since the last fold

    async def prepare(self, session: AsyncSession, rows: Sequence[ReadingRow]) -> None:
        """Read, before the batch's readings are written, the tails of devices not seen since the start."""
        cold = set(map(itemgetter(0), rows)).difference(self._tails)
        if cold:
            await self._load(session, sorted(cold))

    async def _load(self, session: AsyncSession, devices: list[int]) -> None:
        newest = dict(
            (
                await session.execute(
                    select(Reading.device_sysno, func.max(Reading.ts))
                    .where(Reading.device_sysno.in_(devices))
                    .group_by(Reading.device_sysno)
                )
            ).all()
        )
        for device in devices:
            last = newest.get(device)
            tail = self._tails[device] = Tail(last)
            if last is not None:
                found = await session.execute(
                    select(Reading.ts, Reading.energy)
                    .where(Reading.device_sysno == device, Reading.energy.is_not(None))
                    .order_by(Reading.ts.desc())
                    .limit(store.CONTEXT)
                )
                readings = found.all()[::-1]
                tail.stamps = [ts for ts, _ in readings]
                tail.values = [float(value or 0.0) for _, value in readings]
                tail.complete = len(readings) < store.CONTEXT
                tail.rising = all(map(le, tail.values, tail.values[1:]))

    async def observe(self, session: AsyncSession, report: BatchReport) -> None:
        """Count the batch's readings and write the quarters they change."""
        batch = _by_device(report.readings)
        cold = [device for device in batch if device not in self._facts]
        if cold:
            self._facts.update(await store.facts(session, cold))
        # The tails as they were (their lists are replaced, never changed): a device whose facts
        # differ is counted again from here.
        saved = {device: tail.copy() for device in batch if (tail := self._tails.get(device)) is not None}
        out = await self._count(session, batch)
        known = {device: facts for device in batch if (facts := self._facts.get(device)) is not None}
        prices = await self._pricing(session, {c.project_sysno for c in out}) if out else {}
        written, differ = await self._write(session, out, prices, known)
        if differ:
            # A device edited or a meter change recorded since the copy was read (by any process):
            # what was counted from the copy is taken away again, and the batch counted again from
            # the tail as it was, with the facts as they are (as if they had been read first).
            undo = [
                store.Change(c.device_sysno, c.project_sysno, c.start, counting.Quarter().minus(c.quarter))
                for c in out
                if c.device_sysno in differ
            ]
            for device, facts in differ.items():
                tail = saved.get(device)
                if tail is None:
                    self._tails.pop(device, None)
                else:
                    self._tails[device] = tail
                if facts is None:
                    self._facts.pop(device, None)
                else:
                    self._facts[device] = facts
            written += (await self._write(session, undo, prices, None))[0]  # before the recount reads them
            redo = await self._count(session, {device: batch[device] for device in differ})
            prices = await self._pricing(session, {c.project_sysno for c in redo}) if redo else {}
            written += (await self._write(session, redo, prices, None))[0]
        self.stats.quarters_written += written

    async def _count(self, session: AsyncSession, batch: dict[int, list[ReadingRow]]) -> list[store.Change]:
        """The quarter changes of a batch's readings, from the tails or else from the database."""
        out: list[store.Change] = []
        for device, rows in batch.items():
            tail = self._tails.get(device)
            facts = self._facts.get(device)
            meter = facts.meter if facts is not None else None
            kept = facts.changes if facts is not None else ()
            if tail is not None and meter is not None and not kept:
                usual = _usual(tail, rows)
                if usual is not None:
                    quarter, rise = usual
                    if rise:
                        out.append(store.Change(device, meter.project_sysno, quarter, counting.Quarter(rise)))
                    continue
            first, last, new = _counter_readings(rows)
            gained = None
            if tail is not None and (tail.last_row is None or first > tail.last_row):  # in order
                if meter is None or not new:  # nothing to count
                    tail.last_row = last
                    continue
                gained = counting.appended(tail.points, new, kept, meter.kw, complete=tail.complete)
            if tail is None or meter is None or gained is None:
                # out of order, after a restart, or past what the tail can tell: from the database
                self._tails.pop(device, None)  # read again with the next batch
                if meter is not None and new:
                    self.stats.recounts += 1
                    out += await store.recount(session, meter, kept, since=new[0].ts, until=new[-1].ts)
                continue
            out += [store.Change(device, meter.project_sysno, q, gain) for q, gain in gained.items()]
            tail.keep([p.ts for p in new], [p.value for p in new], rising=False)
            tail.last_row = last
        return out

    async def _write(
        self,
        session: AsyncSession,
        out: list[store.Change],
        prices: dict[int, Pricing],
        known: dict[int, store.Facts] | None,
    ) -> tuple[int, dict[int, store.Facts | None]]:
        """Write the quarter changes; with ``known``, say which of those devices' facts differ.

        The ``known`` devices are compared with the database only when its facts changed since the
        kept facts were last right; then the kept facts of the other devices are read again too.
        """
        done = await store.write_checked(session, out, prices, known, self._generation)
        if known is not None and done.generation != self._generation:
            self.stats.facts_checks += 1
            self._facts = {device: self._facts[device] for device in known}
            self._generation = done.generation
        if done.quarters:
            self._unfolded = True
            if self.after_fold:
                self._touched.update(c.device_sysno for c in out)
        return done.quarters, done.differ

    async def _pricing(self, session: AsyncSession, projects: set[int]) -> dict[int, Pricing]:
        now = time.monotonic()
        stale = {p for p in projects if now - self._prices.get(p, (None, -PRICING_TTL))[1] >= PRICING_TTL}
        if stale:
            for project, price in (await store.pricings(session, stale)).items():
                self._prices[project] = (price, now)
        return {p: self._prices[p][0] for p in projects if p in self._prices}

    async def committed(self, report: BatchReport) -> None:
        """Have the roll-ups take the committed changes: now, or when the last fold is ``fold_every`` old."""
        if not self._unfolded:
            return
        wait = self._folded + self.fold_every - time.monotonic()
        if wait <= 0:
            await self._fold()
        elif self._later is None:
            self._later = asyncio.get_running_loop().call_later(wait, self._fold_later)

    def _fold_later(self) -> None:
        self._later = None
        self._folding = asyncio.create_task(self._fold())

    async def _fold(self) -> None:
        # Changes committed from here on call for another fold.
        self._folded, self._unfolded = time.monotonic(), False
        touched, self._touched = self._touched, set()
        try:
            async with self.sessions() as session:
                await store.fold(session)
                await session.commit()
        except Exception:
            self._unfolded = True  # the notes stay: the next fold takes them
            self._touched |= touched
            log.exception("energy roll-ups could not take the changes; the next fold will")
            return
        for hook in self.after_fold:
            try:
                await hook(touched)
            except Exception:
                log.exception("an after-fold hook failed (the next fold tells it again)")
                self._touched |= touched

    async def settle(self) -> None:
        """Fold now what waits (the ingest is idle), and let a fold under way end."""
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self._folding is not None:
            await self._folding
            self._folding = None
        if self._unfolded:
            await self._fold()

    def reset(self) -> None:
        """Forget the tails: the batch they include was rolled back."""
        self._tails.clear()
        self._facts.clear()
        self._generation = None
        self._prices.clear()

    def forget_gateway(self, gateway_sysno: int) -> None:
        """Nothing to do: the devices' facts follow ``energy_facts.generation``, which a move raises."""


def _by_device(rows: Sequence[ReadingRow]) -> dict[int, list[ReadingRow]]:
    """A batch's rows per device (a message's rows of a device come together: a lookup per run)."""
    out: dict[int, list[ReadingRow]] = {}
    for device, run in groupby(rows, itemgetter(0)):
        got = out.get(device)
        if got is None:
            out[device] = list(run)
        else:
            got.extend(run)
    return out


def _usual(tail: Tail, rows: list[ReadingRow]) -> tuple[datetime, float] | None:
    """A device's usual batch counted from its tail without building points: (quarter, rise), or None.

    Usual: every row a counter reading after the tail's newest row, one per instant, rising from
    a rising tail with no meter change, and ``counting.usual_rise`` (what ``counting.appended``
    gives such readings, in a fifth of its time); the tail takes the readings.
    """
    last = tail.last_row
    if not (tail.rising and tail.stamps and last is not None):
        return None
    stamps = [row[1] for row in rows]
    values = [row[_ENERGY] for row in rows]
    if not (stamps[0] > last and all(map(lt, stamps, stamps[1:])) and None not in values):
        return None
    newest = Point(tail.stamps[-1], tail.values[-1])
    if not (newest.value <= values[0] and all(map(le, values, values[1:]))):
        return None
    usual = counting.usual_rise(newest, stamps[0], stamps[-1], values[-1])
    if usual is not None:
        tail.keep(stamps, values, rising=True)
        tail.last_row = stamps[-1]
    return usual


def _counter_readings(rows: list[ReadingRow]) -> tuple[datetime, datetime, list[Point]]:
    """A device's first and last instant in the batch, and its counter readings in time order.

    Of readings at one instant the first is kept, as the insert keeps it.
    """
    stamps = [row[1] for row in rows]
    if all(map(lt, stamps, stamps[1:])):  # the usual case: one reading per instant, in time order
        return stamps[0], stamps[-1], [Point(row[1], v) for row in rows if (v := row[_ENERGY]) is not None]
    readings: dict[datetime, float | None] = {}
    for row in rows:
        readings.setdefault(row[1], row[_ENERGY])
    ordered = sorted(readings.items())
    return ordered[0][0], ordered[-1][0], [Point(ts, v) for ts, v in ordered if v is not None]
