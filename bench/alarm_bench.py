"""Alarm-rule cost on the ingest: the ingest benchmark run with and without the alarm engine.

Reuses ``bench/ingest_bench.py`` (same publisher process, same broker, same readings). In the run
with alarms every device has all six thresholds set (over/under-voltage, over-current, power,
leakage, temperature), chosen so that some devices do cross them: alarms open and close, notices
are written, and every reading is evaluated. Target: the run with alarms keeps at least 80 % of
the readings/s of the run without.

On a shared machine the runs are noisy: each configuration runs ``--repeat`` times, interleaved
(without, with, without, with …), and the best run of each is compared (the median is shown too).

    uv run python bench/alarm_bench.py [--gateways 50 --devices 20 --points 10 --messages 20]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import statistics
import sys
from pathlib import Path
from typing import Any

import uvloop
from sqlalchemy import func, select, update

from powerportal.alarms import runtime as alarms_runtime
from powerportal.alarms.engine import AlarmEngine
from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.core.context import AppContext
from powerportal.devices.models import Device
from powerportal.telemetry.runtime import TelemetryRuntime

# The publisher process unpickles ``ingest_bench.publisher_main``: the module must be importable by name.
sys.path.insert(0, str(Path(__file__).parent))
ingest_bench: Any = importlib.import_module("ingest_bench")

TARGET_SHARE = 0.8
# Thresholds every device gets; the simulated breakers (32 A rated, 220 V ± 5 %) cross some of them.
THRESHOLDS = {
    "over_voltage": 228.0,
    "under_voltage": 212.0,
    "over_current": 14.0,
    "power_limit": 3000.0,
    "leakage_limit": 30.0,
    "temperature_limit": 45.0,
}

_original_start = ingest_bench.telemetry_runtime.start
_original_announce = ingest_bench.announce
_with_alarms = False
_contexts: list[AppContext] = []
_engines: list[AlarmEngine] = []


async def _start(ctx: AppContext, **kwargs: Any) -> TelemetryRuntime:
    runtime: TelemetryRuntime = await _original_start(ctx, **kwargs)
    _contexts.append(ctx)
    if _with_alarms:
        alarms = alarms_runtime.attach(ctx, runtime.ingest)
        assert alarms is not None  # noqa: S101
        _engines.append(alarms.engine)
    return runtime


async def _announce(runtime: TelemetryRuntime, credentials: list[tuple[str, str]], n: int) -> None:
    await _original_announce(runtime, credentials, n)
    if not _with_alarms:
        return
    ctx = _contexts[-1]
    async with ctx.sessions() as session:
        await session.execute(update(Device).values(**THRESHOLDS))
        await session.commit()
    _engines[-1].reset()  # the warm-up read the devices before they had thresholds


async def _counts(ctx: AppContext) -> tuple[int, int]:
    async with ctx.sessions() as session:
        alarms = await session.scalar(select(func.count()).select_from(Alarm))
        notices = await session.scalar(select(func.count()).select_from(CustomerNotice))
    return alarms or 0, notices or 0


async def main(args: argparse.Namespace) -> int:
    global _with_alarms
    ingest_bench.telemetry_runtime.start = _start
    ingest_bench.announce = _announce
    databases = [d for d in args.databases if d != "postgresql" or await ingest_bench.pg_up()]
    readings = args.gateways * args.messages * args.devices * args.points
    print(f"{readings:,} readings per run, broker: embedded", flush=True)
    failed = False
    for database in databases:
        rates: dict[bool, list[float]] = {False: [], True: []}
        for alarms in [False, True] * args.repeat:
            _with_alarms = alarms
            if database == "postgresql":
                await ingest_bench.pg_database(create=True)
                url = ingest_bench.PG_URL
            else:
                import tempfile

                tmp = tempfile.mkdtemp()
                url = f"sqlite+aiosqlite:///{Path(tmp) / 'alarm-bench.db'}"
            # The ingest benchmark's own targets do not apply here: only the ratio matters.
            result = await ingest_bench.run_one(database, url, "embedded", args)
            rates[alarms].append(result.rate)
            extra = ""
            if alarms:
                ctx = AppContext.build(_contexts[-1].settings)
                opened, notices = await _counts(ctx)
                await ctx.close()
                extra = f"  ({opened:,} alarms, {notices:,} notices)"
            label = "with alarms" if alarms else "no alarms"
            print(f"{database:<10} {label:<12} {result.rate:>10,.0f} readings/s{extra}", flush=True)
            if database == "postgresql":
                await ingest_bench.pg_database(create=False)
        share = max(rates[True]) / max(rates[False])
        median_share = statistics.median(rates[True]) / statistics.median(rates[False])
        ok = share >= TARGET_SHARE
        failed |= not ok
        print(
            f"{database:<10} best {max(rates[False]):,.0f} → {max(rates[True]):,.0f} readings/s:"
            f" alarms keep {share:.0%} of the rate ({1 - share:+.0%} cost; medians {median_share:.0%})"
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
