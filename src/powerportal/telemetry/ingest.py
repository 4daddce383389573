"""The ingest: gateway messages in, batched readings, device state and offline/status logs out."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from powerportal.core.config import Settings
from powerportal.core.ratelog import LogBudget
from powerportal.logs.models import OfflineLog
from powerportal.mqtt import codec, thingsboard
from powerportal.mqtt.auth import GatewayRef
from powerportal.telemetry import service
from powerportal.telemetry.keys import BY_KEY, THREE_PHASE_KEYS
from powerportal.telemetry.latest import LatestEntry, LatestValues
from powerportal.telemetry.refusals import RefusalLedger

_Dated = TypeVar("_Dated", codec.Sample, codec.Event)

log = logging.getLogger("powerportal.ingest")
budget = LogBudget(log)

# How long an unregistered serial number is remembered as unknown before the database is asked again.
UNKNOWN_GATEWAY_TTL = 30.0
# How long a gateway's row and devices are trusted before they are read again (renames, moves, deletes).
REGISTRY_TTL = 60.0
UNKNOWN_GATEWAY_LIMIT = 10_000
# A device's name holds 64 characters: "设备" and a 64-character device id would not fit.
NAME_LENGTH = 64
QUEUE_LIMIT = 50_000
_DOWN_LINK = "/" + codec.RPC_REQUEST
_THINGSBOARD = thingsboard.ROOT + "/"


@dataclass
class IngestStats:
    """Counters of what the ingest saw and did, for tests, the stats route and the benchmark."""

    messages: int = 0
    telemetry_messages: int = 0
    status_messages: int = 0
    event_messages: int = 0
    rpc_responses: int = 0
    readings_received: int = 0
    readings_written: int = 0
    readings_duplicate: int = 0
    values_rejected: int = 0
    # Gateway text cleaned by the one rule (control, bidi characters), free-form answers dropped as too big.
    cleaned_text: int = 0
    capped: int = 0
    garbage: int = 0
    oversize: int = 0
    bad_ts: int = 0
    wrong_topic: int = 0
    unknown_gateway: int = 0
    unknown_device: int = 0
    devices_created: int = 0
    # Devices a gateway announced beyond the limit per gateway (not created).
    device_limit: int = 0
    # Messages of a gateway registration that no longer exists (secret reset, moved, deleted, re-registered).
    stale_source: int = 0
    # Points dated before the serial number's former registration was deleted: not the new owner's.
    before_registration: int = 0
    batches: int = 0
    batch_failures: int = 0
    messages_lost: int = 0
    last_batch_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain counters."""
        return asdict(self)


@dataclass
class DeviceState:
    """What the ingest knows of a device between batches."""

    sysno: int
    device_id: str
    name: str
    kind: str
    phases: int
    model: str | None
    online: bool
    switch: int | None
    last_report: datetime | None
    latest: dict[str, Any] | None


@dataclass
class GatewayState:
    """What the ingest knows of a gateway and its devices between batches."""

    sysno: int
    generation: int
    sn: str
    name: str
    project_sysno: int
    online: bool
    last_seen: datetime | None
    devices: dict[str, DeviceState]
    loaded_at: float
    # When the serial number's former registration was deleted: what is dated earlier was its data.
    since: datetime | None


@dataclass
class Incoming:
    """A decoded message waiting for the writer."""

    sn: str
    payload: codec.Telemetry | codec.Status | list[codec.Event] | thingsboard.Disconnected
    received_at: datetime
    # The registration that published it (the embedded broker knows; an external one does not).
    source: GatewayRef | None = None
    # Settled once the batch holding it committed: the embedded broker acknowledges it then.
    stored: asyncio.Future[None] | None = None


@dataclass
class SilenceCheck:
    """Time to mark silent gateways and devices offline."""

    now: datetime


@dataclass(frozen=True, slots=True)
class SwitchConfirmation:
    """A device's gateway confirmed a switch command: the device is now on (or off)."""

    device_id: str
    on: bool
    at: datetime


@dataclass
class Confirmed:
    """Switch confirmations of one gateway's devices, waiting for the writer."""

    sn: str
    # The registration that answered: a serial number deleted and registered again since is another's.
    gateway_sysno: int
    switches: Sequence[SwitchConfirmation]


