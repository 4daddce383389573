"""The Modbus reference gateway: polls breakers, speaks docs/gateway-protocol.md, buffers on disk.

Each poll reads every configured breaker (registers per its map, the switch from its coil) and makes
one telemetry message, which goes to the disk buffer first; a sender publishes the buffer oldest first
with QoS 1 and removes each message once the broker acknowledged it, so an outage of the platform or
the network only delays readings. Switch commands write the breaker's coil, read it back and answer
on ``rpc/response``, followed by a ``switch`` event and the new state as telemetry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import aiomqtt
import orjson
from pymodbus.client import AsyncModbusSerialClient, AsyncModbusTcpClient
from pymodbus.client.mixin import ModbusClientMixin
from pymodbus.exceptions import ModbusException

from powerportal.edge.buffer import DiskBuffer
from powerportal.edge.config import BusConfig, DeviceConfig, GatewayConfig, Register, RegisterMap
from powerportal.mqtt import codec
from powerportal.mqtt.transport import connected

log = logging.getLogger("powerportal.edge")

SEND_BATCH = 50
RECONNECT_MAX_SECONDS = 30.0
_TYPES = {
    "u16": ModbusClientMixin.DATATYPE.UINT16,
    "i16": ModbusClientMixin.DATATYPE.INT16,
    "u32": ModbusClientMixin.DATATYPE.UINT32,
    "i32": ModbusClientMixin.DATATYPE.INT32,
    "f32": ModbusClientMixin.DATATYPE.FLOAT32,
}

Client = AsyncModbusTcpClient | AsyncModbusSerialClient


class DeviceError(RuntimeError):
    """A breaker did not answer, or answered with a Modbus exception."""


@dataclass
class Bus:
    """One Modbus line and its breakers; one transaction at a time (RS-485 is half duplex)."""

    config: BusConfig
    client: Client
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def open(cls, config: BusConfig) -> Bus:
        """A client for the line (connected on first use)."""
        client: Client
        if config.type == "tcp":
            client = AsyncModbusTcpClient(config.host, port=config.port, timeout=config.timeout, retries=1)
        else:
            client = AsyncModbusSerialClient(
                config.device,
                baudrate=config.baudrate,
                parity=config.parity,
                stopbits=config.stopbits,
                bytesize=config.bytesize,
                timeout=config.timeout,
                retries=1,
            )
        return cls(config=config, client=client)

    async def _ready(self) -> None:
        if not self.client.connected and not await self.client.connect():
            raise DeviceError(f"无法连接 Modbus 线路 {self.describe()}")

    def describe(self) -> str:
        """The line, for logs."""
        c = self.config
        return f"tcp://{c.host}:{c.port}" if c.type == "tcp" else f"{c.device}@{c.baudrate}"

    async def read(self, device: DeviceConfig, register_map: RegisterMap) -> dict[str, Any]:
        """The breaker's values now (keys of the key table), its switch from the coil."""
        async with self.lock:
            await self._ready()
            values: dict[str, Any] = {}
            for table in ("holding", "input"):
                registers = [r for r in register_map.registers if r.table == table]
                if registers:
                    values.update(await self._read_block(device.unit, registers, table, register_map))
            if register_map.switch_coil is not None:
                values["switch"] = int(await self._coil(device.unit, register_map.switch_coil))
            return values

    async def _read_block(
        self, unit: int, registers: list[Register], table: str, register_map: RegisterMap
    ) -> dict[str, Any]:
        start = min(r.address for r in registers)
        end = max(r.address + r.width for r in registers)
        read = self.client.read_holding_registers if table == "holding" else self.client.read_input_registers
        answer = await _call(read(start, count=end - start, device_id=unit))
        words = answer.registers
        values: dict[str, Any] = {}
        for r in registers:
            raw = self.client.convert_from_registers(
                words[r.address - start : r.address - start + r.width],
                _TYPES[r.type],
                word_order=register_map.word_order,
            )
            if not isinstance(raw, int | float):
                raise DeviceError(f"寄存器 {r.address} 的值无法解读")
            values[r.key] = round(float(raw) * r.scale, 6)
        return values

    async def _coil(self, unit: int, address: int) -> bool:
        answer = await _call(self.client.read_coils(address, count=1, device_id=unit))
        return bool(answer.bits[0])

    async def switch(self, device: DeviceConfig, register_map: RegisterMap, on: bool) -> int:
        """Write the breaker's coil and read it back: its state now."""
        if register_map.switch_coil is None:
            raise DeviceError("该设备的寄存器表没有分合闸线圈")
        async with self.lock:
            await self._ready()
            await _call(self.client.write_coil(register_map.switch_coil, on, device_id=device.unit))
            return int(await self._coil(device.unit, register_map.switch_coil))

    def close(self) -> None:
        """Close the line."""
        self.client.close()


