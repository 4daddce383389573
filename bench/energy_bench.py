"""Energy counting's cost on the ingest: the ingest benchmark run with and without the energy observer.

Reuses ``bench/ingest_bench.py`` (same publisher process, same broker, same readings: every
simulated breaker reports a rising ``energy`` counter). With the observer, every batch's counter
readings become quarter-hour intervals and roll-ups in the batch's transaction. Target (issue 12):
the run with energy keeps at least 90 % of the readings/s of the run without, best of ``--repeat``
interleaved runs per configuration, on SQLite and PostgreSQL.

    uv run python bench/energy_bench.py [--gateways 50 --devices 20 --points 10 --messages 20]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import uvloop
from sqlalchemy import func, select

from powerportal.core.context import AppContext
from powerportal.energy.models import EnergyInterval
from powerportal.energy.observer import EnergyObserver
from powerportal.telemetry.runtime import TelemetryRuntime

# The publisher process unpickles ``ingest_bench.publisher_main``: the module must be importable by name.
sys.path.insert(0, str(Path(__file__).parent))
ingest_bench: Any = importlib.import_module("ingest_bench")

TARGET_SHARE = 0.9

_original_start = ingest_bench.telemetry_runtime.start
_with_energy = False
_contexts: list[AppContext] = []


async def _start(ctx: AppContext, **kwargs: Any) -> TelemetryRuntime:
    runtime: TelemetryRuntime = await _original_start(ctx, **kwargs)
    _contexts.append(ctx)
    if _with_energy:
        runtime.ingest.observers.append(EnergyObserver())
    return runtime


async def _intervals(ctx: AppContext) -> int:
    async with ctx.sessions() as session:
        return await session.scalar(select(func.count()).select_from(EnergyInterval)) or 0


async def main(args: argparse.Namespace) -> int:
    global _with_energy
    ingest_bench.telemetry_runtime.start = _start
    databases = [d for d in args.databases if d != "postgresql" or await ingest_bench.pg_up()]
    readings = args.gateways * args.messages * args.devices * args.points
    print(f"{readings:,} readings per run, broker: embedded", flush=True)
    failed = False
    for database in databases:
        rates: dict[bool, list[float]] = {False: [], True: []}
        for energy in [False, True] * args.repeat:
            _with_energy = energy
            if database == "postgresql":
                await ingest_bench.pg_database(create=True)
                url = ingest_bench.PG_URL
            else:
                url = f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'energy-bench.db'}"
            result = await ingest_bench.run_one(database, url, "embedded", args)
            rates[energy].append(result.rate)
            extra = ""
            if energy:
                ctx = AppContext.build(_contexts[-1].settings)
                extra = f"  ({await _intervals(ctx):,} quarter-hour intervals)"
                await ctx.close()
            label = "with energy" if energy else "no energy"
            print(f"{database:<10} {label:<12} {result.rate:>10,.0f} readings/s{extra}", flush=True)
            if database == "postgresql":
                await ingest_bench.pg_database(create=False)
        share = max(rates[True]) / max(rates[False])
        median_share = statistics.median(rates[True]) / statistics.median(rates[False])
        ok = share >= TARGET_SHARE
        failed |= not ok
        print(
            f"{database:<10} best {max(rates[False]):,.0f} → {max(rates[True]):,.0f} readings/s:"
            f" energy keeps {share:.0%} of the rate (medians {median_share:.0%})"
            f"  [{'OK' if ok else 'BELOW TARGET'} ≥{TARGET_SHARE:.0%}]",
            flush=True,
        )
    return 1 if failed else 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gateways", type=int, default=50)
    parser.add_argument("--devices", type=int, default=20, help="devices per gateway")
    parser.add_argument("--points", type=int, default=10, help="instants per device per message")
    parser.add_argument("--messages", type=int, default=20, help="messages per gateway")
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration")
    return parser.parse_args()


if __name__ == "__main__":
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    sys.exit(uvloop.run(main(parse_args())))
