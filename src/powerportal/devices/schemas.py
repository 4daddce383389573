"""Device wire shapes: the monitoring row, settings and the trend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from pydantic import ConfigDict, Field, model_validator

from powerportal.core.schemas import JsonDict, PageQuery, Schema, Sysno

# Settable limits: label, unit, lowest, highest (units as the gateway protocol reports the values).
SETTING_RANGES: dict[str, tuple[str, str, float, float]] = {
    "rated_current": ("额定电流", "A", 0.1, 6300),
    "over_voltage": ("过压阈值", "V", 100, 500),
    "under_voltage": ("欠压阈值", "V", 50, 400),
    "over_current": ("过流阈值", "A", 0.1, 6300),
    "leakage_limit": ("漏电阈值", "mA", 1, 1000),
    "temperature_limit": ("温度阈值", "°C", 20, 200),
    "power_limit": ("功率上限", "W", 1, 5_000_000),
}


def _plain(number: float) -> str:
    return str(int(number)) if number == int(number) else str(number)


def check_ranges(values: Mapping[str, float | None]) -> None:
    """Refuse the first of the given settings outside its range (``SETTING_RANGES``; NaN is in none)."""
    for field, (label, unit, lowest, highest) in SETTING_RANGES.items():
        value = values.get(field)
        if value is not None and not lowest <= value <= highest:
            raise ValueError(f"{label}应在 {_plain(lowest)}–{_plain(highest)} {unit} 之间")


class DeviceQuery(PageQuery):
    """Device-list filters; ``orderBy`` as docs/api.md lists it (sysno ascending by default)."""

    project_sysno: Sysno | None = None
    building_sysno: Sysno | None = None
    gateway_sysno: Sysno | None = None
    online: Literal[0, 1] | None = None
    switch_state: Literal[0, 1] | None = None
    keyword: str | None = Field(default=None, max_length=64)


def _document_ranges(schema: JsonDict) -> None:
    """Write the ranges ``_within_ranges`` checks into the document."""
    properties = cast("dict[str, JsonDict]", schema["properties"])
    for field, (_label, _unit, lowest, highest) in SETTING_RANGES.items():
        for option in cast("list[JsonDict]", properties[field].get("anyOf", [])):
            if option.get("type") == "number":
                option.update(minimum=lowest, maximum=highest)


class DeviceUpdate(Schema):
    """A device's name, rated current and alarm thresholds (null clears a threshold).

    Each value is checked against its range here; that the under-voltage threshold lies below the
    over-voltage one is a rule of ``service.update_device`` (no JSON schema can say it).
    """

    model_config = ConfigDict(json_schema_extra=_document_ranges)

    sysno: Sysno
    name: str = Field(title="设备名称", min_length=1, max_length=64)
    rated_current: float | None = None
    over_voltage: float | None = None
    under_voltage: float | None = None
    over_current: float | None = None
    leakage_limit: float | None = None
    temperature_limit: float | None = None
    power_limit: float | None = None

    @model_validator(mode="after")
    def _within_ranges(self) -> DeviceUpdate:
        check_ranges({field: getattr(self, field) for field in SETTING_RANGES})
        return self


class DeviceRead(Schema):
    """A device row: identity, place, state, settings and its latest values."""

    sysno: int
    device_id: str
    name: str
    kind: str
    phases: int
    model: str | None
    project_sysno: int
    project_name: str
    building_sysno: int | None
    building_name: str | None
    gateway_sysno: int
    gateway_name: str
    gateway_sn: str
    gateway_online: int
    online: int
    switch_state: int | None
    last_report_time: str | None
    rated_current: float | None
    over_voltage: float | None
    under_voltage: float | None
    over_current: float | None
    leakage_limit: float | None
    temperature_limit: float | None
    power_limit: float | None
    voltage: float | None = None
    voltage_a: float | None = None
    voltage_b: float | None = None
    voltage_c: float | None = None
    current: float | None = None
    current_a: float | None = None
    current_b: float | None = None
    current_c: float | None = None
    active_power: float | None = None
    power_factor: float | None = None
    frequency: float | None = None
    energy: float | None = None
    leakage_current: float | None = None
    temperature: float | None = None
    latest: dict[str, Any] = Field(
        default_factory=dict, description="every latest value, unknown keys included"
    )
    create_time: str | None


class TrendQuery(Schema):
    """Which device and how far back."""

    sysno: Sysno
    hours: int = Field(default=24, ge=1, le=168)


class TrendSeries(Schema):
    """One value over time, aligned with ``times``."""

    key: str
    label: str
    unit: str
    data: list[float | None]


class DeviceTrend(Schema):
    """A device's readings over a window, averaged into at most ``MAX_POINTS`` buckets."""

    sysno: int
    name: str
    hours: int
    start_time: str
    end_time: str
    bucket_seconds: int
    times: list[str]
    series: list[TrendSeries]
