"""The platform's MQTT client: subscribes to every gateway, hands messages on, publishes commands."""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import unquote, urlsplit

import aiomqtt

from powerportal.core.tasks import cancelling
from powerportal.mqtt.codec import TOPIC_ROOT

log = logging.getLogger("powerportal.mqtt")

Handler = Callable[[str, bytes], Awaitable[object]]


class Link(Protocol):
    """Where the platform publishes commands: the embedded broker, or a client of an external one."""

    connected: asyncio.Event

    async def publish(self, topic: str, payload: bytes, *, qos: int = 1, timeout: float = 5.0) -> None:
        """Publish to a gateway."""
        ...


RECONNECT_MAX_SECONDS = 10.0


@dataclass(frozen=True)
class BrokerAddress:
    """Where a broker is and how to log in to it."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> BrokerAddress:
        """Read ``mqtt://user:pass@host:port``."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "tcp") or not parts.hostname:
            raise ValueError(f"MQTT URL must look like mqtt://user:pass@host:1883, not {url!r}")
        return cls(
            host=parts.hostname,
            port=parts.port or 1883,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


def subscription(shared_group: str) -> str:
    """The filter an ingest worker subscribes to (shared between workers when a group is set)."""
    plain = f"{TOPIC_ROOT}/+/#"
    return f"$share/{shared_group}/{plain}" if shared_group else plain


def no_delay(client: aiomqtt.Client) -> None:
    """Send small messages at once: without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms per round trip."""
    paho = getattr(client, "_client", None)
    sock = paho.socket() if paho is not None else None
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class PlatformLink:
    """One platform connection that reconnects forever: receive up-link messages, publish down-link ones."""

    def __init__(
        self, address: BrokerAddress, *, subscribe: str | None, client_id: str | None = None, qos: int = 1
    ) -> None:
        self.address = address
        self.subscribe = subscribe
        self.qos = qos
        self.client_id = client_id or f"powerportal-{secrets.token_hex(4)}"
        self.connected = asyncio.Event()
        self.connects = 0
        self._client: aiomqtt.Client | None = None

    async def run(self, handler: Handler) -> None:
        """Connect, subscribe and pass every message to ``handler``; on loss, wait and connect again."""
        delay = 0.5
        while True:
            try:
                async with aiomqtt.Client(
                    self.address.host,
                    self.address.port,
                    username=self.address.username,
                    password=self.address.password,
                    identifier=self.client_id,
                    keepalive=30,
                    max_queued_outgoing_messages=10_000,
                    max_inflight_messages=1_000,
                ) as client:
                    no_delay(client)
                    if self.subscribe:
                        await client.subscribe(self.subscribe, qos=self.qos)
                    self._client = client
                    self.connects += 1
                    self.connected.set()
                    delay = 0.5
                    log.info("connected to %s as %s", self.address, self.client_id)
                    async for message in client.messages:
                        payload = message.payload
                        if not isinstance(payload, bytes | bytearray):
                            payload = str(payload).encode() if payload is not None else b""
                        try:
                            await handler(message.topic.value, bytes(payload))
                        except Exception:
                            log.exception("handler failed on %s", message.topic.value)
            except aiomqtt.MqttError as exc:
                if cancelling():  # the client may report the stop as a lost connection
                    raise asyncio.CancelledError from exc
                log.warning(
                    "MQTT connection to %s lost (%s); reconnecting in %.1fs", self.address, exc, delay
                )
            finally:
                self._client = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def publish(self, topic: str, payload: bytes, *, qos: int = 1, timeout: float = 5.0) -> None:
        """Publish, waiting for the connection up to ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            await self.connected.wait()
            client = self._client
            if client is None:
                raise aiomqtt.MqttError("not connected")
            await client.publish(topic, payload, qos=qos)