Queued = Incoming | SilenceCheck | Confirmed


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """An event a device reported, with the device it was resolved to."""

    device_sysno: int
    gateway_sysno: int
    project_sysno: int
    event: codec.Event


@dataclass(frozen=True, slots=True)
class Transition:
    """A gateway (``device_sysno`` None) or device went offline or came back."""

    gateway_sysno: int
    device_sysno: int | None
    online: bool
    at: datetime
    reason: str | None = None
    # The offline spell opened by this transition (flushed rows carry their sysno).
    spell: OfflineLog | None = None


@dataclass
class BatchReport:
    """What one batch wrote, for the observers (rows are in ``service.READING_COLUMNS`` order)."""

    readings: Sequence[service.ReadingRow]
    events: Sequence[DeviceEvent]
    transitions: Sequence[Transition]


class BatchObserver(Protocol):
    """Sees every batch inside its transaction and once it committed; forgets its state when one fails."""

    async def prepare(self, session: AsyncSession, rows: Sequence[service.ReadingRow]) -> None:
        """Look at the database as it was before the batch's readings are written."""

    async def observe(self, session: AsyncSession, report: BatchReport) -> None:
        """Act on a batch before it commits; raising fails the batch."""

    async def committed(self, report: BatchReport) -> None:
        """Act on a batch that committed (what must not happen for a batch rolled back)."""

    async def settle(self) -> None:
        """Finish now what ``committed`` put off (the ingest is idle: tests, the benchmark, a stop)."""

    def reset(self) -> None:
        """Drop cached state: the batch it last observed was rolled back."""

    def forget_gateway(self, gateway_sysno: int) -> None:
        """Read a gateway and its devices afresh: it moved, its secret changed or it was deleted."""


@dataclass
class _Batch:
    rows: list[service.ReadingRow] = field(default_factory=list)
    devices: dict[int, DeviceState] = field(default_factory=dict)
    gateways_seen: dict[int, datetime] = field(default_factory=dict)
    latest: dict[int, LatestEntry] = field(default_factory=dict)
    # gateway sysno → generation as cached, checked against the database before writing
    gateways: dict[int, int] = field(default_factory=dict)
    # device sysno → (gateway sysno, device id) as cached, checked against the database before writing
    refs: dict[int, tuple[int, str]] = field(default_factory=dict)
    events: list[DeviceEvent] = field(default_factory=list)


class StaleRegistryError(RuntimeError):
    """A cached device no longer is what the database says (deleted, or its number reused)."""


RpcHandler = Callable[[str, codec.RpcResponse], None]


