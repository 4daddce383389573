"""The ingest observer of load events: identify each, judge it by its place's policy, record and act.

Inside the batch's transaction every ``load`` event becomes a ``LoadEvent`` row (once: a message
delivered again finds its row), a forbidden switch-on opens a ``load_violation`` alarm with its
notices where the policy says alarm or trip (unless it goes under the device's violation alarm still
open, ``EPISODE``), and a trip is written as pending; once the batch has committed the alarms go to the
texter and the action worker is woken to send the trips.
"""

from __future__ import annotations

import asyncio
import logging
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import BY_CODE
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.load_ident import events, policy, service
from powerportal.load_ident.model import Identification, Policy
from powerportal.load_ident.models import LoadEvent
from powerportal.projects.models import Project
from powerportal.telemetry.ingest import BatchReport, DeviceEvent
from powerportal.telemetry.service import ReadingRow

log = logging.getLogger("powerportal.load_ident")

VIOLATION = "load_violation"
# Forbidden switch-ons that are recorded and alarmed per policy but not tripped (``trip_state`` skipped,
# the reason is what the screen shows). One reported while a trip for an earlier one holds the breaker off
# (sent or about to be, not yet re-closed, not closed by hand since): nothing switches on behind an open
# breaker, so the report is late or repeated, and each repeat was tripped again, using one of the day's
# re-closes, until one kettle locked the room within seconds.
HELD_OFF = "已由前次跳闸断开"
# One whose switch-off came in the same batch (a gateway's backlog after a spell offline): the appliance
# is off already, and the trip cut the room for nothing.
SWITCHED_OFF = "已告警，电器已断开，未跳闸"
# One that happened more than ``TRIP_WINDOW`` ago (a backlog, a gateway's clock behind): a kettle has
# boiled by then; a load still on trips at its next switch-on.
TOO_LATE = "已告警，上报过晚，未跳闸"
TRIP_WINDOW = timedelta(minutes=5)
# A device's violation alarm, while open and not yet processed, takes in the forbidden switch-ons that
# follow it for this long: a coffee machine's thermostat pulses, or a gateway repeating a switch-on, are
# one violation with one alarm, notice and text (each switch-on is still recorded, and tripped per
# policy). A switch-on after the device's switch-off, after someone processed the alarm, or later than
# this opens a new alarm: a kettle at eight and another at noon are two, even if the switch-off between
# them was lost.
EPISODE = timedelta(minutes=30)
AlarmsOpened = Callable[[list[Alarm]], None]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a device is: its project (and name), its gateway's building, its own name."""

    project_name: str
    building_sysno: int | None
    device_id: str
    name: str


def to_load_event(item: DeviceEvent) -> events.LoadEvent:
    """The classifier's event from one the codec accepted (its detail was checked there)."""
    event = item.event
    return events.LoadEvent(
        device=event.device_id,
        ts=int(event.ts.timestamp() * 1000),
        type="load",
        code="appliance_off" if event.code == "appliance_off" else "appliance_on",
        detail=events.LoadDetail.model_validate(event.detail),
    )


def identify_all(
    batch: list[tuple[events.LoadEvent, Policy]],
) -> list[tuple[events.LoadEvent, Identification, float]]:
    """Each event's identification under its policy, and the power the policy weighed."""
    found = service.classify_all(batch)
    return [
        (event, identification, power)
        for (event, _rules), (identification, power) in zip(batch, found, strict=True)
    ]


def violation_text(
    place: Place, *, appliance: str, power: float, confidence: float, over_limit: float | None, trip: bool
) -> str:
    """The alarm's and notice's words for one forbidden load."""
    text = f"{place.project_name} {place.name}（{place.device_id}）检测到违规电器：{appliance}"
    text += f"，功率 {power:.0f} W"
    if over_limit is not None:
        text += f"，超过功率上限 {over_limit:.0f} W"
    text += f"，置信度 {confidence * 100:.0f}%"
    if trip:
        text += "，按策略跳闸"
    return text[:255]


