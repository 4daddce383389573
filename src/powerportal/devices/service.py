"""Devices: the monitoring list with live values, settings, deletion and the trend."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Integer, Row, Select, cast, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.database import fetch_page
from powerportal.core.envelope import NotFound
from powerportal.core.filters import contains_pattern
from powerportal.core.schemas import Page
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.devices.schemas import DeviceQuery, DeviceRead, DeviceTrend, DeviceUpdate, TrendSeries
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned_project, visible_project_ids
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

_ORDERABLE: dict[str, Any] = {
    "sysno": Device.sysno,
    "name": Device.name,
    "device_id": Device.device_id,
    "online": Device.online,
    "last_report_time": Device.last_report_time,
    "create_time": Device.create_time,
}


def _rows_query() -> Select[Device, Gateway, str, str]:
    return (
        select(Device, Gateway, Project.name, Building.name)
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .join(Project, Project.sysno == Device.project_sysno)
        .outerjoin(Building, Building.sysno == Gateway.building_sysno)
    )


def _read(row: Row[Device, Gateway, str, str], hot: Mapping[int, LatestEntry]) -> DeviceRead:
    device, gateway, project_name, building_name = row
    values: dict[str, Any] = {k: v for k, v in (device.latest or {}).items() if k != "ts"}
    reported = device.last_report_time
    entry = hot.get(device.sysno)
    switch_state = device.switch_state
    # The ingest commits before it updates memory, so a newer entry there is the freshest truth.
    if entry is not None and (reported is None or entry.received_at >= reported):
        values.update(entry.values)
        reported = entry.received_at
        switch = _number(entry.values.get("switch"))
        switch_state = int(switch) if switch is not None else switch_state
    return DeviceRead(
        sysno=device.sysno,
        device_id=device.device_id,
        name=device.name,
        kind=device.kind,
        phases=device.phases,
        model=device.model,
        project_sysno=device.project_sysno,
        project_name=project_name,
        building_sysno=gateway.building_sysno,
        building_name=building_name,
        gateway_sysno=gateway.sysno,
        gateway_name=gateway.name,
        gateway_sn=gateway.sn,
        gateway_online=int(gateway.online),
        online=device.online or 0,
        switch_state=switch_state,
        last_report_time=to_display(reported),
        rated_current=device.rated_current,
        over_voltage=device.over_voltage,
        under_voltage=device.under_voltage,
        over_current=device.over_current,
        leakage_limit=device.leakage_limit,
        temperature_limit=device.temperature_limit,
        power_limit=device.power_limit,
        latest=values,
        create_time=to_display(device.create_time),
        **{key: _number(values.get(key)) for key in LATEST_KEYS},
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


async def list_devices(
    *, session: AsyncSession, customer: Customer, query: DeviceQuery, hot: LatestValues | None = None
) -> Page[DeviceRead]:
    """One page of the devices in projects the customer may see, with their latest values."""
    conditions: list[Any] = [Device.project_sysno.in_(visible_project_ids(customer))]
    if query.project_sysno is not None:
        conditions.append(Device.project_sysno == query.project_sysno)
    if query.gateway_sysno is not None:
        conditions.append(Device.gateway_sysno == query.gateway_sysno)
    if query.building_sysno is not None:
        conditions.append(Gateway.building_sysno == query.building_sysno)
    if query.online is not None:
        conditions.append(Device.online != 0 if query.online else Device.online == 0)
    if query.switch_state is not None:
        conditions.append(Device.switch_state == query.switch_state)
    if query.keyword:
        pattern = contains_pattern(query.keyword)
        conditions.append(
            or_(
                Device.name.ilike(pattern, escape="\\"),
                Device.device_id.ilike(pattern, escape="\\"),
                Gateway.name.ilike(pattern, escape="\\"),
                Gateway.sn.ilike(pattern, escape="\\"),
            )
        )
    column = _ORDERABLE.get(query.orderBy or "sysno", Device.sysno)
    # Devices read best in the order they were announced, unless the caller asks otherwise.
    order = column.desc() if query.sort and query.descending else column.asc()
    result, total = await fetch_page(
        session, _rows_query().where(*conditions).order_by(order, Device.sysno), query
    )
    rows = list(result)
    entries = hot.get_many(row[0].sysno for row in rows) if hot else {}
    return Page(dataSource=[_read(row, entries) for row in rows], totalCount=total)


async def get_device(
    *, session: AsyncSession, customer: Customer, sysno: int, hot: LatestValues | None = None
) -> DeviceRead:
    """One device the customer may see, with its latest values."""
    row = (
        await session.execute(
            _rows_query().where(
                Device.sysno == sysno, Device.project_sysno.in_(visible_project_ids(customer))
            )
        )
    ).first()
    if row is None:
        raise NotFound("设备")
    return _read(row, hot.get_many([sysno]) if hot else {})


async def get_owned_device(*, session: AsyncSession, customer: Customer, sysno: int) -> Device:
    """A device in a project the customer owns (only owners change devices)."""
    device = await session.scalar(
        select(Device).where(Device.sysno == sysno, Device.project_sysno.in_(visible_project_ids(customer)))
    )
    if device is None:
        raise NotFound("设备")
    await get_owned_project(session=session, customer=customer, sysno=device.project_sysno)
    return device


async def update_device(
    *, session: AsyncSession, customer: Customer, body: DeviceUpdate, ip: str | None
) -> Device:
    """Set a device's name, rated current and thresholds."""
    device = await get_owned_device(session=session, customer=customer, sysno=body.sysno)
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


async def delete_device(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """Delete a device and its readings (it reappears if its gateway announces it again)."""
    device = await get_owned_device(session=session, customer=customer, sysno=sysno)
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
        select(Device).where(Device.sysno == sysno, Device.project_sysno.in_(visible_project_ids(customer)))
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
