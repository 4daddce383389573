"""Starts and stops the MQTT side of a server: broker or link, ingest, silence and revocation checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import utcnow
from powerportal.gateways import broker_accounts
from powerportal.gateways import service as gateways
from powerportal.mqtt import thingsboard
from powerportal.mqtt.auth import DELETED, Authority, GatewayRef
from powerportal.mqtt.broker import BrokerLimits, EmbeddedBroker, Sink, tls_context
from powerportal.mqtt.rpc import RpcClient
from powerportal.mqtt.transport import BrokerAddress, Link, PlatformLink, subscription
from powerportal.telemetry import retention, service
from powerportal.telemetry.ingest import Ingest

log = logging.getLogger("powerportal.telemetry")

# Revocations are kept this long for processes that were away, then pruned (hourly); deletions stay.
REVOCATION_KEEP = timedelta(days=1)
PRUNE_EVERY_SECONDS = 3600.0
# On stop, how long the ingest may take to store what it has taken in.
DRAIN_SECONDS = 10.0
# How often the refusal counts noted in memory are added to the database.
RETENTION_EVERY_SECONDS = 24 * 3600
REFUSAL_FLUSH_SECONDS = 5.0


@dataclass
class TelemetryRuntime:
    """The running MQTT side of one process."""

    ctx: AppContext
    ingest: Ingest
    # Commands out: the embedded broker itself, or a client of the external one.
    link: Link
    rpc: RpcClient
    # Where gateways connect (the embedded broker's port, or the external broker).
    gateway_address: BrokerAddress
    broker: EmbeddedBroker | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def stop(self) -> None:
        """Read no more, store and acknowledge what was read, then stop the tasks and the broker."""
        if self.broker is not None:
            self.broker.pause()
        with contextlib.suppress(TimeoutError):
            await self.ingest.drain(DRAIN_SECONDS)
        await asyncio.sleep(0.05)  # let the acknowledgements of the last batch go out
        await stop_tasks(self.tasks)
        try:
            await flush_refusals(self.ctx, self.ingest)
        except Exception:
            log.warning("could not store gateway refusal counts", exc_info=True)
        if self.broker is not None:
            await self.broker.stop()


async def start(ctx: AppContext, *, connect_timeout: float = 10.0) -> TelemetryRuntime:
    """Start the embedded broker (or a link to the external one), the ingest and their watchers."""
    settings = ctx.settings
    ingest = Ingest(sessions=ctx.sessions, settings=settings)
    broker: EmbeddedBroker | None = None
    link: Link
    if settings.mqtt_url:
        address = BrokerAddress.from_url(settings.mqtt_url)
        gateway_address = BrokerAddress(host=address.host, port=address.port)
        platform = PlatformLink(
            address,
            subscribe=(
                (
                    subscription(settings.mqtt_shared_group),
                    thingsboard.subscription(settings.mqtt_shared_group),
                )
                if settings.ingest
                else None
            ),
            client_id=settings.mqtt_client_id or f"powerportal-ingest-{socket.gethostname()}"[:128],
            session_seconds=settings.mqtt_ingest_session_seconds,
        )
        link = platform
    else:
        if not settings.embedded_broker:
            raise RuntimeError("POWERPORTAL_EMBEDDED_BROKER=0 needs POWERPORTAL_MQTT_URL")
        broker = await _start_broker(ctx)
        broker.on_refusal = ingest.refusals.note
        if settings.ingest:
            broker.sink = _sink(ingest)
        local = "127.0.0.1" if settings.mqtt_bind in ("0.0.0.0", "") else settings.mqtt_bind  # noqa: S104
        gateway_address = BrokerAddress(host=local, port=broker.port)
        link = broker
    rpc = RpcClient(link.publish)
    ingest.on_rpc_response = rpc.resolve
    runtime = TelemetryRuntime(
        ctx=ctx, ingest=ingest, link=link, rpc=rpc, gateway_address=gateway_address, broker=broker
    )
    if isinstance(link, PlatformLink):

        async def handle(topic: str, payload: bytes) -> asyncio.Future[None] | None:
            return await ingest.submit(topic, payload, acknowledge=True)

        runtime.tasks.append(asyncio.create_task(link.run(handle), name="mqtt-link"))
        if settings.mosquitto_dynsec_url:
            runtime.tasks.append(
                asyncio.create_task(broker_accounts.resync_until_done(ctx), name="mosquitto-resync")
            )
    runtime.tasks.append(
        asyncio.create_task(_revocation_loop(ctx, broker, ingest), name="gateway-revocations")
    )
    runtime.tasks.append(asyncio.create_task(_refusal_loop(ctx, ingest), name="gateway-refusals"))
    if settings.ingest:
        runtime.tasks.append(asyncio.create_task(ingest.run(), name="ingest-writer"))
        runtime.tasks.append(asyncio.create_task(_silence_loop(ingest), name="ingest-silence"))
        runtime.tasks.append(asyncio.create_task(_retention_loop(ctx), name="reading-retention"))
    try:
        async with asyncio.timeout(connect_timeout):
            await link.connected.wait()
    except TimeoutError:
        log.warning("MQTT broker %s not reachable yet; the ingest keeps trying", gateway_address)
    return runtime


async def _start_broker(ctx: AppContext) -> EmbeddedBroker:
    settings = ctx.settings

    async def lookup(sn: str, secret: str) -> GatewayRef | None:
        async with ctx.sessions() as session:
            return await service.verify_gateway_secret(
                session=session, passwords=ctx.passwords, sn=sn, secret=secret
            )

    tls = None
    if settings.mqtt_tls_cert and settings.mqtt_tls_key:
        tls = tls_context(settings.mqtt_tls_cert, settings.mqtt_tls_key)
    broker = EmbeddedBroker(
        authority=Authority(lookup),
        host=settings.mqtt_bind,
        port=settings.mqtt_port,
        limits=broker_limits(settings),
        tls=tls,
        tls_port=settings.mqtt_tls_port,
    )
    await broker.start()
    return broker


def broker_limits(settings: Settings) -> BrokerLimits:
    """The embedded broker's limits, as configured."""
    return BrokerLimits(
        max_message_bytes=settings.mqtt_max_message_bytes,
        max_inflight=settings.mqtt_max_inflight,
        max_queued=settings.mqtt_max_queued,
        max_unacknowledged=settings.mqtt_max_unacknowledged,
        connections_per_gateway=settings.mqtt_connections_per_gateway,
        session_expiry_seconds=settings.mqtt_session_expiry_seconds,
        messages_per_second=settings.mqtt_gateway_messages_per_second,
        bytes_per_second=settings.mqtt_gateway_bytes_per_second,
        connects_per_minute=settings.mqtt_gateway_connects_per_minute,
        slow_logins_per_second=settings.mqtt_slow_logins_per_second,
        slow_logins_burst=settings.mqtt_slow_logins_burst,
        logins_waiting_per_address=settings.mqtt_logins_waiting_per_address,
        logins_waiting=settings.mqtt_logins_waiting,
    )


