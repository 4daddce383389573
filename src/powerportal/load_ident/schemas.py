"""Wire shapes of 负荷识别: identified events, their statistics, and the load policies."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from powerportal.core.schemas import DisplayTime, PageQuery, Reply, Schema, Sysno, list_rules
from powerportal.load_ident.model import CATEGORIES

Action = Literal["record", "alarm", "trip"]
CATEGORY_ITEMS = list_rules({"enum": list(CATEGORIES)}, unique=True)
MAX_POWER_LIMIT = 100_000
MAX_RECLOSE_MINUTES = 1440
MAX_RECLOSE_PER_DAY = 20


def _categories(value: list[str]) -> list[str]:
    if any(item not in CATEGORIES for item in value):
        raise ValueError("含有不认识的电器类别")
    if len(set(value)) != len(value):
        raise ValueError("电器类别重复")
    return value


class LoadEventQuery(PageQuery):
    """Filters of the identified events; times are local ``YYYY-MM-DD[ HH:mm:ss]`` on the event's time."""

    project_sysno: Sysno | None = None
    building_sysno: Sysno | None = None
    device_sysno: Sysno | None = None
    appliance: str | None = Field(default=None, title="电器类别", max_length=16)
    forbidden: Literal[0, 1] | None = Field(default=None, title="是否违规")
    action: Literal["none", "record", "alarm", "trip"] | None = None
    code: Literal["appliance_on", "appliance_off"] | None = Field(default=None, title="事件")
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    keyword: str | None = Field(default=None, max_length=64)


class LoadEventRead(Reply):
    """One identified load event and what was done about it."""

    sysno: int
    project_sysno: int
    project_name: str
    building_sysno: int | None
    building_name: str | None
    gateway_sysno: int
    gateway_name: str
    device_sysno: int
    device_id: str
    target_name: str
    event_time: str | None
    code: str
    code_name: str
    delta_power: float
    power: float
    appliance: str
    confidence: float
    forbidden: int
    whitelisted: int
    action: str
    action_name: str
    # What happened: 已告警, 已分闸，18:30 自动合闸, 设备离线，未分闸 …
    result: str
    trip_state: str | None
    reclose_state: str | None
    reclose_at: str | None
    has_waveform: int
    # A trip whose day's re-closes are used up: someone with control may unlock (close) the breaker.
    can_unlock: bool


class PowerSeriesRead(Reply):
    """Active power around the step: seconds from the step, and W (null where missing)."""

    seconds: list[float]
    active_power: list[float | None]


class WaveformRead(Reply):
    """A few mains cycles of the added load's current and of the voltage, with the time axis in ms."""

    ms: list[float]
    current_a: list[float]
    voltage_v: list[float]
    sample_rate_hz: float
    mains_hz: float


class LoadEventDetail(LoadEventRead):
    """One event with its power step and, where the breaker sent one, its waveform."""

    power_series: PowerSeriesRead | None
    waveform: WaveformRead | None
    power_factor: float | None
    reactive_power: float | None
    thd_current: float | None


class LoadStatQuery(Schema):
    """Violations of a project (or every visible project) over a local time range (default 30 days)."""

    project_sysno: Sysno | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime


class LoadCountByBuilding(Reply):
    """Forbidden loads in one building (null: gateways in no building)."""

    building_sysno: int | None
    building_name: str
    count: int
    tripped: int


class LoadCountByAppliance(Reply):
    """Forbidden loads of one appliance category."""

    appliance: str
    count: int


class LoadCountByDay(Reply):
    """Forbidden loads on one local day."""

    day: str
    count: int


class LoadStatistics(Reply):
    """Switch-ons identified, forbidden and tripped, and the violations by building, category and day."""

    identified: int
    forbidden: int
    tripped: int
    by_building: list[LoadCountByBuilding]
    by_appliance: list[LoadCountByAppliance]
    by_day: list[LoadCountByDay]


class AccuracyRow(Reply):
    """One input's figures, by switch-on, over devices the trees never saw."""

    input: str
    # Chip features or waveforms made from circuit models, not measured.
    synthetic: bool
    recall: float
    false_alarms: float
    # Recall over the forbidden switch-ons drawing at least the policy's minimum power.
    recall_min_power: float
    target_recall: float
    target_false_alarms: float


class ModelAccuracy(Reply):
    """What the evaluation measured, as ``bench/load_ident_eval.py --save`` stored it with the model."""

    measured: str
    devices: int
    rows: list[AccuracyRow]
    plaid_accuracy: float
    target_plaid: float
    min_power_w: float


class PolicyRead(Reply):
    """A project's policy (``building_sysno`` null) or a building's override."""

    project_sysno: int
    building_sysno: int | None
    building_name: str | None
    forbidden: list[str]
    power_limit: float
    action: str
    reclose_minutes: int
    max_reclose: int
    # No policy saved: the defaults apply.
    is_default: bool


class BuildingOption(Reply):
    """A building of the project."""

    sysno: int
    name: str


class WhitelistRead(Reply):
    """The appliances one device may run whatever the policy says."""

    device_sysno: int
    device_id: str
    device_name: str
    appliances: list[str]


class PolicySetting(Reply):
    """Everything the policy editor shows of one project."""

    project: PolicyRead
    buildings: list[PolicyRead]
    building_options: list[BuildingOption]
    whitelists: list[WhitelistRead]
    categories: list[str]
    default_forbidden: list[str]
    # Editing needs control of the project (a policy may trip its breakers).
    can_edit: bool


class PolicyWrite(Schema):
    """A project's policy, or (with ``building_sysno``) a building's override of it."""

    project_sysno: Sysno
    building_sysno: Sysno | None = None
    forbidden: list[str] = Field(
        title="禁用电器", max_length=len(CATEGORIES), json_schema_extra=CATEGORY_ITEMS
    )
    power_limit: float = Field(ge=100, le=MAX_POWER_LIMIT)
    action: Action
    reclose_minutes: int = Field(title="自动合闸等待时间", ge=0, le=MAX_RECLOSE_MINUTES)
    max_reclose: int = Field(title="每日自动合闸次数", ge=0, le=MAX_RECLOSE_PER_DAY)

    @field_validator("forbidden")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        return _categories(value)


class PolicyRemove(Schema):
    """Drop a building's override: the project's policy applies to it again."""

    project_sysno: Sysno
    building_sysno: Sysno


class WhitelistWrite(Schema):
    """A device's whitelist (an empty list removes it)."""

    device_sysno: Sysno
    appliances: list[str] = Field(
        title="白名单电器", max_length=len(CATEGORIES), json_schema_extra=CATEGORY_ITEMS
    )

    @field_validator("appliances")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        return _categories(value)


class UnlockLoad(Schema):
    """Close the breaker a trip left locked (the day's automatic re-closes are used up)."""

    sysno: Sysno


class UnlockResult(Reply):
    """How the closing command ended."""

    status: str
    command_sysno: int | None