class Ingest:
    """Decodes messages as they arrive and writes them in batches, one transaction per batch."""

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        settings: Settings,
        latest: LatestValues | None = None,
        auto_create_devices: bool = True,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.latest = latest or LatestValues()
        self.stats = IngestStats()
        self.refusals = RefusalLedger()
        self.auto_create_devices = auto_create_devices
        self.on_rpc_response: RpcHandler | None = None
        self.observers: list[BatchObserver] = []
        self._transitions: list[Transition] = []
        self._queue: asyncio.Queue[Queued] = asyncio.Queue(QUEUE_LIMIT)
        self._gateways: dict[str, GatewayState] = {}
        self._unknown: dict[str, float] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    # -- receiving ---------------------------------------------------------------------------------

    async def submit(
        self, topic: str, payload: bytes, *, source: GatewayRef | None = None, acknowledge: bool = False
    ) -> asyncio.Future[None] | None:
        """Take one MQTT message: decode it now, queue it for the writer (waits when the queue is full).

        With ``acknowledge``, returns a future that settles once the message is stored (or fails with
        its batch); None when there is nothing to store (refused, or an answer to a command).
        """
        if topic.endswith(_DOWN_LINK):
            return None  # our own commands, seen again through the gateways/+/# subscription
        self.stats.messages += 1
        notes = codec.Notes()
        try:
            if topic.startswith(_THINGSBOARD):  # a ThingsBoard gateway's, under its mount point
                sn, decoded_tb = thingsboard.decode(topic, payload, notes=notes)
                if decoded_tb is None:
                    return None
                decoded = decoded_tb
            else:
                parsed = codec.parse_topic(topic)
                sn, decoded = parsed.sn, codec.decode(parsed.channel, payload, notes=notes)
        except codec.ProtocolError as exc:
            self._count_refusal(exc, topic)
            return None
        self._count_notes(notes, sn)
        if source is not None and source.sn != sn:
            self.stats.wrong_topic += 1
            return None
        if isinstance(decoded, codec.RpcResponse):
            self.stats.rpc_responses += 1
            if self.on_rpc_response is not None:
                self.on_rpc_response(sn, decoded)
            return None
        if isinstance(decoded, codec.Telemetry):
            self.stats.telemetry_messages += 1
            self.stats.readings_received += len(decoded.readings)
            if decoded.rejected:
                self.stats.values_rejected += len(decoded.rejected)
                self.refusals.note(sn, "values_rejected", decoded.rejected[0], len(decoded.rejected))
                budget.warning("rejected", "%s: values dropped: %s", sn, "; ".join(decoded.rejected[:5]))
        elif isinstance(decoded, codec.Status | thingsboard.Disconnected):
            self.stats.status_messages += 1
        else:
            self.stats.event_messages += 1
        stored = asyncio.get_running_loop().create_future() if acknowledge else None
        self._idle.clear()
        await self._queue.put(
            Incoming(sn=sn, payload=decoded, received_at=datetime.now(UTC), source=source, stored=stored)
        )
        return stored

    def _count_refusal(self, exc: codec.ProtocolError, topic: str) -> None:
        reason = exc.reason if exc.reason in ("garbage", "oversize", "bad_ts", "wrong_topic") else "garbage"
        setattr(self.stats, reason, getattr(self.stats, reason) + 1)
        budget.warning(reason, "dropped message on %s: %s", topic[:200], exc)
        root, _, rest = topic.partition("/")
        if root in (codec.TOPIC_ROOT, thingsboard.ROOT):
            self.refusals.note(rest.partition("/")[0], reason, str(exc))

    def _count_notes(self, notes: codec.Notes, sn: str) -> None:
        for reason in ("cleaned_text", "capped", "bad_ts"):
            self.refusals.note(sn, reason, count=getattr(notes, reason))
        if notes.cleaned_text:
            self.stats.cleaned_text += notes.cleaned_text
            budget.warning("cleaned_text", "%s: control or bidi characters removed from its text", sn)
        if notes.capped:
            self.stats.capped += notes.capped
            budget.warning("capped", "%s: an answer or event detail over 4 KiB dropped", sn)
        if notes.bad_ts:
            self.stats.bad_ts += notes.bad_ts
            budget.warning(
                "bad_ts", "%s: %d points dated before 2000 or ahead of the clock", sn, notes.bad_ts
            )

    def forget_gateway(self, sn: str, gateway_sysno: int | None = None) -> None:
        """Drop what is cached of a serial number, and with its number what the observers cached.

        The gateway moved, its credentials changed, or it was deleted.
        """
        self._gateways.pop(sn, None)
        self._unknown.pop(sn, None)
        if gateway_sysno is not None:
            for observer in self.observers:
                observer.forget_gateway(gateway_sysno)

    async def check_silence(self) -> None:
        """Queue a silence check (the periodic task calls this)."""
        await self._queue.put(SilenceCheck(now=datetime.now(UTC)))

    async def confirm_switches(
        self, sn: str, gateway_sysno: int, switches: Sequence[SwitchConfirmation]
    ) -> None:
        """Record switch states a gateway confirmed in answer to commands (the ingest alone writes them)."""
        if switches:
            self._idle.clear()
            await self._queue.put(Confirmed(sn=sn, gateway_sysno=gateway_sysno, switches=switches))

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until everything queued so far is written and followed up (tests, benchmark, shutdown)."""
        async with asyncio.timeout(timeout):
            while not (self._queue.empty() and self._idle.is_set()):
                await asyncio.sleep(0.01)
            for observer in self.observers:
                await observer.settle()

    # -- writing -----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Write batches forever; a failing batch is retried message by message, never fatal."""
        loop = asyncio.get_running_loop()
        batch_size = self.settings.ingest_batch_size
        window = self.settings.ingest_batch_ms / 1000
        while True:
            item = await self._queue.get()
            self._idle.clear()
            items = [item]
            count = _weight(item)
            deadline = loop.time() + window
            while count < batch_size:
                try:
                    item = self._queue.get_nowait()
                except asyncio.QueueEmpty:
                    remaining = deadline - loop.time()
                    if remaining <= 0:
                        break
                    try:
                        item = await asyncio.wait_for(self._queue.get(), remaining)
                    except TimeoutError:
                        break
                items.append(item)
                count += _weight(item)
            await self.flush(items)
            if self._queue.empty():
                self._idle.set()

    async def flush(self, items: list[Queued]) -> None:
        """Write one batch; on failure forget cached state and write its messages one at a time."""
        started = time.perf_counter()
        try:
            await self._write(items)
            _settle(items)
        except Exception as exc:
            self.stats.batch_failures += 1
            # A gateway reset, moved or deleted under the batch is expected: its reason is enough.
            stale = isinstance(exc, StaleRegistryError)
            budget.warning(
                "batch", "batch of %d messages failed (%s); retrying one by one",
                len(items), exc if stale else type(exc).__name__, exc_info=not stale,
            )  # fmt: skip
            self._forget()
            for item in items:
                try:
                    await self._write([item])
                    _settle([item])
                except Exception as exc:
                    self.stats.messages_lost += 1
                    self._forget()
                    budget.warning(
                        "lost",
                        "message from %s could not be written",
                        getattr(item, "sn", "-"),
                        exc_info=True,
                    )
                    _settle([item], exc)
        self.stats.batches += 1
        self.stats.last_batch_ms = round((time.perf_counter() - started) * 1000, 2)

    def _forget(self) -> None:
        self._gateways.clear()
        for observer in self.observers:
            observer.reset()

    async def _write(self, items: list[Queued]) -> None:
        batch = _Batch()
        self._transitions = []
        async with self.sessions() as session:
            for item in items:
                if isinstance(item, SilenceCheck):
                    await self._on_silence(session, item.now)
                    continue
                gateway = await self._gateway(session, item.sn)
                source = item.source if isinstance(item, Incoming) else None
                if source is not None and not _same(gateway, source):
                    self.forget_gateway(item.sn)  # the cache may be older than the login: ask again
                    gateway = await self._gateway(session, item.sn)
                    if gateway is not None and not _same(gateway, source):
                        self.stats.stale_source += 1
                        self.refusals.note(item.sn, "stale_source")
                        budget.warning(
                            "stale_source", "message of a former registration of %s dropped", item.sn
                        )
                        continue
                if gateway is None:
                    self.stats.unknown_gateway += 1
                    budget.warning("unknown_gateway", "message from unregistered gateway %s dropped", item.sn)
                    continue
                if batch.gateways.setdefault(gateway.sysno, gateway.generation) != gateway.generation:
                    raise StaleRegistryError(f"gateway {gateway.sysno} is cached in two generations")
                if isinstance(item, Confirmed):
                    if gateway.sysno == item.gateway_sysno:  # else its serial number is another's now
                        self._on_confirmed(session, gateway, item.switches, batch)
                    continue
                payload = item.payload
                if isinstance(payload, codec.Telemetry):
                    await self._on_telemetry(session, gateway, payload, item.received_at, batch)
                elif isinstance(payload, codec.Status):
                    await self._on_status(session, gateway, payload, item.received_at, batch)
                elif isinstance(payload, thingsboard.Disconnected):
                    await self._heard(session, gateway, item.received_at, batch)
                    gone = gateway.devices.get(payload.device_id)
                    if gone is not None:  # its connection to the gateway broke
                        await self._device_offline(session, gateway, gone, item.received_at, "last_will")
                else:
                    await self._on_events(session, gateway, payload, item.received_at, batch)
            if batch.gateways:
                generations = await service.gateway_generations(session=session, sysnos=list(batch.gateways))
                if generations != batch.gateways:
                    raise StaleRegistryError("gateways changed under the ingest (reset, moved or deleted)")
            if batch.refs:
                found = await service.device_identities(session=session, sysnos=list(batch.refs))
                stale = [sysno for sysno, ref in batch.refs.items() if found.get(sysno) != ref]
                if stale:
                    raise StaleRegistryError(f"devices {stale[:10]} changed under the ingest")
            for observer in self.observers:
                await observer.prepare(session, batch.rows)
            written = await service.insert_readings(
                session=session, rows=batch.rows, durable=self.settings.ingest_durable_commit
            )
            await service.save_devices(
                session=session,
                updates=[
                    service.DeviceUpdate(
                        sysno=d.sysno,
                        latest=d.latest,
                        last_report_time=d.last_report,
                        online=int(d.online),
                        switch_state=d.switch,
                    )
                    for d in batch.devices.values()
                ],
            )
            await service.save_gateways_seen(session=session, seen=batch.gateways_seen)
            report = BatchReport(
                readings=batch.rows,
                events=batch.events,
                transitions=self._transitions,
            )
            for observer in self.observers:
                await observer.observe(session, report)
            await session.commit()
        self.stats.readings_written += written
        self.stats.readings_duplicate += len(batch.rows) - written
        for sysno, entry in batch.latest.items():
            self.latest.put(sysno, entry)
        for observer in self.observers:
            try:
                await observer.committed(report)
            except Exception:  # the batch is stored; an observer's follow-up must not undo that
                log.exception("observer %s failed after a commit", type(observer).__name__)

    # -- gateways and devices ----------------------------------------------------------------------

    async def _gateway(self, session: AsyncSession, sn: str) -> GatewayState | None:
        now = time.monotonic()
        state = self._gateways.get(sn)
        if state is not None and now - state.loaded_at < REGISTRY_TTL:
            return state
        if state is None and now - self._unknown.get(sn, -UNKNOWN_GATEWAY_TTL) < UNKNOWN_GATEWAY_TTL:
            return None
        found = await service.load_gateway(session=session, sn=sn)
        if found is None:
            self._gateways.pop(sn, None)
            if len(self._unknown) >= UNKNOWN_GATEWAY_LIMIT:
                self._unknown.clear()  # a flood of made-up serial numbers must not grow memory forever
            self._unknown[sn] = now
            return None
        self._unknown.pop(sn, None)
        gateway, devices = found
        held = state.devices if state is not None else {}
        fresh = GatewayState(
            sysno=gateway.sysno,
            generation=gateway.generation,
            sn=sn,
            name=gateway.name,
            project_sysno=gateway.project_sysno,
            online=state.online if state is not None else gateway.online,
            last_seen=state.last_seen if state is not None else gateway.last_seen,
            devices={},
            loaded_at=now,
            # Fixed for a registration: read when it is first met, not again at every reload.
            since=(
                state.since
                if state is not None and state.sysno == gateway.sysno
                else await service.deleted_before(session=session, sn=sn)
            ),
        )
        for device in devices:
            old = held.get(device.device_id)
            fresh.devices[device.device_id] = DeviceState(
                sysno=device.sysno,
                device_id=device.device_id,
                name=device.name,
                kind=device.kind,
                phases=device.phases,
                model=device.model,
                online=old.online if old and old.sysno == device.sysno else bool(device.online),
                switch=old.switch if old and old.sysno == device.sysno else device.switch_state,
                last_report=old.last_report if old and old.sysno == device.sysno else device.last_report_time,
                latest=old.latest if old and old.sysno == device.sysno else device.latest,
            )
        self._gateways[sn] = fresh
        return fresh

    async def _device(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        device_id: str,
        announced: codec.AnnouncedDevice | None = None,
        values: dict[str, float] | None = None,
    ) -> DeviceState | None:
        device = gateway.devices.get(device_id)
        if device is not None:
            return device
        if not self.auto_create_devices:
            self.stats.unknown_device += 1
            return None
        if len(gateway.devices) >= self.settings.max_devices_per_gateway:
            self.stats.device_limit += 1
            self.refusals.note(gateway.sn, "device_limit", f"设备 {device_id} 未创建")
            budget.warning(
                "device_limit", "gateway %s has %d devices: device %s not created",
                gateway.sn, len(gateway.devices), device_id,
            )  # fmt: skip
            return None
        phases = announced.phases if announced else (3 if values and THREE_PHASE_KEYS & values.keys() else 1)
        kind = announced.kind if announced else "breaker"
        model = announced.model if announced else None
        name = (announced.name if announced else None) or _default_name(device_id)
        row = await service.create_device(
            session=session,
            gateway_sysno=gateway.sysno,
            project_sysno=gateway.project_sysno,
            device_id=device_id,
            name=name,
            kind=kind,
            phases=phases,
            model=model,
        )
        self.stats.devices_created += 1
        device = DeviceState(
            sysno=row.sysno,
            device_id=device_id,
            name=name,
            kind=kind,
            phases=phases,
            model=model,
            online=False,
            switch=None,
            last_report=None,
            latest=None,
        )
        gateway.devices[device_id] = device
        return device

    # -- messages ----------------------------------------------------------------------------------

    async def _on_telemetry(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        telemetry: codec.Telemetry,
        at: datetime,
        batch: _Batch,
    ) -> None:
        await self._heard(session, gateway, at, batch)
        rows = batch.rows
        known = gateway.devices
        newest: dict[str, tuple[DeviceState, codec.Sample]] = {}
        for sample in self._registered(gateway, telemetry.readings):
            device = known.get(sample.device_id)
            if device is None:
                device = await self._device(session, gateway, sample.device_id, values=sample.values)
                if device is None:
                    continue
            rows.append(
                service.reading_row(
                    device_sysno=device.sysno, ts=sample.ts, values=sample.values, extra=sample.extra
                )
            )
            held = newest.get(sample.device_id)
            if held is None or held[1].ts <= sample.ts:
                newest[sample.device_id] = (device, sample)
        # Only each device's newest reading of the message moves its state and latest values.
        for device, sample in newest.values():
            identity = (gateway.sysno, device.device_id)
            if batch.refs.setdefault(device.sysno, identity) != identity:
                raise StaleRegistryError(f"device {device.sysno} is cached as two devices")
            if not device.online:
                await self._device_online(session, gateway, device, at)
            device.last_report = at
            batch.devices[device.sysno] = device
            held_entry = batch.latest.get(device.sysno) or self.latest.get(device.sysno)
            if held_entry is not None and held_entry.ts > sample.ts:
                continue
            merged = _merged(held_entry.values if held_entry else {}, sample)
            batch.latest[device.sysno] = LatestEntry(ts=sample.ts, values=merged, received_at=at)
            device.latest = {"ts": int(sample.ts.timestamp() * 1000), **merged}
            switch = sample.values.get("switch")
            if switch is not None:
                self._switch(session, gateway, device, int(switch), at)

    async def _on_status(
        self, session: AsyncSession, gateway: GatewayState, status: codec.Status, at: datetime, batch: _Batch
    ) -> None:
        if not status.online:
            await self._gateway_offline(session, gateway, at, "last_will")
            return
        await self._heard(session, gateway, at, batch, firmware=status.firmware)
        for announced in status.devices or []:
            device = await self._device(session, gateway, announced.device_id, announced=announced)
            if device is None:
                continue
            given = thingsboard.stated(announced)  # what a ThingsBoard gateway left out stays
            kind = announced.kind if "kind" in given else device.kind
            phases = announced.phases if "phases" in given else device.phases
            model = announced.model if "model" in given else device.model
            if (device.kind, device.phases, device.model) != (kind, phases, model):
                device.kind, device.phases, device.model = kind, phases, model
                await service.update_device_identity(
                    session=session, device_sysno=device.sysno, kind=kind, phases=phases, model=model
                )

    async def _on_events(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        events: list[codec.Event],
        at: datetime,
        batch: _Batch,
    ) -> None:
        await self._heard(session, gateway, at, batch)
        for event in self._registered(gateway, events):
            device = await self._device(session, gateway, event.device_id)
            if device is None:
                continue
            if event.type == "switch" and event.value is not None:
                self._switch(session, gateway, device, int(event.value), at)
                batch.devices[device.sysno] = device
            batch.events.append(
                DeviceEvent(
                    device_sysno=device.sysno,
                    gateway_sysno=gateway.sysno,
                    project_sysno=gateway.project_sysno,
                    event=event,
                )
            )

    def _registered(self, gateway: GatewayState, points: Sequence[_Dated]) -> Sequence[_Dated]:
        """The readings or events of this registration; those dated before it are counted and dropped.

        A serial number deleted and registered again, by anyone, is the same box: the backlog it still
        holds from its former owner's site must not land in the new owner's history. What is dated
        before the former registration's deletion was that registration's; a serial number registered
        for the first time keeps all it buffered.
        """
        since = gateway.since
        if since is None:
            return points
        kept = [point for point in points if point.ts >= since]
        if len(kept) < len(points):
            dropped = len(points) - len(kept)
            self.stats.before_registration += dropped
            self.refusals.note(gateway.sn, "before_registration", count=dropped)
            budget.warning(
                "before_registration", "%s: %d points of its former registration dropped",
                gateway.sn, dropped,
            )  # fmt: skip
        return kept

    async def _heard(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        at: datetime,
        batch: _Batch,
        firmware: str | None = None,
    ) -> None:
        gateway.last_seen = at
        batch.gateways_seen[gateway.sysno] = at
        if gateway.online and not firmware:
            return
        await service.set_gateway_online(
            session=session, gateway_sysno=gateway.sysno, online=True, firmware=firmware
        )
        if gateway.online:
            return
        gateway.online = True
        await self._came_online(session, gateway, None, at)

    async def _gateway_offline(
        self, session: AsyncSession, gateway: GatewayState, at: datetime, reason: str
    ) -> None:
        for device in gateway.devices.values():
            await self._device_offline(session, gateway, device, at, "gateway_offline")
        if not gateway.online:
            return
        gateway.online = False
        await service.set_gateway_online(session=session, gateway_sysno=gateway.sysno, online=False)
        self._went_offline(session, gateway, None, at, reason)

    async def _device_online(
        self, session: AsyncSession, gateway: GatewayState, device: DeviceState, at: datetime
    ) -> None:
        if device.online:
            return
        device.online = True
        await self._came_online(session, gateway, device, at)

    async def _device_offline(
        self, session: AsyncSession, gateway: GatewayState, device: DeviceState, at: datetime, reason: str
    ) -> None:
        if not device.online:
            return
        device.online = False
        await service.save_devices(
            session=session,
            updates=[
                service.DeviceUpdate(
                    sysno=device.sysno,
                    latest=device.latest,
                    last_report_time=device.last_report,
                    online=0,
                    switch_state=device.switch,
                )
            ],
        )
        self._went_offline(session, gateway, device, at, reason)

    async def _came_online(
        self, session: AsyncSession, gateway: GatewayState, device: DeviceState | None, at: datetime
    ) -> None:
        """Close the open offline spell of a gateway (``device`` None) or device, and log the change."""
        device_sysno = device.sysno if device else None
        await service.close_offline(
            session=session, gateway_sysno=gateway.sysno, device_sysno=device_sysno, at=at
        )
        self._transitions.append(
            Transition(gateway_sysno=gateway.sysno, device_sysno=device_sysno, online=True, at=at)
        )
        service.status_log(
            session=session,
            project_sysno=gateway.project_sysno,
            gateway_sysno=gateway.sysno,
            device_sysno=device_sysno,
            target_name=device.name if device else gateway.name,
            status_type="online",
            detail="设备上线" if device else "网关上线",
            at=at,
        )

    def _went_offline(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        device: DeviceState | None,
        at: datetime,
        reason: str,
    ) -> None:
        """Open an offline spell for a gateway (``device`` None) or device, and log the change."""
        device_sysno = device.sysno if device else None
        target_name = device.name if device else gateway.name
        spell = service.open_offline(
            session=session,
            project_sysno=gateway.project_sysno,
            gateway_sysno=gateway.sysno,
            device_sysno=device_sysno,
            target_name=target_name,
            reason=reason,
            at=at,
        )
        self._transitions.append(
            Transition(
                gateway_sysno=gateway.sysno,
                device_sysno=device_sysno,
                online=False,
                at=at,
                reason=reason,
                spell=spell,
            )
        )
        service.status_log(
            session=session,
            project_sysno=gateway.project_sysno,
            gateway_sysno=gateway.sysno,
            device_sysno=device_sysno,
            target_name=target_name,
            status_type="offline",
            detail=OFFLINE_DETAIL[reason].format(target="设备" if device else "网关"),
            at=at,
        )

    def _on_confirmed(
        self,
        session: AsyncSession,
        gateway: GatewayState,
        switches: Sequence[SwitchConfirmation],
        batch: _Batch,
    ) -> None:
        for confirmed in switches:
            device = gateway.devices.get(confirmed.device_id)
            if device is None:
                continue  # deleted since the command went out
            self._switch(session, gateway, device, int(confirmed.on), confirmed.at)
            batch.devices[device.sysno] = device

    def _switch(
        self, session: AsyncSession, gateway: GatewayState, device: DeviceState, state: int, at: datetime
    ) -> None:
        state = 1 if state else 0
        if device.switch == state:
            return
        first = device.switch is None
        device.switch = state
        if first:
            return
        service.status_log(
            session=session,
            project_sysno=gateway.project_sysno,
            gateway_sysno=gateway.sysno,
            device_sysno=device.sysno,
            target_name=device.name,
            status_type="switch_on" if state else "switch_off",
            detail="合闸" if state else "分闸",
            at=at,
        )

    async def _on_silence(self, session: AsyncSession, now: datetime) -> None:
        gateway_cutoff = now - timedelta(seconds=self.settings.gateway_offline_seconds)
        device_cutoff = now - timedelta(seconds=self.settings.device_offline_seconds)
        candidates = set(
            await service.silent_candidates(
                session=session, gateway_cutoff=gateway_cutoff, device_cutoff=device_cutoff
            )
        )
        candidates |= {
            sn for sn, g in self._gateways.items() if g.online or any(d.online for d in g.devices.values())
        }
        for sn in candidates:
            gateway = await self._gateway(session, sn)
            if gateway is None:
                continue
            if gateway.online and (gateway.last_seen is None or gateway.last_seen < gateway_cutoff):
                await self._gateway_offline(session, gateway, now, "silence")
            for device in gateway.devices.values():
                if device.online and (device.last_report is None or device.last_report < device_cutoff):
                    await self._device_offline(session, gateway, device, now, "no_data")


