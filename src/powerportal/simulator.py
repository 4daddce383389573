"""Simulated gateways on the real protocol over MQTT: breaker readings, faults, offline spells, commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import socket
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import aiomqtt
import orjson

from powerportal.core.tasks import cancelling, stop_tasks
from powerportal.load_ident import replay
from powerportal.mqtt import codec
from powerportal.mqtt.transport import BrokerAddress, connected, no_delay

log = logging.getLogger("powerportal.simulator")

RpcMode = Literal["answer", "refuse", "silent"]
NOMINAL_VOLTAGE = 220.0
NOMINAL_POWER_FACTOR = 0.92
# What an incoming main measures beyond its branches: the wiring's losses and unmetered loads.
LINE_LOSS = 0.035
# Readings follow the clock of the sites (China Standard Time), not UTC.
SITE_UTC_OFFSET = timedelta(hours=8)
Profile = Literal["dorm", "office", "plant"]


@dataclass
class SimDevice:
    """One breaker on a simulated bus, with its own load and energy counter."""

    device_id: str
    name: str
    phases: int = 1
    rated_current: float = 32.0
    profile: Profile = "dorm"
    scale: float = 0.5
    energy: float = 0.0
    switch: bool = True
    fault: str | None = None
    fault_ticks: int = 0
    # An incoming main (总进线): it carries the gateway's other breakers plus the wiring's losses.
    incomer: bool = False
    # Appliances the room's occupants switch on (load identification replays real switch-ons of them).
    appliances: tuple[str, ...] = ()
    # The appliance on now: its category, the power it adds (W), the ticks until it is switched off.
    appliance_on: tuple[str, float, int] | None = None

    @property
    def model(self) -> str:
        """A plausible model name."""
        return f"PB-{int(self.rated_current)}/{'3P' if self.phases == 3 else '1P'}"

    def announced(self) -> codec.AnnouncedDevice:
        """How the gateway announces this device."""
        return codec.AnnouncedDevice(
            device_id=self.device_id, kind="breaker", phases=self.phases, model=self.model, name=self.name
        )

    def sample(
        self, at: datetime, seconds: float, rng: random.Random, supply: float | None = None
    ) -> dict[str, float]:
        """Values at ``at``, advancing the energy counter by ``seconds`` of load (``supply`` W, if given)."""
        hour = ((at + SITE_UTC_OFFSET).hour + (at.minute / 60)) % 24
        load = load_factor(hour, self.profile) * self.scale * max(0.0, 1 + rng.gauss(0, 0.08))
        if supply is not None:
            load = supply / (NOMINAL_VOLTAGE * NOMINAL_POWER_FACTOR * self.phases * self.rated_current)
        if self.appliance_on is not None:
            load += self.appliance_on[1] / (NOMINAL_VOLTAGE * NOMINAL_POWER_FACTOR * self.rated_current)
        current = self.rated_current * load if self.switch else 0.0
        if self.fault == "over_current" and self.switch:
            current = self.rated_current * rng.uniform(1.15, 1.4)
        pf = min(0.99, max(0.7, 0.92 + rng.gauss(0, 0.03)))
        temperature = 24 + 35 * (current / self.rated_current) ** 2 + rng.gauss(0, 0.4)
        if self.fault == "over_temperature":
            temperature = rng.uniform(78, 92)
        leakage = max(0.0, 2.5 + rng.gauss(0, 0.6))
        if self.fault == "leakage":
            leakage = rng.uniform(32, 60)
        values: dict[str, float] = {}
        if self.phases == 3:
            power = 0.0
            for phase in "abc":
                volts = _voltage(rng)
                amps = max(0.0, current * (1 + rng.gauss(0, 0.04)))
                values[f"voltage_{phase}"] = round(volts, 1)
                values[f"current_{phase}"] = round(amps, 2)
                power += volts * amps * pf
        else:
            volts = _voltage(rng)
            values["voltage"] = round(volts, 1)
            values["current"] = round(current, 2)
            power = volts * current * pf
        self.energy += power * seconds / 3_600_000
        values.update(
            active_power=round(power, 1),
            power_factor=round(pf, 3),
            frequency=round(50 + rng.gauss(0, 0.02), 2),
            energy=round(self.energy, 3),
            leakage_current=round(leakage, 1),
            temperature=round(temperature, 1),
            switch=1 if self.switch else 0,
        )
        return values


def _voltage(rng: random.Random) -> float:
    """220 V within ±5 %, mostly within ±1.5 %."""
    return min(
        NOMINAL_VOLTAGE * 1.05, max(NOMINAL_VOLTAGE * 0.95, NOMINAL_VOLTAGE * (1 + rng.gauss(0, 0.012)))
    )


def load_factor(hour: float, profile: Profile) -> float:
    """Fraction of rated current drawn at a local hour: dormitories peak at night, offices by day."""

    def bump(centre: float, width: float, height: float) -> float:
        distance = min(abs(hour - centre), 24 - abs(hour - centre))
        return height * math.exp(-((distance / width) ** 2))

    if profile == "dorm":
        return 0.08 + bump(7.5, 1.0, 0.35) + bump(13, 1.2, 0.25) + bump(21, 2.2, 0.85)
    if profile == "office":
        return 0.1 + bump(10, 2.0, 0.7) + bump(15, 2.2, 0.75) - bump(12.5, 0.6, 0.25)
    return 0.55 + bump(11, 4.0, 0.3) + bump(3, 2, -0.15)


@dataclass
class SimGateway:
    """A simulated gateway: its credentials and its bus."""

    sn: str
    secret: str
    devices: list[SimDevice]
    firmware: str = "2.4.1"
    cut: bool = False


@dataclass
class Behaviour:
    """How the simulated field misbehaves."""

    rpc: RpcMode = "answer"
    fault_chance: float = 0.002  # per device and tick
    offline_chance: float = 0.0  # per gateway and tick
    offline_seconds: tuple[float, float] = (20.0, 90.0)
    # Per room with appliances and tick: the chance one of them is switched on (a ``load`` event).
    load_chance: float = 0.0
    # Send a sampled waveform with each switch-on (brands with loadWaveform).
    load_waveform: bool = False


@dataclass
class SimStats:
    """What the simulator sent and answered."""

    messages: int = 0
    readings: int = 0
    rpc_answered: int = 0
    spells: int = 0
    load_events: int = 0
    connected: set[str] = field(default_factory=set)


def make_fleet(
    credentials: list[tuple[str, str]], devices_per_gateway: int, *, seed: int = 1
) -> list[SimGateway]:
    """Gateways with ``devices_per_gateway`` breakers: a three-phase incomer, then single-phase circuits."""
    rng = random.Random(seed)
    fleet = []
    for sn, secret in credentials:
        devices = []
        for n in range(1, devices_per_gateway + 1):
            three = n == 1 and devices_per_gateway > 1
            devices.append(
                SimDevice(
                    device_id=str(n),
                    name="总进线" if three else f"回路{n}",
                    phases=3 if three else 1,
                    rated_current=125.0 if three else rng.choice((16.0, 20.0, 32.0, 40.0)),
                    profile=rng.choice(("dorm", "dorm", "office", "plant")),
                    scale=rng.uniform(0.3, 0.8),
                    energy=rng.uniform(100, 20_000),
                )
            )
        fleet.append(SimGateway(sn=sn, secret=secret, devices=devices))
    return fleet


class _OfflineSpell(Exception):
    pass


class Simulator:
    """Runs simulated gateways until stopped."""

    def __init__(
        self,
        fleet: list[SimGateway],
        address: BrokerAddress,
        *,
        interval: float = 5.0,
        behaviour: Behaviour | None = None,
        seed: int | None = None,
    ) -> None:
        self.fleet = fleet
        self.address = address
        self.interval = interval
        self.behaviour = behaviour or Behaviour()
        self.stats = SimStats()
        self._rng = random.Random(seed)
        self._tasks: list[asyncio.Task[None]] = []
        # Two simulators of one gateway (the demo's, `powerportal simulate`) must not evict each other.
        self._instance = secrets.token_hex(3)

    def start(self) -> None:
        """Start every gateway as a task."""
        for gateway in self.fleet:
            self._tasks.append(asyncio.create_task(self._gateway_forever(gateway), name=f"sim-{gateway.sn}"))

    async def stop(self) -> None:
        """Stop every gateway (a clean disconnect, so no last will is sent)."""
        await stop_tasks(self._tasks)
        self._tasks.clear()

    async def run(self, duration: float | None = None) -> None:
        """Run for ``duration`` seconds, or until cancelled."""
        self.start()
        try:
            if duration is None:
                await asyncio.gather(*self._tasks)
            else:
                await asyncio.sleep(duration)
        finally:
            await self.stop()

    async def _gateway_forever(self, gateway: SimGateway) -> None:
        delay = 1.0
        while True:
            try:
                await self._session(gateway)
            except (_OfflineSpell, aiomqtt.MqttError) as exc:
                if cancelling():  # the client may report the stop as a lost connection
                    raise asyncio.CancelledError from exc
                if gateway.sn in self.stats.connected:
                    # A session only ends by an error: one that had logged in was lost afresh (a kick, a
                    # restart), not refused again, so the retries start over at a second.
                    delay = 1.0
                if gateway.cut:
                    gateway.cut = False
                    low, high = self.behaviour.offline_seconds
                    seconds = self._rng.uniform(low, high)
                    log.info("simulated gateway %s offline for %.0fs", gateway.sn, seconds)
                    await asyncio.sleep(seconds)
                else:
                    log.warning("simulated gateway %s: %s; retrying in %.0fs", gateway.sn, exc, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 30.0)
            finally:
                self.stats.connected.discard(gateway.sn)

    async def _session(self, gateway: SimGateway) -> None:
        status_topic = codec.topic_for(gateway.sn, "status")
        will = aiomqtt.Will(status_topic, codec.encode_status(online=False), qos=1, retain=True)
        async with connected(
            aiomqtt.Client(
                self.address.host,
                self.address.port,
                username=gateway.sn,
                password=gateway.secret,
                identifier=f"{gateway.sn}-sim{self._instance}",
                will=will,
                keepalive=30,
            )
        ) as client:
            no_delay(client)
            self.stats.connected.add(gateway.sn)
            await client.subscribe(codec.topic_for(gateway.sn, codec.RPC_REQUEST), qos=1)
            online = codec.encode_status(
                online=True, devices=[d.announced() for d in gateway.devices], firmware=gateway.firmware
            )
            await client.publish(status_topic, online, qos=1, retain=True)
            listener = asyncio.create_task(self._answer(client, gateway))
            try:
                await self._report(client, gateway)
            finally:
                await stop_tasks([listener])

    async def _report(self, client: aiomqtt.Client, gateway: SimGateway) -> None:
        await asyncio.sleep(self._rng.uniform(0, self.interval))
        last = datetime.now(UTC) - timedelta(seconds=self.interval)
        while True:
            now = datetime.now(UTC)
            await self._publish_telemetry(client, gateway, now, (now - last).total_seconds())
            last = now
            await self._maybe_fault(client, gateway, now)
            await self._maybe_load(client, gateway, now)
            if self._rng.random() < self.behaviour.offline_chance:
                self.stats.spells += 1
                gateway.cut = True
                _cut(client)
                raise _OfflineSpell
            await asyncio.sleep(self.interval)

    async def _publish_telemetry(
        self, client: aiomqtt.Client, gateway: SimGateway, now: datetime, seconds: float
    ) -> None:
        branches = {
            d.device_id: [(now, d.sample(now, seconds, self._rng))] for d in gateway.devices if not d.incomer
        }
        supply = sum(p[0][1]["active_power"] for p in branches.values()) * (1 + LINE_LOSS)
        points = {
            d.device_id: branches.get(d.device_id) or [(now, d.sample(now, seconds, self._rng, supply))]
            for d in gateway.devices
        }
        await client.publish(codec.topic_for(gateway.sn, "telemetry"), codec.encode_telemetry(points), qos=1)
        self.stats.messages += 1
        self.stats.readings += len(points)

    async def _maybe_fault(self, client: aiomqtt.Client, gateway: SimGateway, now: datetime) -> None:
        events = []
        for device in gateway.devices:
            if device.fault is not None:
                device.fault_ticks -= 1
                if device.fault_ticks <= 0:
                    events.append(_event(device, now, "fault_cleared", device.fault))
                    device.fault = None
            elif self._rng.random() < self.behaviour.fault_chance:
                device.fault = self._rng.choice(("over_current", "leakage", "over_temperature"))
                device.fault_ticks = self._rng.randint(2, 6)
                events.append(_event(device, now, "alarm", device.fault))
        if events:
            await client.publish(codec.topic_for(gateway.sn, "events"), orjson.dumps(events), qos=1)
            self.stats.messages += 1

    async def _maybe_load(self, client: aiomqtt.Client, gateway: SimGateway, now: datetime) -> None:
        """Switch the rooms' appliances on (a real switch-on from tracebase) and, some ticks later, off."""
        events = []
        for device in gateway.devices:
            if not device.appliances:
                continue
            if not device.switch:
                device.appliance_on = None  # the breaker is off: so is whatever was plugged in
                continue
            if device.appliance_on is not None:
                category, power, ticks = device.appliance_on
                device.appliance_on = (category, power, ticks - 1) if ticks > 1 else None
                if device.appliance_on is None:
                    events.append(replay.switch_off(device.device_id, power, now))
            elif self._rng.random() < self.behaviour.load_chance:
                category = self._rng.choice(device.appliances)
                event, power = replay.switch_on(
                    category, device.device_id, now, self._rng, waveform=self.behaviour.load_waveform
                )
                device.appliance_on = (category, power, self._rng.randint(6, 24))
                events.append(event)
        if events:
            await client.publish(codec.topic_for(gateway.sn, "events"), orjson.dumps(events), qos=1)
            self.stats.messages += 1
            self.stats.load_events += len(events)

    async def _answer(self, client: aiomqtt.Client, gateway: SimGateway) -> None:
        # A lost connection ends the session: ``_report`` meets it too and the gateway connects again.
        with contextlib.suppress(aiomqtt.MqttError):
            await self._answer_requests(client, gateway)

    async def _answer_requests(self, client: aiomqtt.Client, gateway: SimGateway) -> None:
        devices = {d.device_id: d for d in gateway.devices}
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b""
            try:
                request_id, device_id, method, params = codec.decode_rpc_request(payload)
            except codec.ProtocolError:
                log.warning("simulated gateway %s: malformed request on %s", gateway.sn, message.topic.value)
                continue
            if self.behaviour.rpc == "silent":
                continue
            response: dict[str, Any] = {"id": request_id, "ok": False}
            outgoing: list[tuple[str, bytes]] = []
            device = devices.get(device_id)
            now = datetime.now(UTC)
            if self.behaviour.rpc == "refuse":
                response["error"] = "refused"
            elif device is None:
                response["error"] = "unknown_device"
            elif method == "switch":
                device.switch = bool(params.get("on"))
                response.update(ok=True, result={"switch": int(device.switch)})
                switched = _event(device, now, "switch", None, value=int(device.switch))
                outgoing.append((codec.topic_for(gateway.sn, "events"), orjson.dumps([switched])))
                # The switched breaker reports its new values at once; the others wait for their tick.
                values = {device.device_id: [(now, device.sample(now, 0, self._rng))]}
                outgoing.append((codec.topic_for(gateway.sn, "telemetry"), codec.encode_telemetry(values)))
                self.stats.readings += 1
            elif method == "read":
                response.update(ok=True, result=device.sample(now, 0, self._rng))
            else:
                response.update(ok=True, result={})
            outgoing.append((codec.topic_for(gateway.sn, "rpc/response"), orjson.dumps(response)))
            # Back to back, as a gateway sends them, not one broker round trip after another.
            await asyncio.gather(*(client.publish(topic, body, qos=1) for topic, body in outgoing))
            self.stats.messages += len(outgoing) - 1
            self.stats.rpc_answered += 1


def _event(
    device: SimDevice, at: datetime, kind: str, code: str | None, value: float | None = None
) -> dict[str, Any]:
    event: dict[str, Any] = {"device": device.device_id, "ts": int(at.timestamp() * 1000), "type": kind}
    if code:
        event["code"] = code
    if value is not None:
        event["value"] = value
    return event


def _cut(client: aiomqtt.Client) -> None:
    """Drop the connection without DISCONNECT, as a power cut does, so the broker sends the last will."""
    sock = client._client.socket()  # noqa: SLF001 - paho gives no other way to die uncleanly
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
