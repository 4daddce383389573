"""GetNoticeList (and the 30 s poll) with 1,000,000 notices for one customer: p50/p99 through the API.

For each database (a scratch SQLite file; PostgreSQL in its own scratch database, dropped after):
migrate, create one customer with a project, bulk-insert ``--notices`` notices for them over the
last year (types 2 and 3, about 70 % read), set the notice counters, then send ``--requests``
requests of each kind through the real application (ASGI, with login token) and time them.

Target: GetNoticeList p99 under 50 ms.

    uv run python bench/notice_bench.py [--notices 1000000 --requests 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from sqlalchemy import text

from powerportal.accounts import service as accounts
from powerportal.alarms.models import NoticeCounter
from powerportal.app import create_app
from powerportal.core.config import Settings
from powerportal.projects.models import Project

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_DB = "powerportal_notice_bench"
TARGET_P99_MS = 50.0
MOBILE = "13900008888"
PASSWORD = "bench12345"  # noqa: S105
COLUMNS = (
    "customer_sysno",
    "notice_type",
    "project_sysno",
    "device_id",
    "notice_detail",
    "source_sysno",
    "is_read",
    "is_push",
    "create_time",
)


async def pg_admin(sql: str) -> bool:
    try:
        conn = await asyncpg.connect(PG_ADMIN, timeout=3)
    except (OSError, asyncpg.PostgresError):
        return False
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
    return True


def notices(
    customer: int, project: int, count: int
) -> tuple[list[tuple[Any, ...]], Counter[tuple[int, int]]]:
    """``count`` notices over the last year, oldest first, and (type, is_read) counts."""
    rng = random.Random(5)
    now = datetime.now(UTC)
    span = 365 * 86400
    rows = []
    counts: Counter[tuple[int, int]] = Counter()
    for i in range(count):
        notice_type = 2 if rng.random() < 0.8 else 3
        is_read = 1 if rng.random() < 0.7 else 0
        at = now - timedelta(seconds=span * (count - i) / count)
        detail = f"阳光实验学校 {i % 300 + 101}宿舍（{i % 12 + 1}）" + (
            "过流告警：电流 41.6 A，阈值 40 A" if notice_type == 2 else "离线"
        )
        rows.append((customer, notice_type, project, str(i % 12 + 1), detail, i + 1, is_read, 1, at))
        counts[(notice_type, is_read)] += 1
    return rows, counts


async def load(url: str, settings: Settings, count: int) -> None:
    """The customer, project, notices and counters."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        ctx = app.state.ctx
        async with ctx.sessions() as session:
            customer = await accounts.create_customer(
                session=session, ctx=ctx, mobile=MOBILE, password=PASSWORD, name="压测"
            )
            project = Project(customer_sysno=customer.sysno, name="压测项目")
            session.add(project)
            await session.commit()
            customer_sysno, project_sysno = customer.sysno, project.sysno
        rows, counts = notices(customer_sysno, project_sysno, count)
        started = time.perf_counter()
        if url.startswith("postgresql"):
            conn = await asyncpg.connect(url.replace("+asyncpg", ""))
            try:
                await conn.copy_records_to_table("customer_notice", records=rows, columns=list(COLUMNS))
                await conn.execute("ANALYZE customer_notice")
            finally:
                await conn.close()
        else:
            async with ctx.engine.begin() as conn:
                marks = ", ".join("?" for _ in COLUMNS)
                sql = f"INSERT INTO customer_notice ({', '.join(COLUMNS)}) VALUES ({marks})"  # noqa: S608
                for start in range(0, len(rows), 50_000):
                    chunk = [
                        (*r[:-1], r[-1].replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f"))
                        for r in rows[start : start + 50_000]
                    ]
                    await conn.exec_driver_sql(sql, chunk)
                await conn.execute(text("ANALYZE"))
        async with ctx.sessions() as session:
            for notice_type in (2, 3):
                session.add(
                    NoticeCounter(
                        customer_sysno=customer_sysno,
                        notice_type=notice_type,
                        total=counts[(notice_type, 0)] + counts[(notice_type, 1)],
                        unread=counts[(notice_type, 0)],
                    )
                )
            await session.commit()
        print(f"  loaded {count:,} notices in {time.perf_counter() - started:.1f}s", flush=True)


async def measure(settings: Settings, requests: int) -> dict[str, list[float]]:
    """Milliseconds per request of each kind."""
    app = create_app(settings, migrate=False)
    timings: dict[str, list[float]] = {}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            stamp = str(int(time.time() * 1000))
            login = await client.post(
                "/api/CustomerCenter/LoginByPass",
                json={"mobile": MOBILE, "password": f"{stamp}{PASSWORD}{stamp}"},
            )
            token = login.json()["data"]["token"]
            headers = {"SYSTOKEN": token}
            base = {
                "pageIndex": 1,
                "pageSize": 10,
                "total": 0,
                "custmoer_notice_type": [2, 3],
                "is_read": None,
                "sort": "desc",
                "orderBy": "create_time",
            }
            kinds: dict[str, tuple[str, str, dict[str, Any] | None]] = {
                "GetNoticeList (dialog default)": ("POST", "/api/CustomerNoctice/GetNoticeList", base),
                "GetNoticeList is_read=0": (
                    "POST",
                    "/api/CustomerNoctice/GetNoticeList",
                    {**base, "is_read": 0},
                ),
                "GetNoticeList page 100 of 50": (
                    "POST",
                    "/api/CustomerNoctice/GetNoticeList",
                    {**base, "pageIndex": 100, "pageSize": 50},
                ),
                "GetNoticeList type 3, read": (
                    "POST",
                    "/api/CustomerNoctice/GetNoticeList",
                    {**base, "custmoer_notice_type": [3], "is_read": 1},
                ),
                "GetNewNoticeNew": ("GET", "/api/CustomerNoctice/GetNewNoticeNew", None),
            }
            for name, (method, path, body) in kinds.items():
                spent = []
                for i in range(requests + 10):
                    started = time.perf_counter()
                    answer = await client.request(method, path, json=body, headers=headers)
                    elapsed = (time.perf_counter() - started) * 1000
                    payload = answer.json()
                    assert payload["statusCode"] == 200, payload  # noqa: S101
                    if i >= 10:  # the first few warm the caches
                        spent.append(elapsed)
                timings[name] = spent
            answer = await client.post("/api/CustomerNoctice/GetNoticeList", json=base, headers=headers)
            print(f"  totalCount {answer.json()['data']['totalCount']:,}", flush=True)
    return timings


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def main(args: argparse.Namespace) -> int:
    failed = False
    for database in args.databases:
        tmp = tempfile.TemporaryDirectory()
        if database == "postgresql":
            if not await pg_admin(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'):
                print("PostgreSQL is not reachable; skipping it", file=sys.stderr)
                continue
            await pg_admin(f'CREATE DATABASE "{PG_DB}"')
            url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{PG_DB}"
        else:
            url = f"sqlite+aiosqlite:///{Path(tmp.name) / 'notices.db'}"
        settings = Settings(
            database_url=url,
            secret_key="bench",  # noqa: S106
            password_hash_profile="fast",  # noqa: S106
            web_dist=Path("/nonexistent"),
        )
        print(f"{database}:", flush=True)
        try:
            await load(url, settings, args.notices)
            timings = await measure(settings, args.requests)
        finally:
            if database == "postgresql":
                await pg_admin(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)')
            tmp.cleanup()
        for name, spent in timings.items():
            p99 = p(spent, 0.99)
            listed = name.startswith("GetNoticeList")
            ok = p99 < TARGET_P99_MS
            failed |= listed and not ok
            verdict = f"  [{'OK' if ok else 'ABOVE TARGET'} p99 < {TARGET_P99_MS:.0f} ms]" if listed else ""
            print(
                f"  {name:<32} p50 {statistics.median(spent):6.2f} ms  p99 {p99:6.2f} ms"
                f"  max {max(spent):6.2f} ms{verdict}",
                flush=True,
            )
    return 1 if failed else 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--notices", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300, help="timed requests of each kind")
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
