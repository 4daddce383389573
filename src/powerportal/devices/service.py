"""Devices: the monitoring list with live values, settings, deletion and the trend."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Integer, cast, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.billing.models import OPEN as ACCOUNT_OPEN
from powerportal.billing.models import BillingAccount
from powerportal.core.context import AppContext
from powerportal.core.database import hold_rows
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, export_list, filters_shown, with_unit
from powerportal.core.listing import Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.devices.schemas import DeviceQuery, DeviceTrend, DeviceUpdate, TrendSeries
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned, owned_projects, sees, visible_project_name
from powerportal.projects.models import Building, Project
from powerportal.telemetry.keys import BY_KEY
from powerportal.telemetry.latest import LatestEntry, LatestValues
from powerportal.telemetry.models import Reading

MAX_POINTS = 500
LATEST_KEYS = (
    "voltage",
    "voltage_a",
    "voltage_b",
    "voltage_c",
    "current",
    "current_a",
    "current_b",
    "current_c",
    "active_power",
    "power_factor",
    "frequency",
    "energy",
    "leakage_current",
    "temperature",
)
# The trend's series in display order; the phase series appear only where the device reports them.
TREND_KEYS = (
    "voltage",
    "voltage_a",
    "voltage_b",
    "voltage_c",
    "current",
    "current_a",
    "current_b",
    "current_c",
    "active_power",
    "temperature",
    "leakage_current",
)
ALWAYS_SHOWN = frozenset({"voltage", "current", "active_power", "temperature", "leakage_current"})

DEVICES = Listing(
    select(
        Device.sysno,
        Device.device_id,
        Device.name,
        Device.kind,
        Device.phases,
        Device.model,
        Device.project_sysno,
        Project.name,
        Gateway.building_sysno,
        Building.name,
        Gateway.sysno,
        Gateway.name,
        Gateway.sn,
        Gateway.online,
        Device.online,
        Device.switch_state,
        Device.last_report_time,
        Device.rated_current,
        Device.over_voltage,
        Device.under_voltage,
        Device.over_current,
        Device.leakage_limit,
        Device.temperature_limit,
        Device.power_limit,
        Device.latest,
        Device.create_time,
    )
    .join(Gateway, Gateway.sysno == Device.gateway_sysno)
    .join(Project, Project.sysno == Device.project_sysno)
    .outerjoin(Building, Building.sysno == Gateway.building_sysno),
    filters={
        "customer": lambda p: sees(p, project=Device.project_sysno, gateway=Device.gateway_sysno),
        "sysno": lambda p: Device.sysno == p,
        "project": lambda p: Device.project_sysno == p,
        "gateway": lambda p: Device.gateway_sysno == p,
        "building": lambda p: Gateway.building_sysno == p,
        "online": lambda _p: Device.online != 0,
        "offline": lambda _p: Device.online == 0,
        "switch_state": lambda p: Device.switch_state == p,
        "keyword": Keyword(Device.name, Device.device_id, Gateway.name, Gateway.sn),
    },
    orders={
        "sysno": Device.sysno,
        "name": Device.name,
        "device_id": Device.device_id,
        "online": Device.online,
        "last_report_time": Device.last_report_time,
        "create_time": Device.create_time,
    },
    default_order="sysno",
    tie=Device.sysno,
    # Devices read best in the order they were announced, unless the caller asks otherwise.
    ascending_unless_asked=True,
)


def _device(row: Row, hot: Mapping[int, LatestEntry]) -> dict[str, Any]:
    """One device in the shape of ``DeviceRead``, with the freshest latest values known."""
    sysno, device_id, name, kind, phases, model, project_sysno, project_name = row[:8]
    building_sysno, building_name, gateway_sysno, gateway_name, gateway_sn, gateway_online = row[8:14]
    online, switch_state, reported = row[14:17]
    rated_current, over_voltage, under_voltage, over_current, leakage, temperature, power = row[17:24]
    latest, create_time = row[24:26]
    values: dict[str, Any] = dict(latest.items()) if latest else {}
    values.pop("ts", None)
    entry = hot.get(sysno)
    # The ingest commits before it updates memory, so a newer entry there is the freshest truth.
    if entry is not None and (reported is None or entry.received_at >= reported):
        values.update(entry.values)
        reported = entry.received_at
        switch = _number(entry.values.get("switch"))
        switch_state = int(switch) if switch is not None else switch_state
    device = {
        "sysno": sysno,
        "device_id": device_id,
        "name": name,
        "kind": kind,
        "phases": phases,
        "model": model,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "building_sysno": building_sysno,
        "building_name": building_name,
        "gateway_sysno": gateway_sysno,
        "gateway_name": gateway_name,
        "gateway_sn": gateway_sn,
        "gateway_online": int(gateway_online),
        "online": online or 0,
        "switch_state": switch_state,
        "last_report_time": to_display(reported),
        "rated_current": rated_current,
        "over_voltage": over_voltage,
        "under_voltage": under_voltage,
        "over_current": over_current,
        "leakage_limit": leakage,
        "temperature_limit": temperature,
        "power_limit": power,
        "latest": values,
        "create_time": to_display(create_time),
    }
    if values:
        for key in LATEST_KEYS:
            device[key] = _number(values.get(key))
    else:
        device.update(_NO_NUMBERS)
    return device


_NO_NUMBERS = dict.fromkeys(LATEST_KEYS)
_isfinite = math.isfinite


def _number(value: Any) -> float | None:
    if type(value) is float:  # what JSON gives, nearly always
        return value if _isfinite(value) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _device_values(customer: Customer, query: DeviceQuery) -> dict[str, Any]:
    """The device list's filter values for a query."""
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "gateway": query.gateway_sysno,
        "building": query.building_sysno,
        "online": True if query.online == 1 else None,
        "offline": True if query.online == 0 else None,
        "switch_state": query.switch_state,
        "keyword": query.keyword,
    }


