"""Billing's cost: charging 10,000 prepaid accounts from a day of intervals, and billing on the ingest.

1. **Charging.** 10,000 devices with a day of quarter-hour consumption each (960,000 intervals,
   written and folded into the roll-ups through the energy store), each device a prepaid account:
   one charge of every account (``charging.charge``, one transaction) is timed. Target (issue 16):
   under 10 s on PostgreSQL. Beside it, in the same run, the time to read the accounts and their
   devices' year totals alone (what any charge must read).
2. **Ingest.** The ingest benchmark with energy counting in both runs, and in one of them the
   billing worker charging after each fold with every device a prepaid account. Target: the run
   with billing keeps at least 85 % of the readings/s of the run without (best of ``--repeat``).

    uv run python bench/billing_bench.py [--accounts 10000] [--databases sqlite postgresql] [--skip-ingest]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import uvloop
from sqlalchemy import func, insert, select

from powerportal.accounts import service as accounts
from powerportal.billing import charging
from powerportal.billing.models import OPEN, PREPAY, BillingAccount, LedgerEntry
from powerportal.billing.worker import BillingWorker
from powerportal.control.commands import Commander
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.devices.models import Device
from powerportal.energy import store
from powerportal.energy.counting import Quarter
from powerportal.energy.observer import EnergyObserver
from powerportal.gateways import service as gateways
from powerportal.projects.models import Project
from powerportal.telemetry.runtime import TelemetryRuntime

sys.path.insert(0, str(Path(__file__).parent))
ingest_bench: Any = importlib.import_module("ingest_bench")

CHARGE_TARGET_SECONDS = 10.0
INGEST_TARGET_SHARE = 0.85
PRICE_E4 = 6_000  # 0.60 ¥/kWh
DAY = datetime(2026, 11, 25, tzinfo=UTC)


async def _fleet(ctx: AppContext, count: int) -> list[int]:
    """A customer, a project, one gateway per 100 devices, ``count`` devices; their sysnos."""
    async with ctx.sessions() as session:
        customer = await accounts.create_customer(
            session=session,
            ctx=ctx,
            mobile="13900008888",
            password="bench12345",  # noqa: S106
            name="电费压测",
        )
        project = Project(customer_sysno=customer.sysno, name="电费压测项目")
        session.add(project)
        await session.flush()
        rows = []
        for g in range((count + 99) // 100):
            gateway, _secret = await gateways.create_gateway(
                session=session, ctx=ctx, project_sysno=project.sysno, sn=f"BILL-{g:04d}", name=f"楼层{g}"
            )
            rows += [
                {
                    "gateway_sysno": gateway.sysno,
                    "project_sysno": project.sysno,
                    "device_id": str(d + 1),
                    "name": f"房间{g:03d}{d:02d}",
                    "rated_current": 63.0,
                }
                for d in range(min(100, count - g * 100))
            ]
        await session.execute(insert(Device), rows)
        await session.commit()
        found = (await session.scalars(select(Device.sysno).order_by(Device.sysno))).all()
        return list(found)


async def _open_accounts(ctx: AppContext, devices: list[int], *, balance_fen: int, since: datetime) -> None:
    """A prepaid account per device, opened before ``since`` (the first consumption to charge)."""
    async with ctx.sessions() as session:
        customer, project = (
            await session.execute(select(Project.customer_sysno, Project.sysno).limit(1))
        ).one()
        now = datetime.now(UTC)
        opened = charging.opening(since - timedelta(days=1), ZoneInfo("Asia/Shanghai"))
        await session.execute(
            insert(BillingAccount),
            [
                {
                    "customer_sysno": customer,
                    "project_sysno": project,
                    "device_sysno": device,
                    "holder_name": f"住户{i}",
                    "notify_holder": False,
                    "charge_type": PREPAY,
                    "flat_price_e4": PRICE_E4,
                    "warn_fen": 0,
                    "cutoff_fen": -100_000_000,
                    "overdraft_fen": 0,
                    "keep_power": False,
                    "state": OPEN,
                    "balance_fen": balance_fen,
                    "charged_fen": 0,
                    "charged_kwh": 0.0,
                    "base_kwh": 0.0,
                    "base_cost": 0.0,
                    "base_fen": 0,
                    "base_charged_kwh": 0.0,
                    "warned": False,
                    "power": "on",
                    "create_time": now,
                    **opened,
                }
                for i, device in enumerate(devices)
            ],
        )
        await session.commit()


async def _day_of_intervals(ctx: AppContext, devices: list[int]) -> int:
    """96 quarters of consumption per device through the energy store, folded into the roll-ups."""
    async with ctx.sessions() as session:
        project = await session.scalar(select(Project.sysno).limit(1))
        assert project is not None  # noqa: S101
        prices = await store.pricings(session, {project})
    written = 0
    chunk: list[store.Change] = []
    for n, device in enumerate(devices):
        for q in range(96):
            chunk.append(
                store.Change(
                    device, project, DAY + timedelta(minutes=15 * q), Quarter(0.05 + (n + q) % 7 * 0.01)
                )
            )
        if len(chunk) >= 48_000 or n == len(devices) - 1:
            async with ctx.sessions() as session:
                written += await store.write(session, chunk, prices)
                await store.fold(session)
                await session.commit()
            chunk = []
    return written


async def charge_scale(database: str, url: str, count: int) -> bool:
    ctx = AppContext.build(Settings(database_url=url, secret_key="bench", password_hash_profile="fast"))  # noqa: S106
    try:
        await upgrade(ctx.engine)
        devices = await _fleet(ctx, count)
        await _open_accounts(ctx, devices, balance_fen=100_000, since=DAY)
        started = time.perf_counter()
        intervals = await _day_of_intervals(ctx, devices)
        prepared = time.perf_counter() - started
        # the floor: reading the accounts and their devices' totals, nothing written
        started = time.perf_counter()
        async with ctx.sessions() as session:
            held = (await session.scalars(select(BillingAccount))).all()
            await charging.used(session, held)
        floor = time.perf_counter() - started
        started = time.perf_counter()
        async with ctx.sessions() as session:
            done = await charging.charge(session)
            await session.commit()
        seconds = time.perf_counter() - started
        async with ctx.sessions() as session:
            entries = await session.scalar(select(func.count()).select_from(LedgerEntry)) or 0
            charged = await session.scalar(select(func.sum(BillingAccount.charged_fen))) or 0
        expected = sum(
            round(sum(0.05 + (n + q) % 7 * 0.01 for q in range(96)) * 0.6 * 100) for n in range(count)
        )
        ok = (
            seconds < CHARGE_TARGET_SECONDS
            and done.entries == count == entries
            and abs(charged - expected) <= count
        )
        print(
            f"{database:<10} charged {done.accounts:,} accounts from {intervals:,} intervals"
            f" in {seconds:.2f} s"
            f"  (reading accounts and totals alone {floor:.2f} s; writing the day {prepared:.1f} s)"
            f"  {entries:,} ledger entries, ¥{charged / 100:,.2f} charged"
            f"  [{'OK' if ok else 'BELOW TARGET'} < {CHARGE_TARGET_SECONDS:.0f} s]",
            flush=True,
        )
        return ok
    finally:
        await ctx.close()


# -- billing on the ingest ---------------------------------------------------------------------------


def _energy(ctx: AppContext, runtime: TelemetryRuntime) -> None:
    runtime.ingest.observers.append(EnergyObserver(ctx.sessions))


def _billing(ctx: AppContext, runtime: TelemetryRuntime) -> None:
    energy = next(o for o in runtime.ingest.observers if isinstance(o, EnergyObserver))
    worker = BillingWorker(ctx, Commander(ctx))
    energy.after_fold.append(worker.folded)


async def _accounts_for_all(ctx: AppContext) -> None:
    async with ctx.sessions() as session:
        devices = list((await session.scalars(select(Device.sysno))).all())
    await _open_accounts(ctx, devices, balance_fen=10_000_000, since=ingest_bench.START)


async def _charged(ctx: AppContext) -> str:
    async with ctx.sessions() as session:
        entries = await session.scalar(select(func.count()).select_from(LedgerEntry)) or 0
    return f"{entries:,} charges"


BILLING = ingest_bench.Feature(
    name="billing",
    target=INGEST_TARGET_SHARE,
    on_start=_billing,
    describe=_charged,
    on_announced=_accounts_for_all,
    base=_energy,
)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accounts", type=int, default=10_000, help="prepaid accounts charged at once")
    parser.add_argument("--skip-ingest", action="store_true", help="only the charging figure")


async def main(args: argparse.Namespace) -> int:
    count = args.accounts
    databases = args.databases
    failed = False
    for database in databases:
        if database == "postgresql":
            if not await ingest_bench.pg_up():
                print("PostgreSQL is not reachable; skipping it", file=sys.stderr)
                continue
            await ingest_bench.pg_database(create=True)
            try:
                failed |= not await charge_scale(database, ingest_bench.PG_URL, count)
            finally:
                await ingest_bench.pg_database(create=False)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                failed |= not await charge_scale(
                    database, f"sqlite+aiosqlite:///{Path(tmp) / 'bill.db'}", count
                )
    if not args.skip_ingest:
        failed |= bool(await ingest_bench.compare(BILLING, args))
    return 1 if failed else 0


if __name__ == "__main__":
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    sys.exit(uvloop.run(main(ingest_bench.parse_args(__doc__, comparison=True, extra=_options))))
