"""Identified load events for customers: the list, its export, one event's charts, the statistics."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
from powerportal.core.filters import stat_bounds
from powerportal.core.list_export import Column, during, export_list, filters_shown
from powerportal.core.listing import During, Keyword, Listing, PerProject, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import CUSTOMER_TZ, to_display
from powerportal.gateways.models import Gateway, name_in
from powerportal.load_ident.models import LoadEvent
from powerportal.load_ident.policy import ACTION_NAMES
from powerportal.load_ident.schemas import (
    LoadCountByAppliance,
    LoadCountByBuilding,
    LoadCountByDay,
    LoadEventDetail,
    LoadEventQuery,
    LoadStatistics,
    LoadStatQuery,
    PowerSeriesRead,
    WaveformRead,
)
from powerportal.projects.access import sees, visible_project_name, visible_projects
from powerportal.projects.models import Building, Project

CODE_NAMES = {"appliance_on": "接入", "appliance_off": "断开"}
STAT_DAYS_DEFAULT = 30
STAT_DAYS_MAX = 366

EVENTS = Listing(
    select(
        LoadEvent.sysno,
        LoadEvent.project_sysno,
        Project.name,
        LoadEvent.building_sysno,
        Building.name,
        LoadEvent.gateway_sysno,
        name_in(LoadEvent.project_sysno),
        LoadEvent.device_sysno,
        LoadEvent.device_id,
        LoadEvent.target_name,
        LoadEvent.event_time,
        LoadEvent.code,
        LoadEvent.delta_power,
        LoadEvent.power,
        LoadEvent.appliance,
        LoadEvent.confidence,
        LoadEvent.forbidden,
        LoadEvent.whitelisted,
        LoadEvent.action,
        LoadEvent.trip_state,
        LoadEvent.trip_reason,
        LoadEvent.reclose_state,
        LoadEvent.reclose_at,
        LoadEvent.has_waveform,
    )
    .join(Project, Project.sysno == LoadEvent.project_sysno)
    .join(Gateway, Gateway.sysno == LoadEvent.gateway_sysno)
    .outerjoin(Building, Building.sysno == LoadEvent.building_sysno),
    filters={
        # Seen by the building it happened in (its own column), not the one its gateway is in now.
        "customer": lambda p: sees(p, project=LoadEvent.project_sysno, building=LoadEvent.building_sysno),
        "sysno": lambda p: LoadEvent.sysno == p,
        "project": lambda p: LoadEvent.project_sysno == p,
        "building": lambda p: LoadEvent.building_sysno == p,
        "device": lambda p: LoadEvent.device_sysno == p,
        "appliance": lambda p: LoadEvent.appliance == p,
        "forbidden": lambda p: LoadEvent.forbidden == p,
        "action": lambda p: LoadEvent.action == p,
        "code": lambda p: LoadEvent.code == p,
        "time": During(LoadEvent.event_time),
        "keyword": Keyword(LoadEvent.target_name, LoadEvent.device_id),
    },
    orders={
        "event_time": LoadEvent.event_time,
        "power": LoadEvent.power,
        "confidence": LoadEvent.confidence,
        "appliance": LoadEvent.appliance,
        "target_name": LoadEvent.target_name,
        "sysno": LoadEvent.sysno,
    },
    default_order="event_time",
    tie=LoadEvent.sysno,
    per_project=PerProject(LoadEvent.project_sysno, visible_projects, orders=("event_time",)),
)


def result_text(action: str, trip_state: str | None, trip_reason: str | None, reclose_state: str | None,
                reclose_at: Any, whitelisted: int) -> str:  # fmt: skip
    """What was done about an event, in a few words."""
    if whitelisted:
        return "白名单电器，未处理"
    if action == "none":
        return "—"
    if action == "record":
        return "已记录"
    if action == "alarm":
        return "已告警"
    if trip_state in ("pending", "sending"):
        return "已告警，跳闸中"
    if trip_state == "offline":
        return f"已告警，未跳闸：{trip_reason or '设备离线'}"
    if trip_state == "failed":
        return f"已告警，跳闸失败：{trip_reason or '网关未应答'}"
    if trip_state == "skipped":  # why it was not tripped, in words (observer.HELD_OFF, …)
        return trip_reason or "未跳闸"
    reclose = {
        "pending": f"已跳闸，{(to_display(reclose_at) or '')[11:16]} 自动合闸",
        "sending": "已跳闸，合闸中",
        "done": "已跳闸，已自动合闸",
        "skipped": "已跳闸，已手动合闸",
        "moved": "已跳闸，设备已移出该项目，未自动合闸",
        "failed": f"已跳闸，自动合闸失败：{trip_reason or ''}".rstrip("："),
        "locked": "已跳闸，已锁定（待解锁）",
        "unlocked": "已跳闸，已解锁合闸",
    }
    return reclose.get(reclose_state or "", "已跳闸")


def _event(row: Row) -> dict[str, Any]:
    (
        sysno, project_sysno, project_name, building_sysno, building_name, gateway_sysno, gateway_name,
        device_sysno, device_id, target_name, event_time, code, delta_power, power, appliance, confidence,
        forbidden, whitelisted, action, trip_state, trip_reason, reclose_state, reclose_at, has_waveform,
    ) = row  # fmt: skip
    return {
        "sysno": sysno,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "building_sysno": building_sysno,
        "building_name": building_name,
        "gateway_sysno": gateway_sysno,
        "gateway_name": gateway_name,
        "device_sysno": device_sysno,
        "device_id": device_id,
        "target_name": target_name,
        "event_time": to_display(event_time),
        "code": code,
        "code_name": CODE_NAMES.get(code, code),
        "delta_power": round(delta_power, 1),
        "power": round(power, 1),
        "appliance": appliance,
        "confidence": round(confidence, 3),
        "forbidden": forbidden,
        "whitelisted": whitelisted,
        "action": action,
        "action_name": ACTION_NAMES.get(action, action),
        "result": result_text(action, trip_state, trip_reason, reclose_state, reclose_at, whitelisted),
        "trip_state": trip_state,
        "reclose_state": reclose_state,
        "reclose_at": to_display(reclose_at),
        "has_waveform": has_waveform,
        "can_unlock": reclose_state in ("locked", "failed"),
    }


def _values(customer: Customer, query: LoadEventQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "building": query.building_sysno,
        "device": query.device_sysno,
        "appliance": query.appliance or None,
        "forbidden": query.forbidden,
        "action": query.action,
        "code": query.code,
        "time": (query.start_time, query.end_time),
        "keyword": query.keyword,
    }


async def list_events(*, ctx: AppContext, customer: Customer, query: LoadEventQuery) -> PageData:
    """One page of identified events in the visible projects, newest first by default."""
    return await EVENTS.page(ctx, query=query, values=_values(customer, query), render=_event)


EVENT_COLUMNS = (
    Column("时间", "event_time", 20),
    Column("项目", "project_name", 18),
    Column("楼栋", "building_name", 14),
    Column("设备", "target_name", 16),
    Column("设备编号", "device_id", 10),
    Column("事件", "code_name", 8),
    Column("电器类别", "appliance", 14),
    Column("功率(W)", "power", 10),
    Column("置信度", lambda r: f"{r['confidence'] * 100:.0f}%", 8),
    Column("违规", lambda r: "是" if r["forbidden"] else "否", 6),
    Column("处理方式", "action_name", 10),
    Column("处理结果", "result", 30),
)


async def export_events(*, ctx: AppContext, customer: Customer, query: LoadEventQuery) -> tuple[Path, str]:
    """Every event the list's filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("电器类别", query.appliance),
        ("违规", {1: "是", 0: "否"}.get(query.forbidden) if query.forbidden is not None else None),
        ("处理方式", ACTION_NAMES.get(query.action) if query.action else None),
        ("时间", during(query.start_time, query.end_time)),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="负荷识别记录",
        listing=EVENTS,
        query=query,
        values=_values(customer, query),
        columns=EVENT_COLUMNS,
        filters=filters,
        render=_event,
    )