def _sink(ingest: Ingest) -> Sink:
    async def sink(ref: GatewayRef, topic: str, payload: bytes) -> asyncio.Future[None] | None:
        return await ingest.submit(topic, payload, source=ref, acknowledge=True)

    return sink


async def flush_refusals(ctx: AppContext, ingest: Ingest) -> None:
    """Add the refusals noted since the last flush to the database."""
    async with ctx.sessions() as session:
        await ingest.refusals.flush(session)
        await session.commit()


async def _refusal_loop(ctx: AppContext, ingest: Ingest) -> None:
    while True:
        await asyncio.sleep(REFUSAL_FLUSH_SECONDS)
        try:
            await flush_refusals(ctx, ingest)
        except Exception:  # the database may be away; the next flush tries again (these counts only)
            log.warning("could not store gateway refusal counts", exc_info=True)


async def _revocation_loop(ctx: AppContext, broker: EmbeddedBroker | None, ingest: Ingest) -> None:
    """Follow gateways' credential changes written by any process: end old sessions, drop caches."""
    after: int | None = None
    pruned = time.monotonic()
    while True:
        try:
            async with ctx.sessions() as session:
                after, rows = await gateways.revocations_after(session=session, after=after)
                if time.monotonic() - pruned > PRUNE_EVERY_SECONDS:
                    pruned = time.monotonic()
                    await gateways.prune_revocations(session=session, before=utcnow() - REVOCATION_KEEP)
                    await session.commit()
            for row in rows:
                if broker is not None:
                    broker.revoke(row.gateway_sysno, DELETED if row.valid_from is None else row.valid_from)
                ingest.forget_gateway(row.sn, row.gateway_sysno)
        except Exception:  # the database may be away for a while; keep following once it is back
            log.warning("could not read gateway revocations", exc_info=True)
        await asyncio.sleep(ctx.settings.revocation_poll_seconds)


async def _retention_loop(ctx: AppContext) -> None:
    """Once a day: the coming months' reading partitions, and readings past their retention gone."""
    while True:
        try:
            await retention.maintain(ctx.engine, keep_days=ctx.settings.reading_retention_days)
        except Exception:  # tried again tomorrow; inserts never depend on it (a default partition exists)
            log.warning("could not maintain the reading table", exc_info=True)
        await asyncio.sleep(RETENTION_EVERY_SECONDS)


async def _silence_loop(ingest: Ingest) -> None:
    settings = ingest.settings
    period = min(settings.gateway_offline_seconds, settings.device_offline_seconds) / 4
    period = min(max(period, 0.2), 10.0)
    while True:
        await asyncio.sleep(period)
        await ingest.check_silence()


def announce(runtime: TelemetryRuntime, path: Path | None = None) -> None:
    """Say where gateways connect; for the embedded broker, also leave it in ``Settings.broker_file``."""
    address = runtime.gateway_address
    if runtime.broker is None:
        sys.stdout.write(f"MQTT: 外部消息服务器 {address}\n")
        return
    if runtime.broker.port != runtime.broker.requested_port:
        sys.stdout.write(
            f"MQTT: 端口 {runtime.broker.requested_port} 已被占用，"
            f"内置消息服务器改用端口 {runtime.broker.port}\n"
        )
    sys.stdout.write(f"MQTT: 内置消息服务器 {address}（网关用户名为序列号，密码为网关密钥）\n")
    sys.stdout.flush()
    path = path or runtime.ctx.settings.broker_file
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"host": address.host, "port": address.port}))


def announced_address(path: Path) -> BrokerAddress | None:
    """The embedded broker a local server announced in ``path`` (``Settings.broker_file``), if any."""
    try:
        data = json.loads(path.read_text())
        return BrokerAddress(host=str(data["host"]), port=int(data["port"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
