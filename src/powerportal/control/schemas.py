"""Remote-control wire shapes: commands, the command log, timed tasks, groups and runs."""

from __future__ import annotations

from typing import Any, Literal, cast

from pydantic import Field, field_validator

from powerportal.core.schemas import (
    MAX_SYSNO,
    SYSNO_ITEMS,
    DisplayTime,
    JsonDict,
    PageQuery,
    Schema,
    Sysno,
    list_rules,
)
from powerportal.devices.schemas import SETTING_RANGES, check_ranges

Action = Literal["switch_on", "switch_off", "set_thresholds", "read_now"]
SwitchAction = Literal["switch_on", "switch_off"]
MAX_DEVICES = 2000


THRESHOLDS = (
    "over_voltage",
    "under_voltage",
    "over_current",
    "leakage_limit",
    "temperature_limit",
    "power_limit",
)


def _threshold_names(schema: JsonDict) -> None:
    """Document what ``_known_thresholds`` demands: known names, at least one, each within its range."""
    for option in cast("list[JsonDict]", schema.get("anyOf", [])):
        if option.get("type") == "object":
            option["propertyNames"] = {"enum": list(THRESHOLDS)}
            option["minProperties"] = 1
            option["properties"] = {
                name: {
                    "type": "number",
                    "minimum": SETTING_RANGES[name][2],
                    "maximum": SETTING_RANGES[name][3],
                }
                for name in THRESHOLDS
            }


