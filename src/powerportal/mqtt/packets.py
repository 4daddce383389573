"""MQTT 3.1, 3.1.1 and 5.0 control packets on the wire, as far as the embedded broker needs them (pure)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

CONNECT, CONNACK, PUBLISH, PUBACK, PUBREC, PUBREL, PUBCOMP = 1, 2, 3, 4, 5, 6, 7
SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK, PINGREQ, PINGRESP, DISCONNECT, AUTH = 8, 9, 10, 11, 12, 13, 14, 15

MQTT_31, MQTT_311, MQTT_5 = 3, 4, 5

# 3.1.1 CONNACK return codes, and the MQTT 5 reason codes the broker sends.
CONNACK_311 = {"version": 1, "client_id": 2, "unavailable": 3, "credentials": 4, "not_authorised": 5}
CONNACK_5 = {
    "version": 0x84,
    "client_id": 0x85,
    "unavailable": 0x88,
    "credentials": 0x86,
    "not_authorised": 0x87,
    "malformed": 0x81,
    "protocol": 0x82,
    "auth_method": 0x8C,
    "quota": 0x97,
    "too_large": 0x95,
}
NOT_AUTHORISED_5 = 0x87
NO_SUBSCRIPTION_5 = 0x11
SUBACK_FAILURE_311 = 0x80
SHARED_UNSUPPORTED_5 = 0x9E
# DISCONNECT reasons the broker gives an MQTT 5 client before closing.
TAKEN_OVER_5 = 0x8E
PACKET_TOO_LARGE_5 = 0x95
PROTOCOL_ERROR_5 = 0x82
MALFORMED_5 = 0x81
TOPIC_INVALID_5 = 0x90
QUOTA_5 = 0x97
ADMIN_ACTION_5 = 0x98
KEEP_ALIVE_5 = 0x8D
DISCONNECT_WITH_WILL_5 = 0x04

# MQTT 5 property identifiers → value type (b byte, h two-byte int, i four-byte int, v varint,
# s UTF-8 string, d binary data, p string pair).
_PROPERTY_TYPES = {
    0x01: "b", 0x02: "i", 0x03: "s", 0x08: "s", 0x09: "d", 0x0B: "v", 0x11: "i", 0x12: "s",
    0x13: "h", 0x15: "s", 0x16: "d", 0x17: "b", 0x18: "i", 0x19: "b", 0x1A: "s", 0x1C: "s",
    0x1F: "s", 0x21: "h", 0x22: "h", 0x23: "h", 0x24: "b", 0x25: "b", 0x26: "p", 0x27: "i",
    0x28: "b", 0x29: "b", 0x2A: "b",
}  # fmt: skip
SESSION_EXPIRY, AUTH_METHOD, RECEIVE_MAXIMUM, TOPIC_ALIAS = 0x11, 0x15, 0x21, 0x23
ASSIGNED_CLIENT_ID, SERVER_KEEP_ALIVE, REASON_STRING, MAXIMUM_PACKET_SIZE = 0x12, 0x13, 0x1F, 0x27
RETAIN_AVAILABLE, WILDCARD_AVAILABLE, SUBSCRIPTION_IDS_AVAILABLE, SHARED_AVAILABLE = 0x25, 0x28, 0x29, 0x2A
MAXIMUM_QOS = 0x24
USER_PROPERTY = 0x26


class MalformedPacket(ValueError):
    """Bytes that are not a valid MQTT packet: the connection is closed."""


class PacketTooLarge(ValueError):
    """A packet announced longer than the broker accepts, refused before its body is read."""

    def __init__(self, length: int) -> None:
        super().__init__(f"packet of {length} bytes")
        self.length = length


async def read_packet(
    reader: asyncio.StreamReader, max_length: int, only: int | None = None
) -> tuple[int, int, bytes]:
    """Read one packet: (type, flags, body). The type (``only``) and length are checked before the body."""
    first = (await reader.readexactly(1))[0]
    if only is not None and first >> 4 != only:
        raise MalformedPacket(f"packet type {first >> 4} where {only} was due")
    length, multiplier = 0, 1
    for _ in range(4):
        byte = (await reader.readexactly(1))[0]
        length += (byte & 0x7F) * multiplier
        if not byte & 0x80:
            break
        multiplier *= 128
    else:
        raise MalformedPacket("remaining length longer than four bytes")
    if length > max_length:
        raise PacketTooLarge(length)
    body = await reader.readexactly(length) if length else b""
    return first >> 4, first & 0x0F, body


class Reader:
    """Reads the fields of a packet body; any shortfall or bad encoding is ``MalformedPacket``."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def _take(self, n: int) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise MalformedPacket("packet ends early")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def byte(self) -> int:
        """One byte."""
        return self._take(1)[0]

    def u16(self) -> int:
        """A two-byte integer."""
        return int.from_bytes(self._take(2), "big")

    def u32(self) -> int:
        """A four-byte integer."""
        return int.from_bytes(self._take(4), "big")

    def varint(self) -> int:
        """A variable byte integer."""
        value, multiplier = 0, 1
        for _ in range(4):
            byte = self.byte()
            value += (byte & 0x7F) * multiplier
            if not byte & 0x80:
                return value
            multiplier *= 128
        raise MalformedPacket("variable byte integer longer than four bytes")

    def binary(self) -> bytes:
        """Two-byte length, then that many bytes."""
        return self._take(self.u16())

    def string(self) -> str:
        """A UTF-8 string (no U+0000, as the standard says)."""
        raw = self.binary()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedPacket("string is not UTF-8") from exc
        if "\x00" in text:
            raise MalformedPacket("string holds U+0000")
        return text

    def rest(self) -> bytes:
        """Everything left."""
        chunk = self.data[self.pos :]
        self.pos = len(self.data)
        return chunk

    def at_end(self) -> bool:
        """Whether everything was read."""
        return self.pos >= len(self.data)

    def properties(self) -> dict[int, Any]:
        """An MQTT 5 property list (user properties gathered in a list)."""
        end = self.varint() + self.pos
        if end > len(self.data):
            raise MalformedPacket("properties run past the packet")
        found: dict[int, Any] = {}
        while self.pos < end:
            ident = self.varint()
            kind = _PROPERTY_TYPES.get(ident)
            value: Any
            if kind == "b":
                value = self.byte()
            elif kind == "h":
                value = self.u16()
            elif kind == "i":
                value = self.u32()
            elif kind == "v":
                value = self.varint()
            elif kind == "s":
                value = self.string()
            elif kind == "d":
                value = self.binary()
            elif kind == "p":
                value = (self.string(), self.string())
            else:
                raise MalformedPacket(f"unknown property 0x{ident:02x}")
            if ident == USER_PROPERTY:
                found.setdefault(ident, []).append(value)
            elif ident in found:
                raise MalformedPacket(f"property 0x{ident:02x} given twice")
            else:
                found[ident] = value
        if self.pos != end:
            raise MalformedPacket("properties run past their length")
        return found


