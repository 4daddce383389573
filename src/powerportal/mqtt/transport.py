"""The platform's MQTT client: subscribes to every gateway, hands messages on, publishes commands."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from urllib.parse import unquote, urlsplit

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from powerportal.core.tasks import cancelling
from powerportal.mqtt.acks import OrderedAcks
from powerportal.mqtt.codec import TOPIC_ROOT

if TYPE_CHECKING:
    from paho.mqtt.client import SocketLike

log = logging.getLogger("powerportal.mqtt")

# Takes one message; may return a future that settles once the message is stored.
Handler = Callable[[str, bytes], Awaitable["asyncio.Future[None] | None"]]


class NotStoredError(RuntimeError):
    """A received message could not be stored: the session is dropped so that it is delivered again."""


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


@asynccontextmanager
async def connected(client: aiomqtt.Client) -> AsyncIterator[aiomqtt.Client]:
    """Connect ``client`` for the block; a connection lost meanwhile surfaces where the client is used.

    aiomqtt keeps the error of a lost connection in a future that only a call waiting on the client
    reads. A session that ends without such a call (a gateway's power cut, a stop while idle, a broker
    dropping the session right after CONNACK) would leave it to the event loop's collector, which logs
    "Future exception was never retrieved … Unexpected disconnection". The loss is read here instead:
    the caller learns of it from its next call, or from the ``MqttError`` the block ends with.
    """
    _read_loss(client)
    _watch_writes_while_open(client)
    async with client:
        _read_loss(client)  # aiomqtt replaces the future on connecting
        yield client


def _read_loss(client: aiomqtt.Client) -> None:
    lost: asyncio.Future[None] = client._disconnected  # noqa: SLF001 - aiomqtt gives no other handle
    lost.add_done_callback(_retrieve)


def _retrieve(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def _watch_writes_while_open(client: aiomqtt.Client) -> None:
    """Have the event loop watch the socket for writing only while it is still the connection's socket.

    When paho has bytes it cannot send at once, aiomqtt asks the loop to watch the socket, on the
    loop's next turn (paho may call from another thread) but naming the descriptor now. A connection
    lost in between (a publish right after a power cut) closes that descriptor first: the loop then
    logs "Exception in callback add_writer … Bad file descriptor", or, were the number reused by a
    new connection, would watch that connection's socket with the old one's writer, which spins.
    The socket is looked up again when the loop gets to it, and left alone if it is gone.
    """
    paho = client._client  # noqa: SLF001 - aiomqtt gives no other handle on its socket callbacks
    loop = asyncio.get_running_loop()

    def write() -> None:
        try:
            paho.loop_write()
        except Exception as exc:  # noqa: BLE001 - any failure to write is the connection lost, as in aiomqtt
            lost: asyncio.Future[None] = client._disconnected  # noqa: SLF001
            if not lost.done():
                lost.set_exception(exc)

    def watch(sock: SocketLike) -> None:
        if paho.socket() is sock:
            loop.add_writer(sock.fileno(), write)

    def register(_paho: object, _userdata: object, sock: SocketLike) -> None:
        loop.call_soon_threadsafe(watch, sock)

    paho.on_socket_register_write = register


class PlatformLink:
    """The platform's connection to an external broker, reconnecting forever.

    It keeps one persistent MQTT 5 session under a stable client id (``POWERPORTAL_MQTT_CLIENT_ID``,
    one per ingest process) and acknowledges each message only once the handler's future says it is
    stored: whatever a crash leaves unacknowledged, the broker delivers again.
    """

    def __init__(
        self,
        address: BrokerAddress,
        *,
        subscribe: str | tuple[str, ...] | None,
        client_id: str,
        session_seconds: int = 24 * 3600,
        receive_maximum: int = 1000,
    ) -> None:
        self.address = address
        self.subscribe = subscribe
        self.client_id = client_id
        self.session_seconds = session_seconds
        self.receive_maximum = receive_maximum
        self.connected = asyncio.Event()
        self.connects = 0
        self._client: aiomqtt.Client | None = None

    async def run(self, handler: Handler) -> None:
        """Connect, subscribe and pass every message to ``handler``; on loss, wait and connect again."""
        delay = 0.5
        while True:
            try:
                await self._session(handler)
                delay = 0.5
            except (aiomqtt.MqttError, NotStoredError) as exc:
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

    async def _session(self, handler: Handler) -> None:
        connect = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        connect.SessionExpiryInterval = self.session_seconds
        connect.ReceiveMaximum = self.receive_maximum
        async with connected(
            aiomqtt.Client(
                self.address.host,
                self.address.port,
                username=self.address.username,
                password=self.address.password,
                identifier=self.client_id,
                protocol=aiomqtt.ProtocolVersion.V5,
                clean_start=False,  # resume the session: what was not acknowledged comes again
                properties=connect,
                keepalive=30,
                max_queued_outgoing_messages=10_000,
                max_inflight_messages=1_000,
            )
        ) as client:
            no_delay(client)
            paho = client._client  # noqa: SLF001  (aiomqtt exposes no acknowledgement of its own)
            paho.manual_ack_set(True)
            failed = asyncio.Event()

            def acknowledge(owed: tuple[int, int]) -> None:
                paho.ack(*owed)

            acks: OrderedAcks[tuple[int, int]] = OrderedAcks(acknowledge, failed.set)
            filters = (self.subscribe,) if isinstance(self.subscribe, str) else self.subscribe or ()
            for topic_filter in filters:
                await client.subscribe(topic_filter, qos=1)
            self._client = client
            self.connects += 1
            self.connected.set()
            log.info("connected to %s as %s", self.address, self.client_id)
            # A store can fail after the last message came: the session ends then, not at the next one.
            receiving = asyncio.ensure_future(self._receive(client, handler, acks))
            failing = asyncio.ensure_future(failed.wait())
            try:
                await asyncio.wait((receiving, failing), return_when=asyncio.FIRST_COMPLETED)
            finally:
                acks.clear()  # this session's acknowledgements die with it; the broker sends those again
                for task in (receiving, failing):
                    task.cancel()
                await asyncio.gather(receiving, failing, return_exceptions=True)
            if failed.is_set():
                raise NotStoredError("a message could not be stored; the broker sends it again")
            receiving.result()  # the connection's end, as the client reported it

    @staticmethod
    async def _receive(client: aiomqtt.Client, handler: Handler, acks: OrderedAcks[tuple[int, int]]) -> None:
        """Pass each message to ``handler`` and owe its acknowledgement until it is stored."""
        async for message in client.messages:
            payload = message.payload
            if not isinstance(payload, bytes | bytearray):
                payload = str(payload).encode() if payload is not None else b""
            try:
                stored = await handler(message.topic.value, bytes(payload))
            except Exception:
                log.exception("handler failed on %s", message.topic.value)
                stored = None
            if message.qos:
                acks.push((message.mid, message.qos), stored if isinstance(stored, asyncio.Future) else None)

    async def publish(self, topic: str, payload: bytes, *, qos: int = 1, timeout: float = 5.0) -> None:
        """Publish, waiting for the connection up to ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            await self.connected.wait()
            client = self._client
            if client is None:
                raise aiomqtt.MqttError("not connected")
            await client.publish(topic, payload, qos=qos)
