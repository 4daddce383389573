"""EMQX's calls to the platform: /api/BrokerAuth/Authenticate and /Authorize at a steady 500 calls a second.

Runs ``powerportal serve --role api`` (real argon2 hashing) on a fresh SQLite database holding 50
registered gateways, then sends each route its calls at a fixed rate, open loop (a call's latency runs
from the moment it was due, so a server falling behind shows), over keep-alive connections, as EMQX's
connection pool does. The health route, measured the same way in the same run, is the ceiling: what
any call to this server costs on this machine, and the server's CPU time per call, which the machine's
other load does not move. Also printed: a first login's cost (argon2, not cached).

    uv run python bench/broker_auth_bench.py [--rate 500] [--seconds 6] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson

from powerportal.accounts import service as accounts
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.gateways import service as gateways
from powerportal.projects.models import Project

sys.path.insert(0, str(Path(__file__).parent))
from httpload import build_request  # noqa: E402

SECRET = "bench-broker-secret"  # noqa: S105
INGEST = ("powerportal-ingest", "bench-ingest-password")
GATEWAYS = 50
CONNECTIONS = 16


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def seed(database_url: str) -> list[tuple[str, str]]:
    """A customer with one project and ``GATEWAYS`` gateways; their serial numbers and secrets."""
    ctx = AppContext.build(Settings(database_url=database_url, secret_key="bench"))  # noqa: S106
    try:
        await upgrade(ctx.engine)
        async with ctx.sessions() as session:
            customer = await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile="13900000001",
                password="bench123",  # noqa: S106
                name="压测",
            )
            project = Project(customer_sysno=customer.sysno, name="压测项目")
            session.add(project)
            await session.flush()
            found = []
            for number in range(GATEWAYS):
                gateway, secret = await gateways.create_gateway(
                    session=session,
                    ctx=ctx,
                    project_sysno=project.sysno,
                    sn=f"BENCH{number:05d}",
                    name="网关",
                )
                found.append((gateway.sn, secret))
            await session.commit()
            return found
    finally:
        await ctx.close()


@contextlib.contextmanager
def server(database_url: str, tmp: str) -> Iterator[tuple[int, int]]:
    """The API process on a free port: (port, process id); stopped (by its process id) afterwards."""
    port = free_port()
    env = dict(
        os.environ,
        POWERPORTAL_DATABASE_URL=database_url,
        POWERPORTAL_SECRET_KEY="bench",  # noqa: S106
        POWERPORTAL_DATA_DIR=tmp,
        POWERPORTAL_BROKER_AUTH_SECRET=SECRET,
        POWERPORTAL_MQTT_URL=f"mqtt://{INGEST[0]}:{INGEST[1]}@127.0.0.1:1",
    )
    log = open(Path(tmp) / "server.log", "w")  # noqa: SIM115 - closed with the directory
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "powerportal", "serve", "--port", str(port), "--role", "api"],
        env=env,
        cwd=tmp,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            if process.poll() is not None:
                raise SystemExit("server did not start:\n" + Path(log.name).read_text()[-3000:])
            time.sleep(0.2)
        yield port, process.pid
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


async def _answer(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(int(line[15:]) for line in head.split(b"\r\n") if line[:15].lower() == b"content-length:")
    body = await reader.readexactly(length)
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head[:40])
    return body


async def steady(
    port: int, requests: list[bytes], expect: bytes, *, rate: float, seconds: float
) -> list[float]:
    """Send ``requests`` (in turn) at ``rate`` a second; each one's latency in ms from when it was due."""
    pool: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()
    for _ in range(CONNECTIONS):
        pool.put_nowait(await asyncio.open_connection("127.0.0.1", port))
    latencies: list[float] = []
    failures = 0

    async def call(request: bytes, due: float) -> None:
        nonlocal failures
        reader, writer = await pool.get()
        writer.write(request)
        body = await _answer(reader)
        latencies.append((time.perf_counter() - due) * 1000)
        failures += expect not in body
        pool.put_nowait((reader, writer))

    calls = int(rate * seconds)
    start = time.perf_counter() + 0.05
    tasks = []
    for index in range(calls):
        due = start + index / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.create_task(call(requests[index % len(requests)], due)))
    await asyncio.gather(*tasks)
    while not pool.empty():
        pool.get_nowait()[1].close()
    assert failures == 0, f"{failures} answers were not {expect!r}"
    return latencies


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (Linux /proc), which the machine's other load does not move."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def post(path: str, body: dict[str, object]) -> bytes:
    headers = {"X-Broker-Secret": SECRET}
    return build_request("POST", path, "127.0.0.1", headers, orjson.dumps(body))


async def measure(
    port: int, pid: int, credentials: list[tuple[str, str]], rate: float, seconds: float, rounds: int
) -> None:
    logins = [
        post("/api/BrokerAuth/Authenticate", {"username": sn, "password": secret, "clientid": sn})
        for sn, secret in credentials
    ]
    checks = [
        post(
            "/api/BrokerAuth/Authorize",
            {"username": sn, "clientid": f"{sn}-1", "topic": f"gateways/{sn}/telemetry", "action": "publish"},
        )
        for sn, _ in credentials
    ]
    # A first login costs an argon2 verification; later ones (reconnects) are answered from the cache.
    first: list[float] = []
    for request in logins:
        first += await steady(port, [request], b'"allow"', rate=1000, seconds=0.001)
    cases = [
        ("GET /api/health (ceiling)", [build_request("GET", "/api/health", "127.0.0.1", {}, b"")], b'"ok"'),
        ("Authenticate (known gateway)", logins, b'"allow"'),
        ("Authorize (publish)", checks, b'"allow"'),
    ]
    results: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    used = dict.fromkeys(results, 0.0)
    for _ in range(rounds):  # the cases take turns, so a machine slowing down weighs on each alike
        for name, requests, expect in cases:
            before = cpu_seconds(pid)
            results[name] += await steady(port, requests, expect, rate=rate, seconds=seconds / rounds)
            used[name] += cpu_seconds(pid) - before
    print(
        f"{len(credentials)} gateways, {rate:.0f} calls/s open loop over {CONNECTIONS} keep-alive connections"
    )
    for name, latencies in results.items():
        print(
            f"{name:<32} {len(latencies):>6} calls   p50 {percentile(latencies, 50):6.2f} ms   "
            f"p99 {percentile(latencies, 99):6.2f} ms   max {max(latencies):7.2f} ms   "
            f"server CPU {used[name] / len(latencies) * 1e6:4.0f} µs/call"
        )
    label = "first login (argon2, uncached)"
    print(
        f"{label:<32} {len(first):>6} calls   p50 {statistics.median(first):6.2f} ms   "
        f"p99 {percentile(first, 99):6.2f} ms   (once per gateway and process, until its secret changes)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=6, help="per route, all rounds together")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pp-broker-auth-") as tmp:
        database_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        credentials = asyncio.run(seed(database_url))
        with server(database_url, tmp) as (port, pid):
            asyncio.run(measure(port, pid, credentials, args.rate, args.seconds, args.rounds))


if __name__ == "__main__":
    main()
