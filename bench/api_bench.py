"""API benchmark: 50 concurrent keep-alive clients against the real server over HTTP.

Starts `powerportal serve` on a scratch SQLite database (or POWERPORTAL_DATABASE_URL), seeds the
demo account with 20,000 operation-log rows, then measures the health route (the ceiling), MyInfo
and GetCustomerOperationLogList in the same run, the routes taking turns in short rounds. Targets:
p99 under 25 ms, and at least half the health route's throughput.

    uv run python bench/api_bench.py [--seconds 10] [--connections 50] [--rounds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import httpx
import uvloop
from sqlalchemy import insert, select

from powerportal.accounts.models import Customer
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.timeutil import utcnow
from powerportal.demo import DEMO_MOBILE
from powerportal.logs.models import OperationLog

sys.path.insert(0, str(Path(__file__).parent))
from httpload import LoadResult, build_request, run_load  # noqa: E402

P99_TARGET_MS = 25.0
THROUGHPUT_SHARE = 0.5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def seed_logs(database_url: str, rows: int) -> None:
    """Insert operation-log rows for the demo customer straight into the database."""

    async def insert_rows() -> None:
        ctx = AppContext.build(Settings(database_url=database_url))
        async with ctx.sessions() as session:
            customer = await session.scalar(select(Customer.sysno).where(Customer.mobile == DEMO_MOBILE))
            now = utcnow()
            values = [
                {
                    "customer_sysno": customer,
                    "operate_type": random.choice([1, 2, 3, 4]),
                    "detail": "基准测试记录",
                    "ip": "127.0.0.1",
                    "is_success": True,
                    "create_time": now - timedelta(seconds=i),
                }
                for i in range(rows)
            ]
            await session.execute(insert(OperationLog), values)
            await session.commit()
        await ctx.close()

    asyncio.run(insert_rows())


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    port: int, pid: int, token: str, seconds: float, connections: int, rounds: int
) -> list[str]:
    host = f"127.0.0.1:{port}"
    auth = {"SYSTOKEN": token}
    log_query = json.dumps({"pageIndex": 1, "pageSize": 10}).encode()
    cases = [
        ("GET /api/health (ceiling)", build_request("GET", "/api/health", host, {}, b"")),
        ("POST MyInfo", build_request("POST", "/api/CustomerCenter/MyInfo", host, auth, b"{}")),
        (
            "POST GetCustomerOperationLogList",
            build_request(
                "POST", "/api/CustomerOperationLog/GetCustomerOperationLogList", host, auth, log_query
            ),
        ),
    ]
    for _name, request in cases:  # warm up every route
        await run_load(name="warm", host="127.0.0.1", port=port, request=request, connections=4, seconds=1)
    # The routes take turns in short rounds, so a machine that speeds up or slows down during the run
    # (a shared virtual machine does) weighs on every route alike.
    runs: list[list[LoadResult]] = [[] for _ in cases]
    cpu = [0.0 for _ in cases]
    for _round in range(rounds):
        for index, (name, request) in enumerate(cases):
            cpu_before = cpu_seconds(pid)
            runs[index].append(
                await run_load(
                    name=name,
                    host="127.0.0.1",
                    port=port,
                    request=request,
                    connections=connections,
                    seconds=seconds / rounds,
                )
            )
            cpu[index] += cpu_seconds(pid) - cpu_before
    results = [LoadResult.combine(parts) for parts in runs]
    lines = [
        f"{result.line()}   server CPU {used / max(result.requests, 1) * 1e6:4.0f} us/req"
        for result, used in zip(results, cpu, strict=True)
    ]
    ceiling = results[0]
    lines.append("")
    for result in results[1:]:
        share = result.rps / ceiling.rps
        verdict = "OK" if result.percentile(99) < P99_TARGET_MS and share >= THROUGHPUT_SHARE else "MISS"
        lines.append(
            f"{result.name:<34} p99 {result.percentile(99):.2f} ms (target < {P99_TARGET_MS:.0f}), "
            f"{share:.0%} of health throughput (target >= {THROUGHPUT_SHARE:.0%})  {verdict}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4, help="turns each route takes within --seconds")
    parser.add_argument("--log-rows", type=int, default=20000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        database_url = os.environ.get("POWERPORTAL_DATABASE_URL", f"sqlite+aiosqlite:///{tmp}/bench.db")
        port = free_port()
        env = dict(
            os.environ,
            POWERPORTAL_DATABASE_URL=database_url,
            POWERPORTAL_SEED_DEMO="1",
            POWERPORTAL_SECRET_KEY="bench",  # noqa: S106
        )
        server_log = open(Path(tmp) / "server.log", "w")  # noqa: SIM115 - closed with the directory
        server = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "powerportal", "serve", "--port", str(port), "--role", "api"],
            env=env,
            cwd=tmp,
            stdout=server_log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(f"{base}/api/health", timeout=1)
                    break
                except httpx.TransportError:
                    if server.poll() is not None:
                        break
                    time.sleep(0.2)
            else:
                server.poll()
            if server.returncode is not None:
                raise SystemExit("server did not start:\n" + Path(server_log.name).read_text()[-3000:])
            seed_logs(database_url, args.log_rows)
            stamp = str(int(time.time() * 1000))
            token = httpx.post(
                f"{base}/api/CustomerCenter/LoginByPass",
                json={"mobile": "13800000000", "password": f"{stamp}demo123456{stamp}"},
            ).json()["data"]["token"]
            print(
                f"PowerPortal API benchmark: {args.connections} connections, {args.seconds:.0f} s per route "
                f"in {args.rounds} rounds, "
                f"{args.log_rows} log rows, database {database_url.split(':')[0]}"
            )
            for line in uvloop.run(
                measure(port, server.pid, token, args.seconds, args.connections, args.rounds)
            ):
                print(line)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
