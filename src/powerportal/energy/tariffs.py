"""Time-of-use prices: which period and price hold at an instant of a project's local time."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from powerportal.energy.models import PERIOD_LABELS, PERIODS

FLAT = PERIODS.index("flat")
SLOTS = 48  # half hours of a day


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a plan as the pricing reads it."""

    effective: date
    prices: tuple[float, ...]
    # month (1–12) → 48 period digits
    slots_by_month: dict[int, str]
    holidays: frozenset[date]
    holiday_slots: str | None

    @classmethod
    def of(
        cls,
        *,
        effective: date,
        prices: dict[str, Any],
        seasons: Sequence[dict[str, Any]],
        holidays: dict[str, Any] | None,
    ) -> Version:
        """From the stored JSON."""
        by_month = {int(m): str(season["slots"]) for season in seasons for m in season["months"]}
        return cls(
            effective=effective,
            prices=tuple(float(prices.get(p) or 0.0) for p in PERIODS),
            slots_by_month=by_month,
            holidays=frozenset(date.fromisoformat(d) for d in (holidays or {}).get("dates", [])),
            holiday_slots=(holidays or {}).get("slots"),
        )

    def at(self, local: datetime) -> tuple[int, float]:
        """The period and price at a local wall-clock time."""
        day = local.date()
        slots = self.holiday_slots if day in self.holidays and self.holiday_slots else None
        slots = slots or self.slots_by_month.get(local.month)
        if slots is None:
            return FLAT, 0.0
        period = int(slots[(local.hour * 60 + local.minute) // 30])
        return period, self.prices[period]


@dataclass(frozen=True)
class Pricing:
    """A project's clock and plan: the period and price of each quarter-hour."""

    tz: ZoneInfo
    versions: tuple[Version, ...] = ()

    def at(self, instant: datetime) -> tuple[int, float]:
        """The period and price in force at a UTC instant (no plan: everything 平 at ¥0)."""
        local = instant.astimezone(self.tz)
        if not self.versions:
            return FLAT, 0.0
        index = bisect.bisect_right([v.effective for v in self.versions], local.date()) - 1
        if index < 0:
            return FLAT, 0.0
        return self.versions[index].at(local)

    @property
    def priced(self) -> bool:
        """Whether a plan gives prices at all."""
        return bool(self.versions)


def pricing(tz_name: str, versions: Iterable[Version]) -> Pricing:
    """A project's pricing from its time zone and its plan's versions (any order)."""
    return Pricing(tz=zone(tz_name), versions=tuple(sorted(versions, key=lambda v: v.effective)))


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """A time zone by name (Asia/Shanghai where the name is unknown)."""
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return ZoneInfo("Asia/Shanghai")


def check_slots(slots: str) -> str | None:
    """Why a slot table is wrong, or None."""
    if len(slots) != SLOTS or any(c not in "01234" for c in slots):
        return "时段表应为 48 个半小时时段，每个为 0–4（尖、峰、平、谷、深谷）"
    return None


def check_version(
    prices: dict[str, float | None], seasons: Sequence[dict[str, Any]], holidays: dict[str, Any] | None
) -> str | None:
    """Why a version is not usable, or None (checked on top of the schema)."""
    months = [int(m) for season in seasons for m in season["months"]]
    if sorted(months) != list(range(1, 13)):
        return "季节应覆盖 1–12 月，每个月只属于一个季节"
    tables = [str(s["slots"]) for s in seasons]
    if holidays and holidays.get("slots"):
        tables.append(str(holidays["slots"]))
    for table in tables:
        problem = check_slots(table)
        if problem:
            return problem
        for digit in set(table):
            if prices.get(PERIODS[int(digit)]) is None:
                return f"时段表用到了「{PERIOD_LABELS[int(digit)]}」时段，请填写它的电价"
    return None
