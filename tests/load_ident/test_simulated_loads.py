"""The simulator replays real switch-ons of a room's appliances over MQTT; the platform identifies them."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from powerportal.load_ident import replay
from powerportal.load_ident.models import LoadEvent
from powerportal.load_ident.observer import LoadObserver
from powerportal.simulator import Behaviour, SimDevice, SimGateway, Simulator
from tests.control.conftest import free_port
from tests.telemetry.conftest import start_site


def test_the_sample_holds_real_switch_ons_of_forbidden_and_allowed_appliances() -> None:
    held = replay.sample()
    assert {"电水壶", "电热器/取暖器", "微波炉", "笔记本电脑", "显示器", "冰箱"} <= set(held)
    assert all(len(events) == 4 for events in held.values())
    kettle = held["电水壶"][0]
    assert len(kettle["power_series"]["active_power"]) == 131 and kettle["delta_power"] > 1500


async def test_a_room_with_a_kettle_sends_it_with_a_waveform_and_it_is_identified(database_url: str) -> None:
    async for site in start_site(database_url, "embedded", mqtt_port=free_port(), ingest_batch_ms=20):
        observer = LoadObserver()
        site.runtime.ingest.observers.append(observer)
        sn, secret, _gateway = await site.gateway()
        room = SimDevice(device_id="2", name="101宿舍", appliances=("电水壶",))
        quiet = SimDevice(device_id="3", name="102宿舍")
        simulator = Simulator(
            [SimGateway(sn=sn, secret=secret, devices=[room, quiet])],
            site.runtime.gateway_address,
            interval=0.2,
            behaviour=Behaviour(fault_chance=0.0, load_chance=1.0, load_waveform=True),
            seed=11,
        )
        simulator.start()
        try:
            async with asyncio.timeout(20):
                while True:
                    async with site.ctx.sessions() as session:
                        rows = (await session.scalars(select(LoadEvent).order_by(LoadEvent.sysno))).all()
                    if any(r.code == "appliance_off" for r in rows):
                        break
                    await asyncio.sleep(0.1)
        finally:
            await simulator.stop()
        first = rows[0]
        assert (first.target_name, first.code, first.appliance, first.forbidden) == (
            "101宿舍",
            "appliance_on",
            "电水壶",
            1,
        )
        assert first.has_waveform == 1 and len(first.detail["waveform"]["current_a"]) == 512
        assert {r.device_id for r in rows} == {"2"}
        assert simulator.stats.load_events >= 2
