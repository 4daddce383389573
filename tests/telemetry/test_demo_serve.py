"""What `make run` starts: the app with broker, ingest and the demo sites fed by the simulator."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select

from powerportal import demo
from powerportal.accounts import service as accounts
from powerportal.app import create_app
from powerportal.devices.models import Device
from powerportal.energy.models import DAY, PROJECT, EnergyInterval, EnergyRollup, IncomingMain
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building, Project
from powerportal.telemetry.models import Reading
from tests.conftest import make_settings, stamped


async def test_demo_server_is_alive(database_url: str, tmp_path: Path) -> None:
    settings = make_settings(
        database_url,
        data_dir=tmp_path,  # the demo's secrets and the broker's address land there, not in ./data
        seed_demo=True,
        mqtt_port=18850,
        simulator_interval_seconds=0.5,
        demo_history_days=2,
    )
    app = create_app(settings, background=True)
    async with app.router.lifespan_context(app):
        ctx = app.state.ctx

        async def fed() -> bool:
            async with ctx.sessions() as session:
                devices = await session.scalar(
                    select(func.count()).select_from(Device).where(Device.online == 1)
                )
            return devices == 48

        async with asyncio.timeout(30):
            while not await fed():
                await asyncio.sleep(0.2)
        async with ctx.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Project)) == 2
            assert await session.scalar(select(func.count()).select_from(Building)) == 5
            assert await session.scalar(select(func.count()).select_from(Gateway).where(Gateway.online)) == 4
            assert (await session.scalar(select(func.count()).select_from(Reading)) or 0) >= 48
            # Two days of history (hourly readings) lie behind the live ones, and the simulator carried
            # on from the counters it left: no reset anywhere, and every breaker's use adds up.
            assert (await session.scalar(select(func.count()).select_from(Reading)) or 0) >= 48 * 48
            days = await session.scalar(
                select(func.count(func.distinct(EnergyRollup.start))).where(
                    EnergyRollup.scope == PROJECT, EnergyRollup.grain == DAY
                )
            )
            assert days is not None and days >= 2
            assert not await session.scalar(select(func.sum(EnergyInterval.n_reset)))
            assert (await session.scalar(select(func.sum(EnergyInterval.kwh))) or 0) > 100
            # each gateway's 总进线 is marked as its building's main, and carries its branches plus losses
            mains = set((await session.scalars(select(IncomingMain.device_sysno))).all())
            assert len(mains) == 4
            use = dict(
                (
                    await session.execute(
                        select(EnergyInterval.device_sysno, func.sum(EnergyInterval.kwh)).group_by(
                            EnergyInterval.device_sysno
                        )
                    )
                ).all()
            )
            gateway_of = dict((await session.execute(select(Device.sysno, Device.gateway_sysno))).all())
            for main in mains:
                branches = sum(v for d, v in use.items() if gateway_of[d] == gateway_of[main] and d != main)
                assert 1.0 < use[main] / branches < 1.08
        broker = json.loads((tmp_path / "mqtt-broker.json").read_text())
        assert broker["port"] >= 18850
        credentials = json.loads((tmp_path / "demo-gateways.json").read_text())
        assert [c["sn"] for c in credentials] == [g.sn for g in demo.DEMO_GATEWAYS]

        # The demo account is an ordinary customer (its password is printed); an operator reads the stats.
        async with ctx.sessions() as session:
            await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile="13900000009",
                password="operator1",
                name="运维",
                is_brand_admin=True,
            )
            await session.commit()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

            async def stats_as(mobile: str, password: str) -> dict[str, Any]:
                login = await client.post(
                    "/api/CustomerCenter/LoginByPass", json={"mobile": mobile, "password": stamped(password)}
                )
                token = login.json()["data"]["token"]
                answer: dict[str, Any] = (
                    await client.get("/api/system/IngestStats", headers={"SYSTOKEN": token})
                ).json()
                return answer

            stats = await stats_as("13900000009", "operator1")
            as_demo = await stats_as(demo.DEMO_MOBILE, demo.DEMO_PASSWORD)
            anonymous = (await client.get("/api/system/IngestStats")).json()
        assert stats["statusCode"] == 200 and stats["data"]["running"] and stats["data"]["embedded"]
        assert stats["data"]["readings_written"] >= 48 and stats["data"]["garbage"] == 0
        assert as_demo["statusCode"] == 403
        assert anonymous["statusCode"] == 401