OFFLINE_DETAIL = {
    "last_will": "{target}离线（连接断开）",
    "silence": "{target}离线（超时未上报）",
    "no_data": "{target}离线（超时未上报）",
    "gateway_offline": "{target}离线（所属网关离线）",
}


def _same(gateway: GatewayState | None, source: GatewayRef) -> bool:
    return gateway is not None and (gateway.sysno, gateway.generation) == (source.sysno, source.generation)


def _settle(items: Sequence[Queued], error: BaseException | None = None) -> None:
    """Tell the broker the messages are stored (or, with ``error``, that they could not be)."""
    for item in items:
        stored = item.stored if isinstance(item, Incoming) else None
        if stored is not None and not stored.done():
            if error is None:
                stored.set_result(None)
            else:
                stored.set_exception(error)


def _merged(held: dict[str, Any], sample: codec.Sample) -> dict[str, Any]:
    """A device's latest values with a newer reading's: every key of the table, other keys up to 32.

    The others the reading does not name go first, the longest held first: a firmware naming new keys in
    every reading (a register address, a counter) grew them, and each save of the device, without end.
    """
    merged = {**held, **sample.extra, **sample.values}
    others = [k for k in merged if k not in BY_KEY]
    surplus = len(others) - codec.MAX_EXTRA_KEYS
    if surplus > 0:
        for key in [k for k in others if k not in sample.extra][:surplus]:
            del merged[key]
    return merged


def _default_name(device_id: str) -> str:
    """A device's name until its owner gives one: 设备 and its id, or the id alone where that is too long."""
    name = f"设备{device_id}"
    return name if len(name) <= NAME_LENGTH else device_id


def _weight(item: Queued) -> int:
    if isinstance(item, Incoming) and isinstance(item.payload, codec.Telemetry):
        return max(1, len(item.payload.readings))
    return 1
