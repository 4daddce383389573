"""The simulator speaks the protocol: realistic readings, commands answered, refused or ignored."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from powerportal.devices.models import Device
from powerportal.logs.models import StatusLog
from powerportal.simulator import Behaviour, Simulator, load_factor, make_fleet
from powerportal.telemetry.models import Reading
from tests.telemetry.conftest import Site


async def wait_until(check: object, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not await check():  # type: ignore[operator]
            await asyncio.sleep(0.1)


async def test_simulated_gateway_reports_and_obeys_commands(site: Site) -> None:
    sn, secret, _ = await site.gateway()
    simulator = Simulator(make_fleet([(sn, secret)], 3), site.runtime.gateway_address, interval=0.3, seed=3)
    simulator.start()
    try:

        async def three_readings_each() -> bool:
            async with site.ctx.sessions() as session:
                rows = (await session.scalars(select(Reading))).all()
            return len(rows) >= 9

        await wait_until(three_readings_each)
        async with site.ctx.sessions() as session:
            devices = {d.device_id: d for d in (await session.scalars(select(Device))).all()}
            readings = (await session.scalars(select(Reading).order_by(Reading.ts))).all()
        assert devices["1"].phases == 3 and devices["1"].name == "总进线" and devices["2"].phases == 1
        for device in devices.values():
            series = [r for r in readings if r.device_sysno == device.sysno]
            energies = [r.energy for r in series]
            assert energies == sorted(energies)
            for r in series:
                volts = [v for v in (r.voltage, r.voltage_a, r.voltage_b, r.voltage_c) if v is not None]
                assert volts and all(209 <= v <= 231 for v in volts)

        answer = await site.runtime.rpc.call(sn=sn, device_id="2", method="switch", params={"on": False})
        assert answer.ok and answer.result == {"switch": 0}

        async def switched_off() -> bool:
            async with site.ctx.sessions() as session:
                device = await session.get(Device, devices["2"].sysno, populate_existing=True)
                logged = await session.scalar(select(StatusLog).where(StatusLog.status_type == "switch_off"))
            return device is not None and device.switch_state == 0 and logged is not None

        await wait_until(switched_off)
        reading = await site.runtime.rpc.call(sn=sn, device_id="3", method="read")
        assert reading.ok and 209 <= reading.result["voltage"] <= 231
        unknown = await site.runtime.rpc.call(sn=sn, device_id="99", method="read")
        assert not unknown.ok and unknown.error == "unknown_device"

        simulator.behaviour.rpc = "refuse"
        refused = await site.runtime.rpc.call(sn=sn, device_id="2", method="switch", params={"on": True})
        assert not refused.ok and refused.error == "refused"
        simulator.behaviour.rpc = "silent"
        with pytest.raises(TimeoutError):
            await site.runtime.rpc.call(
                sn=sn, device_id="2", method="switch", params={"on": True}, timeout=1.0
            )
        assert site.runtime.rpc.timeouts == 1
    finally:
        await simulator.stop()


def test_load_curves_peak_where_people_are() -> None:
    assert load_factor(21, "dorm") > 3 * load_factor(4, "dorm")
    assert load_factor(10, "office") > 3 * load_factor(22, "office")
    assert all(0 < load_factor(h, p) < 1.2 for h in range(24) for p in ("dorm", "office", "plant"))


def test_behaviour_defaults_answer_commands() -> None:
    assert Behaviour().rpc == "answer"