async def get_event(*, session: AsyncSession, customer: Customer, sysno: int) -> LoadEventDetail:
    """One event the customer may see, with its power step and waveform for the charts."""
    row = await EVENTS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("负荷事件")
    detail = await session.scalar(select(LoadEvent.detail).where(LoadEvent.sysno == sysno)) or {}
    series = detail.get("power_series")
    wave = detail.get("waveform")
    features = detail.get("features") or {}
    return LoadEventDetail(
        **_event(row),
        power_series=PowerSeriesRead(
            seconds=[
                (series["start_ms"] + i * series["step_ms"]) / 1000
                for i in range(len(series["active_power"]))
            ],
            active_power=series["active_power"],
        )
        if series
        else None,
        waveform=_waveform(wave) if wave else None,
        power_factor=features.get("power_factor"),
        reactive_power=features.get("reactive_power"),
        thd_current=features.get("thd_current"),
    )


def _waveform(wave: dict[str, Any]) -> WaveformRead:
    rate = float(wave["sample_rate_hz"])
    count = len(wave["current_a"])
    return WaveformRead(
        ms=[round(v, 4) for v in (np.arange(count) * 1000.0 / rate).tolist()],
        current_a=wave["current_a"],
        voltage_v=wave["voltage_v"],
        sample_rate_hz=rate,
        mains_hz=float(wave["mains_hz"]),
    )


