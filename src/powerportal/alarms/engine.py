"""The alarm engine: an ingest observer that turns readings, device events and offline spells into alarms.

State is kept in memory per (device, alarm type) and loaded lazily: a device's thresholds and its
open alarms are read once (then again every ``DEVICE_TTL`` seconds, for edited thresholds), so a
reading costs a few comparisons and the database is touched only when an alarm opens or closes.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import (
    BY_CODE,
    RULES,
    Rule,
    RuleState,
    event_alarm_type,
    quantity_of,
    step,
    unit_of,
)
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.service import OFFLINE_REASONS
from powerportal.projects.models import Project
from powerportal.telemetry.ingest import BatchReport, Transition
from powerportal.telemetry.service import ReadingRow

log = logging.getLogger("powerportal.alarms")

DEVICE_TTL = 60.0
# Alarm key of a gateway (which has no device sysno): its negated gateway sysno.
AlarmKey = tuple[int, str]


@dataclass
class Target:
    """What the engine knows of a device (or gateway) between batches."""

    sysno: int | None
    device_id: str
    name: str
    gateway_sysno: int
    project_sysno: int
    project_name: str
    rules: list[tuple[Rule, float]] = field(default_factory=list)
    # The rules ready for the hot loop: (rule, threshold, recovery level, its state).
    compiled: list[tuple[Rule, float, float, RuleState]] = field(default_factory=list)
    loaded_at: float = 0.0


@dataclass(slots=True)
class OpenAlarm:
    """An alarm the engine holds open."""

    sysno: int
    source: str
    start: datetime


@dataclass
class AlarmEngineConfig:
    """The knobs of the rules."""

    hysteresis: float = 0.03
    min_seconds: float = 10.0


AlarmsOpened = Callable[[list[Alarm]], None]


class AlarmEngine:
    """Observes ingest batches and keeps one open alarm per device and type."""

    def __init__(
        self, config: AlarmEngineConfig | None = None, on_opened: AlarmsOpened | None = None
    ) -> None:
        self.config = config or AlarmEngineConfig()
        self.on_opened = on_opened
        self._targets: dict[int, Target] = {}
        self._gateways: dict[int, Target] = {}
        self._states: dict[AlarmKey, RuleState] = {}
        self._open: dict[AlarmKey, OpenAlarm] = {}
        # Alarms the batch under way opened, handed on once it commits.
        self._uncommitted: list[Alarm] = []
        self.opened = 0
        self.closed = 0

    async def prepare(self, session: AsyncSession, rows: Sequence[ReadingRow]) -> None:
        """Nothing to read before the readings are written: the rules judge what was written."""

    def reset(self) -> None:
        """Forget everything; it is read again from the database (the last batch was rolled back)."""
        self._targets.clear()
        self._gateways.clear()
        self._states.clear()
        self._open.clear()
        self._uncommitted.clear()

    def forget_gateway(self, gateway_sysno: int) -> None:
        """Read a gateway and its devices again at their next batch: a move changes their project."""
        for target in (*self._targets.values(), *self._gateways.values()):
            if target.gateway_sysno == gateway_sysno:
                target.loaded_at = -math.inf

    async def settle(self) -> None:
        """Nothing is put off: ``committed`` hands alarms on at once."""

    async def committed(self, report: BatchReport) -> None:
        """Hand the alarms the batch opened to ``on_opened`` (texts go out for stored alarms only)."""
        opened, self._uncommitted = self._uncommitted, []
        if opened and self.on_opened is not None:
            self.on_opened(opened)

    async def observe(self, session: AsyncSession, report: BatchReport) -> None:
        """Evaluate one batch inside its transaction."""
        wanted = {row[0] for row in report.readings}
        wanted.update(e.device_sysno for e in report.events)
        wanted.update(t.device_sysno for t in report.transitions if t.device_sysno is not None)
        closing: list[tuple[AlarmKey, datetime]] = []
        await self._load(session, wanted, closing)
        opening: list[tuple[AlarmKey, Alarm]] = []
        self._readings(report, opening, closing)
        self._events(report, opening, closing)
        offline_notices = await self._transitions(session, report.transitions, opening, closing)
        await self._apply(session, opening, closing, offline_notices)

    # -- loading -----------------------------------------------------------------------------------

    async def _load(
        self, session: AsyncSession, wanted: set[int], closing: list[tuple[AlarmKey, datetime]]
    ) -> None:
        now = time.monotonic()
        stale = [s for s in wanted if (t := self._targets.get(s)) is None or now - t.loaded_at > DEVICE_TTL]
        if not stale:
            return
        fresh: list[int] = []
        rows = await session.execute(
            select(Device, Project.name)
            .join(Project, Project.sysno == Device.project_sysno)
            .where(Device.sysno.in_(stale))
        )
        for device, project_name in rows:
            if device.sysno not in self._targets:
                fresh.append(device.sysno)
            self._targets[device.sysno] = Target(
                sysno=device.sysno,
                device_id=device.device_id,
                name=device.name,
                gateway_sysno=device.gateway_sysno,
                project_sysno=device.project_sysno,
                project_name=project_name,
                rules=[
                    (rule, float(threshold))
                    for rule in RULES
                    if (threshold := getattr(device, rule.setting)) is not None
                ],
                loaded_at=now,
            )
            target = self._targets[device.sysno]
            self._compile(target)
            self._close_orphans(target, closing)
        if fresh:
            await self._restore(session, Alarm.device_sysno.in_(fresh), by_gateway=False)

    def _compile(self, target: Target) -> None:
        """Pair each rule with its recovery level and its state object (shared with events and restores)."""
        assert target.sysno is not None  # noqa: S101 - only devices have threshold rules
        band = self.config.hysteresis
        target.compiled = [
            (
                rule,
                threshold,
                threshold - abs(threshold) * band
                if rule.direction == "above"
                else threshold + abs(threshold) * band,
                self._states.setdefault((target.sysno, rule.alarm_type), RuleState()),
            )
            for rule, threshold in target.rules
        ]

    def _close_orphans(self, target: Target, closing: list[tuple[AlarmKey, datetime]]) -> None:
        """Close the threshold alarms of a device whose threshold was removed (nothing else would)."""
        assert target.sysno is not None  # noqa: S101 - only devices have threshold rules
        kept = {rule.alarm_type for rule, _threshold in target.rules}
        now = utcnow()
        for rule in RULES:
            key = (target.sysno, rule.alarm_type)
            held = self._open.get(key)
            if held is not None and held.source == "rule" and rule.alarm_type not in kept:
                closing.append((key, now))
                self._states.pop(key, None)

    async def _restore(self, session: AsyncSession, condition: object, *, by_gateway: bool) -> None:
        """Take up the alarms still open in the database (after a restart or a reset)."""
        found = await session.execute(
            select(
                Alarm.sysno,
                Alarm.device_sysno,
                Alarm.gateway_sysno,
                Alarm.alarm_type,
                Alarm.source,
                Alarm.start_time,
            ).where(
                condition,  # type: ignore[arg-type]
                Alarm.end_time.is_(None),
            )
        )
        for sysno, device_sysno, gateway_sysno, alarm_type, source, start in found:
            if by_gateway != (device_sysno is None):
                continue
            key = (-gateway_sysno if device_sysno is None else device_sysno, alarm_type)
            self._open[key] = OpenAlarm(sysno=sysno, source=source, start=start)
            if source == "rule":
                self._states.setdefault(key, RuleState()).open = True

    async def _gateway(self, session: AsyncSession, gateway_sysno: int) -> Target | None:
        target = self._gateways.get(gateway_sysno)
        if target is not None and time.monotonic() - target.loaded_at <= DEVICE_TTL:
            return target
        row = (
            await session.execute(
                select(Gateway, Project.name)
                .join(Project, Project.sysno == Gateway.project_sysno)
                .where(Gateway.sysno == gateway_sysno)
            )
        ).first()
        if row is None:
            return None
        gateway, project_name = row
        if target is None:
            await self._restore(session, Alarm.gateway_sysno == gateway_sysno, by_gateway=True)
        target = Target(
            sysno=None,
            device_id=gateway.sn,
            name=gateway.name,
            gateway_sysno=gateway.sysno,
            project_sysno=gateway.project_sysno,
            project_name=project_name,
            loaded_at=time.monotonic(),
        )
        self._gateways[gateway_sysno] = target
        return target

    # -- evaluating --------------------------------------------------------------------------------

    def _readings(
        self,
        report: BatchReport,
        opening: list[tuple[AlarmKey, Alarm]],
        closing: list[tuple[AlarmKey, datetime]],
    ) -> None:
        # The hot loop: most readings of most devices are inside every limit and cost a few
        # comparisons; ``step`` runs only while a value is beyond a limit or recovering.
        hysteresis, min_seconds = self.config.hysteresis, self.config.min_seconds
        targets = self._targets
        for row in report.readings:
            target = targets.get(row[0])
            if target is None or not target.compiled:
                continue
            for rule, threshold, recovery, state in target.compiled:
                above = rule.direction == "above"
                floor = rule.ignore_at_or_below
                value = None
                for index in rule.keys:
                    found = row[index]
                    if found is None or (floor is not None and found <= floor):
                        continue
                    if value is None or (found > value if above else found < value):
                        value = found
                if value is None:
                    continue
                if not state.open:
                    if not (value > threshold if above else value < threshold):
                        if state.since is not None:
                            state.since = state.peak = None
                        continue
                elif state.since is None and not (value <= recovery if above else value >= recovery):
                    if state.peak is None or (value > state.peak if above else value < state.peak):
                        state.peak = value
                    continue
                self._step(
                    target,
                    rule,
                    threshold,
                    state,
                    float(value),
                    row[1],
                    opening,
                    closing,
                    hysteresis,
                    min_seconds,
                )

    def _step(
        self,
        target: Target,
        rule: Rule,
        threshold: float,
        state: RuleState,
        value: float,
        at: datetime,
        opening: list[tuple[AlarmKey, Alarm]],
        closing: list[tuple[AlarmKey, datetime]],
        hysteresis: float,
        min_seconds: float,
    ) -> None:
        assert target.sysno is not None  # noqa: S101 - only devices have threshold rules
        key = (target.sysno, rule.alarm_type)
        change = step(
            state,
            direction=rule.direction,
            value=value,
            threshold=threshold,
            at=at,
            hysteresis=hysteresis,
            min_seconds=min_seconds,
        )
        if change == "open" and key not in self._open and not _pending(opening, key):
            start = state.changed_at or at
            peak = state.peak if state.peak is not None else value
            opening.append((key, self._alarm(target, rule.alarm_type, "rule", peak, threshold, start)))
        elif change == "close":
            held = self._open.get(key)
            if held is not None and held.source == "rule":
                closing.append((key, state.changed_at or at))

    def _events(
        self,
        report: BatchReport,
        opening: list[tuple[AlarmKey, Alarm]],
        closing: list[tuple[AlarmKey, datetime]],
    ) -> None:
        for item in report.events:
            event = item.event
            if event.type not in ("alarm", "fault_cleared"):
                continue
            target = self._targets.get(item.device_sysno)
            if target is None:
                continue
            alarm_type = event_alarm_type(event.code)
            key = (item.device_sysno, alarm_type)
            if event.type == "alarm":
                if key not in self._open and not _pending(opening, key):
                    opening.append(
                        (key, self._alarm(target, alarm_type, "device", event.value, None, event.ts))
                    )
            else:
                if key in self._open:
                    closing.append((key, event.ts))
                state = self._states.get(key)
                if state is not None:
                    state.open, state.since, state.peak = False, None, None

    async def _transitions(
        self,
        session: AsyncSession,
        transitions: Sequence[Transition],
        opening: list[tuple[AlarmKey, Alarm]],
        closing: list[tuple[AlarmKey, datetime]],
    ) -> list[tuple[Target, Transition]]:
        """Open and close offline alarms; answer the spells that deserve an offline notice."""
        spells: list[tuple[Target, Transition]] = []
        for change in transitions:
            if change.device_sysno is None:
                target = await self._gateway(session, change.gateway_sysno)
                key = (-change.gateway_sysno, "offline")
            else:
                target = self._targets.get(change.device_sysno)
                key = (change.device_sysno, "offline")
            if target is None:
                continue
            if change.online:
                if key in self._open:
                    closing.append((key, change.at))
                continue
            # A device that went down with its gateway is covered by the gateway's alarm and notice.
            if change.reason == "gateway_offline":
                continue
            if change.spell is not None:
                spells.append((target, change))
            if key not in self._open and not _pending(opening, key):
                alarm = self._alarm(target, "offline", "offline", None, None, change.at)
                alarm.detail = _offline_detail(target, change.reason)
                opening.append((key, alarm))
        return spells

    def _alarm(
        self,
        target: Target,
        alarm_type: str,
        source: str,
        value: float | None,
        threshold: float | None,
        at: datetime,
    ) -> Alarm:
        kind = BY_CODE[alarm_type]
        return Alarm(
            project_sysno=target.project_sysno,
            gateway_sysno=target.gateway_sysno,
            device_sysno=target.sysno,
            device_id=target.device_id,
            target_name=target.name,
            alarm_type=alarm_type,
            level=int(kind.level),
            source=source,
            value=value,
            threshold=threshold,
            detail=_detail(target, alarm_type, source, value, threshold),
            start_time=at,
            process_state=0,
        )

    # -- writing -----------------------------------------------------------------------------------

    async def _not_stored_yet(
        self, session: AsyncSession, opening: list[tuple[AlarmKey, Alarm]]
    ) -> list[tuple[AlarmKey, Alarm]]:
        """Drop alarms already stored: a message delivered again (after a crash) opens nothing twice."""
        keyed = [(key, alarm) for key, alarm in opening if alarm.device_sysno is not None]
        if not keyed:
            return opening
        found = await session.execute(
            select(Alarm.device_sysno, Alarm.alarm_type, Alarm.start_time).where(
                or_(
                    *(
                        and_(
                            Alarm.device_sysno == alarm.device_sysno,
                            Alarm.alarm_type == alarm.alarm_type,
                            Alarm.start_time == alarm.start_time,
                        )
                        for _key, alarm in keyed
                    )
                )
            )
        )
        stored = set(found.tuples().all())
        if not stored:
            return opening
        return [
            (key, alarm)
            for key, alarm in opening
            if (alarm.device_sysno, alarm.alarm_type, alarm.start_time) not in stored
        ]

    async def _apply(
        self,
        session: AsyncSession,
        opening: list[tuple[AlarmKey, Alarm]],
        closing: list[tuple[AlarmKey, datetime]],
        spells: list[tuple[Target, Transition]],
    ) -> None:
        if closing:
            updates = []
            for key, at in closing:
                held = self._open.pop(key, None)
                if held is not None:
                    # A clear dated before the alarm began (a late message, a clock behind the platform's
                    # that stamped no instant on the alarm) ends it as it began, never before.
                    updates.append({"sysno": held.sysno, "end_time": max(at, held.start)})
            if updates:
                await session.execute(update(Alarm), updates)
                self.closed += len(updates)
        opening = await self._not_stored_yet(session, opening)
        if not opening and not spells:
            return
        session.add_all([alarm for _key, alarm in opening])
        await session.flush()
        new_notices: list[notices.NewNotice] = []
        for key, alarm in opening:
            self._open[key] = OpenAlarm(sysno=alarm.sysno, source=alarm.source, start=alarm.start_time)
            if alarm.alarm_type != "offline":
                new_notices.append(
                    notices.NewNotice(
                        project_sysno=alarm.project_sysno,
                        notice_type=notices.ALARM,
                        device_id=alarm.device_id,
                        detail=alarm.detail,
                        source_sysno=alarm.sysno,
                        gateway_sysno=alarm.gateway_sysno,
                    )
                )
        for target, change in spells:
            assert change.spell is not None  # noqa: S101 - filtered above
            new_notices.append(
                notices.NewNotice(
                    project_sysno=target.project_sysno,
                    notice_type=notices.OFFLINE,
                    device_id=target.device_id,
                    detail=_offline_detail(target, change.reason),
                    source_sysno=change.spell.sysno,
                    gateway_sysno=target.gateway_sysno,
                )
            )
        await notices.send(session=session, notices=new_notices)
        self.opened += len(opening)
        self._uncommitted.extend(alarm for _key, alarm in opening)


def _pending(opening: list[tuple[AlarmKey, Alarm]], key: AlarmKey) -> bool:
    return any(k == key for k, _alarm in opening)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _detail(
    target: Target, alarm_type: str, source: str, value: float | None, threshold: float | None
) -> str:
    label = BY_CODE[alarm_type].label
    where = f"{target.project_name} {target.name}（{target.device_id}）"
    if source == "rule" and value is not None and threshold is not None:
        unit = unit_of(alarm_type)
        return (
            f"{where}{label}告警：{quantity_of(alarm_type)} {_number(value)} {unit}，"
            f"阈值 {_number(threshold)} {unit}"
        )
    return f"{where}上报{label}告警"


def _offline_detail(target: Target, reason: str | None) -> str:
    kind = "网关" if target.sysno is None else "设备"
    why = OFFLINE_REASONS.get(reason or "", reason or "")
    return f"{target.project_name} {kind} {target.name}（{target.device_id}）离线" + (
        f"（{why}）" if why else ""
    )
