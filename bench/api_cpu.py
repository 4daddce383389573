"""CPU per request of every list route, in-process: steadier than wall-clock figures on a shared machine.

Serves the routes `api_bench.py` measures straight through the ASGI application (no HTTP, no other
clients), one request at a time, and reports the process's CPU time per request (best of three
runs) and, on PostgreSQL, the CPU time of this database's server processes per request too. The
database is filled as `api_bench.py` fills it: a new SQLite file under --directory (kept for the
next run; delete it after a change of the demo data or the seeding), or with --seed an empty
PostgreSQL database (an `api_bench.py` run leaves one filled).

    uv run python bench/api_cpu.py [--requests 3000] [--only GetTaskList,GetGroupList]
    POWERPORTAL_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/apibench \
        uv run python bench/api_cpu.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import uvloop

sys.path.insert(0, str(Path(__file__).parent))
from api_bench import list_paths, seed_lists  # noqa: E402
from powerportal.app import create_app  # noqa: E402
from powerportal.core.config import Settings  # noqa: E402

App = Callable[
    [dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]


async def call(
    app: App, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes
) -> list[Any]:
    """One request through the ASGI application; the messages it sent."""
    sent: list[Any] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if delivered:  # the answer never waits for a disconnect
            await asyncio.sleep(3600)
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    await app(scope, receive, send)
    return sent


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def database_pids(url: str) -> list[int]:
    """The server processes of this PostgreSQL database (the reader's connections come and go)."""
    if not url.startswith("postgresql"):
        return []
    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await connection.close()
    return [row[0] for row in rows]


def database_cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:  # ended meanwhile
            pass
    return total


async def measure(url: str, requests: int, only: set[str], fresh: bool) -> None:
    settings = Settings(
        database_url=url,
        seed_demo=True,
        secret_key="bench",  # noqa: S106
        web_dist=Path("/nonexistent"),
    )
    app: Any = create_app(settings)
    async with app.router.lifespan_context(app):
        if fresh:
            await asyncio.to_thread(seed_lists, url, 20000)
        stamp = str(int(time.time() * 1000))
        login = json.dumps({"mobile": "13800000000", "password": f"{stamp}demo123456{stamp}"}).encode()
        sent = await call(app, "POST", "/api/CustomerCenter/LoginByPass", [], login)
        auth = [(b"systoken", json.loads(sent[1]["body"])["data"]["token"].encode())]
        page = json.dumps({"pageIndex": 1, "pageSize": 10}).encode()
        cases = [
            ("GET /api/health", "GET", "/api/health", [], b""),
            ("POST MyInfo", "POST", "/api/CustomerCenter/MyInfo", auth, b"{}"),
        ] + [(f"POST {path.rsplit('/', 1)[1]}", "POST", path, auth, page) for path in list_paths()]
        if only:
            cases = [case for case in cases if case[0].split()[-1] in only]
        for name, method, path, headers, body in cases:  # warm up: statements compiled, counts read
            for _ in range(50):
                answer = await call(app, method, path, headers, body)
            if json.loads(answer[1]["body"])["statusCode"] != 200:
                raise SystemExit(f"{name} answered {answer[1]['body'][:300]!r}")
        each = max(requests // 3, 1)
        for name, method, path, headers, body in cases:
            own, database = float("inf"), float("inf")
            for _ in range(3):
                pids = await database_pids(url)
                started, database_started = time.process_time(), database_cpu(pids)
                for _ in range(each):
                    await call(app, method, path, headers, body)
                own = min(own, (time.process_time() - started) / each)
                database = min(database, (database_cpu(pids) - database_started) / each)
            extra = f"   + PostgreSQL {database * 1e6:6.1f} us/req" if url.startswith("postgresql") else ""
            print(f"{name:<34} {own * 1e6:7.1f} us/req{extra}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000, help="per route, in three runs")
    parser.add_argument("--only", default="", help="route names, comma-separated (GetTaskList,...)")
    parser.add_argument("--directory", type=Path, default=Path("data/api_cpu"), help="for the SQLite file")
    parser.add_argument("--seed", action="store_true", help="fill the PostgreSQL database first")
    args = parser.parse_args()
    url = os.environ.get("POWERPORTAL_DATABASE_URL")
    fresh = False
    if url is None:
        args.directory.mkdir(parents=True, exist_ok=True)
        database = args.directory / "bench.db"
        fresh = not database.exists()
        url = f"sqlite+aiosqlite:///{database.resolve()}"
    else:
        fresh = args.seed
    print(f"CPU per request in-process (best of three runs), database {url.split(':')[0]}")
    uvloop.run(measure(url, args.requests, {name for name in args.only.split(",") if name}, fresh))


if __name__ == "__main__":
    main()
