"""The gateway protocol on the wire: topics and payloads in, typed records out (pure functions)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import orjson

from powerportal.core import text
from powerportal.load_ident.events import LoadEventError, validate_detail
from powerportal.telemetry.keys import KEYS

TOPIC_ROOT = "gateways"
UP_CHANNELS = ("telemetry", "events", "status", "rpc/response")
RPC_REQUEST = "rpc/request"
MAX_PAYLOAD_BYTES = 256 * 1024
MAX_DEVICES_PER_MESSAGE = 256
MAX_POINTS_PER_DEVICE = 1000
MAX_EXTRA_KEYS = 32
# Readings further than this ahead of the platform's clock are refused (``bad_ts``): one reading from
# a clock set wrong must not freeze a device's live values until the future arrives.
MAX_CLOCK_AHEAD = timedelta(minutes=5)
# What of a gateway's free-form answer is kept: rpc results and event details, as JSON.
MAX_FREE_FORM_BYTES = 4096
MAX_FREE_FORM_DEPTH = 8
MAX_TEXT = 255
OLDEST_TS = datetime(2000, 1, 1, tzinfo=UTC)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_OLDEST_MS = OLDEST_TS.timestamp() * 1000

# Whole strings only (``\Z``: ``$`` would also accept a trailing newline).
SN_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}\Z")
# Integers beyond 2**53 - 1 are exact here but not in a browser, which would show them rounded: refused.
MAX_EXACT_INT = 2**53 - 1
DEVICE_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}\Z")
EXTRA_KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}\Z")
DEVICE_KINDS = ("breaker", "meter", "sensor")
EVENT_TYPES = ("alarm", "switch", "load", "fault_cleared")
RPC_METHODS = ("switch", "read", "set_thresholds")

# key → (minimum, maximum, has a column, must be whole), for the hot path of every reading.
_SPECS: dict[str, tuple[float, float, bool, bool]] = {
    k.key: (k.minimum, k.maximum, k.column, k.integer) for k in KEYS
}

Channel = Literal["telemetry", "events", "status", "rpc/response"]


@dataclass
class Notes:
    """What decoding repaired or dropped inside an accepted message, for the ingest's counters."""

    cleaned_text: int = 0
    capped: int = 0
    bad_ts: int = 0

    def text(self, raw: Any, max_length: int = 64) -> str | None:
        """A gateway's string, cleaned by the one rule (and counted when that changed it)."""
        if not isinstance(raw, str):
            return None
        cleaned = text.clean(raw, max_length)
        if cleaned != raw.strip():
            self.cleaned_text += 1
        return cleaned or None

    def free_form(self, raw: dict[str, Any]) -> dict[str, Any]:
        """A gateway's free-form object, kept only if small and shallow (else dropped and counted)."""
        if _depth(raw) > MAX_FREE_FORM_DEPTH or len(orjson.dumps(raw)) > MAX_FREE_FORM_BYTES:
            self.capped += 1
            return {}
        cleaned = _clean_strings(raw)
        if cleaned != raw:
            self.cleaned_text += 1
        return cleaned  # type: ignore[no-any-return]


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_FREE_FORM_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _clean_strings(value: Any) -> Any:
    if isinstance(value, str):
        return text.clean(value, MAX_TEXT, one_line=False)
    if isinstance(value, dict):
        return {text.clean(str(k), 64): _clean_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_strings(v) for v in value]
    return value


class ProtocolError(ValueError):
    """A message that does not follow the protocol; ``reason`` is a short machine-readable code."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Topic:
    """A parsed up-link topic."""

    sn: str
    channel: Channel


@dataclass(frozen=True, slots=True)
class Sample:
    """Values of one device at one instant; ``extra`` holds keys this platform has no column for."""

    device_id: str
    ts: datetime
    values: dict[str, float]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Telemetry:
    """A decoded telemetry message; ``rejected`` lists values dropped with their reason."""

    readings: list[Sample]
    rejected: list[str]


@dataclass(frozen=True, slots=True)
class AnnouncedDevice:
    """A device a gateway says is on its bus."""

    device_id: str
    kind: str = "breaker"
    phases: int = 1
    model: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Status:
    """A gateway's retained state (its last will says offline) and, optionally, its devices."""

    online: bool
    ts: datetime | None = None
    firmware: str | None = None
    devices: list[AnnouncedDevice] | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened on a device: an alarm, a switching, a load change."""

    device_id: str
    ts: datetime
    type: str
    code: str | None = None
    value: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RpcResponse:
    """A gateway's answer to an ``rpc/request``."""

    id: str
    ok: bool
    result: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


