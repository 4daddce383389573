"""The embedded MQTT broker: gateways log in with serial and secret, each kept to its own topics.

It speaks MQTT 3.1, 3.1.1 and 5.0 to gateways and hands what they publish straight to the platform
(``Sink``), tagged with the registration that logged in, and delivers the platform's commands to them.
Written for this one job rather than configured from a general broker, so that every rule of the edge
holds by construction: the login is checked before any session is touched, a client id belongs to one
gateway, wills pass the ACL at CONNECT, ``$`` topics end the connection, only status is retained, a
packet's size is checked before its body is read, and a revoked registration loses its sessions at
once. ``docs/gateway-protocol.md`` states the rules for gateway makers; ``docs/decisions.md`` why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from powerportal.core.ratelimit import TokenBucket
from powerportal.core.ratelog import LogBudget
from powerportal.core.tasks import stop_tasks
from powerportal.mqtt import packets as p
from powerportal.mqtt import thingsboard
from powerportal.mqtt.acks import OrderedAcks
from powerportal.mqtt.auth import (
    DELETED,
    Authority,
    GatewayRef,
    client_id_allowed,
    matches,
    may_publish,
    may_subscribe,
    new_client_id,
    retainable,
)
from powerportal.mqtt.codec import SN_PATTERN, TOPIC_ROOT

log = logging.getLogger("powerportal.mqtt.broker")
budget = LogBudget(log)

PORT_ATTEMPTS = 20
# Bytes a client may leave unread before it counts as a slow consumer and is disconnected.
WRITE_BUFFER_LIMIT = 4 * 1024 * 1024
WATCHDOG_SECONDS = 0.5
# Addresses whose slow logins are counted at most; past it the counts start again.
ADDRESS_LIMIT = 10_000

# What a gateway's owner reads in its 接入日志 when a connection was refused.
CONNECT_REFUSALS = {
    "refused_login": "来自 {ip} 的登录被拒：密钥错误、已重置或网关未注册",
    "refused_connect_rate": "来自 {ip} 的连接过于频繁，已拒绝",
    "refused_client_id": "来自 {ip} 的连接使用了不属于本网关的客户端标识 {client_id}",
    "refused_will": "来自 {ip} 的连接把遗嘱设在 {topic}，不是本网关的上行主题",
    "refused_connection_limit": "来自 {ip} 的连接超出本网关的连接数上限",
}

# What the platform does with a gateway's publish; a returned future settles when it is stored, and
# only then does the gateway get its acknowledgement.
Sink = Callable[[GatewayRef, str, bytes], Awaitable["asyncio.Future[None] | None"]]


@dataclass(frozen=True)
class BrokerLimits:
    """The broker's limits (``POWERPORTAL_MQTT_*`` settings; docs/gateway-protocol.md)."""

    max_message_bytes: int = 256 * 1024
    # Commands sent to a session and not yet acknowledged, and queued behind them.
    max_inflight: int = 20
    max_queued: int = 1000
    # A gateway's publishes awaiting storage before the broker stops reading that connection.
    max_unacknowledged: int = 100
    connections_per_gateway: int = 4
    subscriptions_per_session: int = 32
    # A persistent session (clean session off) is kept this long after its connection ends.
    session_expiry_seconds: int = 24 * 3600
    connect_timeout_seconds: float = 10.0
    # Connections not logged in yet, from one address and in all: beyond them a new connection is closed
    # at once. Each holds a file descriptor until its login or the connect timeout, and the API, the
    # database and the broker share the process's descriptors.
    logins_waiting_per_address: int = 64
    logins_waiting: int = 1024
    # What one gateway (all its connections together) may send; beyond it the broker reads it slower.
    messages_per_second: float = 200.0
    bytes_per_second: float = 2 * 1024 * 1024
    connects_per_minute: float = 60.0
    # Logins from one address that need the slow check (database and argon2): a burst, then this many a
    # second; a success gives its one back. A flood of wrong secrets from one address is refused at once
    # rather than queued for argon2 ahead of every other gateway's login (which then timed out unanswered).
    slow_logins_per_second: float = 1.0
    slow_logins_burst: float = 20.0

    @property
    def max_packet_bytes(self) -> int:
        """The largest packet read: the message plus room for its topic and properties."""
        return self.max_message_bytes + 1024


