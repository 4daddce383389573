"""Broker limits benchmark: a gateway flooding the embedded broker must not slow the others down.

Well-behaved gateways (a publisher *process*) publish telemetry at QoS 1 as fast as the broker
acknowledges it (which is when it is stored) for the whole run. An attacker process logs in with a
registered gateway of its own and, in every other phase, floods at full speed with what a careless or
hostile firmware sends (from two gateways of its own: one reconnecting at full speed, one keeping its
connections and streaming): packets announcing 20 MB, payloads just over the size limit, garbage and
wrong-shape JSON, ``$`` topics, other gateways' topics, retained junk, wills outside its prefix, foreign
client ids, and status messages announcing hundreds of new devices. Phases alternate quiet / attack.

Figures, per database: the good gateways' stored readings per second in quiet and attack phases (the
ceiling compared against is the quiet rate of the same run: the attack may cost at most 10 %), the
server process's resident memory at the end of each phase (flat: the last attack phase ends within
32 MB of the first), and the broker's refusal counters.

    uv run python bench/broker_limits_bench.py [--phase-seconds 5 --rounds 3 --databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiomqtt
import psutil
import uvloop

from ingest_bench import PG_URL, _message, announce, pg_database, pg_up, register
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.mqtt import codec
from powerportal.mqtt import packets as p
from powerportal.telemetry import runtime as telemetry_runtime

MAX_SLOWDOWN = 0.10
MAX_GROWTH_MB = 32


# -- the well-behaved gateways -------------------------------------------------------------------


def good_main(args: dict[str, Any], ready: Any, stop: Any) -> None:
    """Child process: every good gateway publishes its messages, one after another, until told to stop."""
    uvloop.run(_good(args, ready, stop))


async def _good(args: dict[str, Any], ready: Any, stop: Any) -> None:
    async def one(index: int, sn: str, secret: str) -> None:
        async with aiomqtt.Client(
            args["host"],
            args["port"],
            username=sn,
            password=secret,
            identifier=f"{sn}-good",
            max_inflight_messages=50,
        ) as client:
            topic = codec.topic_for(sn, "telemetry")
            pending: set[asyncio.Task[None]] = set()
            started = time.perf_counter()
            message = 0
            while not stop.is_set():
                payload = _message(args, index, message)
                message += 1
                pending = {t for t in pending if not t.done()}
                pending.add(asyncio.create_task(client.publish(topic, payload, qos=1, timeout=60)))
                # A steady rate, as a gateway reports: the next message when it is due.
                await asyncio.sleep(max(0.0, started + message / args["rate"] - time.perf_counter()))
            await asyncio.gather(*pending, return_exceptions=True)

    ready.set()
    await asyncio.gather(*(one(i, sn, secret) for i, (sn, secret) in enumerate(args["credentials"])))


# -- the attacker --------------------------------------------------------------------------------


def attacker_main(args: dict[str, Any], attack: Any, stop: Any, sent: Any) -> None:
    """Child process: flood while ``attack`` is set, until ``stop``."""
    uvloop.run(_attacker(args, attack, stop, sent))


async def _raw(
    args: dict[str, Any], client_id: str, will: tuple[str, bytes] | None = None, who: str = "attacker"
) -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection(args["host"], args["port"])
    sn, secret = args[who]
    flags = 0x02 | 0x80 | 0x40
    payload = p.string(client_id)
    if will is not None:
        flags |= 0x04 | 0x08
        payload += p.string(will[0]) + len(will[1]).to_bytes(2, "big") + will[1]
    payload += p.string(sn) + p.string(secret)
    writer.write(
        p.packet(p.CONNECT, 0, p.string("MQTT") + bytes([4, flags]) + (60).to_bytes(2, "big") + payload)
    )
    await writer.drain()
    with contextlib.suppress(Exception):
        async with asyncio.timeout(5):
            await reader.readexactly(4)  # CONNACK
    return reader, writer


async def _attacker(args: dict[str, Any], attack: Any, stop: Any, sent: Any) -> None:
    sn, _secret = args["attacker"]
    victim = args["credentials"][0][0]
    loop = asyncio.get_running_loop()
    count = 0

    async def until_closed(reader: Any, writer: Any) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                while await reader.read(65536):
                    pass
        writer.close()

    async def oversize() -> None:  # announces 20 MB, sends the first 64 KiB
        nonlocal count
        reader, writer = await _raw(args, f"{sn}-big{secrets.token_hex(2)}")
        writer.write(
            bytes([0x32]) + p.varint(20 * 1024 * 1024) + p.string(codec.topic_for(sn, "telemetry")) + b"\0\1"
        )
        writer.write(b"x" * 65536)
        count += 1
        await until_closed(reader, writer)

    async def junk_publishes() -> None:  # one connection sending garbage, just-too-big, foreign, retained
        nonlocal count
        streamer = args["streamer"][0]
        reader, writer = await _raw(args, f"{streamer}-junk{secrets.token_hex(2)}", who="streamer")
        topic = codec.topic_for(streamer, "telemetry")
        bodies = [
            (topic, b"\x00garbage" * 100, False),
            (topic, b'{"1": [{"values": 5}]}', False),
            (topic, b"[" + b" " * (256 * 1024 - 100) + b"]", False),
            (codec.topic_for(victim, "telemetry"), b'{"1":{"values":{"voltage":999}}}', False),
            (codec.topic_for(victim, "rpc/request"), b'{"id":"x","method":"switch"}', False),
            (topic, b"{}" * 50_000, True),
        ]
        n = 0
        while attack.is_set() and not writer.is_closing():
            publish_topic, body, retain = bodies[n % len(bodies)]
            writer.write(p.packet(p.PUBLISH, 0x01 if retain else 0, p.string(publish_topic) + body))
            n += 1
            count += 1
            await writer.drain()  # as fast as the broker reads
        writer.close()

    async def dollar() -> None:  # a publish to a $ topic, then reconnect
        nonlocal count
        reader, writer = await _raw(args, f"{sn}-dollar")
        writer.write(p.packet(p.PUBLISH, 0, p.string("$SYS/junk") + b"x"))
        count += 1
        await until_closed(reader, writer)

    async def device_flood() -> None:  # status announcing 256 new devices each time
        nonlocal count
        reader, writer = await _raw(args, f"{sn}-devices")
        for _ in range(20):
            base = secrets.randbits(40)
            devices = [codec.AnnouncedDevice(device_id=f"d{base + i}") for i in range(256)]
            body = codec.encode_status(online=True, devices=devices)
            writer.write(p.packet(p.PUBLISH, 0, p.string(codec.topic_for(sn, "status")) + body))
            count += 1
        await writer.drain()
        writer.close()

    async def bad_logins() -> None:  # foreign client ids and wills outside the prefix
        nonlocal count
        for client_id, will in (
            (f"{victim}-stolen", None),
            (f"{sn}-w", (codec.topic_for(victim, "status"), b'{"state":"offline"}')),
        ):
            reader, writer = await _raw(args, client_id, will)
            count += 1
            await until_closed(reader, writer)

    async def flood(kind: Any) -> None:
        while not stop.is_set():
            if not attack.is_set():
                await asyncio.sleep(0.05)
                continue
            try:
                await kind()
            except (OSError, asyncio.IncompleteReadError):
                await asyncio.sleep(0.01)

    async def report() -> None:
        while not stop.is_set():
            await asyncio.sleep(0.5)
            sent.value = count

    await asyncio.gather(
        *(flood(k) for k in (oversize, dollar, junk_publishes, junk_publishes, device_flood, bad_logins)),
        report(),
        loop.run_in_executor(None, stop.wait),
    )


# -- one database --------------------------------------------------------------------------------


async def run_one(database: str, url: str, args: argparse.Namespace) -> bool:
    settings = Settings(
        database_url=url,
        secret_key="bench",  # noqa: S106
        password_hash_profile="fast",  # noqa: S106
        mqtt_port=18950,
        mqtt_tls_port=0,
        gateway_offline_seconds=3600,
        device_offline_seconds=3600,
    )
    ctx = AppContext.build(settings)
    await upgrade(ctx.engine)
    prefix = f"L{secrets.token_hex(3).upper()}"
    credentials = await register(ctx, args.gateways + 2, prefix=prefix)
    # One attacker reconnects at full speed; the other streams junk over connections it keeps.
    good, attacker, streamer = credentials[:-2], credentials[-2], credentials[-1]
    runtime = await telemetry_runtime.start(ctx)
    broker, ingest = runtime.broker, runtime.ingest
    assert broker is not None
    me = psutil.Process()
    mp = multiprocessing.get_context("spawn")
    ready, attack, stop = mp.Event(), mp.Event(), mp.Event()
    sent = mp.Value("l", 0)
    children = []
    try:
        await announce(runtime, good, args.devices)
        common = {"host": runtime.gateway_address.host, "port": runtime.gateway_address.port}
        good_args = {
            **common,
            "credentials": good,
            "devices": args.devices,
            "points": args.points,
            "rate": args.rate,
        }
        children.append(mp.Process(target=good_main, args=(good_args, ready, stop), daemon=True))
        attacker_args = {**common, "credentials": good, "attacker": attacker, "streamer": streamer}
        children.append(
            mp.Process(target=attacker_main, args=(attacker_args, attack, stop, sent), daemon=True)
        )
        for child in children:
            child.start()
        await asyncio.get_running_loop().run_in_executor(None, ready.wait, 60)
        await asyncio.sleep(args.phase_seconds)  # warm up
        rates: dict[str, list[float]] = {"quiet": [], "attack": []}
        rss: dict[str, list[float]] = {"quiet": [], "attack": []}
        for _ in range(args.rounds):
            for phase in ("quiet", "attack"):
                if phase == "attack":
                    attack.set()
                else:
                    attack.clear()
                await asyncio.sleep(0.5)  # let the switch take hold
                written, started = ingest.stats.readings_written, time.perf_counter()
                await asyncio.sleep(args.phase_seconds)
                rates[phase].append(
                    (ingest.stats.readings_written - written) / (time.perf_counter() - started)
                )
                rss[phase].append(me.memory_info().rss / 2**20)
        attack.clear()
    finally:
        stop.set()
        for child in children:
            child.join(10)
            if child.is_alive():
                child.kill()
        await runtime.stop()
        await ctx.close()
    quiet, under = sum(rates["quiet"]) / len(rates["quiet"]), sum(rates["attack"]) / len(rates["attack"])
    slowdown = 1 - under / quiet
    growth = rss["attack"][-1] - rss["attack"][0]
    stats = broker.stats

    def figures(values: list[float], fmt: str) -> str:
        return ", ".join(format(v, fmt) for v in values)

    print(
        f"\n{database}: {args.gateways} good gateways × {args.devices} devices, {args.rate:g} messages/s"
        f" each ({args.gateways * args.devices * args.rate:,.0f} readings/s offered),"
        f" phases of {args.phase_seconds:g} s"
    )
    print(f"  good readings/s, quiet  : {figures(rates['quiet'], ',.0f')}  (mean {quiet:,.0f}: the ceiling)")
    print(f"  good readings/s, attack : {figures(rates['attack'], ',.0f')}  (mean {under:,.0f})")
    print(f"  slowdown under attack   : {slowdown:.1%}  (limit {MAX_SLOWDOWN:.0%})")
    print(f"  server RSS MB, quiet    : {figures(rss['quiet'], '.0f')}")
    limit = f"(growth {growth:+.0f}, limit {MAX_GROWTH_MB})"
    print(f"  server RSS MB, attack   : {figures(rss['attack'], '.0f')}  {limit}")
    print(f"  attacker packets sent   : {sent.value:,}")
    print(
        "  refused: "
        f"oversize {stats.oversize:,}, dollar {stats.dollar_topic:,}, acl {stats.acl_denied:,}, "
        f"retain {stats.retain_refused:,}, will {stats.refused_will:,}, "
        f"client id {stats.refused_client_id:,}, malformed {stats.malformed:,}, "
        f"throttled {stats.throttled:,}, connect rate {stats.refused_connect_rate:,}; "
        f"ingest garbage {ingest.stats.garbage:,}, "
        f"oversize {ingest.stats.oversize:,}, device limit {ingest.stats.device_limit:,}"
    )
    ok = slowdown < MAX_SLOWDOWN and growth < MAX_GROWTH_MB
    print(f"  {'OK' if ok else 'MISSED'}")
    return ok


async def main(args: argparse.Namespace) -> int:
    tmp = tempfile.TemporaryDirectory()
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            ok &= await run_one("sqlite", f"sqlite+aiosqlite:///{Path(tmp.name) / 'limits.db'}", args)
        elif database == "postgresql":
            if not await pg_up():
                print("PostgreSQL is not reachable: skipped", file=sys.stderr)
                continue
            await pg_database(create=True)
            try:
                ok &= await run_one("postgresql", PG_URL, args)
            finally:
                await pg_database(create=False)
    tmp.cleanup()
    return 0 if ok else 1


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gateways", type=int, default=5)
    parser.add_argument("--devices", type=int, default=20)
    parser.add_argument("--points", type=int, default=1)
    parser.add_argument("--rate", type=float, default=100.0, help="messages a second per good gateway")
    parser.add_argument("--phase-seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(uvloop.run(main(parse_args())))