@dataclass
class Will:
    """A client's last will, published when its connection ends without a DISCONNECT."""

    topic: str
    payload: bytes
    qos: int
    retain: bool


@dataclass
class Connect:
    """A decoded CONNECT packet."""

    version: int
    client_id: str
    clean_start: bool
    keep_alive: int
    username: str | None
    password: bytes | None
    will: Will | None
    properties: dict[int, Any] = field(default_factory=dict)


class UnsupportedVersion(MalformedPacket):
    """A CONNECT of a protocol level the broker does not speak; answered with its CONNACK code."""

    def __init__(self, level: int) -> None:
        super().__init__(f"protocol level {level}")
        self.level = level


def decode_connect(body: bytes) -> Connect:
    """Decode a CONNECT body (3.1, 3.1.1 or 5.0)."""
    r = Reader(body)
    name = r.string()
    level = r.byte()
    if (name, level) not in (("MQIsdp", MQTT_31), ("MQTT", MQTT_311), ("MQTT", MQTT_5)):
        if name in ("MQTT", "MQIsdp"):
            raise UnsupportedVersion(level)
        raise MalformedPacket(f"protocol name {name[:20]!r}")
    flags = r.byte()
    if flags & 0x01:
        raise MalformedPacket("reserved connect flag set")
    keep_alive = r.u16()
    properties = r.properties() if level == MQTT_5 else {}
    client_id = r.string()
    will = None
    if flags & 0x04:
        if level == MQTT_5:
            r.properties()  # will properties (delay, expiry, content type): the will is kept as sent
        topic = r.string()
        payload = r.binary()
        qos = (flags >> 3) & 0x03
        if qos > 2:
            raise MalformedPacket("will QoS 3")
        will = Will(topic=topic, payload=payload, qos=qos, retain=bool(flags & 0x20))
    elif flags & 0x38:
        raise MalformedPacket("will QoS or retain without a will")
    username = r.string() if flags & 0x80 else None
    password = r.binary() if flags & 0x40 else None
    return Connect(
        version=level,
        client_id=client_id,
        clean_start=bool(flags & 0x02),
        keep_alive=keep_alive,
        username=username,
        password=password,
        will=will,
        properties=properties,
    )


@dataclass
class Publish:
    """A decoded PUBLISH packet."""

    topic: str
    payload: bytes
    qos: int
    retain: bool
    dup: bool
    packet_id: int | None
    properties: dict[int, Any] = field(default_factory=dict)


def decode_publish(flags: int, body: bytes, version: int) -> Publish:
    """Decode a PUBLISH body."""
    qos = (flags >> 1) & 0x03
    if qos == 3:
        raise MalformedPacket("QoS 3")
    r = Reader(body)
    topic = r.string()
    packet_id = r.u16() if qos else None
    if packet_id == 0:
        raise MalformedPacket("packet id 0")
    properties = r.properties() if version == MQTT_5 else {}
    return Publish(
        topic=topic,
        payload=r.rest(),
        qos=qos,
        retain=bool(flags & 0x01),
        dup=bool(flags & 0x08),
        packet_id=packet_id,
        properties=properties,
    )