def _renderer(hot: LatestValues | None) -> Callable[[Sequence[Row]], Awaitable[list[dict[str, Any]]]]:
    async def render(rows: Sequence[Row]) -> list[dict[str, Any]]:
        entries = hot.get_many(row[0] for row in rows) if hot else {}
        return [_device(row, entries) for row in rows]

    return render


async def list_devices(
    *, ctx: AppContext, customer: Customer, query: DeviceQuery, hot: LatestValues | None = None
) -> PageData:
    """One page of the devices in projects the customer may see, with their latest values."""
    return await DEVICES.page(
        ctx, query=query, values=_device_values(customer, query), render_page=_renderer(hot)
    )


ONLINE_NAMES = {0: "离线", 1: "在线"}
SWITCH_NAMES = {0: "分闸", 1: "合闸"}


def _phases(quantity: str, unit: str, digits: int) -> Callable[[dict[str, Any]], str | None]:
    """Voltage or current as the device list shows it: one value, or ``A 220.1 / B 221.0 / C 219.8 V``."""

    def shown(device: dict[str, Any]) -> str | None:
        phases = [device[f"{quantity}_{p}"] for p in "abc"]
        if device["phases"] == 3 and any(v is not None for v in phases):
            parts = [f"{p} {with_unit(v, '', digits) or '—'}" for p, v in zip("ABC", phases, strict=True)]
            return " / ".join(parts) + f" {unit}"
        return with_unit(device[quantity], unit, digits)

    return shown


def _power(device: dict[str, Any]) -> str | None:
    watts = device["active_power"]
    if watts is None:
        return None
    return with_unit(watts / 1000, "kW", 2) if abs(watts) >= 10_000 else with_unit(watts, "W", 0)


DEVICE_COLUMNS = (
    Column("设备名称", "name", 20),
    Column("设备地址", "device_id", 10),
    Column("项目", "project_name", 18),
    Column("建筑", "building_name", 14),
    Column("所属网关", "gateway_name", 18),
    Column("网关编号", "gateway_sn", 16),
    Column("状态", lambda d: "在线" if d["online"] else "离线", 8),
    Column("开关", lambda d: SWITCH_NAMES.get(d["switch_state"], "未知"), 8),
    Column("电压", _phases("voltage", "V", 1), 28),
    Column("电流", _phases("current", "A", 2), 28),
    Column("功率", _power, 12),
    Column("电能", lambda d: with_unit(d["energy"], "kWh", 2), 14),
    Column("漏电", lambda d: with_unit(d["leakage_current"], "mA", 1), 10),
    Column("温度", lambda d: with_unit(d["temperature"], "°C", 1), 10),
    Column("最后上报", "last_report_time", 20),
)


async def export_devices(
    *, ctx: AppContext, customer: Customer, query: DeviceQuery, hot: LatestValues | None = None
) -> tuple[Path, str]:
    """Every device the list's filters keep, with its latest values, as a workbook: its path and name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("建筑编号", query.building_sysno),
        ("网关编号", query.gateway_sysno),
        ("状态", ONLINE_NAMES.get(query.online) if query.online is not None else None),
        ("开关", SWITCH_NAMES.get(query.switch_state) if query.switch_state is not None else None),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="设备列表",
        listing=DEVICES,
        query=query,
        values=_device_values(customer, query),
        columns=DEVICE_COLUMNS,
        filters=filters,
        render_page=_renderer(hot),
    )


async def get_device(
    *, session: AsyncSession, customer: Customer, sysno: int, hot: LatestValues | None = None
) -> dict[str, Any]:
    """One device the customer may see, with its latest values (read in the caller's session)."""
    row = await DEVICES.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("设备")
    return _device(row, hot.get_many([sysno]) if hot else {})


async def get_owned_device(*, session: AsyncSession, customer: Customer, sysno: int) -> Device:
    """A device in a project the customer owns, to change (only owners change devices).

    Locked first (``hold``), so a change racing the device's deletion (or its gateway's) finds it
    as that left it, or gone (not found), never a stale row.
    """
    await hold(session, Device.sysno == sysno, Device.project_sysno.in_(owned_projects(customer.sysno)))
    return await get_owned(session=session, customer=customer, model=Device, sysno=sysno, what="设备")


def check_voltages(*, over_voltage: float | None, under_voltage: float | None) -> None:
    """The under-voltage threshold must lie below the over-voltage one (when both are set)."""
    if over_voltage is not None and under_voltage is not None and under_voltage >= over_voltage:
        raise ApiError("欠压阈值应低于过压阈值")


async def update_device(
    *, session: AsyncSession, customer: Customer, body: DeviceUpdate, ip: str | None
) -> Device:
    """Set a device's name, rated current and thresholds."""
    device = await get_owned_device(session=session, customer=customer, sysno=body.sysno)
    check_voltages(over_voltage=body.over_voltage, under_voltage=body.under_voltage)
    device.name = body.name
    device.rated_current = body.rated_current
    device.over_voltage = body.over_voltage
    device.under_voltage = body.under_voltage
    device.over_current = body.over_current
    device.leakage_limit = body.leakage_limit
    device.temperature_limit = body.temperature_limit
    device.power_limit = body.power_limit
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.DEVICE,
        detail=f"修改设备：{device.name}（{device.device_id}）",
        ip=ip,
    )
    return device


