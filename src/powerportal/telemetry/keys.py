"""Every telemetry key a gateway may send, described once for the codec, simulator, API and alarm rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

KeyKind = Literal["measure", "counter", "state"]


@dataclass(frozen=True, slots=True)
class TelemetryKey:
    """One value a device reports: its wire name, unit, Chinese label and plausible range."""

    key: str
    unit: str
    label_zh: str
    kind: KeyKind
    minimum: float
    maximum: float
    # Whether ``reading`` has a column of this name; other known keys go to ``reading.extra``.
    column: bool = True
    integer: bool = False

    def accepts(self, value: float) -> bool:
        """Whether a value is within the plausible range (and whole where it must be)."""
        if self.integer and value != int(value):
            return False
        return self.minimum <= value <= self.maximum


def _phases(key: str, unit: str, label_zh: str, minimum: float, maximum: float) -> tuple[TelemetryKey, ...]:
    total = TelemetryKey(key, unit, label_zh, "measure", minimum, maximum)
    return (total,) + tuple(
        TelemetryKey(f"{key}_{p}", unit, f"{p.upper()}相{label_zh}", "measure", minimum, maximum)
        for p in "abc"
    )


KEYS: tuple[TelemetryKey, ...] = (
    *_phases("voltage", "V", "电压", 0, 1000),
    *_phases("current", "A", "电流", 0, 6300),
    TelemetryKey("active_power", "W", "有功功率", "measure", -5_000_000, 5_000_000),
    TelemetryKey("reactive_power", "var", "无功功率", "measure", -5_000_000, 5_000_000, column=False),
    TelemetryKey("power_factor", "", "功率因数", "measure", -1, 1),
    TelemetryKey("frequency", "Hz", "频率", "measure", 40, 70),
    TelemetryKey("energy", "kWh", "电能", "counter", 0, 1e12),
    TelemetryKey("leakage_current", "mA", "漏电流", "measure", 0, 10_000),
    TelemetryKey("temperature", "°C", "温度", "measure", -50, 250),
    TelemetryKey("switch", "", "开关状态", "state", 0, 1, integer=True),
)

BY_KEY: dict[str, TelemetryKey] = {k.key: k for k in KEYS}
COLUMN_KEYS: tuple[str, ...] = tuple(k.key for k in KEYS if k.column)
THREE_PHASE_KEYS: frozenset[str] = frozenset(
    k.key for k in KEYS if k.key[-2:] in ("_a", "_b", "_c") and k.key[:-2] in BY_KEY
)
