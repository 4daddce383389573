"""Energy counting's cost on the ingest: the ingest benchmark run with and without the energy observer.

Reuses ``bench/ingest_bench.py`` (same publisher process, same broker, same readings: every
simulated breaker reports a rising ``energy`` counter). With the observer, every batch's counter
readings become quarter-hour intervals in the batch's transaction, folded into the roll-ups after
the commits (the folds run in the measured time). Target (issue 12):
the run with energy keeps at least 90 % of the readings/s of the run without, best of ``--repeat``
interleaved runs per configuration, on SQLite and PostgreSQL.

Each run is 600,000 readings (60 messages a gateway, about 13 s): a throughput held, with the
roll-ups' folds every 5 s in it. In the ingest benchmark's 200,000 (about 4 s) the start (every
device's tail read) and the last fold weighed more than in a held stream.

    uv run python bench/energy_bench.py [--gateways 50 --devices 20 --points 10 --messages 60]
"""

from __future__ import annotations

import importlib
import logging
import sys
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


def _attach(ctx: AppContext, runtime: TelemetryRuntime) -> None:
    runtime.ingest.observers.append(EnergyObserver(ctx.sessions))


async def _intervals(ctx: AppContext) -> str:
    async with ctx.sessions() as session:
        count = await session.scalar(select(func.count()).select_from(EnergyInterval)) or 0
    return f"{count:,} quarter-hour intervals"


ENERGY = ingest_bench.Feature(name="energy", target=TARGET_SHARE, on_start=_attach, describe=_intervals)


if __name__ == "__main__":
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    args = ingest_bench.parse_args(__doc__, comparison=True, messages=60)
    sys.exit(uvloop.run(ingest_bench.compare(ENERGY, args)))