async def hold(session: AsyncSession, *where: ColumnElement[bool]) -> list[int]:
    """The devices matching ``where``, locked against other writers until the transaction ends.

    (``core.database.hold_rows``): an electricity account being opened on one waits for this
    transaction, and finds no device if it deletes them.
    """
    return await hold_rows(session, Device, *where)


async def open_accounts(session: AsyncSession, device_sysnos: Sequence[int]) -> int:
    """How many open electricity accounts the devices have (held devices: none can open meanwhile)."""
    found = await session.scalar(
        select(func.count())
        .select_from(BillingAccount)
        .where(BillingAccount.device_sysno.in_(device_sysnos), BillingAccount.state == ACCOUNT_OPEN)
    )
    return found or 0


async def delete_device(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """Delete a device and its readings (it reappears if its gateway announces it again).

    Refused while the device has an open electricity account: its prepaid money, ledger, bills and
    orders would go with it. A closed account goes with the device.
    """
    device = await get_owned_device(session=session, customer=customer, sysno=sysno)
    if await open_accounts(session, [device.sysno]):
        raise ApiError("该设备有未销户的电费账户，请先在电费管理中销户")
    await session.execute(delete(Reading).where(Reading.device_sysno == device.sysno))
    await session.delete(device)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.DEVICE,
        detail=f"删除设备：{device.name}（{device.device_id}）",
        ip=ip,
    )


def _bucket_expression(session: AsyncSession, start: datetime, bucket_seconds: int) -> ColumnElement[Any]:
    """The index of the ``bucket_seconds``-wide bucket since ``start`` a reading falls in, in SQL."""
    if session.get_bind().dialect.name == "sqlite":
        # SQLite keeps the naive UTC text that UTCDateTime writes; julianday() reads it.
        origin = start.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")
        seconds = (func.julianday(Reading.ts) - func.julianday(origin)) * 86400
        return cast(seconds / bucket_seconds, Integer)
    seconds = func.extract("epoch", Reading.ts) - start.timestamp()
    return func.floor(seconds / bucket_seconds)


async def trend(
    *, session: AsyncSession, customer: Customer, sysno: int, hours: int, now: datetime | None = None
) -> DeviceTrend:
    """The device's readings over the last ``hours``, averaged into at most ``MAX_POINTS`` buckets."""
    device = await session.scalar(
        select(Device).where(
            Device.sysno == sysno,
            sees(customer.sysno, project=Device.project_sysno, gateway=Device.gateway_sysno),
        )
    )
    if device is None:
        raise NotFound("设备")
    end = now or utcnow()
    start = end - timedelta(hours=hours)
    bucket_seconds = math.ceil(hours * 3600 / MAX_POINTS)
    keys = list(TREND_KEYS)
    bucket = _bucket_expression(session, start, bucket_seconds).label("bucket")
    rows = (
        await session.execute(
            select(bucket, *(func.avg(getattr(Reading, key)) for key in keys))
            .where(Reading.device_sysno == sysno, Reading.ts >= start, Reading.ts <= end)
            .group_by(bucket)
            .order_by(bucket)
        )
    ).all()
    buckets = [int(row[0]) for row in rows]
    series = []
    for i, key in enumerate(keys):
        data = [None if row[i + 1] is None else round(float(row[i + 1]), 3) for row in rows]
        if key in ALWAYS_SHOWN or any(v is not None for v in data):
            described = BY_KEY[key]
            series.append(TrendSeries(key=key, label=described.label_zh, unit=described.unit, data=data))
    return DeviceTrend(
        sysno=device.sysno,
        name=device.name,
        hours=hours,
        start_time=to_display(start) or "",
        end_time=to_display(end) or "",
        bucket_seconds=bucket_seconds,
        times=[to_display(start + timedelta(seconds=b * bucket_seconds)) or "" for b in buckets],
        series=series,
    )
