"""A bare MQTT client on a socket, for what a library client will not do: drop uncleanly, lie, flood."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from powerportal.mqtt import packets as p


@dataclass
class RawWill:
    """A last will as a raw client sends it."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


def connect_packet(
    client_id: str,
    username: str | None,
    password: str | None,
    *,
    will: RawWill | None = None,
    version: int = p.MQTT_311,
    clean: bool = True,
    keep_alive: int = 60,
) -> bytes:
    """A CONNECT packet."""
    v5 = version == p.MQTT_5
    flags = 0x02 if clean else 0
    payload = p.string(client_id)
    if will is not None:
        flags |= 0x04 | (will.qos << 3) | (0x20 if will.retain else 0)
        payload += (b"\x00" if v5 else b"") + p.string(will.topic)
        payload += len(will.payload).to_bytes(2, "big") + will.payload
    if username is not None:
        flags |= 0x80
        payload += p.string(username)
    if password is not None:
        flags |= 0x40
        raw = password.encode()
        payload += len(raw).to_bytes(2, "big") + raw
    header = p.string("MQTT") + bytes([version, flags]) + keep_alive.to_bytes(2, "big")
    if v5:
        header += b"\x00"
    return p.packet(p.CONNECT, 0, header + payload)


def publish_packet(
    topic: str, payload: bytes, *, qos: int = 0, packet_id: int = 1, retain: bool = False
) -> bytes:
    """A PUBLISH packet (MQTT 3.1.1)."""
    body = p.string(topic) + (packet_id.to_bytes(2, "big") if qos else b"")
    return p.packet(p.PUBLISH, (qos << 1) | (1 if retain else 0), body + payload)


class RawClient:
    """One socket, packets in and out."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int) -> RawClient:
        """Connect the socket (no MQTT yet)."""
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    @classmethod
    async def login(cls, host: str, port: int, *args: object, **kwargs: object) -> tuple[RawClient, int]:
        """Connect and send CONNECT; returns the client and the CONNACK code (-1: closed with no CONNACK)."""
        client = await cls.open(host, port)
        client.send(connect_packet(*args, **kwargs))  # type: ignore[arg-type]
        try:
            kind, _flags, body = await client.read(5)
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            return client, -1
        assert kind == p.CONNACK
        return client, body[1]

    def send(self, data: bytes) -> None:
        """Write bytes."""
        self.writer.write(data)

    async def read(self, timeout: float = 5.0) -> tuple[int, int, bytes]:
        """The next packet."""
        async with asyncio.timeout(timeout):
            return await p.read_packet(self.reader, 1 << 28)

    async def closed_within(self, timeout: float) -> bool:
        """Whether the broker closes the connection within ``timeout`` seconds (skipping packets)."""
        try:
            async with asyncio.timeout(timeout):
                while await self.reader.read(65536):
                    pass
                return True
        except TimeoutError:
            return False
        except ConnectionError:
            return True

    def drop(self) -> None:
        """Vanish without DISCONNECT (a gateway losing power)."""
        self.writer.transport.abort()

    async def close(self) -> None:
        """Disconnect politely."""
        with contextlib.suppress(Exception):
            self.send(p.packet(p.DISCONNECT, 0, b""))
            self.writer.close()
            await self.writer.wait_closed()
