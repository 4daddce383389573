"""The simulator drives one demo breaker into over-current against its threshold (browser tests).

Run in the server's working directory with its environment: it reads the first demo gateway's
credentials and the embedded broker's port from the data folder, gives breaker 2 of that gateway a
customer's over-current threshold (40 A) as its only rule, then runs the real simulator for that
gateway with the breaker stuck in an over-current fault (it draws 115-140 % of its 40 A rating),
reporting every second for ``--seconds``. No random faults or offline spells.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from sqlalchemy import select

from powerportal import models  # noqa: F401 - every table, for the foreign keys
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.mqtt.transport import BrokerAddress
from powerportal.simulator import Behaviour, SimDevice, SimGateway, Simulator

DEVICE_ID = "2"
THRESHOLD = 40.0


async def register(sn: str) -> None:
    """Breaker 2 with its over-current threshold, before the gateway reports it."""
    ctx = AppContext.build(Settings())
    try:
        async with ctx.sessions() as session:
            gateway = await session.scalar(select(Gateway).where(Gateway.sn == sn))
            assert gateway is not None, sn  # noqa: S101
            device = await session.scalar(
                select(Device).where(Device.gateway_sysno == gateway.sysno, Device.device_id == DEVICE_ID)
            )
            if device is None:
                device = Device(
                    gateway_sysno=gateway.sysno,
                    project_sysno=gateway.project_sysno,
                    device_id=DEVICE_ID,
                    name="101宿舍",
                )
                session.add(device)
            device.rated_current = THRESHOLD
            device.over_current = THRESHOLD
            # The demo sets every breaker's limits; an over-current also heats the breaker past 70 °C and
            # draws past the room's 6 kW. Only the over-current rule here, so that its alarm is the one pushed.
            device.temperature_limit = None
            device.power_limit = None
            await session.commit()
    finally:
        await ctx.close()


async def main(seconds: float) -> None:
    """Register the threshold, then simulate."""
    gateway = json.loads(Settings().demo_gateways_file.read_text())[0]
    broker = json.loads(Settings().broker_file.read_text())
    await register(gateway["sn"])
    fleet = [
        SimGateway(
            sn=gateway["sn"],
            secret=gateway["secret"],
            devices=[
                SimDevice(device_id="1", name="总进线", phases=3, rated_current=125.0),
                SimDevice(
                    device_id=DEVICE_ID,
                    name="101宿舍",
                    rated_current=THRESHOLD,
                    fault="over_current",
                    fault_ticks=10**6,
                ),
            ],
        )
    ]
    simulator = Simulator(
        fleet,
        BrokerAddress(host=broker["host"], port=broker["port"]),
        interval=1.0,
        behaviour=Behaviour(fault_chance=0.0, offline_chance=0.0),
        seed=1,
    )
    await simulator.run(seconds)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=90.0)
    asyncio.run(main(parser.parse_args().seconds))
