"""A year of consumption for the demo's breakers, so that the energy screens are full on first start.

Written once, on a fresh install, before the simulator starts: each demo breaker gets its device
row, hourly counter readings for the past ``demo_history_days`` (400) and, from the same load model, the
quarter-hours between them (``store.write`` and ``store.fold``, so intervals, roll-ups and costs are
what the ingest would have written). The counters end where the simulator then carries on
(``resume``), so live readings continue the history without a reset.

The load follows the simulator's daily profiles, with seasons (air conditioning in summer), weekends
(offices quieter) and the school holidays (dormitories nearly empty), and a little day-to-day noise.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal import demo
from powerportal.brands.service import all_brands
from powerportal.core.context import AppContext
from powerportal.devices.models import Device
from powerportal.energy import counting, store
from powerportal.energy.counting import Quarter
from powerportal.energy.models import IncomingMain
from powerportal.gateways.models import Gateway
from powerportal.mqtt.transport import BrokerAddress
from powerportal.simulator import (
    LINE_LOSS,
    NOMINAL_POWER_FACTOR,
    NOMINAL_VOLTAGE,
    SimDevice,
    SimGateway,
    Simulator,
    load_factor,
)
from powerportal.telemetry import service as telemetry
from powerportal.telemetry.models import Reading

log = logging.getLogger("powerportal.demo")

SITE_ZONE = ZoneInfo("Asia/Shanghai")
CHUNK_QUARTERS = 7 * 96


def _season(day: date) -> float:
    """Air conditioning in summer, heaters in winter."""
    return {6: 1.25, 7: 1.4, 8: 1.4, 9: 1.2, 12: 1.1, 1: 1.15, 2: 1.05}.get(day.month, 1.0)


def _occupancy(day: date, profile: str) -> float:
    """Dormitories empty in the school holidays; offices and schools quiet at weekends."""
    if profile == "dorm":
        if (day.month, day.day) >= (7, 10) and day.month <= 8 or (1, 15) <= (day.month, day.day) <= (2, 20):
            return 0.15
        return 0.9 if day.weekday() >= 5 else 1.0
    if profile == "office":
        return 0.25 if day.weekday() >= 5 else 1.0
    return 1.0


def _quarters(device: SimDevice, first: datetime, count: int, rng: random.Random) -> list[float]:
    """The kWh of each quarter-hour from ``first`` (UTC) on."""
    kw_full = device.rated_current * NOMINAL_VOLTAGE * NOMINAL_POWER_FACTOR * device.phases / 1000
    out: list[float] = []
    factor, current_day = 1.0, None
    for i in range(count):
        local = (first + timedelta(minutes=15 * i + 7.5)).astimezone(SITE_ZONE)
        if local.date() != current_day:
            current_day = local.date()
            factor = _season(current_day) * _occupancy(current_day, device.profile) * rng.uniform(0.85, 1.15)
        hour = local.hour + local.minute / 60
        load = min(1.0, load_factor(hour, device.profile) * device.scale * factor)
        out.append(round(kw_full * load * 0.25, 4))
    return out


async def ensure_devices(session: AsyncSession, fleet: list[SimGateway]) -> dict[int, SimDevice]:
    """The demo breakers' device rows (created as the gateway would announce them), by sysno."""
    found: dict[int, SimDevice] = {}
    for sim in fleet:
        gateway = await session.scalar(select(Gateway).where(Gateway.sn == sim.sn))
        if gateway is None:
            continue
        for device in sim.devices:
            row = await session.scalar(
                select(Device).where(
                    Device.gateway_sysno == gateway.sysno, Device.device_id == device.device_id
                )
            )
            if row is None:
                row = await telemetry.create_device(
                    session=session,
                    gateway_sysno=gateway.sysno,
                    project_sysno=gateway.project_sysno,
                    device_id=device.device_id,
                    name=device.name,
                    kind="breaker",
                    phases=device.phases,
                    model=device.model,
                )
                if device.incomer:  # the demo's 总进线 is marked as its building's incoming main
                    session.add(IncomingMain(device_sysno=row.sysno))
            row.rated_current = device.rated_current
            found[row.sysno] = device
    return found


