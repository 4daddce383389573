"""API benchmark: 50 concurrent keep-alive clients against the real server over HTTP, every list route.

Starts `powerportal serve` on a scratch SQLite database (or POWERPORTAL_DATABASE_URL), seeds the
demo account and fills every list it has (20,000 rows in each log-like list by default), then
measures the health route (the ceiling), MyInfo and every list route of the OpenAPI document in
the same run, the routes taking turns in short rounds. Target: p99 under 25 ms for each.

    uv run python bench/api_bench.py [--seconds 4] [--connections 50] [--rounds 2] [--rows 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import uvloop
from fastapi.routing import APIRoute
from sqlalchemy import insert, select, text, update

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm, CustomerNotice, NoticeCounter
from powerportal.app import create_app
from powerportal.control.models import (
    Command,
    ControlRun,
    DeviceGroup,
    DeviceGroupMember,
    TimedTask,
    TimedTaskDevice,
    TimedTaskPeriod,
)
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.timeutil import utcnow
from powerportal.demo import DEMO_MOBILE, DEMO_PASSWORD
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog, OperationLog, StatusLog
from powerportal.sms.models import SmsRecharge, SmsUsage

sys.path.insert(0, str(Path(__file__).parent))
from httpload import Case, build_request, take_turns  # noqa: E402

P99_TARGET_MS = 25.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def seed_lists(database_url: str, rows: int) -> None:
    """Fill every list of the demo customer straight in the database: ``rows`` in each log-like list."""

    async def insert_rows() -> None:
        ctx = AppContext.build(Settings(database_url=database_url))
        async with ctx.sessions() as session:
            customer = await session.scalar(select(Customer.sysno).where(Customer.mobile == DEMO_MOBILE))
            # The demo's breakers appear when its simulator announces them (an API-only server runs none);
            # the demo may have made some already.
            present = {
                tuple(row) for row in await session.execute(select(Device.gateway_sysno, Device.device_id))
            }
            for gateway, project in (
                await session.execute(select(Gateway.sysno, Gateway.project_sysno))
            ).all():
                session.add_all(
                    Device(
                        gateway_sysno=gateway,
                        project_sysno=project,
                        device_id=str(n),
                        name=f"{n}号回路",
                        online=1,
                    )
                    for n in range(1, 13)
                    if (gateway, str(n)) not in present
                )
            await session.flush()
            devices = (
                await session.execute(select(Device.sysno, Device.project_sysno, Device.gateway_sysno))
            ).all()
            now = utcnow()

            def at(i: int) -> datetime:
                return now - timedelta(seconds=i * 7)

            def spread(i: int) -> tuple[int, int, int]:
                return devices[i % len(devices)]

            await session.execute(
                insert(OperationLog),
                [
                    {
                        "customer_sysno": customer,
                        "operate_type": random.choice([1, 2, 3, 4]),
                        "detail": "基准测试记录",
                        "ip": "127.0.0.1",
                        "is_success": True,
                        "create_time": at(i),
                    }
                    for i in range(rows)
                ],
            )
            common = [
                {"device": d, "project": p, "gateway": g, "at": at(i)}
                for i, (d, p, g) in enumerate(spread(i) for i in range(rows))
            ]
            await session.execute(
                insert(Alarm),
                [
                    {
                        "project_sysno": c["project"],
                        "gateway_sysno": c["gateway"],
                        "device_sysno": c["device"],
                        "device_id": "1",
                        "target_name": "101宿舍",
                        "alarm_type": "over_current",
                        "level": 3,
                        "source": "rule",
                        "value": 41.6,
                        "threshold": 40.0,
                        "detail": "基准测试告警",
                        "start_time": c["at"],
                        "end_time": c["at"] + timedelta(minutes=3),
                        "process_state": 0,
                    }
                    for c in common
                ],
            )
            await session.execute(
                insert(CustomerNotice),
                [
                    {
                        "customer_sysno": customer,
                        "notice_type": 2,
                        "project_sysno": c["project"],
                        "device_id": "1",
                        "notice_detail": "基准测试消息",
                        "create_time": c["at"],
                        "is_read": 0,
                        "is_push": 1,
                        "source_sysno": 0,
                    }
                    for c in common
                ],
            )
            await session.execute(
                update(NoticeCounter)
                .where(NoticeCounter.customer_sysno == customer, NoticeCounter.notice_type == 2)
                .values(total=NoticeCounter.total + rows, unread=NoticeCounter.unread + rows)
            )
            if not (
                await session.execute(select(NoticeCounter).where(NoticeCounter.customer_sysno == customer))
            ).first():
                session.add(NoticeCounter(customer_sysno=customer, notice_type=2, total=rows, unread=rows))
            await session.execute(
                insert(Command),
                [
                    {
                        "project_sysno": c["project"],
                        "gateway_sysno": c["gateway"],
                        "device_sysno": c["device"],
                        "customer_sysno": customer,
                        "source": "manual",
                        "operator": "基准测试",
                        "target_name": "101宿舍",
                        "gateway_sn": "DEMO",
                        "device_id": "1",
                        "action": "switch_off",
                        "status": "succeeded",
                        "sent_time": c["at"],
                        "answer_time": c["at"] + timedelta(milliseconds=80),
                        "create_time": c["at"],
                    }
                    for c in common
                ],
            )
            for model, when in ((StatusLog, "create_time"), (OfflineLog, "offline_time")):
                extra = (
                    {"status_type": "offline", "detail": "基准测试"}
                    if model is StatusLog
                    else {"reason": "silence"}
                )
                await session.execute(
                    insert(model),
                    [
                        {
                            "project_sysno": c["project"],
                            "gateway_sysno": c["gateway"],
                            "device_sysno": c["device"],
                            "target_name": "101宿舍",
                            when: c["at"],
                            **extra,
                        }
                        for c in common
                    ],
                )
            await session.execute(
                insert(SmsUsage),
                [
                    {
                        "customer_sysno": customer,
                        "mobile": "13800001111",
                        "content": "告警",
                        "status": "sent",
                        "create_time": at(i),
                    }
                    for i in range(rows)
                ],
            )
            await session.execute(
                insert(SmsRecharge),
                [
                    {"customer_sysno": customer, "quantity": 100, "amount": 5.0, "state": 1}
                    for _ in range(200)
                ],
            )
            for n in range(50):
                group = DeviceGroup(customer_sysno=customer, name=f"基准分组{n}")
                task = TimedTask(
                    customer_sysno=customer,
                    name=f"基准任务{n}",
                    action="switch_off",
                    repeat="weekly",
                    weekdays=127,
                )
                session.add_all([group, task])
                await session.flush()
                members = [devices[(n + k) % len(devices)][0] for k in range(10)]
                session.add_all(DeviceGroupMember(group_sysno=group.sysno, device_sysno=d) for d in members)
                session.add_all(TimedTaskDevice(task_sysno=task.sysno, device_sysno=d) for d in members)
                session.add(TimedTaskPeriod(task_sysno=task.sysno, time_of_day="23:00"))
                for k in range(20):
                    session.add(
                        ControlRun(
                            customer_sysno=customer,
                            kind="group",
                            group_sysno=group.sysno,
                            name=group.name,
                            action="switch_off",
                            status="done",
                            total=10,
                            succeeded=10,
                            create_time=at(k),
                        )
                    )
            await session.commit()
        if not database_url.startswith("sqlite"):
            # Statistics as autovacuum keeps them in service; right after a bulk load they are missing.
            # Committed: ANALYZE in a transaction that rolls back leaves no statistics behind.
            async with ctx.engine.begin() as connection:
                await connection.execute(text("ANALYZE"))
        await ctx.close()

    asyncio.run(insert_rows())


def list_paths() -> list[str]:
    """The path of every route that answers a page, from the application itself."""
    app = create_app(Settings(database_url="sqlite+aiosqlite://", web_dist=Path("/nonexistent")))
    paths = []
    for route in app.routes:
        # A union of answers (SendCommand's) is never a page.
        if isinstance(route, APIRoute) and isinstance(route.response_model, type):
            field = route.response_model.model_fields.get("data")  # the broker's hooks answer EMQX's shape
            data = field.annotation if field is not None else None
            if isinstance(data, type) and data.__name__.startswith("Page["):
                paths.append(route.path)
    return paths


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    port: int, pid: int, token: str, seconds: float, connections: int, rounds: int
) -> list[str]:
    host = f"127.0.0.1:{port}"
    auth = {"SYSTOKEN": token}
    page_query = json.dumps({"pageIndex": 1, "pageSize": 10}).encode()
    requests = [
        ("GET /api/health (ceiling)", build_request("GET", "/api/health", host, {}, b"")),
        ("POST MyInfo", build_request("POST", "/api/CustomerCenter/MyInfo", host, auth, b"{}")),
    ] + [
        (f"POST {path.rsplit('/', 1)[1]}", build_request("POST", path, host, auth, page_query))
        for path in list_paths()
    ]
    cases = [Case(name, request, connections) for name, request in requests]
    results, cpu = await take_turns(port, cases, seconds=seconds, rounds=rounds, cpu=lambda: cpu_seconds(pid))
    lines = [
        f"{result.line()}   server CPU {used / max(result.requests, 1) * 1e6:4.0f} us/req"
        for result, used in zip(results, cpu, strict=True)
    ]
    ceiling = results[0]
    lines.append("")
    for result in results[1:]:
        share = result.rps / ceiling.rps
        verdict = "OK" if result.percentile(99) < P99_TARGET_MS and result.errors == 0 else "MISS"
        lines.append(
            f"{result.name:<34} p99 {result.percentile(99):6.2f} ms (target < {P99_TARGET_MS:.0f}), "
            f"{share:4.0%} of health throughput  {verdict}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=4, help="per route")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2, help="turns each route takes within --seconds")
    parser.add_argument("--rows", type=int, default=20000, help="rows in each log-like list")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        database_url = os.environ.get("POWERPORTAL_DATABASE_URL", f"sqlite+aiosqlite:///{tmp}/bench.db")
        with api_server(database_url, tmp) as (server, base):
            seed_lists(database_url, args.rows)
            token = demo_token(base)
            print(
                f"PowerPortal API benchmark: {args.connections} connections, {args.seconds:.0f} s per route "
                f"in {args.rounds} rounds, "
                f"{args.rows} rows in each log-like list, database {database_url.split(':')[0]}"
            )
            port = int(base.rsplit(":", 1)[1])
            for line in uvloop.run(
                measure(port, server.pid, token, args.seconds, args.connections, args.rounds)
            ):
                print(line)


@contextlib.contextmanager
def api_server(database_url: str, tmp: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`powerportal serve --role api` on a free port, the demo seeded: (process, base URL); stopped after."""
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
        yield server, base
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def demo_token(base: str) -> str:
    """A token of the demo account, logged in by password."""
    stamp = str(int(time.time() * 1000))
    answer = httpx.post(
        f"{base}/api/CustomerCenter/LoginByPass",
        json={"mobile": DEMO_MOBILE, "password": f"{stamp}{DEMO_PASSWORD}{stamp}"},
    )
    token: str = answer.json()["data"]["token"]
    return token


if __name__ == "__main__":
    main()
