"""The Modbus reference gateway against pymodbus's own Modbus TCP server and the embedded broker.

Two breakers (units 1 and 2) sit in an in-process pymodbus server on a loopback port, with the default
register map's values; the gateway reaches the platform through a TCP relay the test can cut, which is
how a network outage looks to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from pymodbus.client import AsyncModbusTcpClient
from pymodbus.server import ModbusSerialServer, ModbusTcpServer
from pymodbus.simulator import DataType, SimData, SimDevice
from sqlalchemy import select

from powerportal.cli import main
from powerportal.devices.models import Device
from powerportal.edge.buffer import DiskBuffer
from powerportal.edge.config import DEFAULT_MAP, ConfigError, load
from powerportal.edge.gateway import EdgeGateway
from powerportal.mqtt.auth import GatewayRef
from powerportal.telemetry.models import Reading
from tests.conftest import require_service
from tests.mqtt.private import free_port
from tests.telemetry.conftest import Site, start_site

FIXTURE = Path(__file__).parent.parent / "fixtures" / "edge" / "gateway.toml"


def registers(voltage: float, current: float, power: float, energy: float) -> list[int]:
    """The default map's holding registers 0-9 for these values."""
    watts = round(power * 10) & 0xFFFFFFFF
    hundredths = round(energy * 100)
    return [
        round(voltage * 10), round(current * 100), watts >> 16, watts & 0xFFFF, 950,
        hundredths >> 16, hundredths & 0xFFFF, 41, 315, 5001,
    ]  # fmt: skip


class Relay:
    """A TCP relay from a loopback port to the broker; ``cut`` is a network outage."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, reuse_address=True)

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    async for s in start_site(database_url, "embedded", mqtt_port=free_port(), ingest_batch_ms=20):
        yield s


@contextlib.asynccontextmanager
async def modbus_breakers() -> AsyncIterator[int]:
    """The Modbus TCP server of pymodbus, with breakers 1 and 2 (coils, inputs, holding, input registers)."""
    breakers = [
        SimDevice(
            id=unit,
            simdata=(
                [SimData(0, count=16, values=True, datatype=DataType.BITS)],
                [SimData(0, count=16, values=False, datatype=DataType.BITS)],
                [SimData(0, count=32, values=0, datatype=DataType.REGISTERS)],
                [SimData(0, count=16, values=0, datatype=DataType.REGISTERS)],
            ),
        )
        for unit in (1, 2)
    ]
    port = free_port()
    server = ModbusTcpServer(breakers, address=("127.0.0.1", port))
    task = asyncio.create_task(server.serve_forever())
    await asyncio.sleep(0.2)
    await poke(port, 1, registers(221.5, 3.52, 742.0, 1532.27))
    await poke(port, 2, registers(219.8, 0.5, -12.5, 88.1))
    try:
        yield port
    finally:
        await server.shutdown()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def poke(port: int, unit: int, values: list[int]) -> None:
    """Set a breaker's holding registers from 0, as its metering chip would."""
    client = AsyncModbusTcpClient("127.0.0.1", port=port)
    await client.connect()
    try:
        assert not (await client.write_registers(0, values, device_id=unit)).isError()
    finally:
        client.close()


async def coil(port: int, unit: int) -> bool:
    """A breaker's switch coil, read over Modbus."""
    client = AsyncModbusTcpClient("127.0.0.1", port=port)
    await client.connect()
    try:
        return bool((await client.read_coils(0, count=1, device_id=unit)).bits[0])
    finally:
        client.close()


def write_config(directory: Path, *, sn: str, secret: str, broker: int, modbus: int) -> Path:
    path = directory / "gateway.toml"
    path.write_text(
        f"""interval_seconds = 0.2
buffer_limit = 1000

[platform]
host = "127.0.0.1"
port = {broker}
sn = "{sn}"
secret = "{secret}"
keepalive = 10

[[buses]]
type = "tcp"
host = "127.0.0.1"
port = {modbus}
timeout = 1.0

[[buses.devices]]
id = "1"
unit = 1
name = "101宿舍"

[[buses.devices]]
id = "2"
unit = 2
name = "102宿舍"
""",
        encoding="utf-8",
    )
    return path


async def devices(site: Site) -> dict[str, Device]:
    async with site.ctx.sessions() as session:
        return {d.device_id: d for d in (await session.scalars(select(Device))).all()}


async def until(check: Any, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.1)


def test_the_documented_example_and_bad_files() -> None:
    config = load(FIXTURE)
    assert [d.id for b in config.buses for d in b.devices] == ["1", "2", "10"]
    assert config.register_map("default") == DEFAULT_MAP
    assert config.register_map("three_phase").registers[-1].table == "input"
    with pytest.raises(ConfigError, match="不是有效的 TOML"):
        load_text("interval_seconds = = 1")
    with pytest.raises(ConfigError, match="platform"):
        load_text("[[buses]]\ntype='tcp'\ndevices=[]")


