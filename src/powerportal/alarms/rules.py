"""Alarm types and the threshold rules: which reading keys a rule watches, and when it opens and closes.

The state machine here is pure (no database) so the engine stays cheap per reading and the rules
can be tested on their own. A rule opens when the value has stayed beyond the limit for at least
``min_seconds`` and closes when it has stayed back inside the limit, less the hysteresis band, for
at least ``min_seconds``; a value hovering at the limit therefore makes one alarm, not a storm.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from typing import Literal

from powerportal.telemetry.keys import BY_KEY, COLUMN_KEYS


class Level(IntEnum):
    """How urgent an alarm is."""

    HINT = 1
    IMPORTANT = 2
    URGENT = 3


LEVEL_LABELS = {Level.HINT: "提示", Level.IMPORTANT: "重要", Level.URGENT: "紧急"}


@dataclass(frozen=True, slots=True)
class AlarmType:
    """One kind of alarm: its code, Chinese label and level."""

    code: str
    label: str
    level: Level


ALARM_TYPES: tuple[AlarmType, ...] = (
    AlarmType("over_voltage", "过压", Level.IMPORTANT),
    AlarmType("under_voltage", "欠压", Level.IMPORTANT),
    AlarmType("over_current", "过流", Level.URGENT),
    AlarmType("over_power", "功率超限", Level.IMPORTANT),
    AlarmType("leakage", "漏电", Level.URGENT),
    AlarmType("over_temperature", "温度过高", Level.URGENT),
    AlarmType("short_circuit", "短路", Level.URGENT),
    AlarmType("arc_fault", "电弧故障", Level.URGENT),
    AlarmType("device_fault", "设备故障", Level.IMPORTANT),
    # A load the project's policy forbids (load identification); raised by ``load_ident``, not a rule.
    AlarmType("load_violation", "违规负荷", Level.IMPORTANT),
    AlarmType("offline", "离线", Level.HINT),
)
BY_CODE: dict[str, AlarmType] = {t.code: t for t in ALARM_TYPES}

# Codes a device may report in an ``alarm`` event under another name.
EVENT_ALIASES = {"over_temperature": "over_temperature", "temperature": "over_temperature", "leak": "leakage"}


def event_alarm_type(code: str | None) -> str:
    """The alarm type of a device-reported alarm code (unknown codes are a device fault)."""
    if not code:
        return "device_fault"
    code = EVENT_ALIASES.get(code, code)
    return code if code in BY_CODE and code not in ("offline", "load_violation") else "device_fault"


Direction = Literal["above", "below"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A threshold rule: the device setting it reads, the reading keys it watches, and the direction."""

    alarm_type: str
    setting: str
    keys: tuple[int, ...]  # indexes into a reading row (``service.READING_COLUMNS`` order)
    key_names: tuple[str, ...]
    direction: Direction
    # Values at or below this are ignored (no supply measured is not an under-voltage).
    ignore_at_or_below: float | None = None


def _indexes(*names: str) -> tuple[int, ...]:
    # Reading rows are (device_sysno, ts, *COLUMN_KEYS, extra).
    return tuple(2 + COLUMN_KEYS.index(n) for n in names)


_VOLTAGES = ("voltage", "voltage_a", "voltage_b", "voltage_c")
_CURRENTS = ("current", "current_a", "current_b", "current_c")

RULES: tuple[Rule, ...] = (
    Rule("over_voltage", "over_voltage", _indexes(*_VOLTAGES), _VOLTAGES, "above"),
    Rule("under_voltage", "under_voltage", _indexes(*_VOLTAGES), _VOLTAGES, "below", ignore_at_or_below=1.0),
    Rule("over_current", "over_current", _indexes(*_CURRENTS), _CURRENTS, "above"),
    Rule("over_power", "power_limit", _indexes("active_power"), ("active_power",), "above"),
    Rule("leakage", "leakage_limit", _indexes("leakage_current"), ("leakage_current",), "above"),
    Rule("over_temperature", "temperature_limit", _indexes("temperature"), ("temperature",), "above"),
)
RULE_BY_TYPE = {r.alarm_type: r for r in RULES}


def unit_of(alarm_type: str) -> str:
    """The unit of the value an alarm type measures ('' where it has none)."""
    rule = RULE_BY_TYPE.get(alarm_type)
    return BY_KEY[rule.key_names[0]].unit if rule else ""


def quantity_of(alarm_type: str) -> str:
    """The Chinese name of what an alarm type measures."""
    rule = RULE_BY_TYPE.get(alarm_type)
    return BY_KEY[rule.key_names[0]].label_zh if rule else ""


def worst(rule: Rule, row: tuple[object, ...]) -> float | None:
    """The value of a reading row that matters to a rule: highest for 'above', lowest for 'below'."""
    found: float | None = None
    for index in rule.keys:
        value = row[index]
        if value is None:
            continue
        number = float(value)  # type: ignore[arg-type]
        if rule.ignore_at_or_below is not None and number <= rule.ignore_at_or_below:
            continue
        if found is None or (number > found if rule.direction == "above" else number < found):
            found = number
    return found


@dataclass(slots=True)
class RuleState:
    """Where one rule of one device stands between readings."""

    open: bool = False
    # First reading of the current run beyond the limit (while closed) or back inside it (while open).
    since: datetime | None = None
    peak: float | None = None
    # When the last change began: the first reading of the run that opened or closed the alarm.
    changed_at: datetime | None = None


Step = Literal["open", "close"] | None


def step(
    state: RuleState,
    *,
    direction: Direction,
    value: float,
    threshold: float,
    at: datetime,
    hysteresis: float,
    min_seconds: float,
) -> Step:
    """Advance a rule by one reading; answer 'open' or 'close' when the alarm should change."""
    beyond = value > threshold if direction == "above" else value < threshold
    band = abs(threshold) * hysteresis
    recovered = value <= threshold - band if direction == "above" else value >= threshold + band
    if not state.open:
        if not beyond:
            state.since = None
            state.peak = None
            return None
        if state.since is None or at < state.since:
            state.since = at
        if state.peak is None or (value > state.peak if direction == "above" else value < state.peak):
            state.peak = value
        if (at - state.since).total_seconds() >= min_seconds:
            state.open = True
            state.changed_at = state.since
            state.since = None
            return "open"
        return None
    if not recovered:
        state.since = None
        if state.peak is None or (value > state.peak if direction == "above" else value < state.peak):
            state.peak = value
        return None
    if state.since is None or at < state.since:
        state.since = at
    if (at - state.since).total_seconds() >= min_seconds:
        state.open = False
        state.changed_at = state.since
        state.since = None
        state.peak = None
        return "close"
    return None
