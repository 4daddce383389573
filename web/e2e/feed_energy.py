"""Feeds a gateway's energy counter readings over MQTT, as the gateway would send them (browser tests).

Run in the server's working directory with its environment: it reads the embedded broker's port
from ``data/mqtt-broker.json``, connects as the gateway (``--sn``, ``--secret``), announces the
devices of ``--readings`` and sends their readings in time order, a few hundred per message.
``--readings`` is a JSON file ``{"devices": [{"id", "name", "phases"}], "points": {id: [[ms, kWh], ...]}}``
written by the test, which computes from it what the screens should show.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import aiomqtt

from powerportal.core.config import Settings
from powerportal.mqtt import codec

# Under the broker's 256 KiB message limit for five devices.
POINTS_PER_MESSAGE = 400


async def main(sn: str, secret: str, readings: Path) -> None:
    """Announce the devices, then send every reading; QoS 1, so each message is stored when acknowledged."""
    feed = json.loads(readings.read_text())
    broker = json.loads(Settings().broker_file.read_text())
    devices = [
        codec.AnnouncedDevice(
            device_id=d["id"], kind="breaker", phases=d["phases"], model=None, name=d["name"]
        )
        for d in feed["devices"]
    ]
    points: dict[str, list[list[float]]] = feed["points"]
    longest = max(len(series) for series in points.values())
    async with aiomqtt.Client(
        broker["host"], int(broker["port"]), username=sn, password=secret, identifier=f"{sn}-energy-feed"
    ) as client:
        status = codec.encode_status(online=True, devices=devices, firmware="2.4.1")
        await client.publish(codec.topic_for(sn, "status"), status, qos=1, retain=True)
        for first in range(0, longest, POINTS_PER_MESSAGE):
            batch = {
                device: [
                    (datetime.fromtimestamp(ms / 1000, UTC), {"energy": value})
                    for ms, value in series[first : first + POINTS_PER_MESSAGE]
                ]
                for device, series in points.items()
                if series[first : first + POINTS_PER_MESSAGE]
            }
            await client.publish(codec.topic_for(sn, "telemetry"), codec.encode_telemetry(batch), qos=1)
    print(f"sent {sum(len(s) for s in points.values())} readings")  # noqa: T201


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sn", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--readings", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(main(args.sn, args.secret, args.readings))