def load_text(text: str) -> Any:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "g.toml"
        path.write_text(text, encoding="utf-8")
        return load(path)


async def test_readings_switching_and_an_outage_buffered_in_order(site: Site, tmp_path: Path) -> None:
    sn, secret, _ = await site.gateway(name="Modbus网关")
    broker = site.runtime.broker
    assert broker is not None and broker.sink is not None
    arrived: list[int] = []  # the instants of the telemetry the platform received, in arrival order
    sink = broker.sink

    async def watching(ref: GatewayRef, topic: str, payload: bytes) -> asyncio.Future[None] | None:
        if topic.endswith("/telemetry"):
            body = orjson.loads(payload)
            arrived.extend(p["ts"] for points in body.values() for p in points)
        return await sink(ref, topic, payload)

    broker.sink = watching
    relay = Relay(broker.port)
    await relay.start()
    async with modbus_breakers() as modbus_port:
        config = load(write_config(tmp_path, sn=sn, secret=secret, broker=relay.port, modbus=modbus_port))
        gateway = EdgeGateway(config)
        running = asyncio.create_task(gateway.run())
        try:

            async def reported() -> bool:
                found = await devices(site)
                return all(d in found and (found[d].latest or {}).get("voltage") for d in ("1", "2"))

            await until(reported)
            found = await devices(site)
            one = found["1"].latest or {}
            assert one["voltage"] == 221.5 and one["current"] == 3.52 and one["active_power"] == 742.0
            assert one["power_factor"] == 0.95 and one["energy"] == 1532.27
            assert one["leakage_current"] == 4.1 and one["temperature"] == 31.5 and one["frequency"] == 50.01
            assert (found["2"].latest or {})["active_power"] == -12.5
            assert found["1"].name == "101宿舍" and found["1"].switch_state == 1

            answer = await site.runtime.rpc.call(sn=sn, device_id="1", method="switch", params={"on": False})
            assert answer.ok and answer.result == {"switch": 0}
            assert await coil(modbus_port, 1) is False
            assert await coil(modbus_port, 2) is True

            async def switched_off() -> bool:
                return (await devices(site))["1"].switch_state == 0

            await until(switched_off)
            unknown = await site.runtime.rpc.call(sn=sn, device_id="9", method="switch", params={"on": True})
            assert not unknown.ok and unknown.error == "unknown_device"

            # The platform becomes unreachable; the breakers change while the gateway buffers.
            await relay.cut()
            await until(lambda: _true(not gateway.connected.is_set()))
            await poke(modbus_port, 1, registers(230.0, 1.0, 200.0, 1533.0))
            polls = gateway.polls
            await until(lambda: _true(gateway.polls >= polls + 5 and len(gateway.buffer) >= 5))
            buffered = len(gateway.buffer)
            arrived_before = len(arrived)
            await relay.start()
            await until(lambda: _true(gateway.connected.is_set() and len(gateway.buffer) == 0))
            await site.settle()
            resent = arrived[arrived_before:]
            assert len(resent) >= 2 * buffered  # two breakers per message
            assert resent == sorted(resent), "buffered readings are sent oldest first"
            async with site.ctx.sessions() as session:
                outage = (
                    await session.scalars(
                        select(Reading.ts)
                        .join(Device, Device.sysno == Reading.device_sysno)
                        .where(Device.device_id == "1", Reading.voltage == 230.0)
                    )
                ).all()
            assert len(outage) >= 5  # polled after the change, while the platform was away
            assert all(isinstance(ts, datetime) for ts in outage)
            assert (await devices(site))["1"].latest["voltage"] == 230.0  # type: ignore[index]
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
            await relay.cut()


async def _true(value: bool) -> bool:
    return value


