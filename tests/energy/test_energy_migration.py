"""The migration that adds devices' year roll-ups sums the month roll-ups already stored."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.database import create_engine
from powerportal.core.migrate import upgrade
from powerportal.energy.models import DEVICE, MONTH, PROJECT, YEAR, EnergyRollup
from powerportal.projects.models import Project

SHANGHAI = ZoneInfo("Asia/Shanghai")


def month(year: int, m: int) -> datetime:
    return datetime(year, m, 1, tzinfo=SHANGHAI).astimezone(UTC)


async def test_year_rollups_are_the_sums_of_the_local_months(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    await upgrade(engine, "2026_11_25_recharge_index")
    async with engine.connect() as conn:
        await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")  # no customer row needed
        async with AsyncSession(bind=conn) as session:
            session.add(Project(sysno=5, customer_sysno=1, name="项目"))
            for start, kwh, cost in [
                (month(2025, 12), 1.5, 1.0),
                (month(2026, 1), 2.0, 3.0),  # 2025-12-31 16:00 UTC: the local year 2026
                (month(2026, 2), 4.0, 5.0),
            ]:
                session.add(
                    EnergyRollup(scope=DEVICE, owner_sysno=9, grain=MONTH, start=start, project_sysno=5)
                )
                await session.flush()
                row = await session.get(EnergyRollup, (DEVICE, 9, MONTH, start, 5))
                assert row is not None
                row.kwh_1, row.cost_1, row.n_reset = kwh, cost, 1
            # A project's months are not a device's: no year is made of them.
            session.add(
                EnergyRollup(
                    scope=PROJECT, owner_sysno=5, grain=MONTH, start=month(2026, 1), project_sysno=5, kwh_2=9
                )
            )
            await session.commit()
        await conn.commit()
    await upgrade(engine)
    async with AsyncSession(engine) as session:
        years = (
            await session.execute(
                select(EnergyRollup.scope, EnergyRollup.owner_sysno, EnergyRollup.start, EnergyRollup.kwh_1)
                .add_columns(EnergyRollup.cost_1, EnergyRollup.kwh_2, EnergyRollup.n_reset)
                .where(EnergyRollup.grain == YEAR)
                .order_by(EnergyRollup.start)
            )
        ).all()
    await engine.dispose()
    assert [tuple(r) for r in years] == [
        (DEVICE, 9, datetime(2025, 1, 1, tzinfo=SHANGHAI).astimezone(UTC), 1.5, 1.0, 0.0, 1),
        (DEVICE, 9, datetime(2026, 1, 1, tzinfo=SHANGHAI).astimezone(UTC), 6.0, 8.0, 0.0, 2),
    ]
