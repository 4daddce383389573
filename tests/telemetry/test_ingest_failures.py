"""A batch the database refuses is written again message by message: no valid reading is lost."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, func, select

from powerportal.devices.models import Device
from powerportal.mqtt import codec
from powerportal.telemetry.ingest import Incoming
from powerportal.telemetry.models import Reading
from tests.telemetry.conftest import start_site


def telemetry(device_id: str, ts: datetime) -> codec.Telemetry:
    sample = codec.Sample(device_id=device_id, ts=ts, values={"voltage": 220.0, "current": 1.0})
    return codec.Telemetry(readings=[sample], rejected=[])


async def test_a_device_deleted_behind_the_ingest_costs_no_reading(database_url: str) -> None:
    sites = start_site(database_url, "embedded")
    site = await anext(sites)
    try:
        ingest = site.runtime.ingest
        sn_a, _, _ = await site.gateway(name="A")
        sn_b, _, _ = await site.gateway(name="B")
        now = datetime.now(UTC).replace(microsecond=0)
        await ingest.flush([Incoming(sn=sn_a, payload=telemetry("1", now), received_at=now)])
        async with site.ctx.sessions() as session:
            await session.execute(delete(Device).where(Device.device_id == "1"))
            await session.commit()
        later = now.replace(second=(now.second + 1) % 60)
        await ingest.flush(
            [
                Incoming(sn=sn_a, payload=telemetry("1", later), received_at=later),
                Incoming(sn=sn_b, payload=telemetry("7", later), received_at=later),
                Incoming(sn=sn_b, payload=telemetry("8", later), received_at=later),
            ]
        )
        assert ingest.stats.batch_failures == 1 and ingest.stats.messages_lost == 0
        async with site.ctx.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(Reading)) == 3
            assert await session.scalar(select(func.count()).select_from(Device)) == 3
    finally:
        await sites.aclose()
