"""The ThingsBoard gateway MQTT API, mapped onto our own protocol (pure functions, like the codec).

A ThingsBoard gateway publishes on fixed topics (``v1/gateway/telemetry``, ``…/connect``, …) that do not
name it, so the broker puts each gateway's ``v1/…`` topics under a mount point of its own,
``tb/{sn}/``: the embedded broker does it for every gateway logged in; Mosquitto (``mount_point``) and
EMQX (``mountpoint = "tb/${username}/"``) do it on a listener set aside for ThingsBoard gateways
(docs/deployment.md). The platform then reads ``tb/{sn}/v1/gateway/…`` and knows who sent it, and
publishes its commands on ``tb/{sn}/v1/gateway/rpc``, which reaches that gateway alone as
``v1/gateway/rpc``. docs/gateway-protocol.md, "ThingsBoard gateways", states the mapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from powerportal.mqtt import codec

ROOT = "tb"
# The part of a ThingsBoard client's topics that the mount point moves under ``tb/{sn}/``.
API_ROOT = "v1/"
GATEWAY = "v1/gateway/"
RPC = "v1/gateway/rpc"
# What a ThingsBoard client sends that the platform has no use for: accepted and let go uncounted
# (attribute requests, the device API's request for its session limits, claiming).
IGNORED = ("v1/gateway/attributes/request", "v1/gateway/claim", "v1/devices/me/")
# An rpc id the platform sends is a whole number JavaScript and Java clients keep exactly.
MAX_RPC_ID = 2**53 - 1

# ThingsBoard gateways often name readings their own way; these become the key table's names.
ALIASES = {
    "power": "active_power",
    "activepower": "active_power",
    "pf": "power_factor",
    "freq": "frequency",
    "kwh": "energy",
    "leakage": "leakage_current",
    "residual_current": "leakage_current",
    "temp": "temperature",
    "state": "switch",
    "switch_state": "switch",
}
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
IDENTITY = frozenset(("kind", "phases", "model"))


@dataclass(frozen=True, slots=True)
class PartialDevice(codec.AnnouncedDevice):
    """A device a ThingsBoard gateway named, with only some of kind, phases and model stated.

    Those in ``stated`` correct a known device: a ``connect`` states none, ``attributes`` what they hold.
    """

    stated: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Disconnected:
    """A ThingsBoard gateway says one of its devices is gone (its connection to the device broke)."""

    device_id: str


def stated(device: codec.AnnouncedDevice) -> frozenset[str]:
    """Which of kind, phases and model an announce states (our own protocol's: all three)."""
    return device.stated if isinstance(device, PartialDevice) else IDENTITY


def mount(sn: str, topic: str) -> str:
    """Where a gateway's ``v1/…`` topic (or filter) lives on the platform's side."""
    return f"{ROOT}/{sn}/{topic}"


def unmount(sn: str, topic: str) -> str:
    """The topic a gateway sees for a mounted one (others unchanged)."""
    prefix = f"{ROOT}/{sn}/"
    return topic[len(prefix) :] if topic.startswith(prefix) else topic


def owned(sn: str, topic: str) -> bool:
    """Whether a (mounted) topic or filter is under this gateway's ThingsBoard mount point."""
    return topic.startswith(f"{ROOT}/{sn}/{API_ROOT}")


def subscription(shared_group: str) -> str:
    """The filter an ingest worker subscribes to for ThingsBoard gateways."""
    plain = f"{ROOT}/+/{GATEWAY}#"
    return f"$share/{shared_group}/{plain}" if shared_group else plain


def rpc_id(request_id: str) -> int:
    """The number a ThingsBoard gateway gets for one of our request ids (16 hex digits, below 2**53)."""
    return int(request_id, 16)


def request_id(raw: Any) -> str:
    """Our request id for the id a ThingsBoard gateway answered with."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MAX_RPC_ID:
        return format(raw, "016x")
    if isinstance(raw, str) and 0 < len(raw) <= 64:
        return raw
    raise codec.ProtocolError("garbage", "rpc reply needs the request's id")


def encode_rpc_request(
    *, sn: str, request_id: str, device_id: str, method: str, params: dict[str, Any] | None = None
) -> tuple[str, bytes]:
    """A command as a ThingsBoard gateway expects it on ``v1/gateway/rpc``."""
    if method not in codec.RPC_METHODS:
        raise codec.ProtocolError("bad_method", method)
    body = {"device": device_id, "data": {"id": rpc_id(request_id), "method": method, "params": params or {}}}
    return mount(sn, RPC), orjson.dumps(body)


def parse_topic(topic: str) -> tuple[str, str]:
    """``tb/{sn}/v1/…`` → (serial number, the gateway's own topic), or ``ProtocolError('wrong_topic')``."""
    root, _, rest = topic.partition("/")
    sn, _, own = rest.partition("/")
    if root != ROOT or not codec.SN_PATTERN.match(sn) or not own.startswith(API_ROOT):
        raise codec.ProtocolError("wrong_topic", topic[:200])
    return sn, own


def decode(
    topic: str, payload: bytes, *, now: datetime | None = None, notes: codec.Notes | None = None
) -> tuple[str, codec.Payload | Disconnected | None]:
    """A ThingsBoard gateway's message as our own: (serial number, payload; None for one let go)."""
    sn, own = parse_topic(topic)
    if own.startswith(IGNORED):
        return sn, None
    channel = own[len(GATEWAY) :] if own.startswith(GATEWAY) else ""
    if channel not in ("connect", "disconnect", "telemetry", "attributes", "rpc"):
        raise codec.ProtocolError("wrong_topic", topic[:200])
    body = codec._load(payload)  # noqa: SLF001 - the one size limit and JSON reading
    now = now or datetime.now(UTC)
    notes = notes if notes is not None else codec.Notes()
    if channel == "telemetry":
        return sn, codec.decode_telemetry(_telemetry(body), now=now, notes=notes)
    if channel == "connect":
        device = _device(body)
        raw_kind = body.get("type")
        kind = raw_kind if raw_kind in codec.DEVICE_KINDS else None  # ThingsBoard's "default" says nothing
        announced = PartialDevice(
            device_id=device, kind=kind or "breaker", stated=frozenset({"kind"} if kind else ())
        )
        return sn, codec.Status(online=True, devices=[announced])
    if channel == "disconnect":
        return sn, Disconnected(device_id=_device(body))
    if channel == "attributes":
        return sn, codec.Status(online=True, devices=_attributes(body, notes))
    if isinstance(body, dict) and "id" not in body and isinstance(body.get("data"), dict):
        return sn, None  # our own request, seen again by a platform subscribed to the gateway's topics
    return sn, _rpc_reply(body, notes)


def _device(body: Any) -> str:
    if not isinstance(body, dict):
        raise codec.ProtocolError("garbage", 'connect and disconnect need {"device": name}')
    return codec._device_id(body.get("device"))  # noqa: SLF001 - the one device id rule


def key(raw: str) -> str:
    """A ThingsBoard key as the key table names it: camelCase to snake_case, then the aliases."""
    snake = _CAMEL.sub(r"_\1", raw).lower() if raw != raw.lower() else raw
    return ALIASES.get(snake, ALIASES.get(snake.replace("_", ""), snake))


def _telemetry(body: Any) -> Any:
    """``{name: [{"ts", "values"} | {key: value}]}`` → our ``{id: [{"ts", "values"}]}``."""
    if not isinstance(body, dict):
        return body  # the codec says what is wrong
    out: dict[str, Any] = {}
    for name, points in body.items():
        items = points if isinstance(points, list) else [points]
        converted = []
        for point in items:
            if not isinstance(point, dict):
                raise codec.ProtocolError("garbage", f"{str(name)[:64]}: a point is an object")
            if "values" in point:
                ts, values = point.get("ts"), point["values"]
                if not isinstance(values, dict):
                    raise codec.ProtocolError("garbage", f"{str(name)[:64]}: values must be an object")
            else:
                ts, values = None, {k: v for k, v in point.items() if k != "metadata"}
            mapped = {key(str(k)): v for k, v in values.items()}
            converted.append({"ts": ts, "values": mapped} if ts is not None else {"values": mapped})
        out[name] = converted
    return out


def _attributes(body: Any, notes: codec.Notes) -> list[codec.AnnouncedDevice]:
    """``{name: {"model"?, "phases"?, "kind"?, …}}``: what is stated corrects the device; the rest goes."""
    if not isinstance(body, dict) or not body or len(body) > codec.MAX_DEVICES_PER_MESSAGE:
        raise codec.ProtocolError("garbage", "attributes must be an object keyed by device name")
    devices: list[codec.AnnouncedDevice] = []
    for name, attributes in body.items():
        if not isinstance(attributes, dict):
            raise codec.ProtocolError("garbage", f"{str(name)[:64]}: attributes must be an object")
        stated = {k for k in ("kind", "phases", "model") if attributes.get(k) is not None}
        kind, phases = attributes.get("kind", "breaker"), attributes.get("phases", 1)
        if kind not in codec.DEVICE_KINDS or phases not in (1, 3) or type(phases) is not int:
            raise codec.ProtocolError("garbage", "kind must be breaker, meter or sensor; phases 1 or 3")
        devices.append(
            PartialDevice(
                device_id=codec._device_id(name),  # noqa: SLF001
                kind=kind,
                phases=phases,
                model=notes.text(attributes.get("model")),
                stated=frozenset(stated),
            )
        )
    return devices


def _rpc_reply(body: Any, notes: codec.Notes) -> codec.RpcResponse:
    """``{"device", "id", "data"}`` → our answer: ``data`` is the result; an error or success false fail."""
    if not isinstance(body, dict) or "data" not in body:
        raise codec.ProtocolError("garbage", 'rpc reply needs "device", "id" and "data"')
    _device(body)
    data = body["data"]
    result = data if isinstance(data, dict) else {"value": data}
    error = result.get("error")
    ok = error is None and result.get("success", True) is not False
    ours = {"id": request_id(body.get("id")), "ok": ok, "result": result}
    if not ok:
        ours["error"] = error if isinstance(error, str) else "refused"
    return codec.decode_rpc_response(ours, notes)
