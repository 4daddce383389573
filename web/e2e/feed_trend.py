"""Writes a day of steady readings for one breaker, every 2 minutes (browser tests of the trend chart).

Run with the server's environment (its ``POWERPORTAL_DATABASE_URL``): the voltage wanders a few
tenths of a volt around 220 V, as a healthy supply does, so the chart must not draw it as a cliff.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
from datetime import timedelta

import powerportal.models  # noqa: F401  (every table, so the reading's foreign keys resolve)
from powerportal.core.database import create_engine, create_sessionmaker
from powerportal.core.timeutil import utcnow
from powerportal.telemetry.models import Reading

# Every 2 minutes: denser than the trend's buckets (24 h / 500 points), so the line has no gaps.
STEP_MINUTES = 2
POINTS = 24 * 60 // STEP_MINUTES


async def main(sysno: int) -> None:
    """Insert the readings of the last 24 hours, ending 5 minutes ago."""
    engine = create_engine(os.environ["POWERPORTAL_DATABASE_URL"])
    sessions = create_sessionmaker(engine)
    # Off the whole minute, so no instant meets the demo's own readings of this breaker.
    end = utcnow().replace(second=17, microsecond=321_000) - timedelta(minutes=5)
    async with sessions() as session:
        for i in range(POINTS):
            wave = math.sin(i / 22)
            session.add(
                Reading(
                    device_sysno=sysno,
                    ts=end - timedelta(minutes=STEP_MINUTES * (POINTS - 1 - i)),
                    voltage=round(220.08 + 0.12 * wave, 2),
                    current=round(6 + 2 * wave, 2),
                    active_power=round(1300 + 440 * wave, 1),
                    temperature=round(26 + wave, 1),
                    leakage_current=round(2.5 + 0.3 * wave, 1),
                )
            )
        await session.commit()
    await engine.dispose()
    print(f"wrote {POINTS} readings")  # noqa: T201


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sysno", type=int, required=True)
    asyncio.run(main(parser.parse_args().sysno))