@dataclass
class BrokerStats:
    """What the broker refused and why, for operators (IngestStats) and the benchmark."""

    connections: int = 0
    connected: int = 0
    refused_login: int = 0
    refused_client_id: int = 0
    refused_will: int = 0
    refused_version: int = 0
    refused_connection_limit: int = 0
    oversize: int = 0
    malformed: int = 0
    dollar_topic: int = 0
    acl_denied: int = 0
    retain_refused: int = 0
    queue_dropped: int = 0
    slow_consumer: int = 0
    keep_alive_expired: int = 0
    taken_over: int = 0
    revoked: int = 0
    wills_published: int = 0
    wills_suppressed: int = 0
    messages_in: int = 0
    # Times a gateway sent faster than its budget and its connection was read slower; refused logins.
    throttled: int = 0
    refused_connect_rate: int = 0
    # Connections closed at once: too many from their address (or in all) had not logged in yet.
    refused_waiting: int = 0

    def as_dict(self) -> dict[str, int]:
        """Plain counters."""
        return asdict(self)


@dataclass
class Session:
    """A client id's subscriptions and undelivered commands; outlives its connection when persistent."""

    client_id: str
    ref: GatewayRef
    subscriptions: dict[str, int] = field(default_factory=dict)
    inflight: dict[int, tuple[str, bytes]] = field(default_factory=dict)
    queue: deque[tuple[str, bytes, int]] = field(default_factory=deque)
    persistent: bool = False
    expires_at: float = 0.0
    connection: Connection | None = None
    _next_id: int = 0

    def packet_id(self) -> int:
        """The next packet id not in flight."""
        for _ in range(65535):
            self._next_id = self._next_id % 65535 + 1
            if self._next_id not in self.inflight:
                return self._next_id
        raise RuntimeError("no free packet id")

    def granted(self, topic: str) -> int | None:
        """The highest QoS of the subscriptions matching a topic (None: none matches)."""
        best = None
        for topic_filter, qos in self.subscriptions.items():
            if matches(topic_filter, topic) and (best is None or qos > best):
                best = qos
        return best


class GatewayBudget:
    """Token buckets of one gateway: packets and bytes a second, connections a minute."""

    __slots__ = ("bytes", "connects", "packets")

    def __init__(self, limits: BrokerLimits) -> None:
        self.packets = TokenBucket(limits.messages_per_second, limits.messages_per_second * 10)
        self.bytes = TokenBucket(limits.bytes_per_second, limits.bytes_per_second * 8)
        self.connects = TokenBucket(
            limits.connects_per_minute / 60, max(10.0, limits.connects_per_minute / 6)
        )