async def seed(ctx: AppContext, fleet: list[SimGateway], *, days: int, now: datetime | None = None) -> int:
    """Write ``days`` of history once (not when the breakers have readings); return the readings written."""
    if days <= 0:
        return 0
    started = time.perf_counter()
    end = counting.quarter_of(now or datetime.now(UTC))
    first = end - timedelta(days=days)
    count = days * 96
    async with ctx.sessions() as session:
        devices = await ensure_devices(session, fleet)
        if not devices or await session.scalar(
            select(func.count()).select_from(Reading).where(Reading.device_sysno.in_(devices))
        ):
            await session.commit()
            return 0
        meters, _ = await store.meters(session, devices)
        prices = await store.pricings(session, {m.project_sysno for m in meters.values()})
        await session.commit()
    use = {}
    for sysno, device in devices.items():
        # Seconds of arithmetic: aside, so that the server answers in between (the GIL takes turns).
        use[sysno] = await asyncio.to_thread(_quarters, device, first, count, random.Random(sysno))
    for sim in fleet:  # an incoming main carries its gateway's other breakers and the losses
        on = {id(d) for d in sim.devices}
        mains = [s for s, d in devices.items() if d.incomer and id(d) in on]
        branches = [use[s] for s, d in devices.items() if not d.incomer and id(d) in on]
        for main in mains:
            use[main] = [round(sum(q) * (1 + LINE_LOSS), 4) for q in zip(*branches, strict=True)]
    written = 0
    for sysno, device in devices.items():
        quarters = use[sysno]
        counter = device.energy
        # A week per transaction: a request waiting for the database waits for one week's rows at most.
        for lo in range(0, count, CHUNK_QUARTERS):
            rows, changes = [], []
            for i in range(lo, min(lo + CHUNK_QUARTERS, count)):
                at = first + timedelta(minutes=15 * i)
                if i % 4 == 0:  # an hourly reading of the counter as it stood
                    rows.append(
                        telemetry.reading_row(
                            device_sysno=sysno, ts=at, values={"energy": round(counter, 3)}, extra={}
                        )
                    )
                changes.append(store.Change(sysno, meters[sysno].project_sysno, at, Quarter(quarters[i])))
                counter += quarters[i]
            if lo + CHUNK_QUARTERS >= count:
                rows.append(
                    telemetry.reading_row(
                        device_sysno=sysno, ts=end, values={"energy": round(counter, 3)}, extra={}
                    )
                )
            async with ctx.sessions() as session:
                await telemetry.insert_readings(session=session, rows=rows)
                await store.write(session, changes, prices)
                await store.fold(session)
                await session.commit()
            written += len(rows)
        device.energy = counter
    log.info("演示数据：%d 台设备一年的用电历史，%.1f 秒", len(devices), time.perf_counter() - started)
    return written


async def resume(ctx: AppContext, fleet: list[SimGateway]) -> None:
    """Let the simulated counters carry on from the last readings stored (no reset on a restart)."""
    async with ctx.sessions() as session:
        for sim in fleet:
            gateway = await session.scalar(select(Gateway.sysno).where(Gateway.sn == sim.sn))
            for device in sim.devices:
                last = await session.scalar(
                    select(Reading.energy)
                    .join(Device, Device.sysno == Reading.device_sysno)
                    .where(
                        Device.gateway_sysno == gateway,
                        Device.device_id == device.device_id,
                        Reading.energy.is_not(None),
                    )
                    .order_by(Reading.ts.desc())
                    .limit(1)
                )
                if last is not None:
                    device.energy = float(last)


async def feed(
    ctx: AppContext, credentials: list[tuple[str, str]], address: BrokerAddress, *, interval: float, days: int
) -> Simulator:
    """Write the history (on a fresh install), then start the simulator where the counters stand."""
    fleet = demo.demo_fleet(credentials)
    try:
        await seed(ctx, fleet, days=days)
    except Exception:  # the demo runs on without its history rather than not at all
        log.exception("演示历史数据写入失败")
    await resume(ctx, fleet)
    load_waveform = all_brands()[ctx.settings.brand].flags.loadWaveform
    return demo.start_simulator(fleet, address, interval=interval, load_waveform=load_waveform)