Payload = Telemetry | Status | list[Event] | RpcResponse


def parse_topic(topic: str) -> Topic:
    """Split ``gateways/{sn}/{channel}`` into its parts, or raise ``ProtocolError('wrong_topic')``."""
    root, _, rest = topic.partition("/")
    sn, _, channel = rest.partition("/")
    if root != TOPIC_ROOT or not SN_PATTERN.match(sn) or channel not in UP_CHANNELS:
        raise ProtocolError("wrong_topic", topic[:200])
    return Topic(sn=sn, channel=channel)  # type: ignore[arg-type]


def topic_for(sn: str, channel: str) -> str:
    """The topic of one of a gateway's channels."""
    return f"{TOPIC_ROOT}/{sn}/{channel}"


def decode(
    channel: Channel, payload: bytes, *, now: datetime | None = None, notes: Notes | None = None
) -> Payload:
    """Decode the payload of an up-link channel, or raise ``ProtocolError``; repairs go to ``notes``."""
    body = _load(payload)
    now = now or datetime.now(UTC)
    notes = notes if notes is not None else Notes()
    if channel == "telemetry":
        return decode_telemetry(body, now=now, notes=notes)
    if channel == "status":
        return decode_status(body, now=now, notes=notes)
    if channel == "events":
        return decode_events(body, now=now, notes=notes)
    return decode_rpc_response(body, notes=notes)


def _load(payload: bytes) -> Any:
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise ProtocolError("oversize", f"{len(payload)} bytes")
    try:
        return orjson.loads(payload)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError("garbage", "not JSON") from exc


def _ts(raw: Any, *, now: datetime) -> datetime:
    """Milliseconds since the epoch (UTC) to an aware datetime; absent means now."""
    if raw is None:
        return now
    kind = type(raw)
    if (kind is not int and kind is not float) or not math.isfinite(raw):
        raise ProtocolError("garbage", "ts must be milliseconds since 1970")
    if raw < _OLDEST_MS or raw > (now + MAX_CLOCK_AHEAD).timestamp() * 1000:
        raise ProtocolError("bad_ts", f"{int(raw)}")
    return _EPOCH + timedelta(milliseconds=int(raw))


def _instant(raw: Any, *, now: datetime, notes: Notes) -> datetime | None:
    """``_ts``, but an instant before 2000 or ahead of the clock is counted (``bad_ts``) and None."""
    try:
        return _ts(raw, now=now)
    except ProtocolError as exc:
        if exc.reason != "bad_ts":
            raise
        notes.bad_ts += 1
        return None


def _device_id(raw: Any) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str) or not DEVICE_ID_PATTERN.match(raw):
        raise ProtocolError("garbage", "device id must be 1-64 letters, digits or _.:-")
    return raw


def decode_telemetry(body: Any, *, now: datetime, notes: Notes | None = None) -> Telemetry:
    """``{device_id: [{"ts": ms, "values": {key: number}}]}``; bad values are dropped, not the message."""
    if not isinstance(body, dict) or not body:
        raise ProtocolError("garbage", "telemetry must be an object keyed by device id")
    if len(body) > MAX_DEVICES_PER_MESSAGE:
        raise ProtocolError("oversize", f"{len(body)} devices")
    readings: list[Sample] = []
    rejected: list[str] = []
    instants: dict[Any, datetime] = {}
    for raw_id, points in body.items():
        device_id = _device_id(raw_id)
        if isinstance(points, dict):
            points = [points]
        if not isinstance(points, list) or not points:
            raise ProtocolError("garbage", f"{device_id}: expected a list of points")
        if len(points) > MAX_POINTS_PER_DEVICE:
            raise ProtocolError("oversize", f"{device_id}: {len(points)} points")
        for point in points:
            if not isinstance(point, dict) or not isinstance(point.get("values"), dict):
                raise ProtocolError("garbage", f"{device_id}: a point is {{ts, values}}")
            raw_ts = point.get("ts")
            ts = instants.get(raw_ts) if type(raw_ts) is int else None
            if ts is None:
                try:
                    ts = _ts(raw_ts, now=now)
                except ProtocolError as exc:
                    if notes is not None and exc.reason == "bad_ts":
                        notes.bad_ts += 1
                    else:
                        rejected.append(f"{device_id}: {exc}")
                    continue
                if type(raw_ts) is int:
                    instants[raw_ts] = ts
            values, extra = _values(device_id, point["values"], rejected)
            if values or extra:
                readings.append(Sample(device_id=device_id, ts=ts, values=values, extra=extra))
    return Telemetry(readings=readings, rejected=rejected)


