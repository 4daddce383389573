"""Ingest benchmark: many gateways publish telemetry over real MQTT; readings/s committed end to end.

For each database (a scratch SQLite file; PostgreSQL in a scratch database of the run's own,
dropped afterwards) and each broker (the embedded one, and the machine's Mosquitto when it is up):

1. migrate, register the gateways, start broker + ingest in this process (uvloop);
2. announce the devices, then start a publisher *process* whose gateways log in with their serial
   number and secret and publish ``--messages`` telemetry messages each (``--devices`` devices ×
   ``--points`` instants per message) as fast as the broker takes them, QoS 1;
3. time from the first publish until every reading is committed, and sample this process's RSS;
4. the ceiling, measured just before step 2: the same number of rows bulk-inserted straight into the
   same database through the same insert function, 2,000 rows per transaction.

Targets: ≥ 20,000 readings/s on PostgreSQL, ≥ 10,000 on SQLite, and ≥ a third of the ceiling.

    uv run python bench/ingest_bench.py [--gateways 50 --devices 20 --points 10 --messages 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import aiomqtt
import asyncpg
import psutil
import uvloop
from sqlalchemy import select

from powerportal.accounts import service as accounts
from powerportal.core import heap
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.devices.models import Device
from powerportal.gateways import service as gateways
from powerportal.mqtt import codec
from powerportal.projects.models import Project
from powerportal.simulator import SimDevice
from powerportal.telemetry import runtime as telemetry_runtime
from powerportal.telemetry import service as telemetry

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = f"powerportal_ingest_bench_{os.getpid()}"  # of this run's own, dropped afterwards
PG_URL = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{PG_BENCH_DB}"
TARGETS = {"sqlite": 10_000, "postgresql": 20_000}
CEILING_SHARE = 1 / 3
START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Result:
    database: str
    broker: str
    readings: int
    points: int
    seconds: float
    cpu_seconds: float  # this process's (broker + ingest) CPU time during the run
    ceiling: float
    rss_mb: float
    publisher_rss_mb: float
    messages: int
    drain_seconds: float = 0.0  # publisher's last message → ingest idle (after-commit work done)
    note: str = ""  # what a compared feature did in the run

    @property
    def rate(self) -> float:
        return self.readings / self.seconds

    def line(self) -> str:
        target = TARGETS[self.database]
        share = self.rate / self.ceiling
        ok = self.rate >= target and share >= CEILING_SHARE
        return (
            f"{self.database:<10} {self.broker:<9} {self.rate:>10,.0f} readings/s"
            f" {self.points / self.seconds:>11,.0f} points/s  ceiling {self.ceiling:>9,.0f}/s ({share:>4.0%})"
            f"  RSS {self.rss_mb:>4.0f} MB"
            f" (+publisher {self.publisher_rss_mb:.0f} MB)  {self.messages} msgs in {self.seconds:.1f}s"
            f"  [{'OK' if ok else 'BELOW TARGET'} ≥{target:,}/s, ≥1/3 ceiling]"
        )


def mosquitto_up() -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", 1883), timeout=2):
        return True
    return False


async def pg_up() -> bool:
    try:
        conn = await asyncpg.connect(PG_ADMIN, timeout=3)
    except (OSError, asyncpg.PostgresError):
        return False
    await conn.close()
    return True


async def pg_database(create: bool) -> None:
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)')
        if create:
            await conn.execute(f'CREATE DATABASE "{PG_BENCH_DB}"')
    finally:
        await conn.close()


# -- publisher process ---------------------------------------------------------------------------


def publisher_main(args: dict[str, Any], ready: Any, go: Any, done: Any, finish: Any) -> None:
    """Child process: connect every gateway, wait for the signal, publish everything."""
    uvloop.run(_publish_all(args, ready, go, done, finish))


async def _publish_all(args: dict[str, Any], ready: Any, go: Any, done: Any, finish: Any) -> None:
    clients = []
    for sn, secret in args["credentials"]:
        client = aiomqtt.Client(
            args["host"],
            args["port"],
            username=sn,
            password=secret,
            identifier=f"{sn}-bench",
            max_inflight_messages=100,
            max_queued_outgoing_messages=0,
        )
        await client.__aenter__()
        clients.append((sn, client))
    payloads = [
        [_message(args, g, m) for m in range(args["messages"])] for g in range(len(args["credentials"]))
    ]
    ready.set()
    await asyncio.get_running_loop().run_in_executor(None, go.wait)

    async def one(index: int, sn: str, client: aiomqtt.Client) -> None:
        topic = codec.topic_for(sn, "telemetry")
        for payload in payloads[index]:
            await client.publish(topic, payload, qos=1)

    await asyncio.gather(*(one(i, sn, c) for i, (sn, c) in enumerate(clients)))
    done.put((psutil.Process().memory_info().rss / 2**20, time.time()))  # and when the last went out
    # Stay connected until the parent has counted: gateways do not hang up after each burst.
    await asyncio.get_running_loop().run_in_executor(None, finish.wait, 180)
    for _sn, client in clients:
        with contextlib.suppress(Exception):
            await client.__aexit__(None, None, None)


def _message(args: dict[str, Any], gateway: int, index: int) -> bytes:
    """One telemetry message: every device of the gateway, ``points`` instants a second apart."""
    import random

    rng = random.Random(gateway * 1_000_003 + index)
    # Counters carry on from the gateway's previous message (a load adds under 3 Wh a second).
    step = args.get("step", 1.0)
    energy = 100.0 + index * args["points"] * 0.003
    devices = [
        SimDevice(device_id=str(d + 1), name="", phases=3 if d == 0 else 1, energy=energy + d)
        for d in range(args["devices"])
    ]
    series: dict[str, list[tuple[datetime, dict[str, Any]]]] = {d.device_id: [] for d in devices}
    for p in range(args["points"]):
        at = START + timedelta(seconds=(index * args["points"] + p) * step)
        for device in devices:
            series[device.device_id].append((at, device.sample(at, 1.0, rng)))
    return codec.encode_telemetry(series)


# -- one run -------------------------------------------------------------------------------------


# A feature under comparison: attached to the runtime at start; told when the devices are announced.
OnStart = Callable[[AppContext, telemetry_runtime.TelemetryRuntime], None]
OnAnnounced = Callable[[AppContext], Awaitable[None]]
Describe = Callable[[AppContext], Awaitable[str]]


async def run_one(
    database: str,
    url: str,
    broker: str,
    args: argparse.Namespace,
    *,
    on_start: OnStart | None = None,
    on_announced: OnAnnounced | None = None,
    describe: Describe | None = None,
) -> Result:
    settings = Settings(
        database_url=url,
        secret_key="bench",  # noqa: S106
        password_hash_profile="fast",  # noqa: S106
        mqtt_port=18900,
        mqtt_url="mqtt://127.0.0.1:1883" if broker == "mosquitto" else "",
        mqtt_shared_group=f"bench{secrets.token_hex(3)}",
        mqtt_client_id=f"bench-ingest-{secrets.token_hex(3)}",
        mqtt_ingest_session_seconds=60,
        gateway_offline_seconds=3600,
        device_offline_seconds=3600,
    )
    ctx = AppContext.build(settings)
    await upgrade(ctx.engine)
    credentials = await register(ctx, args.gateways, prefix=f"B{secrets.token_hex(3).upper()}")
    runtime = await telemetry_runtime.start(ctx)
    ingest = runtime.ingest
    if on_start is not None:
        on_start(ctx, runtime)
    try:
        await announce(runtime, credentials, args.devices)
        if on_announced is not None:
            await on_announced(ctx)
        total = args.gateways * args.messages * args.devices * args.points
        # The ceiling first, so that it writes into the smaller table and is the kinder figure.
        ceiling = await measure_ceiling(ctx, total)
        values_per_reading = (9 * (args.devices - 1) + 13) / args.devices
        mp = multiprocessing.get_context("spawn")
        ready, go, done, finish = mp.Event(), mp.Event(), mp.Queue(), mp.Event()
        child_args = {
            "credentials": credentials,
            "host": runtime.gateway_address.host,
            "port": runtime.gateway_address.port,
            "devices": args.devices,
            "points": args.points,
            "messages": args.messages,
            "step": getattr(args, "step", 1.0),
        }
        child = mp.Process(target=publisher_main, args=(child_args, ready, go, done, finish), daemon=True)
        child.start()
        await asyncio.get_running_loop().run_in_executor(None, ready.wait, 120)
        me = psutil.Process()
        base_written = ingest.stats.readings_written
        peak_rss = me.memory_info().rss
        heap.settle()  # as ``powerportal serve`` does once it has started
        go.set()
        started, cpu_started = time.perf_counter(), time.process_time()
        deadline = started + args.timeout
        progress, progress_at = 0, started
        while ingest.stats.readings_written - base_written < total and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
            peak_rss = max(peak_rss, me.memory_info().rss)
            if ingest.stats.readings_written != progress:
                progress, progress_at = ingest.stats.readings_written, time.perf_counter()
            elif time.perf_counter() - progress_at > 15:
                break  # stalled: report what arrived
        await ingest.drain(30)  # and what follows the last commit (the observers' after-commit work)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        committed_at = time.time()  # within the 10 ms poll of the ingest going idle
        written = ingest.stats.readings_written - base_written
        publisher_rss, published_at = await asyncio.get_running_loop().run_in_executor(
            None, done.get, True, 30
        )
        finish.set()
        child.join(30)
        if written < total:
            print(f"  only {written:,} of {total:,} readings written: {ingest.stats}", file=sys.stderr)
        stats = ingest.stats
        assert stats.garbage == stats.messages_lost == stats.batch_failures == 0, stats
        return Result(
            database=database,
            broker=broker,
            readings=written,
            points=int(written * values_per_reading),
            seconds=elapsed,
            cpu_seconds=cpu,
            ceiling=ceiling,
            rss_mb=peak_rss / 2**20,
            publisher_rss_mb=float(publisher_rss),
            messages=args.gateways * args.messages,
            drain_seconds=max(0.0, committed_at - published_at),
            note=await describe(ctx) if describe is not None else "",
        )
    finally:
        heap.unsettle()
        await runtime.stop()
        await ctx.close()


async def register(ctx: AppContext, count: int, *, prefix: str) -> list[tuple[str, str]]:
    async with ctx.sessions() as session:
        customer = await accounts.get_by_mobile(session=session, mobile="13900009999")
        if customer is None:
            customer = await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile="13900009999",
                password="bench12345",  # noqa: S106
                name="压测",
            )
        project = Project(customer_sysno=customer.sysno, name="压测项目")
        session.add(project)
        await session.flush()
        credentials = []
        for i in range(count):
            sn = f"{prefix}-{i:04d}"
            secret = secrets.token_urlsafe(16)
            await gateways.create_gateway(
                session=session, ctx=ctx, project_sysno=project.sysno, sn=sn, name=sn, secret=secret
            )
            credentials.append((sn, secret))
        await session.commit()
    return credentials


async def announce(
    runtime: telemetry_runtime.TelemetryRuntime, credentials: list[tuple[str, str]], n: int
) -> None:
    """Each gateway announces its devices and reports once, so the timed run measures steady state."""
    address = runtime.gateway_address
    devices = [codec.AnnouncedDevice(device_id=str(d + 1), phases=3 if d == 0 else 1) for d in range(n)]
    warm_up = codec.encode_telemetry(
        {d.device_id: [(START - timedelta(days=1), {"voltage": 220.0})] for d in devices}
    )
    for sn, secret in credentials:
        async with aiomqtt.Client(address.host, address.port, username=sn, password=secret) as client:
            await client.publish(
                codec.topic_for(sn, "status"), codec.encode_status(online=True, devices=devices), qos=1
            )
            await client.publish(codec.topic_for(sn, "telemetry"), warm_up, qos=1)
    async with asyncio.timeout(60):
        while runtime.ingest.stats.readings_written < len(credentials) * n:
            await asyncio.sleep(0.05)
    await runtime.ingest.drain(60)


async def measure_ceiling(ctx: AppContext, total: int) -> float:
    """Rows per second when the same kind of rows go straight into the database, 2,000 per transaction."""
    async with ctx.sessions() as session:
        sysnos = list((await session.scalars(select(Device.sysno))).all())
    import random

    rng = random.Random(7)
    sample = SimDevice(device_id="1", name="")
    # Long before the run's readings (and the announcement's): an observer that reads a device's
    # newest rows never takes these for them (after the run's, every batch would be a late one).
    earlier = START - timedelta(days=400)
    rows = []
    for i in range(total):
        at = earlier + timedelta(seconds=i // len(sysnos))
        rows.append(
            telemetry.reading_row(
                device_sysno=sysnos[i % len(sysnos)], ts=at, values=sample.sample(at, 1.0, rng), extra={}
            )
        )
    started = time.perf_counter()
    for start in range(0, total, 2000):
        async with ctx.sessions() as session:
            await telemetry.insert_readings(session=session, rows=rows[start : start + 2000])
            await session.commit()
    return total / (time.perf_counter() - started)


async def main(args: argparse.Namespace) -> int:
    databases: list[tuple[str, str]] = []
    tmp = tempfile.TemporaryDirectory()
    if "sqlite" in args.databases:
        databases.append(("sqlite", f"sqlite+aiosqlite:///{Path(tmp.name) / 'bench.db'}"))
    if "postgresql" in args.databases:
        if await pg_up():
            databases.append(("postgresql", PG_URL))
        else:
            print("PostgreSQL is not reachable; skipping it", file=sys.stderr)
    brokers = [b for b in args.brokers if b != "mosquitto" or mosquitto_up()]
    readings = args.gateways * args.messages * args.devices * args.points
    print(
        f"{args.gateways} gateways × {args.messages} messages × {args.devices} devices"
        f" × {args.points} instants = {readings:,} readings per run (cores: {os.cpu_count()})",
        flush=True,
    )
    results = []
    failed = False
    try:
        for database, url in databases:
            for broker in brokers:
                if database == "postgresql":
                    await pg_database(create=True)
                elif Path(tmp.name, "bench.db").exists():
                    for suffix in ("", "-wal", "-shm"):
                        Path(tmp.name, "bench.db" + suffix).unlink(missing_ok=True)
                result = await run_one(database, url, broker, args)
                results.append(result)
                print(result.line(), flush=True)
                failed |= result.rate < TARGETS[database] or result.rate / result.ceiling < CEILING_SHARE
    finally:
        if any(d == "postgresql" for d, _ in databases):
            await pg_database(create=False)
        tmp.cleanup()
    return 1 if failed else 0


@dataclass
class Feature:
    """An ingest observer whose cost ``compare`` measures: the run with it against the run without."""

    name: str  # "alarms", "energy"
    target: float  # the share of the readings/s the run with it must keep
    on_start: OnStart
    describe: Describe  # what it did in a run, for the line
    on_announced: OnAnnounced | None = None
    # What both runs have (billing is measured on an ingest that counts energy in both).
    base: OnStart | None = None


async def _run_apart(database: str, url: str, args: argparse.Namespace, feature: Feature, on: bool) -> Result:
    """One run in a process of its own.

    Runs in one process inherit the heap and caches of those before them: the first run of a
    process was the fastest by a fifth, and the first run was always one without the feature.
    """
    mp = multiprocessing.get_context("spawn")
    answer = mp.Queue()
    child = mp.Process(target=_apart_main, args=(answer, database, url, args, feature, on))
    child.start()
    try:
        got = await asyncio.get_running_loop().run_in_executor(None, answer.get, True, args.timeout + 600)
    finally:
        child.join(30)
    if isinstance(got, BaseException):
        raise got
    return cast("Result", got)


def _apart_main(
    answer: Any, database: str, url: str, args: argparse.Namespace, feature: Feature, on: bool
) -> None:
    """Child process of ``_run_apart``: the run's result, or what it raised, goes back on ``answer``."""
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    starts = [s for s in (feature.base, feature.on_start if on else None) if s is not None]

    def on_start(ctx: AppContext, runtime: telemetry_runtime.TelemetryRuntime) -> None:
        for start in starts:
            start(ctx, runtime)

    try:
        answer.put(
            uvloop.run(
                run_one(
                    database,
                    url,
                    "embedded",
                    args,
                    on_start=on_start,
                    on_announced=feature.on_announced if on else None,
                    describe=feature.describe if on else None,
                )
            )
        )
    except BaseException as exc:
        answer.put(exc)
        raise