class CommandSend(Schema):
    """Send one command to one device; ``params`` only for ``set_thresholds``."""

    device_sysno: Sysno
    action: Action
    params: dict[str, float] | None = Field(default=None, json_schema_extra=_threshold_names)

    @field_validator("params")
    @classmethod
    def _known_thresholds(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        if value is None:
            return None
        unknown = set(value) - set(THRESHOLDS)
        if unknown:
            raise ValueError(f"含未知阈值 {sorted(unknown)[0]}")
        if len(value) == 0:
            raise ValueError("不能为空")
        check_ranges(value)
        return value


class CommandRead(Schema):
    """One command and how it ended."""

    sysno: int
    project_sysno: int
    project_name: str | None = None
    gateway_sysno: int
    gateway_sn: str
    device_sysno: int | None
    device_id: str
    target_name: str
    source: str
    source_name: str
    run_sysno: int | None
    operator: str
    action: str
    action_name: str
    params: dict[str, Any] | None
    status: str
    status_name: str
    reason: str | None
    result: dict[str, Any] | None
    sent_time: str | None
    answer_time: str | None
    duration_ms: int | None
    create_time: str | None


class CommandQuery(PageQuery):
    """Command-log filters; ``orderBy`` is one of create_time (default), status, action, target_name."""

    project_sysno: Sysno | None = None
    gateway_sysno: Sysno | None = None
    device_sysno: Sysno | None = None
    run_sysno: Sysno | None = None
    status: Literal["pending", "succeeded", "failed", "timeout", "offline"] | None = None
    action: Action | None = None
    source: Literal["manual", "task", "group", "billing", "load"] | None = None
    start_time: str | None = DisplayTime
    end_time: str | None = DisplayTime
    keyword: str | None = Field(default=None, max_length=64)


class OptionRead(Schema):
    """One option of a filter."""

    value: str
    label: str


class CommandOptions(Schema):
    """The filter options of the command log."""

    status: list[OptionRead]
    action: list[OptionRead]
    source: list[OptionRead]


# -- timed tasks ------------------------------------------------------------------------------------


class TaskWrite(Schema):
    """A timed task as the form sends it.

    ``repeat`` weekly: ``weekdays`` (1 Monday … 7 Sunday) and ``times`` (``HH:MM``, at most 8);
    once: ``run_at`` (``YYYY-MM-DD HH:mm[:ss]`` in the time zone).
    """

    name: str = Field(title="任务名称", min_length=1, max_length=64)
    action: SwitchAction
    repeat: Literal["weekly", "once"]
    weekdays: list[int] = Field(
        default_factory=list, max_length=7, json_schema_extra=list_rules({"minimum": 1, "maximum": 7})
    )
    times: list[str] = Field(
        default_factory=list,
        max_length=8,
        json_schema_extra=list_rules({"pattern": r"^([01][0-9]|2[0-3]):[0-5][0-9]$"}, unique=True),
    )
    run_at: str | None = Field(
        default=None, max_length=19, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(:[0-9]{2})?$"
    )
    timezone: str = Field(default="Asia/Shanghai", max_length=64)
    device_sysnos: list[int] = Field(
        min_length=1, max_length=MAX_DEVICES, json_schema_extra=list_rules(SYSNO_ITEMS)
    )
    enabled: bool = True
    remark: str | None = Field(default=None, max_length=255)

    @field_validator("weekdays")
    @classmethod
    def _weekdays(cls, value: list[int]) -> list[int]:
        if any(day < 1 or day > 7 for day in value):
            raise ValueError("应为 1（周一）到 7（周日）")
        return sorted(set(value))

    @field_validator("times")
    @classmethod
    def _times(cls, value: list[str]) -> list[str]:
        for text in value:
            parts = text.split(":")
            ok = (
                len(parts) == 2
                and all(p.isascii() and p.isdigit() and len(p) == 2 for p in parts)
                and int(parts[0]) < 24
                and int(parts[1]) < 60
            )
            if not ok:
                raise ValueError(f"中的 {text[:8]} 应为 HH:mm 格式")
        if len(set(value)) != len(value):
            raise ValueError("有重复")
        return sorted(value)

    @field_validator("device_sysnos")
    @classmethod
    def _devices(cls, value: list[int]) -> list[int]:
        if any(v < 1 or v > MAX_SYSNO for v in value):
            raise ValueError("含无效设备编号")
        return list(dict.fromkeys(value))


class TaskCreate(TaskWrite):
    """Create a timed task."""


class TaskUpdate(TaskWrite):
    """Replace a timed task."""

    sysno: Sysno


class TaskEnable(Schema):
    """Enable or disable a timed task."""

    sysno: Sysno
    enabled: bool


class DeviceBrief(Schema):
    """A device as task and group screens show it."""

    sysno: int
    name: str
    device_id: str
    gateway_sysno: int
    gateway_name: str
    gateway_sn: str
    project_sysno: int
    project_name: str
    online: int
    switch_state: int | None


class DevicePick(Schema):
    """Filters of the device picker."""

    project_sysno: Sysno | None = None
    gateway_sysno: Sysno | None = None
    keyword: str | None = Field(default=None, max_length=64)


class TaskRow(Schema):
    """A timed task in the list: its schedule, how many devices, its next and last run."""

    sysno: int
    name: str
    action: str
    action_name: str
    repeat: str
    weekdays: list[int]
    times: list[str]
    run_at: str | None
    timezone: str
    enabled: int
    remark: str | None
    device_count: int
    next_run: str | None
    last_run: str | None
    last_run_status: str | None
    create_time: str | None
    update_time: str | None


class TaskRead(TaskRow):
    """A timed task with its devices."""

    devices: list[DeviceBrief]


class TaskQuery(PageQuery):
    """Filters of the task list; ``orderBy`` is one of create_time (default), name."""

    name: str | None = Field(default=None, max_length=64)
    enabled: Literal[0, 1] | None = None


class RunRead(Schema):
    """One run of a task or group, with its tallies."""

    sysno: int
    kind: str
    task_sysno: int | None
    group_sysno: int | None
    name: str
    action: str
    action_name: str
    scheduled_for: str | None
    status: str
    status_name: str
    detail: str | None
    total: int
    succeeded: int
    failed: int
    pending: int
    start_time: str | None
    end_time: str | None
    create_time: str | None


class RunQuery(PageQuery):
    """Filters of the run list."""

    task_sysno: Sysno | None = None
    group_sysno: Sysno | None = None
    kind: Literal["task", "group"] | None = None


class RunDetail(RunRead):
    """A run and the result of each of its devices so far."""

    commands: list[CommandRead]


# -- groups -----------------------------------------------------------------------------------------


class GroupWrite(Schema):
    """A device group as the form sends it."""

    name: str = Field(title="分组名称", min_length=1, max_length=64)
    remark: str | None = Field(default=None, max_length=255)
    device_sysnos: list[int] = Field(
        default_factory=list, max_length=MAX_DEVICES, json_schema_extra=list_rules(SYSNO_ITEMS)
    )

    @field_validator("device_sysnos")
    @classmethod
    def _devices(cls, value: list[int]) -> list[int]:
        if any(v < 1 or v > MAX_SYSNO for v in value):
            raise ValueError("含无效设备编号")
        return list(dict.fromkeys(value))


class GroupCreate(GroupWrite):
    """Create a group."""


class GroupUpdate(GroupWrite):
    """Replace a group's name, remark and members."""

    sysno: Sysno


class GroupRow(Schema):
    """A group in the list: how many devices, online and switched on, and its last run."""

    sysno: int
    name: str
    remark: str | None
    device_count: int
    online_count: int
    on_count: int
    last_run: RunRead | None
    create_time: str | None
    update_time: str | None


class GroupRead(GroupRow):
    """A group with its devices."""

    devices: list[DeviceBrief]


class GroupQuery(PageQuery):
    """Filters of the group list; ``orderBy`` is one of create_time (default), name."""

    name: str | None = Field(default=None, max_length=64)


class GroupSwitch(Schema):
    """Switch a whole group on or off."""

    sysno: Sysno
    action: SwitchAction
