"""Consumption from energy counters: which readings count, and how much each quarter-hour used.

Pure functions of a device's readings (and its recorded meter changes), so that any order of
arrival gives the same quarters: the ingest and the meter-change calls recompute the quarters a
change of the readings touches, and the result is the same as computing everything at once.

The rules, in order:

1. **Segments.** A recorded meter change splits the readings: the old meter's readings end with
   its final reading, the new meter's begin with its initial reading, and nothing is counted
   between the two (totals stay continuous).
2. **Outliers.** A reading that leaves the line of its neighbours and comes back within ``SPAN``
   readings (a counter that briefly reports 0, a spike) is not counted: some earlier reading ``p``
   and later reading ``n`` within ``SPAN`` positions agree with each other (``n`` at or above
   ``p``, by no more than the device could draw in between) while the reading lies outside them.
3. **Pairs.** Consecutive counted readings make a pair; its consumption is the increase of the
   counter, spread over the quarters it spans in proportion to time (*estimated* when the pair
   spans more than one quarter, i.e. readings were missing). A drop that does not come back is a
   reset or rollover: the new rise from 0 is counted and flagged *reset*. An increase beyond what
   the device's rated current could draw (with margin) is not counted and flagged *implausible*.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from operator import le
from typing import NamedTuple

QUARTER = timedelta(minutes=15)
_QUARTER_S = 900
# How many readings either side decide whether one is an outlier (a glitch lasts at most this long).
SPAN = 5
# Counter jitter below this is taken as it is (it cancels out), not as a reset.
EPS = 0.001
# Added to the most a device could draw in a pair's time: counter rounding and clock jitter.
SLACK_KWH = 0.05
# The most a device may plausibly draw: rated current × this voltage × phases × margin.
PLAUSIBLE_VOLTS = 250.0
PLAUSIBLE_MARGIN = 1.5
# Assumed where a device's rated current is not set (a large incoming breaker).
DEFAULT_RATED_CURRENT = 630.0

ESTIMATED, RESET, IMPLAUSIBLE = 1, 2, 4


class Point(NamedTuple):
    """A counter value at an instant (``fixed``: a meter change's final or initial reading).

    A named tuple: the ingest makes one per counter reading, and a tuple is made in a third of a
    frozen dataclass's time.
    """

    ts: datetime
    value: float
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class MeterChange:
    """A meter replaced at ``at``: the old one's last value and the new one's first."""

    at: datetime
    old_final: float
    new_initial: float


@dataclass(frozen=True, slots=True)
class Pair:
    """Consumption between two counted readings, with its flags."""

    start: datetime
    end: datetime
    kwh: float
    flags: int


@dataclass(slots=True)
class Quarter:
    """One quarter-hour's consumption; the counts say how many pairs touching it carried each flag."""

    kwh: float = 0.0
    estimated: int = 0
    reset: int = 0
    implausible: int = 0

    def add(self, kwh: float, flags: int, sign: int = 1) -> None:
        """Add (or with ``sign`` −1 take away) a share of a pair."""
        self.kwh += sign * kwh
        self.estimated += sign * bool(flags & ESTIMATED)
        self.reset += sign * bool(flags & RESET)
        self.implausible += sign * bool(flags & IMPLAUSIBLE)

    def minus(self, other: Quarter) -> Quarter:
        """The change from ``other`` to this."""
        return Quarter(
            self.kwh - other.kwh,
            self.estimated - other.estimated,
            self.reset - other.reset,
            self.implausible - other.implausible,
        )

    @property
    def empty(self) -> bool:
        """Whether it changes nothing."""
        return abs(self.kwh) < 1e-12 and not (self.estimated or self.reset or self.implausible)


def max_kw(rated_current: float | None, phases: int) -> float:
    """The most a device may plausibly draw, in kW."""
    amps = rated_current or DEFAULT_RATED_CURRENT
    return amps * PLAUSIBLE_VOLTS * max(phases, 1) * PLAUSIBLE_MARGIN / 1000


def quarter_of(ts: datetime) -> datetime:
    """The start of the quarter-hour holding ``ts`` (quarters align in UTC and in every time zone)."""
    seconds = int(ts.timestamp() // _QUARTER_S) * _QUARTER_S
    return datetime.fromtimestamp(seconds, UTC)


def _cap(kw: float, start: datetime, end: datetime) -> float:
    return kw * max((end - start).total_seconds(), 0.0) / 3600 + SLACK_KWH


def segments(points: Sequence[Point], changes: Sequence[MeterChange]) -> list[list[Point]]:
    """The readings split at meter changes, each part closed or opened by the change's fixed readings."""
    parts: list[list[Point]] = [[]]
    ordered = sorted(changes, key=lambda c: c.at)
    k = 0
    for point in points:
        while k < len(ordered) and point.ts > ordered[k].at:
            change = ordered[k]
            parts[-1].append(Point(change.at, change.old_final, fixed=True))
            parts.append([Point(change.at, change.new_initial, fixed=True)])
            k += 1
        parts[-1].append(point)
    for change in ordered[k:]:
        parts[-1].append(Point(change.at, change.old_final, fixed=True))
        parts.append([Point(change.at, change.new_initial, fixed=True)])
    return parts


def outliers(points: Sequence[Point], kw: float) -> list[bool]:
    """Which readings leave the line of their neighbours and come back (rule 2)."""
    n = len(points)
    out = [False] * n
    # Only a reading within SPAN of a drop can lie outside its neighbours: a rising run has no outlier.
    drops = [j for j in range(n - 1) if points[j + 1].value < points[j].value]
    candidates: set[int] = set()
    for j in drops:
        candidates.update(range(max(1, j + 1 - SPAN), min(n - 1, j + SPAN + 1)))
    for i in sorted(candidates):
        here = points[i]
        if here.fixed:
            continue
        for p in range(max(0, i - SPAN), i):
            before = points[p]
            for q in range(i + 1, min(n, i + SPAN + 1)):
                after = points[q]
                agree = before.value - EPS <= after.value <= before.value + _cap(kw, before.ts, after.ts)
                if agree and (here.value < before.value - EPS or here.value > after.value + EPS):
                    out[i] = True
                    break
            if out[i]:
                break
    return out


def pair(a: Point, b: Point, kw: float) -> Pair:
    """Consumption from ``a`` to ``b`` by rule 3."""
    cap = _cap(kw, a.ts, b.ts)
    rise = b.value - a.value
    flags = ESTIMATED if b.ts - a.ts > QUARTER else 0
    if rise >= -EPS:
        if rise <= cap:
            return Pair(a.ts, b.ts, rise, flags)
        return Pair(a.ts, b.ts, 0.0, flags | IMPLAUSIBLE)
    if b.value <= cap:  # a reset or rollover: the counter started again from 0
        return Pair(a.ts, b.ts, max(b.value, 0.0), flags | RESET)
    return Pair(a.ts, b.ts, 0.0, flags | RESET | IMPLAUSIBLE)


def pairs(points: Sequence[Point], changes: Sequence[MeterChange], kw: float) -> Iterator[Pair]:
    """Every counted pair of the (time-ordered) readings."""
    for part in segments(points, changes):
        skip = outliers(part, kw)
        kept = [p for p, out in zip(part, skip, strict=True) if not out]
        for a, b in zip(kept, kept[1:], strict=False):
            yield pair(a, b, kw)


def spread(
    items: Iterable[Pair],
    first: datetime | None = None,
    last: datetime | None = None,
    into: dict[datetime, Quarter] | None = None,
    sign: int = 1,
) -> dict[datetime, Quarter]:
    """The pairs' consumption per quarter (only the quarters from ``first`` to ``last``, when given)."""
    out: dict[datetime, Quarter] = into if into is not None else {}
    lo = first.timestamp() if first is not None else float("-inf")
    hi = last.timestamp() + _QUARTER_S if last is not None else float("inf")
    for item in items:
        start, end = item.start.timestamp(), item.end.timestamp()
        if end <= start:  # a fixed reading at the very instant of a reading: the quarter before takes it
            before = quarter_of(item.end - timedelta(microseconds=1))
            if lo <= before.timestamp() < hi:
                out.setdefault(before, Quarter()).add(item.kwh, item.flags, sign)
            continue
        if end <= lo or start >= hi:
            continue
        span = end - start
        q = int(max(start, lo) // _QUARTER_S) * _QUARTER_S
        while q < min(end, hi):
            share = (min(end, q + _QUARTER_S) - max(start, q)) / span
            out.setdefault(datetime.fromtimestamp(q, UTC), Quarter()).add(item.kwh * share, item.flags, sign)
            q += _QUARTER_S
    return out


def changed(old: Iterable[Pair], new: Iterable[Pair]) -> dict[datetime, Quarter]:
    """What the quarters gain going from the pairs ``old`` to ``new`` (pairs in both cancel out)."""
    gone = Counter(old)
    came: list[Pair] = []
    for item in new:
        if gone[item] > 0:
            gone[item] -= 1
        else:
            came.append(item)
    out = spread(came)
    return spread(gone.elements(), into=out, sign=-1)


def settled(
    points: Sequence[Point], changes: Sequence[MeterChange], kw: float, *, first: bool, last: bool
) -> list[bool]:
    """Which readings are counted whatever readings lie beyond ``points``.

    A reading's status depends on the ``SPAN`` readings either side of it in its segment; it is
    settled where those are all among ``points``, or where nothing lies beyond on that side (the
    segment ends at a meter change, or ``first`` / ``last``: ``points`` begin or end the readings).
    Pairs before a settled reading never change with readings after it, and the other way round.
    """
    out: list[bool] = []
    parts = segments(points, changes)
    for k, part in enumerate(parts):
        skip = outliers(part, kw)
        n = len(part)
        for i, point in enumerate(part):
            if point.fixed:
                continue
            left = i >= SPAN or k > 0 or first
            right = n - 1 - i >= SPAN or k < len(parts) - 1 or last
            out.append(left and right and not skip[i])
    return out


def appended(
    points: Sequence[Point],
    new: Sequence[Point],
    changes: Sequence[MeterChange],
    kw: float,
    *,
    complete: bool = False,
) -> dict[datetime, Quarter] | None:
    """What the quarters gain when readings ``new`` (in time order, one per instant) follow ``points``.

    ``complete``: ``points`` are all the readings there are. The usual case, a counter that only
    rose with no meter change among the readings, has no outliers before or after: the gain is the
    new pairs alone. Otherwise the pairs of all the readings are compared with those of ``points``,
    which needs a settled reading among ``points`` that the new ones cannot unsettle (pairs before
    it stay as they were); without one (a long run of glitches) the answer is None: recount.
    """
    if not new:
        return {}
    values = [p.value for p in points]
    values += [p.value for p in new]
    rising = all(map(le, values, values[1:]))
    # Meter changes before the readings only open their segment (with the new meter's first reading).
    opened = all(c.at < (points or new)[0].ts for c in changes) and (
        not changes or changes[-1].new_initial <= values[0]
    )
    # A device's first readings ever are as usual too, unless a meter change's reading comes first.
    first = not points and complete and not changes
    if not ((points or first) and rising and opened):
        if not complete and not any(settled(points, changes, kw, first=False, last=False)):
            return None
        return changed(pairs(points, changes, kw), pairs([*points, *new], changes, kw))
    a, rest = (points[-1], new) if points else (new[0], new[1:])
    if not rest:
        return {}
    usual = usual_rise(a, rest[0].ts, rest[-1].ts, values[-1])
    if usual is not None:
        return {usual[0]: Quarter(usual[1])}
    t0 = a.ts.timestamp()
    out: dict[datetime, Quarter] = {}
    gains: dict[int, float] = {}  # quarter (epoch seconds) → rise of the usual pairs within it
    for b in rest:
        t1 = b.ts.timestamp()
        q = int(t0 // _QUARTER_S) * _QUARTER_S
        rise = b.value - a.value
        if t0 < t1 <= q + _QUARTER_S and rise <= kw * (t1 - t0) / 3600 + SLACK_KWH:
            # within one quarter and plausible (the usual pair): its rise, unflagged
            gains[q] = gains.get(q, 0.0) + rise
        else:
            spread((pair(a, b, kw),), into=out)
        a, t0 = b, t1
    for q, rise in gains.items():
        key = datetime.fromtimestamp(q, UTC)
        quarter = out.get(key)
        if quarter is None:
            out[key] = Quarter(rise)
        else:
            quarter.kwh += rise
    return out


def usual_rise(a: Point, first: datetime, last: datetime, value: float) -> tuple[datetime, float] | None:
    """The usual case of readings that rise from ``a`` (from ``first`` to ``last``, up to ``value``).

    All in the quarter of ``a`` and no pair can be implausible (a rising counter's pairs each rise
    at most the whole rise, within every pair's slack): the quarter gains the whole rise. Returns
    (quarter, rise), or None where the readings are not the usual case.
    """
    t0 = a.ts.timestamp()
    q = int(t0 // _QUARTER_S) * _QUARTER_S
    rise = value - a.value
    if rise <= SLACK_KWH and t0 < first.timestamp() and last.timestamp() <= q + _QUARTER_S:
        return datetime.fromtimestamp(q, UTC), rise
    return None


def quarters(
    points: Sequence[Point], changes: Sequence[MeterChange], kw: float, first: datetime, last: datetime
) -> dict[datetime, Quarter]:
    """Consumption per quarter from ``first`` to ``last`` of readings that cover that time."""
    return spread(pairs(points, changes, kw), first, last)