def decode_subscribe(body: bytes, version: int) -> tuple[int, list[tuple[str, int]]]:
    """Decode a SUBSCRIBE body: packet id and (filter, requested QoS) pairs."""
    r = Reader(body)
    packet_id = r.u16()
    if version == MQTT_5:
        r.properties()
    filters = []
    while not r.at_end():
        topic_filter = r.string()
        options = r.byte()
        if (options & 0x03) == 3 or options & (0xC0 if version == MQTT_5 else 0xFC):
            raise MalformedPacket("bad subscription options")
        filters.append((topic_filter, options & 0x03))
    if not filters:
        raise MalformedPacket("SUBSCRIBE without a filter")
    return packet_id, filters


def decode_unsubscribe(body: bytes, version: int) -> tuple[int, list[str]]:
    """Decode an UNSUBSCRIBE body: packet id and filters."""
    r = Reader(body)
    packet_id = r.u16()
    if version == MQTT_5:
        r.properties()
    filters = []
    while not r.at_end():
        filters.append(r.string())
    if not filters:
        raise MalformedPacket("UNSUBSCRIBE without a filter")
    return packet_id, filters


def decode_disconnect(body: bytes, version: int) -> int:
    """The reason code of a DISCONNECT (0 for 3.1.1, or an MQTT 5 one without a code)."""
    if version != MQTT_5 or not body:
        return 0
    return Reader(body).byte()


# -- encoding ------------------------------------------------------------------------------------


def varint(value: int) -> bytes:
    """A variable byte integer."""
    out = bytearray()
    while True:
        byte, value = value % 128, value // 128
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def string(text: str) -> bytes:
    """A length-prefixed UTF-8 string."""
    raw = text.encode()
    return len(raw).to_bytes(2, "big") + raw


def properties(values: dict[int, Any] | None = None) -> bytes:
    """An MQTT 5 property list."""
    out = bytearray()
    for ident, value in (values or {}).items():
        kind = _PROPERTY_TYPES[ident]
        out += varint(ident)
        if kind == "b":
            out.append(value)
        elif kind == "h":
            out += value.to_bytes(2, "big")
        elif kind == "i":
            out += value.to_bytes(4, "big")
        elif kind == "v":
            out += varint(value)
        elif kind == "s":
            out += string(value)
        else:
            raise ValueError(f"property 0x{ident:02x} is not sent by the broker")
    return varint(len(out)) + bytes(out)


def packet(kind: int, flags: int, body: bytes) -> bytes:
    """Fixed header and body."""
    return bytes([(kind << 4) | flags]) + varint(len(body)) + body


def connack(
    version: int, code: int, *, session_present: bool = False, props: dict[int, Any] | None = None
) -> bytes:
    """A CONNACK."""
    body = bytes([1 if session_present and code == 0 else 0, code])
    if version == MQTT_5:
        body += properties(props)
    return packet(CONNACK, 0, body)


def publish(
    topic: str,
    payload: bytes,
    *,
    qos: int,
    retain: bool,
    packet_id: int | None,
    version: int,
    dup: bool = False,
) -> bytes:
    """A PUBLISH to a client."""
    body = string(topic)
    if qos:
        if packet_id is None:
            raise ValueError("a QoS 1 or 2 PUBLISH needs a packet id")
        body += packet_id.to_bytes(2, "big")
    if version == MQTT_5:
        body += b"\x00"
    flags = (0x08 if dup else 0) | (qos << 1) | (0x01 if retain else 0)
    return packet(PUBLISH, flags, body + payload)


def ack(kind: int, packet_id: int, version: int, code: int = 0) -> bytes:
    """A PUBACK, PUBREC, PUBREL or PUBCOMP (with an MQTT 5 reason code only when not success)."""
    body = packet_id.to_bytes(2, "big")
    if version == MQTT_5 and code:
        body += bytes([code])
    return packet(kind, 0x02 if kind == PUBREL else 0, body)


def suback(packet_id: int, codes: list[int], version: int, kind: int = SUBACK) -> bytes:
    """A SUBACK (or, with ``kind=UNSUBACK``, an MQTT 5 UNSUBACK)."""
    body = packet_id.to_bytes(2, "big")
    if version == MQTT_5:
        body += b"\x00"
    return packet(kind, 0, body + bytes(codes))


def unsuback(packet_id: int, codes: list[int], version: int) -> bytes:
    """An UNSUBACK (3.1.1 carries no codes)."""
    if version == MQTT_5:
        return suback(packet_id, codes, version, kind=UNSUBACK)
    return packet(UNSUBACK, 0, packet_id.to_bytes(2, "big"))


def disconnect(code: int, reason: str | None = None) -> bytes:
    """An MQTT 5 DISCONNECT from the broker."""
    return packet(DISCONNECT, 0, bytes([code]) + properties({REASON_STRING: reason} if reason else None))


PINGRESP_PACKET = packet(PINGRESP, 0, b"")