class LoadObserver:
    """Identifies the load events of every ingest batch and acts on them per policy."""

    def __init__(self, *, on_alarms: AlarmsOpened | None = None, on_trips: Callable[[], None] | None = None):
        self.on_alarms = on_alarms
        self.on_trips = on_trips
        self.identified = 0
        self.tripping = 0
        self._alarms: list[Alarm] = []
        self._trips = 0

    async def prepare(self, session: AsyncSession, rows: Sequence[ReadingRow]) -> None:
        """Nothing to read before the readings are written."""

    def reset(self) -> None:
        """Forget what the rolled-back batch would have handed on."""
        self._alarms, self._trips = [], 0

    def forget_gateway(self, gateway_sysno: int) -> None:
        """Nothing to do: each batch reads its devices' places afresh."""

    async def settle(self) -> None:
        """Nothing is put off."""

    async def committed(self, report: BatchReport) -> None:
        """Hand the batch's alarms to the texter and wake the worker for its trips."""
        opened, self._alarms = self._alarms, []
        trips, self._trips = self._trips, 0
        if opened and self.on_alarms is not None:
            self.on_alarms(opened)
        if trips and self.on_trips is not None:
            self.on_trips()

    async def observe(self, session: AsyncSession, report: BatchReport) -> None:
        """Identify, record and judge the batch's load events inside its transaction."""
        loads = [item for item in report.events if item.event.type == "load"]
        if not loads:
            return
        seen = await _known(session, loads)
        places = await self._places(session, {i.device_sysno for i in loads})
        rules = await policy.rules_for(
            session,
            {
                (i.project_sysno, places[i.device_sysno].building_sysno)
                for i in loads
                if i.device_sysno in places
            },
        )
        whitelists = await policy.whitelists_for(session, places)
        wanted: list[tuple[DeviceEvent, Place, policy.Rules]] = []
        for item in loads:
            key = (item.device_sysno, item.event.ts, item.event.code or "")
            place = places.get(item.device_sysno)
            if key in seen or place is None:
                continue
            seen.add(key)
            wanted.append((item, place, rules[(item.project_sysno, place.building_sysno)]))
        # The trees take ~10 ms an event: off the event loop, which also serves the broker and the API.
        found = await asyncio.to_thread(identify_all, [(to_load_event(i), r.policy) for i, _p, r in wanted])
        rows: list[tuple[LoadEvent, Alarm | None]] = []
        switched_off: list[tuple[int, int, datetime]] = []
        for (item, place, rule), (event, identification, power) in zip(wanted, found, strict=True):
            row, alarm = self._judge(item, place, rule, whitelists, event, identification, power)
            rows.append((row, alarm))
            if row.code == "appliance_off":
                switched_off.append((item.device_sysno, item.project_sysno, item.event.ts))
        offs = _offs(switched_off)
        tripped_already = await _settle_trips(session, rows, offs, utcnow())
        # Before the batch's switch-offs end the stored alarms: a switch-on before them goes under one.
        alarms, under = await _episodes(session, rows, offs, tripped_already)
        if offs:
            await _close_violations(session, offs)
        session.add_all(alarms)
        await session.flush()
        for row, _alarm in rows:
            held = under.get(row)
            row.alarm_sysno = held if held is None or isinstance(held, int) else held.sysno
        session.add_all([row for row, _alarm in rows])
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=a.project_sysno,
                    notice_type=notices.ALARM,
                    device_id=a.device_id,
                    detail=a.detail,
                    source_sysno=a.sysno,
                    gateway_sysno=a.gateway_sysno,
                )
                for a in alarms
            ],
        )
        self.identified += len(rows)
        trips = sum(1 for row, _alarm in rows if row.trip_state == "pending")
        self.tripping += trips
        self._trips += trips
        self._alarms.extend(alarms)

    def _judge(
        self,
        item: DeviceEvent,
        place: Place,
        rules: policy.Rules,
        whitelists: dict[int, frozenset[str]],
        event: events.LoadEvent,
        found: Identification,
        power: float,
    ) -> tuple[LoadEvent, Alarm | None]:
        over_limit = power > rules.policy.power_limit_w
        forbidden = found.forbidden and event.code == "appliance_on"
        whitelisted = (
            forbidden and not over_limit and found.appliance in whitelists.get(item.device_sysno, ())
        )
        forbidden = forbidden and not whitelisted
        action = rules.action if forbidden else "none"
        detail = event.detail.model_dump(exclude_none=True)
        row = LoadEvent(
            project_sysno=item.project_sysno,
            building_sysno=place.building_sysno,
            gateway_sysno=item.gateway_sysno,
            device_sysno=item.device_sysno,
            device_id=place.device_id,
            target_name=place.name,
            event_time=item.event.ts,
            code=event.code,
            delta_power=event.detail.delta_power,
            power=power,
            appliance=found.appliance,
            confidence=found.confidence,
            forbidden=int(forbidden),
            whitelisted=int(whitelisted),
            action=action,
            trip_state="pending" if action == "trip" else None,
            has_waveform=int(event.detail.waveform is not None),
            detail=detail,
        )
        alarm = None
        if action in ("alarm", "trip"):
            kind = BY_CODE[VIOLATION]
            alarm = Alarm(
                project_sysno=item.project_sysno,
                gateway_sysno=item.gateway_sysno,
                device_sysno=item.device_sysno,
                device_id=place.device_id,
                target_name=place.name,
                alarm_type=VIOLATION,
                level=int(kind.level),
                source="load",
                value=round(power, 1),
                threshold=rules.policy.power_limit_w if over_limit else None,
                detail=violation_text(
                    place,
                    appliance=found.appliance,
                    power=power,
                    confidence=found.confidence,
                    over_limit=rules.policy.power_limit_w if over_limit else None,
                    trip=action == "trip",
                ),
                start_time=item.event.ts,
                process_state=0,
            )
        return row, alarm

    async def _places(self, session: AsyncSession, device_sysnos: set[int]) -> dict[int, Place]:
        found = await session.execute(
            select(Device.sysno, Device.device_id, Device.name, Gateway.building_sysno, Project.name)
            .join(Gateway, Gateway.sysno == Device.gateway_sysno)
            .join(Project, Project.sysno == Device.project_sysno)
            .where(Device.sysno.in_(sorted(device_sysnos)))
        )
        return {
            sysno: Place(project_name=project, building_sysno=building, device_id=device_id, name=name)
            for sysno, device_id, name, building, project in found
        }


