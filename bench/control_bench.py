"""Group-control benchmark: switch a group of simulated breakers spread over many gateways.

1. Start the server in this process (API, embedded MQTT broker, ingest) on a scratch SQLite file
   (or PostgreSQL with ``--pg``), register the gateways, and start the simulated gateways in a
   separate process, as real gateways would be (loopback only).
2. Wait until every device is online, put all of them in one group, then press "switch off" through
   the HTTP API and poll the run as the screen does until every device has answered; then "switch on".
3. Report the time from the click until all devices are confirmed, the rate at which the platform
   sent the commands (first to last ``sent_time``), the round trip of single commands, and the
   ceiling: as many bare rpc round trips fired at once from the server process, without HTTP,
   command rows or polling.

Target: 1,000 devices on 50 gateways all confirmed within 3 s of the click.

    uv run python bench/control_bench.py [--gateways 50 --devices 20] [--pg]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import secrets
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from sqlalchemy import func, select

from powerportal.accounts import service as accounts
from powerportal.app import create_app
from powerportal.control.models import Command
from powerportal.core.config import Settings
from powerportal.devices.models import Device
from powerportal.gateways import service as gateways
from powerportal.gateways.models import Gateway
from powerportal.mqtt.transport import BrokerAddress
from powerportal.projects.models import Project
from powerportal.simulator import Behaviour, Simulator, make_fleet

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = "powerportal_control_bench"
TARGET_SECONDS = 3.0
# As often as the group-control screen asks for the run's status.
POLL_SECONDS = 0.5
MOBILE, PASSWORD = "13900000009", "bench-password-1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _simulate(credentials: list[tuple[str, str]], devices: int, host: str, port: int, seconds: float) -> None:
    """The gateways' process: answer commands (and report every 5 s) until told to stop."""

    async def main() -> None:
        simulator = Simulator(
            make_fleet(credentials, devices),
            BrokerAddress(host=host, port=port),
            interval=5.0,
            behaviour=Behaviour(fault_chance=0.0),
            seed=1,
        )
        await simulator.run(seconds)

    asyncio.run(main())


async def _pg_database(drop_only: bool = False) -> None:
    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)')
        if not drop_only:
            await conn.execute(f'CREATE DATABASE "{PG_BENCH_DB}"')
    finally:
        await conn.close()


async def _call(client: httpx.AsyncClient, method: str, path: str, token: str, **kw: Any) -> dict[str, Any]:
    response = await client.request(method, path, headers={"SYSTOKEN": token}, **kw)
    body: dict[str, Any] = response.json()
    if body["statusCode"] != 200:
        raise RuntimeError(f"{path}: {body['message']}")
    return body


async def _switch(
    client: httpx.AsyncClient, token: str, group: int, action: str, total: int
) -> dict[str, float]:
    """Press the group button and poll until every device answered; seconds and counts."""
    clicked = time.perf_counter()
    run = (
        await _call(
            client, "POST", "/api/CustomerGroup/SwitchGroup", token, json={"sysno": group, "action": action}
        )
    )["data"]
    first_result = None
    async with asyncio.timeout(60):
        while True:
            status = (
                await _call(client, "GET", f"/api/CustomerGroup/GetRunStatus?sysno={run['sysno']}", token)
            )["data"]
            if first_result is None and status["succeeded"] + status["failed"] > 0:
                first_result = time.perf_counter() - clicked
            # Confirmed: every device has answered (or timed out); the run row is closed just after.
            if status["succeeded"] + status["failed"] == total:
                break
            await asyncio.sleep(POLL_SECONDS)
    done = time.perf_counter() - clicked
    # Then until the run is closed, so that the command rows read below are all written.
    async with asyncio.timeout(60):
        while (await _call(client, "GET", f"/api/CustomerGroup/GetRunStatus?sysno={run['sysno']}", token))[
            "data"
        ]["status"] != "done":
            await asyncio.sleep(0.05)
    return {
        "seconds": done,
        "first_result": first_result or done,
        "succeeded": status["succeeded"],
        "failed": status["failed"],
        "run": run["sysno"],
    }


