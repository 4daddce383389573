"""The ``load`` event a gateway sends when an appliance switches on or off (docs/gateway-protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from powerportal.core.envelope import describe_validation_error

MAX_POWER_POINTS = 600
MAX_WAVEFORM_SAMPLES = 8192
MIN_WAVEFORM_SAMPLES = 16
# A line of the classify command, or an MQTT payload: the protocol's cap on one message.
MAX_EVENT_BYTES = 256 * 1024
MAX_POWER_W = 100_000.0

Watts = Annotated[float, Field(ge=-MAX_POWER_W, le=MAX_POWER_W)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)


class PowerSeries(_Strict):
    """Active power around the step: sample ``i`` is at ``start_ms + i * step_ms`` from the step."""

    start_ms: int = Field(ge=-600_000, le=600_000)
    step_ms: int = Field(ge=100, le=10_000)
    active_power: list[Watts | None] = Field(min_length=1, max_length=MAX_POWER_POINTS)


class LoadFeatures(_Strict):
    """What a metering chip reports for the added load."""

    power_factor: float | None = Field(default=None, ge=-1.0, le=1.0)
    reactive_power: Watts | None = None
    thd_current: float | None = Field(default=None, ge=0.0, le=1000.0)


class Waveform(_Strict):
    """A few mains cycles of the added load's current and of the voltage, sampled together."""

    sample_rate_hz: float = Field(ge=1000.0, le=100_000.0)
    mains_hz: float = Field(ge=45.0, le=65.0)
    current_a: list[Annotated[float, Field(ge=-1000.0, le=1000.0)]] = Field(
        min_length=MIN_WAVEFORM_SAMPLES, max_length=MAX_WAVEFORM_SAMPLES
    )
    voltage_v: list[Annotated[float, Field(ge=-1000.0, le=1000.0)]] = Field(
        min_length=MIN_WAVEFORM_SAMPLES, max_length=MAX_WAVEFORM_SAMPLES
    )

    @model_validator(mode="after")
    def _whole_cycles(self) -> Waveform:
        if len(self.current_a) != len(self.voltage_v):
            raise ValueError("电流与电压的采样点数应相同")
        if len(self.current_a) < self.sample_rate_hz / self.mains_hz:
            raise ValueError("波形应至少包含一个完整的工频周期")
        return self


class LoadDetail(_Strict):
    """The measured step and whatever the breaker adds to describe it."""

    delta_power: Watts
    power_series: PowerSeries | None = None
    features: LoadFeatures | None = None
    waveform: Waveform | None = None


class LoadEvent(_Strict):
    """One appliance switching on or off, as it arrives on ``gateways/{sn}/events``."""

    device: str = Field(min_length=1, max_length=64)
    ts: int = Field(ge=0, le=2**53 - 1)
    type: Literal["load"]
    code: Literal["appliance_on", "appliance_off"]
    detail: LoadDetail


class LoadEventError(ValueError):
    """A load event that is refused; the message is Chinese and says which field is wrong."""


def parse_event(raw: str | bytes) -> LoadEvent:
    """Read one load event from JSON text, refusing any other shape."""
    if len(raw) > MAX_EVENT_BYTES:
        raise LoadEventError(f"负荷事件过大（最多 {MAX_EVENT_BYTES} 字节）")
    try:
        return LoadEvent.model_validate_json(raw)
    except ValidationError as exc:
        raise _refusal(exc) from None
    except (ValueError, TypeError, RecursionError):  # the JSON parser refusing something odd
        raise LoadEventError("负荷事件不是合法的 JSON") from None


def validate_event(data: Any) -> LoadEvent:
    """Check an already decoded load event, refusing any other shape."""
    try:
        return LoadEvent.model_validate(data)
    except ValidationError as exc:
        raise _refusal(exc) from None


def validate_detail(code: Any, detail: Any) -> LoadDetail:
    """Check the code and detail of a load event as a gateway sent it (the protocol codec's check)."""
    if code not in ("appliance_on", "appliance_off"):
        raise LoadEventError("负荷事件的 code 应为 appliance_on 或 appliance_off")
    try:
        return LoadDetail.model_validate(detail)
    except ValidationError as exc:
        raise _refusal(exc, prefix="detail.") from None


def _refusal(exc: ValidationError, prefix: str = "") -> LoadEventError:
    errors = exc.errors(include_url=False)
    if prefix:
        errors = [{**e, "loc": (prefix.rstrip("."), *e["loc"])} for e in errors]
    if errors and errors[0].get("type") == "json_invalid":
        return LoadEventError("负荷事件不是合法的 JSON")
    # A machine format (JSON lines, the CLI): its fields are named as the file spells them.
    return LoadEventError("负荷事件无效：" + describe_validation_error(list(errors), labels={}))