async def statistics(*, session: AsyncSession, customer: Customer, query: LoadStatQuery) -> LoadStatistics:
    """Switch-ons, violations and trips over a range (default 30 days), by building, category and day."""
    start, end = stat_bounds(
        query.start_time, query.end_time, default_days=STAT_DAYS_DEFAULT, max_days=STAT_DAYS_MAX
    )
    scope: list[Any] = [
        sees(customer.sysno, project=LoadEvent.project_sysno, building=LoadEvent.building_sysno),
        LoadEvent.event_time >= start,
        LoadEvent.event_time <= end,
        LoadEvent.code == "appliance_on",
    ]
    if query.project_sysno is not None:
        scope.append(LoadEvent.project_sysno == query.project_sysno)
    identified = int(await session.scalar(select(func.count()).select_from(LoadEvent).where(*scope)) or 0)
    violations = [*scope, LoadEvent.forbidden == 1]
    tripped_case = func.sum(case((LoadEvent.trip_state == "done", 1), else_=0))
    by_building = (
        await session.execute(
            select(LoadEvent.building_sysno, Building.name, func.count(), tripped_case)
            .outerjoin(Building, Building.sysno == LoadEvent.building_sysno)
            .where(*violations)
            .group_by(LoadEvent.building_sysno, Building.name)
            .order_by(func.count().desc())
        )
    ).all()
    by_appliance = (
        await session.execute(
            select(LoadEvent.appliance, func.count())
            .where(*violations)
            .group_by(LoadEvent.appliance)
            .order_by(func.count().desc())
        )
    ).all()
    times = (await session.scalars(select(LoadEvent.event_time).where(*violations))).all()
    days = Counter(t.astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d") for t in times)
    first = start.astimezone(CUSTOMER_TZ).date()
    last = end.astimezone(CUSTOMER_TZ).date()
    span = [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]
    buildings = [
        LoadCountByBuilding(
            building_sysno=building,
            building_name=name or "未分配楼栋",
            count=count,
            tripped=int(tripped or 0),
        )
        for building, name, count, tripped in by_building
    ]
    return LoadStatistics(
        identified=identified,
        forbidden=len(times),
        tripped=sum(b.tripped for b in buildings),
        by_building=buildings,
        by_appliance=[LoadCountByAppliance(appliance=a, count=n) for a, n in by_appliance],
        by_day=[LoadCountByDay(day=d, count=days.get(d, 0)) for d in span],
    )