class EmbeddedBroker:
    """An in-process broker on the first free port from the one asked for (and TLS on another)."""

    def __init__(
        self,
        *,
        authority: Authority,
        host: str = "127.0.0.1",
        port: int = 1883,
        limits: BrokerLimits | None = None,
        tls: ssl.SSLContext | None = None,
        tls_port: int = 0,
    ) -> None:
        self.authority = authority
        self.host = host
        self.requested_port = port
        self.port = port
        self.tls = tls
        self.tls_port = tls_port
        self.limits = limits or BrokerLimits()
        self.stats = BrokerStats()
        self.sink: Sink | None = None
        # Told of each refusal a gateway caused: (serial number as claimed, reason, detail).
        self.on_refusal: Callable[[str, str, str], None] | None = None
        self.connected = asyncio.Event()
        self.stopping = False
        self.reading = asyncio.Event()  # cleared: no connection is read (the server is stopping)
        self.reading.set()
        self._servers: list[asyncio.Server] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._connections: set[Connection] = set()
        # serial number → client id → session (a client id always starts with its gateway's number)
        self._sessions: dict[str, dict[str, Session]] = {}
        # gateway sysno → its retained status (topic, payload, QoS)
        self._retained: dict[int, tuple[str, bytes, int]] = {}
        self._budgets: dict[int, GatewayBudget] = {}
        self._slow_logins: dict[str, TokenBucket] = {}
        # Connections not logged in yet, by address, and their total.
        self._waiting: dict[str, int] = {}
        self._waiting_total = 0

    def refused(self, sn: str | None, reason: str, detail: str = "") -> None:
        """Count a refusal (and tell whoever keeps them per gateway)."""
        setattr(self.stats, reason, getattr(self.stats, reason) + 1)
        if sn and self.on_refusal is not None:
            self.on_refusal(sn, reason, detail)

    def budget(self, ref: GatewayRef) -> GatewayBudget:
        """What a gateway may still send and how often it may connect (shared by its connections)."""
        found = self._budgets.get(ref.sysno)
        if found is None:
            found = self._budgets[ref.sysno] = GatewayBudget(self.limits)
        return found

    def slow_logins(self, ip: str) -> TokenBucket:
        """What slow login checks an address may still ask for."""
        found = self._slow_logins.get(ip)
        if found is None:
            if len(self._slow_logins) >= ADDRESS_LIMIT:
                self._slow_logins.clear()  # made-up addresses must not grow memory forever
            found = self._slow_logins[ip] = TokenBucket(
                self.limits.slow_logins_per_second, self.limits.slow_logins_burst
            )
        return found

    # -- life ----------------------------------------------------------------------------------------

    async def start(self) -> int:
        """Listen, moving to the next port while one is taken; return the port used."""
        self.stopping = False
        self.reading.set()
        for port in range(self.requested_port, self.requested_port + PORT_ATTEMPTS):
            try:
                server = await asyncio.start_server(self._serve, self.host, port, reuse_address=True)
            except OSError as exc:
                log.warning("MQTT port %s:%d is taken (%s); trying %d", self.host, port, exc, port + 1)
                continue
            self._servers.append(server)
            self.port = port
            break
        else:
            raise OSError(
                f"no free MQTT port in {self.requested_port}-{self.requested_port + PORT_ATTEMPTS - 1}"
            )
        if self.tls is not None:
            server = await asyncio.start_server(
                self._serve, self.host, self.tls_port, ssl=self.tls, reuse_address=True
            )
            self._servers.append(server)
            self.tls_port = server.sockets[0].getsockname()[1]
            log.info("embedded MQTT broker serving TLS on %s:%d", self.host, self.tls_port)
        for server in self._servers:
            for sock in server.sockets:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        self._tasks.append(asyncio.create_task(self._watchdog(), name="mqtt-broker-watchdog"))
        self.connected.set()
        log.info("embedded MQTT broker listening on %s:%d", self.host, self.port)
        return self.port

    def pause(self) -> None:
        """Read nothing more from any client (what was read is still stored and acknowledged)."""
        self.reading.clear()
        for server in self._servers:
            server.close()

    async def stop(self) -> None:
        """Close the listeners and every connection (no wills: the platform is going, not the gateways)."""
        self.stopping = True
        self.connected.clear()
        await stop_tasks(self._tasks)
        for server in self._servers:
            server.close()
        for connection in list(self._connections):
            connection.close()
        self.reading.set()  # paused readers wake, find their connection closing and end
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)
        self._servers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(self, reader, writer)
        self.stats.connections += 1
        if not self._wait_for_login(connection):
            await connection.finish()
            return
        self._connections.add(connection)
        try:
            await connection.run()
        finally:
            self._connections.discard(connection)
            self.logged_in(connection)
            await connection.finish()

    def _wait_for_login(self, connection: Connection) -> bool:
        """Count a new connection among those waiting to log in, unless too many already wait."""
        limits, ip = self.limits, connection.ip
        if (
            self._waiting_total >= limits.logins_waiting
            or self._waiting.get(ip, 0) >= limits.logins_waiting_per_address
        ):
            self.refused(None, "refused_waiting")
            budget.warning(
                "refused_waiting", "MQTT %s: too many connections waiting to log in", connection.peer
            )
            return False
        self._waiting[ip] = self._waiting.get(ip, 0) + 1
        self._waiting_total += 1
        connection.waiting = True
        return True

    def logged_in(self, connection: Connection) -> None:
        """The connection no longer waits to log in (it did, or it ended)."""
        if not connection.waiting:
            return
        connection.waiting = False
        self._waiting_total -= 1
        left = self._waiting[connection.ip] - 1
        if left:
            self._waiting[connection.ip] = left
        else:
            del self._waiting[connection.ip]

    async def _watchdog(self) -> None:
        """End connections that never logged in or fell silent past their keep-alive; expire sessions."""
        while True:
            await asyncio.sleep(WATCHDOG_SECONDS)
            now = time.monotonic()
            for connection in list(self._connections):
                if connection.session is None:
                    if now - connection.opened > self.limits.connect_timeout_seconds:
                        connection.close()
                elif connection.keep_alive and now - connection.last_heard > connection.keep_alive * 1.5:
                    self.stats.keep_alive_expired += 1
                    connection.close(p.KEEP_ALIVE_5)
            for sessions in list(self._sessions.values()):
                for session in list(sessions.values()):
                    if session.connection is None and session.expires_at <= now:
                        self._drop(session)

    # -- sessions ------------------------------------------------------------------------------------

    def live(self, ref: GatewayRef) -> list[Connection]:
        """The open connections of this gateway registration."""
        sessions = self._sessions.get(ref.sn, {})
        return [
            s.connection for s in sessions.values() if s.connection is not None and s.ref.sysno == ref.sysno
        ]

    def attach(
        self, connection: Connection, client_id: str, ref: GatewayRef, *, clean: bool, persistent: bool
    ) -> tuple[Session, bool]:
        """Bind a logged-in connection to its session, taking it over from an older connection."""
        sessions = self._sessions.setdefault(ref.sn, {})
        session = sessions.get(client_id)
        if session is not None and session.connection is not None:
            self.stats.taken_over += 1
            session.connection.close(p.TAKEN_OVER_5, taken_over=True)
            session.connection = None
        present = session is not None and not clean and session.ref == ref
        if session is None or not present:
            if session is not None:
                self._drop(session)
            session = Session(client_id=client_id, ref=ref)
            sessions[client_id] = session
            if persistent:
                self._trim(ref, keep=session)
        session.connection = connection
        session.persistent = persistent
        return session, present

    def _trim(self, ref: GatewayRef, *, keep: Session) -> None:
        """A gateway keeps no more stored sessions than it may have connections."""
        stored = [
            s for s in self._sessions.get(ref.sn, {}).values() if s is not keep and s.connection is None
        ]
        for session in stored[: max(0, len(stored) + 1 - self.limits.connections_per_gateway)]:
            self._drop(session)

    def detach(self, session: Session, connection: Connection, *, forget: bool) -> None:
        """A connection ended: keep its session if persistent, else drop it."""
        if session.connection is not connection:
            return
        session.connection = None
        if forget or not session.persistent:
            self._drop(session)
        else:
            session.expires_at = time.monotonic() + connection.session_expiry

    def _drop(self, session: Session) -> None:
        sessions = self._sessions.get(session.ref.sn)
        if sessions is not None and sessions.get(session.client_id) is session:
            del sessions[session.client_id]
            if not sessions:
                del self._sessions[session.ref.sn]

    def revoke(self, sysno: int, valid_from: int = DELETED) -> int:
        """End every session of a gateway's registrations older than ``valid_from``; returns how many."""
        self.authority.revoke(sysno, valid_from)
        ended = 0
        for sessions in list(self._sessions.values()):
            for session in list(sessions.values()):
                if session.ref.sysno == sysno and session.ref.generation < valid_from:
                    ended += 1
                    if session.connection is not None:
                        session.connection.close(p.ADMIN_ACTION_5, revoked=True)
                    self._drop(session)
        if valid_from == DELETED:
            self._retained.pop(sysno, None)
        if ended:
            self.stats.revoked += ended
            log.info("gateway %d: credentials changed, %d session(s) ended", sysno, ended)
        return ended

    # -- messages ------------------------------------------------------------------------------------

    async def from_gateway(
        self, ref: GatewayRef, topic: str, payload: bytes, qos: int, retain: bool
    ) -> asyncio.Future[None] | None:
        """A gateway's publish (ACL passed): keep it if retained, echo to its subscribers, hand it on."""
        self.stats.messages_in += 1
        if topic.startswith(_THINGSBOARD):
            # ThingsBoard gateways send and receive on the same topics: no echo (ThingsBoard sends none).
            return await self.sink(ref, topic, payload) if self.sink is not None else None
        if retain:
            if payload:
                self._retained[ref.sysno] = (topic, payload, qos)
            else:
                self._retained.pop(ref.sysno, None)
        self._route(ref.sn, topic, payload, qos)
        if self.sink is None:
            return None
        return await self.sink(ref, topic, payload)

    async def publish(self, topic: str, payload: bytes, *, qos: int = 1, timeout: float = 5.0) -> None:
        """The platform publishes (a command to a gateway); the transport's interface."""
        root, _, rest = topic.partition("/")
        sn = rest.partition("/")[0]
        if root in (TOPIC_ROOT, thingsboard.ROOT) and sn:
            self._route(sn, topic, payload, qos)

    def _route(self, sn: str, topic: str, payload: bytes, qos: int) -> None:
        for session in list(self._sessions.get(sn, {}).values()):
            granted = session.granted(topic)
            if granted is not None and self.authority.current(session.ref):
                self.deliver(session, topic, payload, min(qos, granted))

    def deliver(
        self, session: Session, topic: str, payload: bytes, qos: int, *, retain: bool = False
    ) -> None:
        """Send to the session now, or queue it (QoS 1) while its window is full or it is away."""
        connection = session.connection
        if qos == 0:
            if connection is not None:
                connection.send_publish(topic, payload, 0, None, retain=retain)
            return
        if connection is not None and len(session.inflight) < connection.send_window and not session.queue:
            packet_id = session.packet_id()
            session.inflight[packet_id] = (topic, payload)
            connection.send_publish(topic, payload, 1, packet_id, retain=retain)
            return
        if len(session.queue) >= self.limits.max_queued:
            session.queue.popleft()
            self.stats.queue_dropped += 1
            budget.warning("queue", "MQTT queue of %s full: oldest message dropped", session.client_id)
        session.queue.append((topic, payload, qos))

    def pump(self, session: Session) -> None:
        """Send queued messages while the session's window has room."""
        connection = session.connection
        while connection is not None and session.queue and len(session.inflight) < connection.send_window:
            topic, payload, _qos = session.queue.popleft()
            packet_id = session.packet_id()
            session.inflight[packet_id] = (topic, payload)
            connection.send_publish(topic, payload, 1, packet_id, retain=False)

    def retained_for(self, session: Session, topic_filter: str) -> tuple[str, bytes, int] | None:
        """The gateway's retained status, if this new subscription matches it."""
        held = self._retained.get(session.ref.sysno)
        return held if held is not None and matches(topic_filter, held[0]) else None


