"""Energy after a backfill: 100 devices send 7 days of stored readings, and the roll-ups are right at once.

Reuses ``bench/ingest_bench.py``'s publisher and broker with the energy observer attached: 5
gateways × 20 devices each publish, oldest first, 168 messages of 60 instants a minute apart (a
gateway catching up a week offline; counters rise in every reading), as fast as the broker takes
them. The roll-ups are written in each batch's transaction, so they are right once the last
reading is committed: the figure is the time from the publisher's last message to that commit
(target, issue 12: under 5 s). Then every device's intervals are checked against its counter's
increase (to 0.001 kWh), and the device, project, day and month sums against each other.

    uv run python bench/energy_backfill_bench.py [--databases sqlite postgresql]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

import uvloop
from sqlalchemy import func, select

from powerportal.core.context import AppContext
from powerportal.energy.models import DAY, DEVICE, MONTH, PROJECT, EnergyInterval, EnergyRollup
from powerportal.telemetry.models import Reading

sys.path.insert(0, str(Path(__file__).parent))
ingest_bench: Any = importlib.import_module("ingest_bench")
energy_bench: Any = importlib.import_module("energy_bench")

TARGET_SECONDS = 5.0
EPS_KWH = 0.001


async def check(ctx: AppContext) -> str:
    """Every device's intervals against its counter's increase, and the roll-ups against each other."""
    async with ctx.sessions() as session:
        rises = dict(
            (
                await session.execute(
                    select(Reading.device_sysno, func.max(Reading.energy) - func.min(Reading.energy))
                    # the ingest's readings, not the ceiling's rows written beside them (400 days before)
                    .where(Reading.energy.is_not(None), Reading.ts >= ingest_bench.START)
                    .group_by(Reading.device_sysno)
                )
            ).all()
        )
        counted = dict(
            (
                await session.execute(
                    select(EnergyInterval.device_sysno, func.sum(EnergyInterval.kwh)).group_by(
                        EnergyInterval.device_sysno
                    )
                )
            ).all()
        )
        kwh = sum(getattr(EnergyRollup, f"kwh_{i}") for i in range(5))
        sums = {
            (scope, grain): float(total or 0)
            for scope, grain, total in await session.execute(
                select(EnergyRollup.scope, EnergyRollup.grain, func.sum(kwh)).group_by(
                    EnergyRollup.scope, EnergyRollup.grain
                )
            )
        }
    worst = max(abs(float(rises[d]) - float(counted.get(d, 0.0))) for d in rises)
    whole = sum(float(v) for v in counted.values())
    spread = max(abs(sums.get(key, 0.0) - whole) for key in [(DEVICE, DAY), (DEVICE, MONTH), (PROJECT, DAY)])
    spread = max(spread, abs(sums.get((PROJECT, MONTH), 0.0) - whole))
    ok = worst <= EPS_KWH and spread <= EPS_KWH * len(rises)
    return (
        f"{len(rises)} devices, {whole:,.3f} kWh; worst device off its counter by {worst:.4f} kWh,"
        f" roll-ups off the intervals by {spread:.4f} kWh  [{'OK' if ok else 'WRONG'}]"
    )


async def main(args: argparse.Namespace) -> int:
    failed = False
    for database in args.databases:
        if database == "postgresql" and not await ingest_bench.pg_up():
            print("PostgreSQL is not reachable; skipping it", file=sys.stderr)
            continue
        tmp = tempfile.TemporaryDirectory()
        if database == "postgresql":
            await ingest_bench.pg_database(create=True)
            url = ingest_bench.PG_URL
        else:
            url = f"sqlite+aiosqlite:///{Path(tmp.name) / 'backfill.db'}"
        try:
            result = await ingest_bench.run_one(
                database, url, "embedded", args, on_start=energy_bench._attach, describe=check
            )
        finally:
            if database == "postgresql":
                await ingest_bench.pg_database(create=False)
            tmp.cleanup()
        ok = result.drain_seconds < TARGET_SECONDS and "[OK]" in result.note
        span = args.messages * args.points * args.step
        failed |= not ok
        print(
            f"{database:<10} {result.readings:,} readings ({span / 86400:.1f} days) in {result.seconds:.1f} s"
            f" ({result.rate:,.0f}/s); roll-ups right"
            f" {result.drain_seconds:.1f} s after the last message (target < {TARGET_SECONDS:.0f} s)"
            f"  [{'OK' if ok else 'MISS'}]\n           {result.note}",
            flush=True,
        )
    return 1 if failed else 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gateways", type=int, default=5)
    parser.add_argument("--devices", type=int, default=20, help="devices per gateway")
    parser.add_argument("--points", type=int, default=60, help="instants per device per message")
    parser.add_argument("--messages", type=int, default=168, help="messages per gateway")
    parser.add_argument("--step", type=float, default=60.0, help="seconds between instants")
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--timeout", type=float, default=600.0)
    return parser.parse_args()


if __name__ == "__main__":
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    sys.exit(uvloop.run(main(parse_args())))