async def compare(feature: Feature, args: argparse.Namespace) -> int:
    """Runs without and with the feature, interleaved ``--repeat`` times per database; best against best.

    A shared machine makes single runs noisy, so the best run of each is compared (medians shown
    too), beside the CPU time each run's process spent per 1,000 readings, which noise disturbs
    less. Every run has a process of its own (``_run_apart``).
    """
    databases = [d for d in args.databases if d != "postgresql" or await pg_up()]
    readings = args.gateways * args.messages * args.devices * args.points
    print(f"{readings:,} readings per run, broker: embedded", flush=True)
    failed = False
    for database in databases:
        runs: dict[bool, list[Result]] = {False: [], True: []}
        for on in [False, True] * args.repeat:
            tmp = tempfile.TemporaryDirectory()
            if database == "postgresql":
                await pg_database(create=True)
                url = PG_URL
            else:
                url = f"sqlite+aiosqlite:///{Path(tmp.name) / 'compare.db'}"
            try:
                # The ingest benchmark's own targets do not apply here: only the ratio matters.
                result = await _run_apart(database, url, args, feature, on)
                runs[on].append(result)
            finally:
                if database == "postgresql":
                    await pg_database(create=False)
                tmp.cleanup()
            label = f"with {feature.name}" if on else f"no {feature.name}"
            print(
                f"{database:<10} {label:<14} {result.rate:>10,.0f} readings/s"
                f"  CPU {result.cpu_seconds / result.readings * 1e6:>5.0f} ms per 1,000"
                + (f"  ({result.note})" if result.note else ""),
                flush=True,
            )
        best = {on: max(r.rate for r in rs) for on, rs in runs.items()}
        median = {on: statistics.median(r.rate for r in rs) for on, rs in runs.items()}
        cpu = {on: min(r.cpu_seconds / r.readings for r in rs) for on, rs in runs.items()}
        share = best[True] / best[False]
        ok = share >= feature.target
        failed |= not ok
        print(
            f"{database:<10} best {best[False]:,.0f} → {best[True]:,.0f} readings/s:"
            f" {feature.name} keeps {share:.0%} of the rate (medians {median[True] / median[False]:.0%};"
            f" CPU per reading {cpu[True] / cpu[False]:.0%} of the run without)"
            f"  [{'OK' if ok else 'BELOW TARGET'} ≥{feature.target:.0%}]",
            flush=True,
        )
    return 1 if failed else 0


def parse_args(
    doc: str | None = __doc__,
    *,
    comparison: bool = False,
    extra: Callable[[argparse.ArgumentParser], None] | None = None,
    messages: int = 20,
) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if extra is not None:
        extra(parser)
    parser.add_argument("--gateways", type=int, default=50)
    parser.add_argument("--devices", type=int, default=20, help="devices per gateway")
    parser.add_argument("--points", type=int, default=10, help="instants per device per message")
    parser.add_argument("--messages", type=int, default=messages, help="messages per gateway")
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--timeout", type=float, default=120.0)
    if comparison:
        parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration")
    else:
        parser.add_argument("--brokers", nargs="+", default=["embedded", "mosquitto"])
    return parser.parse_args()


if __name__ == "__main__":
    # Others' test traffic on a shared Mosquitto is counted, not worth a log line per message here.
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    sys.exit(uvloop.run(main(parse_args())))