async def _known(session: AsyncSession, loads: list[DeviceEvent]) -> set[tuple[int, datetime, str]]:
    """The (device, instant, code) of those events that have their row already (a message delivered again).

    Read by the devices and instants as two lists and matched here: one OR of a condition per event
    is an expression SQLite refuses beyond about a thousand terms, and a full message holds 1000 events.
    """
    keys = {(i.device_sysno, i.event.ts, i.event.code or "") for i in loads}
    found = await session.execute(
        select(LoadEvent.device_sysno, LoadEvent.event_time, LoadEvent.code).where(
            LoadEvent.device_sysno.in_(sorted({d for d, _t, _c in keys})),
            LoadEvent.event_time.in_(sorted({t for _d, t, _c in keys})),
        )
    )
    return keys & set(found.tuples().all())


Offs = dict[tuple[int | None, int], list[datetime]]
Held = int | Alarm  # a stored alarm's sysno, or an alarm this batch opens


async def _settle_trips(
    session: AsyncSession, judged: list[tuple[LoadEvent, Alarm | None]], offs: Offs, now: datetime
) -> dict[LoadEvent, int]:
    """Skip the trips that would cut nothing: too late, switched off already, or held off (``HELD_OFF``).

    Answers the stored alarm each switch-on held off goes under. Of one device's trips in the batch the
    first is sent, the others skipped: it opens the breaker for all.
    """
    tripping = []
    for row, _alarm in judged:
        if row.trip_state != "pending":
            continue
        if row.event_time < now - TRIP_WINDOW:
            row.trip_state, row.trip_reason = "skipped", TOO_LATE
        elif _first_off(offs, row.device_sysno, row.project_sysno, row.event_time) is not None:
            row.trip_state, row.trip_reason = "skipped", SWITCHED_OFF
        else:
            tripping.append(row)
    if not tripping:
        return {}
    holding: dict[tuple[int, int], int | None] = {}
    found = await session.execute(
        select(
            LoadEvent.device_sysno,
            LoadEvent.project_sysno,
            LoadEvent.alarm_sysno,
            LoadEvent.trip_state,
            LoadEvent.trip_time,
            Device.switch_state,
            Device.last_report_time,
        )
        .join(Device, Device.sysno == LoadEvent.device_sysno)
        .where(
            LoadEvent.device_sysno.in_(sorted({row.device_sysno for row in tripping})),
            or_(
                LoadEvent.trip_state.in_(("pending", "sending")),
                and_(
                    LoadEvent.trip_state == "done",
                    LoadEvent.reclose_state.in_(("pending", "sending", "locked")),
                ),
            ),
        )
        .order_by(LoadEvent.sysno)
    )
    for device, project, alarm, state, tripped, switch, reported in found.tuples().all():
        if state == "done" and not breaker_still_off(tripped, switch, reported, now):
            continue
        holding[(device, project)] = alarm
    under: dict[LoadEvent, int] = {}
    for row in sorted(tripping, key=lambda r: r.event_time):
        key = (row.device_sysno, row.project_sysno)
        if key not in holding:
            holding[key] = None  # this one trips; the batch's later ones ride on it
            continue
        row.trip_state, row.trip_reason = "skipped", HELD_OFF
        alarm = holding[key]
        if alarm is not None:
            under[row] = alarm
    return under


