"""Energy migrations carry what is stored: year roll-ups from the months, departures from the consumption."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from alembic import command
from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.database import create_engine
from powerportal.core.migrate import alembic_config, upgrade
from powerportal.devices.models import Device
from powerportal.energy.models import (
    DEVICE,
    MONTH,
    PROJECT,
    YEAR,
    Departure,
    EnergyInterval,
    EnergyRollup,
    IncomingMain,
)
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Project
from tests.conftest import migrated_pg

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


@pytest.fixture(params=["sqlite", "postgresql"])
def scratch_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> Iterator[str]:
    """A migrated database of the test's own, which it may take back a revision (SQLite or PostgreSQL)."""
    if request.param == "sqlite":
        shutil.copy(sqlite_template, tmp_path / "scratch.db")
        yield f"sqlite+aiosqlite:///{tmp_path / 'scratch.db'}"
        return
    yield from migrated_pg(f"pp_departure_{os.getpid()}")


async def test_moves_made_before_departures_were_noted_are_read_from_the_consumption(
    scratch_url: str,
) -> None:
    """A device with consumption in a project not its own left it for its own after its last quarter there."""
    q1 = datetime(2026, 10, 1, 2, 0, tzinfo=UTC)
    q2 = datetime(2026, 10, 1, 2, 45, tzinfo=UTC)
    engine = create_engine(scratch_url)
    async with AsyncSession(engine) as session:
        customer = Customer(account="13900000071", mobile="13900000071", password_hash="x", name="迁移")
        session.add(customer)
        await session.flush()
        old, new = (
            Project(customer_sysno=customer.sysno, name="旧"),
            Project(customer_sysno=customer.sysno, name="新"),
        )
        session.add_all([old, new])
        await session.flush()
        gateway = Gateway(project_sysno=new.sysno, sn="DEPARTED1", name="网关", secret_hash="x")
        session.add(gateway)
        await session.flush()
        main, load, stayed = (
            Device(gateway_sysno=gateway.sysno, project_sysno=new.sysno, device_id=str(i), name=f"断路器{i}")
            for i in range(3)
        )
        session.add_all([main, load, stayed])
        await session.flush()
        session.add(IncomingMain(device_sysno=main.sysno))
        used = [(main, old, q1), (main, old, q2), (load, old, q1), (main, new, q2 + timedelta(hours=1))]
        used.append((stayed, new, q1))
        for device, project, start in used:
            session.add(
                EnergyInterval(
                    device_sysno=device.sysno,
                    start=start,
                    project_sysno=project.sysno,
                    period=2,
                    kwh=1.0,
                    cost=0.0,
                )
            )
        year = datetime(2026, 1, 1, tzinfo=SHANGHAI).astimezone(UTC)
        for device_sysno, project_sysno in {(d.sysno, p.sysno) for d, p, _ in used}:
            session.add(
                EnergyRollup(
                    scope=DEVICE,
                    owner_sysno=device_sysno,
                    grain=YEAR,
                    start=year,
                    project_sysno=project_sysno,
                )
            )
        expected = {
            (main.sysno, q2 + timedelta(minutes=15), old.sysno, new.sysno, True),
            (load.sysno, q1 + timedelta(minutes=15), old.sysno, new.sysno, False),
        }
        await session.commit()

    def again(connection: Connection) -> None:  # as an install that predates the revision
        config = alembic_config(str(engine.url))
        config.attributes["connection"] = connection
        command.downgrade(config, "2026_12_06_share_sides")
        command.upgrade(config, "head")

    async with engine.begin() as conn:
        await conn.run_sync(again)
    async with AsyncSession(engine) as session:
        found = (
            await session.execute(
                select(
                    Departure.device_sysno,
                    Departure.left_at,
                    Departure.project_sysno,
                    Departure.to_project_sysno,
                    Departure.incoming_main,
                )
            )
        ).all()
    await engine.dispose()
    assert {tuple(row) for row in found} == expected
