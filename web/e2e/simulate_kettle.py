"""The simulator switches a kettle on in one demo dormitory room (browser tests of 负荷识别).

Run in the server's working directory with its environment: it reads the first demo gateway's
credentials (1号宿舍楼, whose policy trips forbidden loads) and the embedded broker's port from the
data folder, then runs the real simulator for that gateway with room 101 (breaker 2) whose only
appliance is a kettle, switched on at the first tick: a real tracebase switch-on replayed as a
``load`` event, with a waveform synthesised from the kettle's circuit. Reports every second for
``--seconds``; no random faults or offline spells.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from powerportal.core.config import Settings
from powerportal.mqtt.transport import BrokerAddress
from powerportal.simulator import Behaviour, SimDevice, SimGateway, Simulator


async def main(seconds: float) -> None:
    """Simulate the gateway with the kettle room."""
    gateway = json.loads(Settings().demo_gateways_file.read_text())[0]
    broker = json.loads(Settings().broker_file.read_text())
    fleet = [
        SimGateway(
            sn=gateway["sn"],
            secret=gateway["secret"],
            devices=[
                SimDevice(device_id="1", name="总进线", phases=3, rated_current=160.0, incomer=True),
                SimDevice(device_id="2", name="101宿舍", appliances=("电水壶",)),
            ],
        )
    ]
    simulator = Simulator(
        fleet,
        BrokerAddress(host=broker["host"], port=broker["port"]),
        interval=1.0,
        behaviour=Behaviour(fault_chance=0.0, offline_chance=0.0, load_chance=1.0, load_waveform=True),
        seed=3,
    )
    await simulator.run(seconds)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120.0)
    asyncio.run(main(parser.parse_args().seconds))
