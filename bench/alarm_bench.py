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

import importlib
import logging
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


def _attach(ctx: AppContext, runtime: TelemetryRuntime) -> None:
    alarms = alarms_runtime.attach(ctx, runtime.ingest)
    assert alarms is not None  # noqa: S101
    _engines.append(alarms.engine)


async def _thresholds(ctx: AppContext) -> None:
    async with ctx.sessions() as session:
        await session.execute(update(Device).values(**THRESHOLDS))
        await session.commit()
    _engines[-1].reset()  # the warm-up read the devices before they had thresholds


async def _counts(ctx: AppContext) -> str:
    async with ctx.sessions() as session:
        alarms = await session.scalar(select(func.count()).select_from(Alarm))
        notices = await session.scalar(select(func.count()).select_from(CustomerNotice))
    return f"{alarms or 0:,} alarms, {notices or 0:,} notices"


_engines: list[AlarmEngine] = []
ALARMS = ingest_bench.Feature(
    name="alarms", target=TARGET_SHARE, on_start=_attach, on_announced=_thresholds, describe=_counts
)


if __name__ == "__main__":
    logging.getLogger("powerportal.ingest").setLevel(logging.ERROR)
    sys.exit(uvloop.run(ingest_bench.compare(ALARMS, ingest_bench.parse_args(__doc__, comparison=True))))
