"""No reading lost: a gateway publishes a known set of readings at QoS 1 while the server is killed.

The server runs as a real process (``powerportal serve``) on a SQLite file; the gateway is a stock
client that, as gateways do, keeps each message until it is acknowledged and sends it again after a
reconnect. Whatever the fault, every reading is stored exactly once. ``bench/fault_bench.py`` runs the
same with 100,000 readings.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiomqtt
import httpx
import pytest
from sqlalchemy import func, select

from powerportal.accounts import service as accounts
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.gateways import service as gateways
from powerportal.mqtt import codec
from powerportal.projects.models import Project
from powerportal.telemetry.models import Reading
from tests.conftest import make_settings
from tests.mqtt.private import Mosquitto, free_port, persistence_directory, private_mosquitto

# CI's short version; bench/fault_bench.py sets more (and a faster gateway) through the environment.
READINGS = int(os.environ.get("POWERPORTAL_FAULT_READINGS", "5000"))
MESSAGES_PER_SECOND = float(os.environ.get("POWERPORTAL_FAULT_RATE", "150"))
DEVICES = 10
START = datetime(2026, 11, 1, tzinfo=UTC)


@dataclass
class Server:
    """``powerportal serve`` as a process of its own, started and stopped by the test."""

    directory: Path
    env: dict[str, str]
    http_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it (migrating first) and wait until it answers."""
        self.process = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "powerportal", "serve", "--port", str(self.http_port)],
            env=self.env,
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    async def ready(self) -> None:
        """Wait until it serves HTTP (the MQTT side starts before)."""
        async with asyncio.timeout(30), httpx.AsyncClient() as client:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    answer = await client.get(f"http://127.0.0.1:{self.http_port}/api/health", timeout=1)
                    if answer.status_code == 200:
                        return
                await asyncio.sleep(0.1)

    def kill(self, how: signal.Signals) -> None:
        """Send a signal and wait for the process to end."""
        assert self.process is not None
        self.process.send_signal(how)
        self.process.wait(30)
        self.process = None

    def stop(self) -> None:
        """Stop it if it runs (by process id)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None


@dataclass
class Plant:
    """A database with one registered gateway, and where its server and broker are."""

    ctx: AppContext
    server: Server
    sn: str
    secret: str
    broker_port: int
    mosquitto: Mosquitto | None = None


async def prepare(directory: Path, mosquitto: Mosquitto | None, url: str | None = None) -> Plant:
    url = url or f"sqlite+aiosqlite:///{directory / 'noloss.db'}"
    ctx = AppContext.build(make_settings(url))
    await upgrade(ctx.engine)
    sn = f"NL{secrets.token_hex(4).upper()}"
    async with ctx.sessions() as session:
        customer = await accounts.create_customer(
            session=session, ctx=ctx, mobile="13900000077", password="secret123", name="无损"
        )
        project = Project(customer_sysno=customer.sysno, name="无损测试")
        session.add(project)
        await session.flush()
        _gateway, secret = await gateways.create_gateway(
            session=session, ctx=ctx, project_sysno=project.sysno, sn=sn, name="无损网关"
        )
        await session.commit()
    mqtt_port = free_port()
    dist = directory / "dist"
    dist.mkdir(exist_ok=True)
    (dist / "index.html").write_text("<!doctype html>")
    env = dict(os.environ)
    env.update(
        POWERPORTAL_DATABASE_URL=url,
        POWERPORTAL_SECRET_KEY="test-secret-key-for-powerportal",
        POWERPORTAL_PASSWORD_HASH_PROFILE="fast",
        POWERPORTAL_WEB_DIST=str(dist),
        POWERPORTAL_SEED_DEMO="0",
        POWERPORTAL_DEMO_SIMULATOR="0",
        POWERPORTAL_SCHEDULER="0",
        POWERPORTAL_MQTT_PORT=str(mqtt_port),
        POWERPORTAL_MQTT_TLS_PORT="0",
        POWERPORTAL_INGEST_BATCH_MS="50",
    )
    if mosquitto is not None:
        env.update(
            POWERPORTAL_MQTT_URL=mosquitto.url,
            POWERPORTAL_MQTT_CLIENT_ID=f"noloss-{secrets.token_hex(3)}",
            # One ingest process: a plain subscription, which Mosquitto keeps across its own restarts
            # (Mosquitto 2.0 forgets shared subscriptions when it restarts: docs/deployment.md).
            POWERPORTAL_MQTT_SHARED_GROUP="",
        )
    server = Server(directory=directory, env=env)
    return Plant(
        ctx=ctx,
        server=server,
        sn=sn,
        secret=secret,
        broker_port=mosquitto.port if mosquitto else mqtt_port,
        mosquitto=mosquitto,
    )


def messages(sn: str) -> list[tuple[str, bytes]]:
    """READINGS readings, DEVICES to a message, each (device, instant) once."""
    topic = codec.topic_for(sn, "telemetry")
    out = []
    for m in range(READINGS // DEVICES):
        at = START + timedelta(seconds=m)
        points = {str(d + 1): [(at, {"voltage": 220.0 + d, "energy": 100.0 + m})] for d in range(DEVICES)}
        out.append((topic, codec.encode_telemetry(points)))
    return out


class Gateway:
    """Publishes every message at QoS 1 until it is acknowledged, reconnecting and resending as needed."""

    def __init__(self, plant: Plant) -> None:
        self.plant = plant
        self.pending = dict(enumerate(messages(plant.sn)))
        self.acknowledged = 0

    async def run(self, per_second: float) -> None:
        while self.pending:
            try:
                async with aiomqtt.Client(
                    "127.0.0.1",
                    self.plant.broker_port,
                    username=self.plant.sn,
                    password=self.plant.secret,
                    identifier=self.plant.sn,
                    timeout=5,
                    max_inflight_messages=20,
                ) as client:
                    while self.pending:
                        chunk = list(self.pending)[:20]
                        await asyncio.gather(*(self._send(client, i) for i in chunk))
                        await asyncio.sleep(len(chunk) / per_second)
            except aiomqtt.MqttError:
                await asyncio.sleep(0.3)

    async def _send(self, client: aiomqtt.Client, index: int) -> None:
        topic, payload = self.pending[index]
        await client.publish(topic, payload, qos=1, timeout=10)
        if self.pending.pop(index, None) is not None:
            self.acknowledged += 1


async def stored(plant: Plant) -> int:
    async with plant.ctx.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(Reading)) or 0)


async def all_stored(plant: Plant) -> int:
    """Wait until every reading is stored, or the count stood still for 15 s; return the count.

    The platform's link may be waiting out its reconnect back-off while the broker holds its messages.
    """
    last, since = -1, asyncio.get_running_loop().time()
    async with asyncio.timeout(90):
        while True:
            now = await stored(plant)
            if now >= READINGS:
                return now
            if now != last:
                last, since = now, asyncio.get_running_loop().time()
            elif asyncio.get_running_loop().time() - since > 15:
                return now
            await asyncio.sleep(0.3)


@contextlib.contextmanager
def maybe_mosquitto(kind: str, directory: Path) -> Iterator[Mosquitto | None]:
    if kind == "embedded":
        yield None
        return
    # Persistence written after every change: what Mosquitto acknowledged survives its own crash.
    with persistence_directory() as kept:
        persistence = (
            f"persistence true\npersistence_location {kept}/\nautosave_interval 1\nautosave_on_changes true\n"
            # While the platform is away its session queues all: Mosquitto's default of 1,000 drops the rest.
            "max_queued_messages 10000000\n"
        )
        with private_mosquitto(directory, persistence) as m:
            yield m


@pytest.fixture(params=["embedded", "mosquitto"])
async def plant(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Plant]:
    with maybe_mosquitto(str(request.param), tmp_path) as mosquitto:
        p = await prepare(tmp_path, mosquitto)
        try:
            yield p
        finally:
            p.server.stop()
            await p.ctx.close()


async def through(plant: Plant, fault: Callable[[Gateway], Awaitable[None]]) -> int:
    """Start the server and the gateway, strike with ``fault`` halfway, and count what was stored."""
    plant.server.start()
    await plant.server.ready()
    gateway = Gateway(plant)
    publishing = asyncio.create_task(gateway.run(per_second=MESSAGES_PER_SECOND))
    try:
        async with asyncio.timeout(60):
            while gateway.acknowledged < READINGS // DEVICES // 2:
                await asyncio.sleep(0.05)
        await fault(gateway)
        async with asyncio.timeout(120):
            await publishing
    finally:
        publishing.cancel()
    return await all_stored(plant)


@pytest.mark.parametrize("signal_sent", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
async def test_no_reading_is_lost_when_the_server_dies_mid_stream(
    plant: Plant, signal_sent: signal.Signals
) -> None:
    async def server_dies(gateway: Gateway) -> None:
        acknowledged = gateway.acknowledged
        plant.server.kill(signal_sent)
        if plant.mosquitto is None:
            # Everything the embedded broker acknowledged is in the database already (Mosquitto
            # acknowledges on receipt; there the platform's own session brings the rest again).
            assert await stored(plant) >= acknowledged * DEVICES
        await asyncio.sleep(5)
        plant.server.start()
        await plant.server.ready()

    assert await through(plant, server_dies) == READINGS


async def test_no_reading_is_lost_when_the_broker_dies_mid_stream(tmp_path: Path) -> None:
    with maybe_mosquitto("mosquitto", tmp_path) as mosquitto:
        assert mosquitto is not None
        plant = await prepare(tmp_path, mosquitto)

        async def broker_dies(_gateway: Gateway) -> None:
            mosquitto.kill()
            await asyncio.sleep(3)
            mosquitto.start()

        try:
            assert await through(plant, broker_dies) == READINGS
        finally:
            plant.server.stop()
            await plant.ctx.close()


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_no_reading_is_lost_when_the_database_goes_away_mid_stream(
    database_url: str, kind: str, tmp_path: Path
) -> None:
    import asyncpg

    async def database_goes_away(_gateway: Gateway) -> None:
        # Every connection to the database is cut, three times, as a restart of PostgreSQL does.
        admin = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
        try:
            for _ in range(3):
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                await asyncio.sleep(1)
        finally:
            await admin.close()

    with maybe_mosquitto(kind, tmp_path) as mosquitto:
        plant = await prepare(tmp_path, mosquitto, url=database_url)
        try:
            assert await through(plant, database_goes_away) == READINGS
        finally:
            plant.server.stop()
            await plant.ctx.close()