async def test_breakers_on_a_serial_line_are_read_and_switched_over_modbus_rtu(tmp_path: Path) -> None:
    """RTU: pymodbus's serial server and the gateway on the two ends of a pseudo-terminal pair (socat)."""
    socat = shutil.which("socat")
    require_service(socat is not None, "socat (a pseudo-terminal pair for the serial line)")
    assert socat is not None
    bus_end, gateway_end = tmp_path / "bus", tmp_path / "gateway"
    pair = subprocess.Popen(  # noqa: S603
        [socat, f"pty,raw,echo=0,link={bus_end}", f"pty,raw,echo=0,link={gateway_end}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with asyncio.timeout(10):
            while not (bus_end.exists() and gateway_end.exists()):
                await asyncio.sleep(0.05)
        values = registers(228.4, 12.5, 2750.0, 42.5)
        breaker = SimDevice(
            id=7,
            simdata=(
                [SimData(0, count=16, values=True, datatype=DataType.BITS)],
                [SimData(0, count=16, values=False, datatype=DataType.BITS)],
                [SimData(0, values=values, datatype=DataType.REGISTERS)],
                [SimData(0, count=16, values=0, datatype=DataType.REGISTERS)],
            ),
        )
        server = ModbusSerialServer(breaker, port=str(bus_end), baudrate=9600)
        serving = asyncio.create_task(server.serve_forever())
        (tmp_path / "rtu.toml").write_text(
            f"""[platform]
host = "127.0.0.1"
sn = "RTU0001"
secret = "not-used-here"

[[buses]]
type = "rtu"
device = "{gateway_end}"
baudrate = 9600
timeout = 1.0

[[buses.devices]]
id = "7"
unit = 7
""",
            encoding="utf-8",
        )
        gateway = EdgeGateway(load(tmp_path / "rtu.toml"))
        try:
            async with asyncio.timeout(20):
                while await gateway.poll_once() == 0:
                    await asyncio.sleep(0.2)
            (pending,) = gateway.buffer.oldest(10)
            reading = orjson.loads(pending[1])["7"][0]["values"]
            assert reading["voltage"] == 228.4 and reading["current"] == 12.5
            assert reading["active_power"] == 2750.0 and reading["energy"] == 42.5 and reading["switch"] == 1
            assert await gateway.execute("7", "switch", {"on": False}) == {
                "ok": True,
                "result": {"switch": 0},
            }
            assert (await gateway.execute("7", "read", {}))["result"]["switch"] == 0
        finally:
            for bus in gateway.buses:
                bus.close()
            gateway.buffer.close()
            await server.shutdown()
            serving.cancel()
            with contextlib.suppress(BaseException):
                await serving
    finally:
        pair.terminate()
        pair.wait(5)


def test_the_command_refuses_a_bad_file_in_chinese(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "gateway.toml"
    bad.write_text(
        '[platform]\nhost = "127.0.0.1"\nsn = "有空格 的序列号"\nsecret = "x"\n[[buses]]\ntype = "tcp"\n'
    )
    with pytest.raises(SystemExit) as ended:
        main(["gateway", "--config", str(bad)])
    assert ended.value.code == 2
    message = capsys.readouterr().err
    assert "配置文件" in message and "platform.sn" in message
    with pytest.raises(SystemExit) as ended:
        main(["gateway", "--config", str(tmp_path / "missing.toml")])
    assert ended.value.code == 2 and "无法读取配置文件" in capsys.readouterr().err


def test_mistakes_are_named_in_chinese() -> None:
    base = '[platform]\nhost = "h"\nsn = "GW1"\nsecret = "s"\n'
    with pytest.raises(ConfigError, match="buses：缺少此项"):
        load_text(base)
    with pytest.raises(ConfigError, match="buses.0.type：取值不对，可选：'tcp' or 'rtu'"):
        load_text(base + '[[buses]]\ntype = "udp"\ndevices = []\n')
    with pytest.raises(ConfigError, match="intervall：不认识的配置项"):
        load_text("intervall = 3\n" + base + '[[buses]]\ntype = "tcp"\ndevices = []\n')
    with pytest.raises(ConfigError, match="有误：设备编号 1 出现了两次"):
        load_text(base + '[[buses]]\ntype = "tcp"\ndevices = [{id = "1", unit = 1}, {id = "1", unit = 2}]\n')


def test_the_buffer_keeps_order_across_restarts_and_drops_the_oldest_past_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "buffer.sqlite3"
    buffer = DiskBuffer(path, limit=10)
    for n in range(12):
        buffer.append(orjson.dumps({"n": n}))
    assert len(buffer) == 10 and buffer.dropped == 2
    buffer.close()
    again = DiskBuffer(path, limit=10)  # a restart (or a power cut) of the gateway
    assert [orjson.loads(body)["n"] for _, body in again.oldest(3)] == [2, 3, 4]
    first, _ = again.oldest(1)[0]
    again.remove(first)
    assert [orjson.loads(body)["n"] for _, body in again.oldest(20)] == list(range(3, 12))
    again.close()


async def test_a_wrong_secret_is_said_so_and_readings_wait(site: Site, tmp_path: Path) -> None:
    sn, _secret, _ = await site.gateway(name="Modbus网关")
    broker = site.runtime.broker
    assert broker is not None
    async with modbus_breakers() as modbus_port:
        path = write_config(tmp_path, sn=sn, secret="not-its-secret", broker=broker.port, modbus=modbus_port)
        gateway = EdgeGateway(load(path))
        running = asyncio.create_task(gateway.run())
        try:
            await until(lambda: _true(gateway.login_refusals >= 1 and len(gateway.buffer) >= 2))
            assert not gateway.connected.is_set()
            assert broker.stats.refused_login >= 1
            assert not (await devices(site))  # nothing reached the platform
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