def _login_refused(exc: aiomqtt.MqttError) -> bool:
    """Whether the broker refused the login (MQTT 3.1.1 codes 4, 5; MQTT 5 0x86, 0x87)."""
    rc = getattr(exc, "rc", None)
    value = getattr(rc, "value", rc)
    return isinstance(exc, aiomqtt.MqttCodeError) and value in (4, 5, 0x86, 0x87)


async def _call(request: Any) -> Any:
    try:
        answer = await request
    except (ModbusException, OSError, TimeoutError) as exc:
        raise DeviceError(str(exc)) from exc
    if answer.isError():
        raise DeviceError(f"Modbus 异常应答 {answer}")
    return answer


class EdgeGateway:
    """Polls the buses and keeps the platform informed; ``run`` until cancelled."""

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.sn = config.platform.sn
        self.buffer = DiskBuffer(config.buffer_file, config.buffer_limit)
        self.buses = [Bus.open(bus) for bus in config.buses]
        self.devices: dict[str, tuple[Bus, DeviceConfig]] = {
            d.id: (bus, d) for bus in self.buses for d in bus.config.devices
        }
        self.connected = asyncio.Event()
        self.polls = 0
        self.sent = 0
        self.read_failures = 0
        self.login_refusals = 0
        self._wake = asyncio.Event()

    # -- Modbus side -------------------------------------------------------------------------------

    async def poll_once(self) -> int:
        """Read every breaker and buffer one telemetry message; returns how many answered."""
        now = int(time.time() * 1000)
        points: dict[str, list[dict[str, Any]]] = {}
        for device_id, (bus, device) in self.devices.items():
            try:
                values = await bus.read(device, self.config.register_map(device.map))
            except DeviceError as exc:
                self.read_failures += 1
                log.warning(
                    "breaker %s (unit %d on %s) not read: %s", device_id, device.unit, bus.describe(), exc
                )
                continue
            points[device_id] = [{"ts": now, "values": values}]
        self.polls += 1
        if points:
            self.buffer.append(orjson.dumps(points))
            self._wake.set()
        return len(points)

    async def poll_forever(self) -> None:
        """Poll at the configured interval (a slow bus stretches it, never overlaps it)."""
        while True:
            started = time.monotonic()
            await self.poll_once()
            await asyncio.sleep(max(0.0, self.config.interval_seconds - (time.monotonic() - started)))

    async def execute(self, device_id: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Carry out a command: the answer's body (``ok``, and ``result`` or ``error``)."""
        found = self.devices.get(device_id)
        if found is None:
            return {"ok": False, "error": "unknown_device"}
        bus, device = found
        register_map = self.config.register_map(device.map)
        try:
            if method == "switch":
                on = params.get("on")
                if not isinstance(on, bool):
                    return {"ok": False, "error": "refused"}
                state = await bus.switch(device, register_map, on)
                if state != int(on):  # the breaker did not follow (locked, or tripped again at once)
                    return {"ok": False, "result": {"switch": state}, "error": "refused"}
                return {"ok": True, "result": {"switch": state}}
            if method == "read":
                return {"ok": True, "result": await bus.read(device, register_map)}
        except DeviceError as exc:
            log.warning("command %s on breaker %s failed: %s", method, device_id, exc)
            return {"ok": False, "error": "busy"}
        return {"ok": False, "error": "unsupported"}

    # -- platform side -----------------------------------------------------------------------------

    def _client(self) -> aiomqtt.Client:
        p = self.config.platform
        will = aiomqtt.Will(
            codec.topic_for(self.sn, "status"), codec.encode_status(online=False), qos=1, retain=True
        )
        return aiomqtt.Client(
            p.host, p.port, username=p.sn, password=p.secret, identifier=f"{p.sn}-modbus",
            will=will, keepalive=p.keepalive, clean_session=True,
        )  # fmt: skip

    async def link_forever(self) -> None:
        """Stay connected to the platform; while connected, send the buffer and answer commands."""
        delay = 1.0
        while True:
            try:
                async with connected(self._client()) as client:
                    delay = 1.0
                    await self._session(client)
            except aiomqtt.MqttError as exc:
                platform = self.config.platform
                if _login_refused(exc):
                    self.login_refusals += 1
                    log.error(
                        "the platform %s:%d refused the login of %s: serial number or secret wrong, or the"
                        " gateway not registered (网关管理); %d messages buffered",
                        platform.host, platform.port, self.sn, len(self.buffer),
                    )  # fmt: skip
                else:
                    log.warning(
                        "platform %s:%d unreachable (%s); %d messages buffered",
                        platform.host, platform.port, exc, len(self.buffer),
                    )  # fmt: skip
            finally:
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def _session(self, client: aiomqtt.Client) -> None:
        devices = [
            codec.AnnouncedDevice(device_id=d.id, kind=d.kind, phases=d.phases, model=d.model, name=d.name)
            for _, d in self.devices.values()
        ]
        status = codec.encode_status(online=True, devices=devices, firmware=self.config.platform.firmware)
        await client.publish(codec.topic_for(self.sn, "status"), status, qos=1, retain=True)
        await client.subscribe(codec.topic_for(self.sn, codec.RPC_REQUEST), qos=1)
        self.connected.set()
        log.info("connected to the platform as %s", self.sn)
        sender = asyncio.create_task(self._send_buffer(client))
        try:
            async for message in client.messages:
                payload = message.payload if isinstance(message.payload, bytes) else b""
                await self._command(client, payload)
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                await sender
        raise aiomqtt.MqttError("connection closed")

    async def _send_buffer(self, client: aiomqtt.Client) -> None:
        topic = codec.topic_for(self.sn, "telemetry")
        while True:
            pending = self.buffer.oldest(SEND_BATCH)
            if not pending:
                self._wake.clear()
                await self._wake.wait()
                continue
            for message_id, body in pending:
                await client.publish(topic, body, qos=1)  # returns once the broker acknowledged it
                self.buffer.remove(message_id)
                self.sent += 1

    async def _command(self, client: aiomqtt.Client, payload: bytes) -> None:
        try:
            request_id, device_id, method, params = codec.decode_rpc_request(payload)
        except codec.ProtocolError as exc:
            log.warning("command not understood: %s", exc)
            return
        answer = await self.execute(device_id, method, params)
        body = {"id": request_id, **{k: v for k, v in answer.items() if v is not None}}
        await client.publish(codec.topic_for(self.sn, "rpc/response"), orjson.dumps(body), qos=1)
        state = answer.get("result", {}).get("switch") if method == "switch" else None
        if state is not None:
            now = int(time.time() * 1000)
            event = {"device": device_id, "ts": now, "type": "switch", "value": state}
            await client.publish(codec.topic_for(self.sn, "events"), orjson.dumps(event), qos=1)
            self.buffer.append(orjson.dumps({device_id: [{"ts": now, "values": {"switch": state}}]}))
            self._wake.set()

    async def run(self) -> None:
        """Poll and stay linked until cancelled."""
        try:
            await asyncio.gather(self.poll_forever(), self.link_forever())
        finally:
            for bus in self.buses:
                bus.close()
            self.buffer.close()
