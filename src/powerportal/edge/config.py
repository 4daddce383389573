"""The Modbus gateway's configuration file (TOML), and the register map of a typical smart breaker.

docs/modbus-gateway.md describes every field; ``tests/fixtures/edge/gateway.toml`` is the example the
tests load.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from powerportal.telemetry.keys import BY_KEY

RegisterType = Literal["u16", "i16", "u32", "i32", "f32"]
WIDTH = {"u16": 1, "i16": 1, "u32": 2, "i32": 2, "f32": 2}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Register(_Strict):
    """One reading: where it is, how it is encoded, and what multiplies the raw number."""

    key: str
    address: Annotated[int, Field(ge=0, le=65535)]
    type: RegisterType = "u16"
    scale: float = 1.0
    table: Literal["holding", "input"] = "holding"

    @property
    def width(self) -> int:
        """How many 16-bit registers it spans."""
        return WIDTH[self.type]


class RegisterMap(_Strict):
    """Where a breaker model keeps its readings, and the coil that switches it (read for its state)."""

    registers: tuple[Register, ...]
    switch_coil: Annotated[int, Field(ge=0, le=65535)] | None = 0
    # Words of 32-bit values: "big" puts the high word first (most breakers), "little" the low one.
    word_order: Literal["big", "little"] = "big"

    @model_validator(mode="after")
    def _known_keys(self) -> RegisterMap:
        for register in self.registers:
            if register.key not in BY_KEY and not register.key.isidentifier():
                raise ValueError(f"寄存器的键 {register.key!r} 不是有效的名称")
        return self


# A typical single-phase smart breaker (holding registers from 0, switch on coil 0); docs/modbus-gateway.md.
DEFAULT_MAP = RegisterMap(
    registers=(
        Register(key="voltage", address=0, type="u16", scale=0.1),
        Register(key="current", address=1, type="u16", scale=0.01),
        Register(key="active_power", address=2, type="i32", scale=0.1),
        Register(key="power_factor", address=4, type="i16", scale=0.001),
        Register(key="energy", address=5, type="u32", scale=0.01),
        Register(key="leakage_current", address=7, type="u16", scale=0.1),
        Register(key="temperature", address=8, type="i16", scale=0.1),
        Register(key="frequency", address=9, type="u16", scale=0.01),
    ),
    switch_coil=0,
)


class DeviceConfig(_Strict):
    """A breaker on a bus: its id on the platform, its Modbus unit, its register map."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
    unit: Annotated[int, Field(ge=0, le=247)]
    kind: Literal["breaker", "meter", "sensor"] = "breaker"
    phases: Literal[1, 3] = 1
    name: str | None = None
    model: str | None = None
    map: str = "default"


class BusConfig(_Strict):
    """One Modbus line: TCP (a Modbus TCP breaker or an RS-485 to Ethernet converter) or RTU (serial)."""

    type: Literal["tcp", "rtu"]
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=1, le=65535)] = 502
    device: str = "/dev/ttyUSB0"
    baudrate: int = 9600
    parity: Literal["N", "E", "O"] = "N"
    stopbits: Literal[1, 2] = 1
    bytesize: Literal[7, 8] = 8
    timeout: Annotated[float, Field(gt=0, le=30)] = 1.0
    devices: tuple[DeviceConfig, ...]


class PlatformConfig(_Strict):
    """Where the platform's broker is, and the gateway's login (its serial number and secret)."""

    host: str
    port: Annotated[int, Field(ge=1, le=65535)] = 1883
    sn: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
    secret: str
    keepalive: Annotated[int, Field(ge=10, le=600)] = 30
    firmware: str = "powerportal-gateway"


class GatewayConfig(_Strict):
    """The whole file."""

    platform: PlatformConfig
    interval_seconds: Annotated[float, Field(gt=0, le=3600)] = 10.0
    # Readings waiting for the platform, on disk; beyond the limit the oldest are dropped.
    buffer_file: Path = Path("gateway-buffer.sqlite3")
    buffer_limit: Annotated[int, Field(ge=10, le=10_000_000)] = 100_000
    buses: tuple[BusConfig, ...]
    maps: dict[str, RegisterMap] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> GatewayConfig:
        seen: set[str] = set()
        for bus in self.buses:
            for device in bus.devices:
                if device.id in seen:
                    raise ValueError(f"设备编号 {device.id} 出现了两次")
                seen.add(device.id)
                if device.map != "default" and device.map not in self.maps:
                    raise ValueError(f"设备 {device.id} 的寄存器表 {device.map} 未定义")
        return self

    def register_map(self, name: str) -> RegisterMap:
        """A map by name (``default``: the typical breaker's, unless the file redefines it)."""
        return self.maps.get(name) or DEFAULT_MAP


# What a mistake in the file means, in the words of the one who edits it.
_REASONS = {
    "missing": "缺少此项",
    "extra_forbidden": "不认识的配置项（拼写是否有误？）",
    "string_pattern_mismatch": "格式不对：只能用字母、数字和 _.:-，至多 64 个字符",
    "string_type": "应为文字（加引号）",
    "int_type": "应为整数",
    "int_parsing": "应为整数",
    "float_type": "应为数字",
    "float_parsing": "应为数字",
    "bool_type": "应为 true 或 false",
    "greater_than": "超出允许的范围",
    "greater_than_equal": "超出允许的范围",
    "less_than": "超出允许的范围",
    "less_than_equal": "超出允许的范围",
    "literal_error": "取值不对，可选",
    "tuple_type": "应为列表",
    "dict_type": "应为一个表",
    "model_type": "应为一个表",
}


class ConfigError(ValueError):
    """The configuration file cannot be used; the message says why, in Chinese."""


def load(path: Path) -> GatewayConfig:
    """Read and check a configuration file; a relative buffer file is next to it."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"无法读取配置文件 {path}：{exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"配置文件 {path} 不是有效的 TOML：{exc}") from exc
    try:
        config = GatewayConfig.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        why = _REASONS.get(first["type"], str(first["msg"]).removeprefix("Value error, "))
        if first["type"] == "literal_error":
            why += "：" + str((first.get("ctx") or {}).get("expected", ""))
        raise ConfigError(f"配置文件 {path} 有误：{where + '：' if where else ''}{why}") from exc
    if not config.buffer_file.is_absolute():
        config = config.model_copy(update={"buffer_file": path.parent / config.buffer_file})
    return config