def _values(
    device_id: str, raw: dict[str, Any], rejected: list[str]
) -> tuple[dict[str, float], dict[str, Any]]:
    values: dict[str, float] = {}
    extra: dict[str, Any] = {}
    for key, value in raw.items():
        spec = _SPECS.get(key)
        if spec is None:
            if len(extra) < MAX_EXTRA_KEYS and EXTRA_KEY_PATTERN.match(key) and _scalar(value):
                extra[key] = text.clean(value, MAX_TEXT) if isinstance(value, str) else value
            else:
                rejected.append(f"{device_id}.{key[:64]}: unknown key not kept")
            continue
        kind = type(value)
        if kind is bool and spec[3] and spec[0] == 0 and spec[1] == 1:
            value, kind = int(value), int  # a switch may say true/false; a measurement may not
        # orjson never yields NaN or infinity, so a type and range check is enough here.
        if (
            (kind is float or kind is int)
            and spec[0] <= value <= spec[1]
            and (not spec[3] or value == int(value))
        ):
            (values if spec[2] else extra)[key] = value
        else:
            rejected.append(f"{device_id}.{key}: {str(value)[:32]} out of range")
    return values, extra


def _scalar(value: Any) -> bool:
    """A value kept as it came: short text, a finite number, an integer a browser holds exactly."""
    if isinstance(value, str):
        return len(value) <= 256
    if isinstance(value, int):
        return abs(value) <= MAX_EXACT_INT
    return value is None or (isinstance(value, float) and math.isfinite(value))


def decode_status(body: Any, *, now: datetime, notes: Notes | None = None) -> Status:
    """``{"state": "online"|"offline", "ts"?, "firmware"?, "devices"?: [...]}``."""
    notes = notes if notes is not None else Notes()
    if not isinstance(body, dict) or body.get("state") not in ("online", "offline"):
        raise ProtocolError("garbage", 'status needs "state": "online" or "offline"')
    firmware = body.get("firmware")
    if firmware is not None and not isinstance(firmware, str):
        raise ProtocolError("garbage", "firmware must be a string")
    devices: list[AnnouncedDevice] | None = None
    if body.get("devices") is not None:
        raw_devices = body["devices"]
        if not isinstance(raw_devices, list):
            raise ProtocolError("garbage", "devices must be a list")
        if len(raw_devices) > MAX_DEVICES_PER_MESSAGE:
            raise ProtocolError("oversize", f"{len(raw_devices)} devices (at most {MAX_DEVICES_PER_MESSAGE})")
        devices = [_announced(item, notes) for item in raw_devices]
    return Status(
        online=body["state"] == "online",
        ts=_instant(body.get("ts"), now=now, notes=notes) if body.get("ts") is not None else None,
        firmware=notes.text(firmware),
        devices=devices,
    )


def _announced(item: Any, notes: Notes) -> AnnouncedDevice:
    if not isinstance(item, dict):
        raise ProtocolError("garbage", "a device is an object with an id")
    kind = item.get("kind", "breaker")
    phases = item.get("phases", 1)
    if kind not in DEVICE_KINDS:
        raise ProtocolError("garbage", f"kind must be one of {', '.join(DEVICE_KINDS)}")
    if type(phases) is not int or phases not in (1, 3):  # not true, not 3.0
        raise ProtocolError("garbage", "phases must be 1 or 3")
    return AnnouncedDevice(
        device_id=_device_id(item.get("id")),
        kind=kind,
        phases=phases,
        model=notes.text(item.get("model")),
        name=notes.text(item.get("name")),
    )