async def bench(gateway_count: int, per_gateway: int, database_url: str, broker: str) -> bool:
    """Run the benchmark once; True when the target is met."""
    settings = Settings(
        database_url=database_url,
        secret_key="control-bench-secret-key",  # noqa: S106
        password_hash_profile="fast",  # noqa: S106
        web_dist=Path("/nonexistent"),
        mqtt_port=_free_port(),
        mqtt_url="mqtt://127.0.0.1:1883" if broker == "mosquitto" else "",
        mqtt_shared_group=f"cbench{secrets.token_hex(3)}",
        mqtt_client_id=f"cbench-ingest-{secrets.token_hex(3)}",
        mqtt_ingest_session_seconds=60,
        scheduler=False,
        command_timeout_seconds=10,
    )
    app = create_app(settings, background=True)
    async with app.router.lifespan_context(app):
        ctx = app.state.ctx
        async with ctx.sessions() as session:
            customer = await accounts.create_customer(
                session=session, ctx=ctx, mobile=MOBILE, password=PASSWORD, name="压测"
            )
            project = Project(customer_sysno=customer.sysno, name="压测项目")
            session.add(project)
            await session.commit()
        credentials = []
        for n in range(gateway_count):
            async with ctx.sessions() as session:
                gateway, secret = await gateways.create_gateway(
                    session=session,
                    ctx=ctx,
                    project_sysno=project.sysno,
                    building_sysno=None,
                    sn=f"CB{secrets.token_hex(3).upper()}{n:04d}",
                    name=f"压测网关{n}",
                )
                await session.commit()
            credentials.append((gateway.sn, secret))
        runtime = app.state.runtime.telemetry
        assert runtime is not None  # noqa: S101
        address = runtime.gateway_address
        expected = gateway_count * per_gateway
        process = multiprocessing.get_context("spawn").Process(
            target=_simulate, args=(credentials, per_gateway, address.host, address.port, 300.0), daemon=True
        )
        process.start()
        try:
            async with asyncio.timeout(120):
                while True:
                    async with ctx.sessions() as session:
                        online = await session.scalar(
                            select(func.count()).select_from(Device).where(Device.online == 1)
                        )
                    if online == expected:
                        break
                    await asyncio.sleep(0.25)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=60) as client:
                stamp = str(int(time.time() * 1000))
                login = await client.post(
                    "/api/CustomerCenter/LoginByPass",
                    json={"mobile": MOBILE, "password": stamp + PASSWORD + stamp},
                )
                token = login.json()["data"]["token"]
                async with ctx.sessions() as session:
                    devices = list(await session.scalars(select(Device.sysno).order_by(Device.sysno)))
                group = (
                    await _call(
                        client,
                        "POST",
                        "/api/CustomerGroup/AddGroup",
                        token,
                        json={"name": "全部回路", "device_sysnos": devices},
                    )
                )["data"]["sysno"]
                single = []
                for sysno in devices[:20]:
                    started = time.perf_counter()
                    await _call(
                        client,
                        "POST",
                        "/api/CustomerControl/SendCommand",
                        token,
                        json={"device_sysno": sysno, "action": "read_now"},
                    )
                    single.append((time.perf_counter() - started) * 1000)
                # The ceiling: the same number of bare rpc round trips, straight from this process,
                # with no HTTP, no command rows and no run to poll.
                async with ctx.sessions() as session:
                    pairs = list(
                        await session.execute(
                            select(Gateway.sn, Device.device_id).join(
                                Gateway, Gateway.sysno == Device.gateway_sysno
                            )
                        )
                    )
                started = time.perf_counter()
                answers = await asyncio.gather(
                    *(runtime.rpc.call(sn=sn, device_id=d, method="read", timeout=30) for sn, d in pairs),
                    return_exceptions=True,
                )
                ceiling = time.perf_counter() - started
                ceiling_ok = sum(1 for a in answers if not isinstance(a, BaseException) and a.ok)
                results = {}
                for action in ("switch_off", "switch_on"):
                    results[action] = await _switch(client, token, group, action, expected)
                    async with ctx.sessions() as session:
                        first, last = (
                            await session.execute(
                                select(func.min(Command.sent_time), func.max(Command.sent_time)).where(
                                    Command.run_sysno == results[action]["run"]
                                )
                            )
                        ).one()
                    span = max((last - first).total_seconds(), 1e-3)
                    results[action]["send_rate"] = expected / span
                    await asyncio.sleep(1.0)
        finally:
            process.terminate()
            process.join(10)
    kind = "PostgreSQL" if database_url.startswith("postgresql") else "SQLite"
    sys.stdout.write(
        f"\n{kind}, {broker} broker, {gateway_count} gateways × {per_gateway} devices = {expected} devices\n"
    )
    sys.stdout.write(
        f"  single command (read_now) round trip: median {statistics.median(single):.1f} ms, "
        f"max {max(single):.1f} ms\n"
    )
    sys.stdout.write(
        f"  ceiling: {ceiling_ok}/{len(pairs)} bare rpc round trips (read) in {ceiling:.2f} s "
        f"= {len(pairs) / ceiling:,.0f}/s through this broker and simulator\n"
    )
    met = True
    for action, r in results.items():
        ok = r["succeeded"] == expected and r["seconds"] <= TARGET_SECONDS
        met = met and ok
        sys.stdout.write(
            f"  {action}: all {int(r['succeeded'])}/{expected} confirmed in {r['seconds']:.2f} s "
            f"(first result {r['first_result'] * 1000:.0f} ms), failed {int(r['failed'])}; "
            f"sent {r['send_rate']:,.0f} commands/s; end to end {expected / r['seconds']:,.0f} commands/s "
            f"— {'OK' if ok else 'MISSED'} (target {TARGET_SECONDS:.0f} s)\n"
        )
    return met


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=50)
    parser.add_argument("--devices", type=int, default=20, help="devices per gateway")
    parser.add_argument("--pg", action="store_true", help="PostgreSQL on 127.0.0.1 instead of SQLite")
    parser.add_argument("--broker", choices=("embedded", "mosquitto"), default="embedded")
    args = parser.parse_args()
    if not (1 <= args.gateways <= 500 and 1 <= args.devices <= 200):
        parser.error("at most 500 gateways of 200 devices")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        if args.pg:
            asyncio.run(_pg_database())
            url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{PG_BENCH_DB}"
        else:
            url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        try:
            met = asyncio.run(bench(args.gateways, args.devices, url, args.broker))
        finally:
            if args.pg:
                with contextlib.suppress(Exception):
                    asyncio.run(_pg_database(drop_only=True))
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
