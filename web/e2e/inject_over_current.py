"""Make a demo breaker trip on over-current, as a simulated gateway would report it (browser tests).

Run in the server's working directory: it reads the demo gateways' credentials and the embedded
broker's port from ``data/``, connects as the first demo gateway (a client of its own next to the
running simulator) and publishes the simulator's over-current: readings above the rated current and
the device's own ``alarm`` event. Prints the gateway serial number and device id.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import aiomqtt

DEVICE_ID = "2"
RATED_CURRENT = 32.0


async def main() -> None:
    """Publish one over-current episode."""
    gateway = json.loads(Path("data/demo-gateways.json").read_text())[0]
    broker = json.loads(Path("data/mqtt-broker.json").read_text())
    now = int(time.time() * 1000)
    amps = round(RATED_CURRENT * 1.3, 2)
    telemetry = {DEVICE_ID: [{"ts": now, "values": {"voltage": 221.0, "current": amps, "temperature": 61.0}}]}
    event = [{"device": DEVICE_ID, "ts": now, "type": "alarm", "code": "over_current", "value": amps}]
    async with aiomqtt.Client(
        broker["host"],
        broker["port"],
        username=gateway["sn"],
        password=gateway["secret"],
        identifier=f"e2e-fault-{gateway['sn']}",
    ) as client:
        await client.publish(f"gateways/{gateway['sn']}/telemetry", json.dumps(telemetry), qos=1)
        await client.publish(f"gateways/{gateway['sn']}/events", json.dumps(event), qos=1)
    sys.stdout.write(f"{gateway['sn']} {DEVICE_ID}\n")


if __name__ == "__main__":
    asyncio.run(main())