def decode_events(body: Any, *, now: datetime, notes: Notes | None = None) -> list[Event]:
    """One event object or a list of them: ``{"device", "ts", "type", "code"?, "value"?, "detail"?}``."""
    notes = notes if notes is not None else Notes()
    items = body if isinstance(body, list) else [body]
    if not items or len(items) > MAX_POINTS_PER_DEVICE:
        raise ProtocolError("garbage", "events must be an event or a list of 1-1000 events")
    events = []
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in EVENT_TYPES:
            raise ProtocolError("garbage", f"event type must be one of {', '.join(EVENT_TYPES)}")
        code, value, detail = item.get("code"), item.get("value"), item.get("detail", {})
        if code is not None and not isinstance(code, str):
            raise ProtocolError("garbage", "event code must be a string")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ProtocolError("garbage", "event value must be a number")
        if not isinstance(detail, dict):
            raise ProtocolError("garbage", "event detail must be an object")
        if item["type"] == "switch" and value not in (None, 0, 1):  # 0.5 or 2 is neither on nor off
            raise ProtocolError("garbage", "a switch event's value is 1 (on) or 0 (off)")
        if item["type"] == "load":
            # Read whole or refused whole (docs/gateway-protocol.md): its waveform may exceed 4 KiB.
            try:
                kept = validate_detail(code, detail).model_dump(exclude_none=True)
            except LoadEventError as exc:
                raise ProtocolError("garbage", str(exc)) from None
        else:
            kept = notes.free_form(detail)
        device_id = _device_id(item.get("device"))
        ts = _instant(item.get("ts"), now=now, notes=notes)
        if ts is None:
            continue  # this event only: the others of the message are kept
        events.append(
            Event(
                device_id=device_id,
                ts=ts,
                type=item["type"],
                code=notes.text(code),
                value=float(value) if value is not None else None,
                detail=kept,
            )
        )
    return events


def decode_rpc_response(body: Any, notes: Notes | None = None) -> RpcResponse:
    """``{"id", "ok", "result"?, "error"?}``; the result is kept up to 4 KiB, the error text to 255."""
    notes = notes if notes is not None else Notes()
    if (
        not isinstance(body, dict)
        or not isinstance(body.get("id"), str)
        or not isinstance(body.get("ok"), bool)
    ):
        raise ProtocolError("garbage", 'rpc response needs "id" (string) and "ok" (boolean)')
    result, error = body.get("result", {}), body.get("error")
    if not isinstance(result, dict) or (error is not None and not isinstance(error, str)):
        raise ProtocolError("garbage", "rpc result must be an object and error a string")
    return RpcResponse(
        id=body["id"][:64], ok=body["ok"], result=notes.free_form(result), error=notes.text(error, MAX_TEXT)
    )


def encode_rpc_request(
    *, sn: str, request_id: str, device_id: str, method: str, params: dict[str, Any] | None = None
) -> tuple[str, bytes]:
    """The topic and payload that ask a gateway to act on one of its devices."""
    if method not in RPC_METHODS:
        raise ProtocolError("bad_method", method)
    payload = {"id": request_id, "device": _device_id(device_id), "method": method, "params": params or {}}
    return topic_for(sn, RPC_REQUEST), orjson.dumps(payload)


def decode_rpc_request(payload: bytes) -> tuple[str, str, str, dict[str, Any]]:
    """The gateway side of ``rpc/request``: id, device, method, params."""
    body = _load(payload)
    if (
        not isinstance(body, dict)
        or not isinstance(body.get("id"), str)
        or body.get("method") not in RPC_METHODS
    ):
        raise ProtocolError("garbage", "rpc request needs id and a known method")
    params = body.get("params") or {}
    if not isinstance(params, dict):
        raise ProtocolError("garbage", "rpc params must be an object")
    return body["id"], _device_id(body.get("device")), body["method"], params


def encode_telemetry(points: dict[str, list[tuple[datetime, dict[str, Any]]]]) -> bytes:
    """The gateway side of ``telemetry``: device id → list of (instant, values)."""
    return orjson.dumps(
        {
            device_id: [{"ts": int(ts.timestamp() * 1000), "values": values} for ts, values in series]
            for device_id, series in points.items()
        }
    )


def encode_status(
    *, online: bool, devices: list[AnnouncedDevice] | None = None, firmware: str | None = None
) -> bytes:
    """The gateway side of ``status`` (also its last will, with ``online=False``)."""
    body: dict[str, Any] = {"state": "online" if online else "offline"}
    if firmware:
        body["firmware"] = firmware
    if devices is not None:
        body["devices"] = [
            {
                k: v
                for k, v in (
                    ("id", d.device_id),
                    ("kind", d.kind),
                    ("phases", d.phases),
                    ("model", d.model),
                    ("name", d.name),
                )
                if v is not None
            }
            for d in devices
        ]
    return orjson.dumps(body)