def breaker_still_off(
    tripped: datetime | None, switch: int | None, reported: datetime | None, now: datetime
) -> bool:
    """Whether a breaker a trip went through for is off still (as far as its reports tell).

    Not when it reported itself on since (closed by hand). When it reported itself off, until it reports
    otherwise; a breaker that reports no switch state, for ``EPISODE`` after the trip only.
    """
    if tripped is None:
        return False
    if reported is not None and reported > tripped and switch is not None:
        return switch == 0
    return switch == 0 or tripped >= now - EPISODE


async def _episodes(
    session: AsyncSession,
    judged: list[tuple[LoadEvent, Alarm | None]],
    offs: Offs,
    tripped_already: dict[LoadEvent, int],
) -> tuple[list[Alarm], dict[LoadEvent, Held]]:
    """The alarms the batch's violations open, and the alarm each violation is held under.

    A switch-on whose trip was skipped goes under the alarm of the trip that holds its breaker off
    (``tripped_already``), ended or not. The others in the order they happened (a backlog may come in any
    order): a violation goes under its device's unprocessed violation alarm in the same project that
    opened at most ``EPISODE`` before it and had not ended by then (by a switch-off stored or in this
    batch); else it opens its own, which the batch's first switch-off from then on ends, as if they had
    come apart.
    """
    wanting = sorted(
        ((row, alarm) for row, alarm in judged if alarm is not None), key=lambda pair: pair[0].event_time
    )
    if not wanting:
        return [], {}
    held: dict[tuple[int | None, int], list[tuple[datetime, Held]]] = defaultdict(list)
    stored = await session.execute(
        select(Alarm.sysno, Alarm.device_sysno, Alarm.project_sysno, Alarm.start_time).where(
            Alarm.device_sysno.in_(sorted({row.device_sysno for row, _alarm in wanting})),
            Alarm.alarm_type == VIOLATION,
            Alarm.end_time.is_(None),
            Alarm.process_state == 0,
        )
    )
    for sysno, device, project, start in stored.tuples().all():
        held[(device, project)].append((start, sysno))
    opened: list[Alarm] = []
    under: dict[LoadEvent, Held] = dict(tripped_already)
    for row, alarm in wanting:
        if row in under:
            continue
        key = (row.device_sysno, row.project_sysno)
        at = row.event_time
        joinable = [(start, ref) for start, ref in held[key] if _takes_in(offs, key, start, at)]
        if joinable:
            under[row] = max(joinable, key=lambda pair: pair[0])[1]
            continue
        alarm.end_time = _first_off(offs, *key, alarm.start_time)
        opened.append(alarm)
        held[key].append((alarm.start_time, alarm))
        under[row] = alarm
    return opened, under


def _offs(switched_off: list[tuple[int, int, datetime]]) -> Offs:
    """The batch's switch-off times by (device, project), in order."""
    offs: Offs = defaultdict(list)
    for device_sysno, project_sysno, at in switched_off:
        offs[(device_sysno, project_sysno)].append(at)
    for times in offs.values():
        times.sort()
    return offs


def _takes_in(offs: Offs, key: tuple[int | None, int], start: datetime, at: datetime) -> bool:
    """Whether a violation alarm from ``start`` is still open at ``at`` and at most ``EPISODE`` old."""
    if not start <= at < start + EPISODE:
        return False
    ended = _first_off(offs, *key, start)
    return ended is None or at < ended


def _first_off(offs: Offs, device: int | None, project: int, start: datetime) -> datetime | None:
    """When a violation alarm from ``start`` ends: its device and project's first switch-off from then."""
    times = offs.get((device, project), [])
    first = bisect_left(times, start)
    return times[first] if first < len(times) else None


async def _close_violations(session: AsyncSession, offs: Offs) -> None:
    """An appliance switched off ends its device's open violation alarm of the same project.

    Each alarm ends at the first switch-off from its start on. Only the event's own project's: once the
    gateway moved on (maybe to another customer), what it reports there must not end an alarm of the
    project the violation happened in.
    """
    still_open = await session.execute(
        select(Alarm.sysno, Alarm.device_sysno, Alarm.project_sysno, Alarm.start_time).where(
            Alarm.device_sysno.in_(sorted({device for device, _project in offs if device is not None})),
            Alarm.alarm_type == VIOLATION,
            Alarm.end_time.is_(None),
        )
    )
    for sysno, device, project, start in still_open.tuples().all():
        ended = _first_off(offs, device, project, start)
        if ended is not None:
            await session.execute(
                update(Alarm).where(Alarm.sysno == sysno, Alarm.end_time.is_(None)).values(end_time=ended)
            )