class Connection:
    """One client's network connection: its login, then its packets in order."""

    def __init__(
        self, broker: EmbeddedBroker, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.broker = broker
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.peer = str(peer or "?")
        self.ip = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.opened = self.last_heard = time.monotonic()
        self.waiting = False  # counted among the connections waiting to log in
        self.version = p.MQTT_311
        self.keep_alive = 0
        self.session: Session | None = None
        self.ref: GatewayRef | None = None
        self.will: p.Will | None = None
        self.send_window = broker.limits.max_inflight
        self.session_expiry = 0
        self.closing = False
        self._publish_will = True
        self._forget_session = False
        # Acknowledgements owed to the client (packet id, packet type, reason), in the order they came.
        self._acks: OrderedAcks[tuple[int, int, int]] = OrderedAcks(self._acknowledge, self._not_stored)
        self._awaiting_release: set[int] = set()
        sock = writer.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    # -- reading -------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve this connection until it ends."""
        limits = self.broker.limits
        try:
            _kind, _flags, body = await p.read_packet(self.reader, limits.max_packet_bytes, only=p.CONNECT)
            if not await self._connect(body):
                return
            budget_of = self.broker.budget(self.ref) if self.ref else None
            while not self.closing and budget_of is not None:
                if not self.broker.reading.is_set():
                    await self.broker.reading.wait()
                kind, flags, body = await p.read_packet(self.reader, limits.max_packet_bytes)
                if self.closing:
                    return
                self.last_heard = time.monotonic()
                # Over its budget, the gateway is read slower (TCP pushes back); nothing it sent is lost.
                wait = max(budget_of.packets.take(), budget_of.bytes.take(len(body)))
                if wait > 0:
                    self.broker.refused(self._who(), "throttled")
                    budget.warning("throttled", "MQTT gateway %s sends too fast: slowed down", self._who())
                    await asyncio.sleep(wait)
                await self._handle(kind, flags, body)
        except p.PacketTooLarge as exc:
            self.broker.refused(self.ref.sn if self.ref else None, "oversize", str(exc))
            budget.warning("oversize", "MQTT %s (%s): %s refused", self._who(), self.peer, exc)
            self.close(p.PACKET_TOO_LARGE_5)
        except p.MalformedPacket as exc:
            self.broker.refused(self.ref.sn if self.ref else None, "malformed", str(exc))
            budget.warning("malformed", "MQTT %s (%s): malformed packet: %s", self._who(), self.peer, exc)
            self.close(p.MALFORMED_5)
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError, ssl.SSLError):
            pass

    def _who(self) -> str:
        return self.ref.sn if self.ref else "-"

    async def _connect(self, body: bytes) -> bool:
        """Check the login, client id, will and limits before any session is touched."""
        broker, stats = self.broker, self.broker.stats
        try:
            connect = p.decode_connect(body)
        except p.UnsupportedVersion as exc:
            stats.refused_version += 1
            budget.warning("version", "MQTT client %s speaks %s: refused", self.peer, exc)
            self._write(p.connack(p.MQTT_311, p.CONNACK_311["version"]))
            self.close()
            return False
        self.version = connect.version
        v5 = connect.version == p.MQTT_5

        def refuse(code: str, counter: str, message: str, *args: object, **fields: str) -> bool:
            claimed = connect.username if connect.username and SN_PATTERN.match(connect.username) else None
            detail = CONNECT_REFUSALS[counter].format_map(defaultdict(str, ip=self.ip, **fields))
            broker.refused(claimed, counter, detail)
            budget.warning(counter, "MQTT " + message, *args)
            table = p.CONNACK_5 if v5 else p.CONNACK_311
            self._write(p.connack(self.version, table.get(code, table["not_authorised"])))
            self.close()
            return False

        if v5 and p.AUTH_METHOD in connect.properties:
            return refuse("auth_method", "refused_login", "%s: enhanced authentication refused", self.peer)
        ref = broker.authority.cached(connect.username, connect.password)
        if ref is None:
            slow = broker.slow_logins(self.ip)
            if slow.take() > 0:
                slow.tokens += 1  # refused: no debt, so that the address gets its turn again
                return refuse(
                    "quota" if v5 else "unavailable", "refused_connect_rate",
                    "%s: too many logins to check: refused", self.peer,
                )  # fmt: skip
            ref = await broker.authority.authenticate(connect.username, connect.password)
            if ref is not None:
                slow.tokens = min(slow.burst, slow.tokens + 1)
        if ref is None:
            return refuse(
                "not_authorised", "refused_login", "login refused for %r from %s",
                (connect.username or "")[:64], self.peer,
            )  # fmt: skip
        if broker.budget(ref).connects.take() > 0:
            return refuse(
                "quota" if v5 else "unavailable",
                "refused_connect_rate",
                "gateway %s reconnects too often",
                ref.sn,
            )
        client_id, assigned = connect.client_id, False
        if not client_id:
            if not connect.clean_start and not v5:
                return refuse("client_id", "refused_client_id", "%s: empty client id with a session", ref.sn)
            client_id, assigned = new_client_id(ref.sn), True
        elif not client_id_allowed(ref.sn, client_id):
            return refuse(
                "not_authorised", "refused_client_id", "gateway %s (%s) presented client id %r: refused",
                ref.sn, self.peer, client_id[:130], client_id=client_id[:64],
            )  # fmt: skip
        will = connect.will
        if will is not None and (not may_publish(ref.sn, will.topic) or will.qos > 2):
            return refuse(
                "not_authorised",
                "refused_will",
                "gateway %s: last will on %r refused",
                ref.sn,
                will.topic[:200],
                topic=will.topic[:120],
            )
        others = [c for c in broker.live(ref) if c.session is not None and c.session.client_id != client_id]
        if len(others) >= broker.limits.connections_per_gateway:
            return refuse(
                "quota" if v5 else "unavailable", "refused_connection_limit",
                "gateway %s: more than %d connections refused", ref.sn, broker.limits.connections_per_gateway,
            )  # fmt: skip
        if not broker.authority.current(ref):  # revoked while it logged in
            return refuse("not_authorised", "refused_login", "gateway %s: credentials changed", ref.sn)
        if v5:
            expiry = int(connect.properties.get(p.SESSION_EXPIRY, 0))
            self.send_window = max(
                1, min(self.send_window, int(connect.properties.get(p.RECEIVE_MAXIMUM, 65535)))
            )
        else:
            expiry = 0 if connect.clean_start else broker.limits.session_expiry_seconds
        self.session_expiry = min(expiry, broker.limits.session_expiry_seconds)
        self.ref, self.will, self.keep_alive = ref, will, connect.keep_alive
        session, present = broker.attach(
            self, client_id, ref, clean=connect.clean_start, persistent=self.session_expiry > 0
        )
        self.session = session
        broker.logged_in(self)
        props: dict[int, Any] = {}
        if v5:
            props = {
                p.RECEIVE_MAXIMUM: broker.limits.max_unacknowledged,
                p.MAXIMUM_PACKET_SIZE: broker.limits.max_packet_bytes,
                p.WILDCARD_AVAILABLE: 1,
                p.SUBSCRIPTION_IDS_AVAILABLE: 0,
                p.SHARED_AVAILABLE: 0,
            }
            if assigned:
                props[p.ASSIGNED_CLIENT_ID] = client_id
        self._write(p.connack(self.version, 0, session_present=present, props=props))
        stats.connected += 1
        for packet_id, (topic, payload) in list(session.inflight.items()):
            self.send_publish(topic, payload, 1, packet_id, retain=False, dup=True)
        broker.pump(session)
        return True

    async def _handle(self, kind: int, flags: int, body: bytes) -> None:
        session, ref = self.session, self.ref
        if session is None or ref is None:
            raise p.MalformedPacket("packet before CONNECT")
        if kind == p.PUBLISH:
            await self._publish(ref, p.decode_publish(flags, body, self.version))
        elif kind == p.PUBACK:
            session.inflight.pop(p.Reader(body).u16(), None)
            self.broker.pump(session)
        elif kind == p.PUBREL:
            packet_id = p.Reader(body).u16()
            self._awaiting_release.discard(packet_id)
            self._write(p.ack(p.PUBCOMP, packet_id, self.version))
        elif kind in (p.PUBREC, p.PUBCOMP):
            session.inflight.pop(p.Reader(body).u16(), None)  # the broker grants QoS 1 at most
            self.broker.pump(session)
        elif kind == p.SUBSCRIBE:
            self._subscribe(ref, session, *p.decode_subscribe(body, self.version))
        elif kind == p.UNSUBSCRIBE:
            packet_id, filters = p.decode_unsubscribe(body, self.version)
            filters = [_mounted(ref.sn, f) for f in filters]
            codes = [
                0 if session.subscriptions.pop(f, None) is not None else p.NO_SUBSCRIPTION_5 for f in filters
            ]
            self._write(p.unsuback(packet_id, codes, self.version))
        elif kind == p.PINGREQ:
            self._write(p.PINGRESP_PACKET)
        elif kind == p.DISCONNECT:
            reason = p.decode_disconnect(body, self.version)
            if reason != p.DISCONNECT_WITH_WILL_5:
                self.will = None
            self.closing = True
        else:  # CONNECT twice, AUTH, or a packet only a server sends
            raise p.MalformedPacket(f"unexpected packet type {kind}")

    async def _publish(self, ref: GatewayRef, publish: p.Publish) -> None:
        broker = self.broker
        topic = publish.topic
        if topic.startswith("$"):
            broker.refused(ref.sn, "dollar_topic", topic[:200])
            budget.warning("dollar", "MQTT gateway %s published to %r: disconnected", ref.sn, topic[:200])
            self._forget_session = True
            self.close(p.TOPIC_INVALID_5)
            return
        if "+" in topic or "#" in topic or not topic:
            raise p.MalformedPacket("wildcard in a topic name")
        if p.TOPIC_ALIAS in publish.properties:
            raise p.MalformedPacket("topic alias (the broker allows none)")
        if topic.startswith(thingsboard.API_ROOT):  # a ThingsBoard gateway's: under its mount point
            topic = thingsboard.mount(ref.sn, topic)
        if publish.qos == 2 and publish.packet_id in self._awaiting_release:
            self._write(p.ack(p.PUBREC, publish.packet_id, self.version))  # a resent QoS 2 message
            return
        if not may_publish(ref.sn, topic):
            broker.refused(ref.sn, "acl_denied", topic[:200])
            budget.warning("acl", "MQTT gateway %s may not publish to %r: dropped", ref.sn, topic[:200])
            self._owe(publish, None, p.NOT_AUTHORISED_5)
            return
        retain = publish.retain
        if retain and not retainable(ref.sn, topic):
            broker.refused(ref.sn, "retain_refused", topic[:200])
            budget.warning("retain", "MQTT gateway %s: retained message on %r not kept", ref.sn, topic[:200])
            retain = False
        if len(self._acks) >= broker.limits.max_unacknowledged:
            head = self._acks.oldest()
            if head is not None:  # back-pressure: read no more until the oldest is stored
                with contextlib.suppress(Exception):
                    await asyncio.shield(head)
        stored = await broker.from_gateway(ref, topic, publish.payload, publish.qos, retain)
        self._owe(publish, stored, 0)

    def _owe(self, publish: p.Publish, stored: asyncio.Future[None] | None, code: int) -> None:
        if publish.qos == 0 or publish.packet_id is None:
            return
        if publish.qos == 2:
            self._awaiting_release.add(publish.packet_id)
        self._acks.push((publish.packet_id, p.PUBACK if publish.qos == 1 else p.PUBREC, code), stored)

    def _acknowledge(self, owed: tuple[int, int, int]) -> None:
        if not self.closing:
            packet_id, kind, code = owed
            self._write(p.ack(kind, packet_id, self.version, code))

    def _not_stored(self) -> None:
        """A publish could not be stored: close unacknowledged, so that the gateway sends it again."""
        self._publish_will = False
        self.close(p.ADMIN_ACTION_5)

    def _subscribe(
        self, ref: GatewayRef, session: Session, packet_id: int, filters: list[tuple[str, int]]
    ) -> None:
        broker = self.broker
        v5 = self.version == p.MQTT_5
        codes: list[int] = []
        granted: list[str] = []
        for asked, qos in filters:
            topic_filter = _mounted(ref.sn, asked)
            if topic_filter.startswith("$share/"):
                codes.append(p.SHARED_UNSUPPORTED_5 if v5 else p.SUBACK_FAILURE_311)
            elif not may_subscribe(ref.sn, topic_filter):
                broker.refused(ref.sn, "acl_denied", topic_filter[:200])
                budget.warning("acl", "MQTT gateway %s may not subscribe to %r", ref.sn, topic_filter[:200])
                codes.append(p.NOT_AUTHORISED_5 if v5 else p.SUBACK_FAILURE_311)
            elif (
                topic_filter not in session.subscriptions
                and len(session.subscriptions) >= broker.limits.subscriptions_per_session
            ):
                codes.append(p.QUOTA_5 if v5 else p.SUBACK_FAILURE_311)
            else:
                session.subscriptions[topic_filter] = min(qos, 1)
                codes.append(min(qos, 1))
                granted.append(topic_filter)
        self._write(p.suback(packet_id, codes, self.version))
        for topic_filter in granted:
            held = broker.retained_for(session, topic_filter)
            if held is not None:
                topic, payload, qos = held
                broker.deliver(
                    session, topic, payload, min(qos, session.subscriptions[topic_filter]), retain=True
                )

    # -- writing and ending --------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if self.writer.is_closing():
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self.broker.stats.slow_consumer += 1
            budget.warning("slow", "MQTT %s reads too slowly: disconnected", self._who())
            self.writer.transport.abort()
            self.closing = True

    def send_publish(
        self, topic: str, payload: bytes, qos: int, packet_id: int | None, *, retain: bool, dup: bool = False
    ) -> None:
        """Write a PUBLISH to this client (a ThingsBoard gateway sees its topics without the mount point)."""
        if self.ref is not None and topic.startswith(_THINGSBOARD):
            topic = thingsboard.unmount(self.ref.sn, topic)
        self._write(
            p.publish(
                topic, payload, qos=qos, retain=retain, packet_id=packet_id, version=self.version, dup=dup
            )
        )

    def close(self, reason: int | None = None, *, taken_over: bool = False, revoked: bool = False) -> None:
        """End the connection (with an MQTT 5 DISCONNECT giving the reason, when one is known)."""
        if revoked:
            self._publish_will = False
            self._forget_session = True
        if taken_over:
            self._publish_will = False
        if self.closing and self.writer.is_closing():
            return
        self.closing = True
        if reason is not None and self.version == p.MQTT_5 and self.session is not None:
            self._write(p.disconnect(reason))
        self.writer.close()

    async def finish(self) -> None:
        """After the connection ended: detach the session, then publish the will if it is due."""
        self.closing = True
        with contextlib.suppress(Exception):
            self.writer.close()
        session, ref, will = self.session, self.ref, self.will
        if session is None or ref is None:
            return
        self.broker.detach(session, self, forget=self._forget_session)
        if will is None or not self._publish_will or self.broker.stopping:
            return
        # Another live connection of the same gateway means the gateway is not gone: no will.
        if self.broker.live(ref) or not self.broker.authority.current(ref):
            self.broker.stats.wills_suppressed += 1
            return
        self.broker.stats.wills_published += 1
        try:
            await self.broker.from_gateway(
                ref,
                will.topic,
                will.payload,
                min(will.qos, 1),
                will.retain and retainable(ref.sn, will.topic),
            )
        except Exception:  # a bug, never the gateway's doing: say so rather than lose the will unseen
            log.exception("MQTT gateway %s: last will not handed on", ref.sn)


_THINGSBOARD = thingsboard.ROOT + "/"


def _mounted(sn: str, topic_filter: str) -> str:
    """A ThingsBoard gateway's ``v1/…`` filter as the broker keeps it (under ``tb/{sn}/``)."""
    return (
        thingsboard.mount(sn, topic_filter) if topic_filter.startswith(thingsboard.API_ROOT) else topic_filter
    )


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    """A server TLS context from PEM files (TLS 1.2 and newer)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context
