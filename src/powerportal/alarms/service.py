"""Alarms for customers: list, detail, processing and statistics, always within the visible projects."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import String, cast, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import ALARM_TYPES, BY_CODE, LEVEL_LABELS, Level, unit_of
from powerportal.alarms.schemas import (
    AlarmQuery,
    AlarmStatistics,
    AlarmStatQuery,
    AlarmTypeRead,
    CountByDay,
    CountByDevice,
    CountByProject,
    CountByType,
)
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
from powerportal.core.filters import stat_bounds
from powerportal.core.list_export import Column, duration_text, during, export_list, filters_shown
from powerportal.core.listing import During, Keyword, Listing, PerProject, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.gateways.models import Gateway, name_in
from powerportal.logs import recording as logs
from powerportal.projects.access import (
    controllable_project_ids,
    in_view,
    owners_besides,
    sees,
    visible_project_name,
    visible_projects,
)
from powerportal.projects.models import Project

STATE_NAMES = {0: "告警中", 1: "已恢复"}
PROCESS_NAMES = {0: "未处理", 1: "已处理"}
STAT_DAYS_DEFAULT = 30
STAT_DAYS_MAX = 366


def alarm_types() -> list[AlarmTypeRead]:
    """The alarm-type filter options."""
    return [
        AlarmTypeRead(value=t.code, label=t.label, level=int(t.level), level_name=LEVEL_LABELS[t.level])
        for t in ALARM_TYPES
    ]


ALARMS = Listing(
    select(
        Alarm.sysno,
        Alarm.project_sysno,
        Project.name,
        Alarm.gateway_sysno,
        Gateway.sn,
        name_in(Alarm.project_sysno),
        Alarm.device_sysno,
        Alarm.device_id,
        Alarm.target_name,
        Alarm.alarm_type,
        Alarm.level,
        Alarm.source,
        Alarm.value,
        Alarm.threshold,
        Alarm.detail,
        Alarm.start_time,
        Alarm.end_time,
        Alarm.process_state,
        Alarm.process_remark,
        Alarm.process_time,
    )
    .join(Project, Project.sysno == Alarm.project_sysno)
    .join(Gateway, Gateway.sysno == Alarm.gateway_sysno),
    filters={
        "customer": lambda p: sees(p, project=Alarm.project_sysno, gateway=Alarm.gateway_sysno),
        "sysno": lambda p: Alarm.sysno == p,
        "project": lambda p: Alarm.project_sysno == p,
        "device": lambda p: Alarm.device_sysno == p,
        "alarm_type": lambda p: Alarm.alarm_type == p,
        "active": lambda _p: Alarm.end_time.is_(None),
        "recovered": lambda _p: Alarm.end_time.is_not(None),
        "process_state": lambda p: Alarm.process_state == p,
        "level": lambda p: Alarm.level == p,
        "time": During(Alarm.start_time),
        "keyword": Keyword(Alarm.target_name, Alarm.device_id, Alarm.detail),
    },
    orders={
        "start_time": Alarm.start_time,
        "end_time": Alarm.end_time,
        "level": Alarm.level,
        "alarm_type": Alarm.alarm_type,
        "target_name": Alarm.target_name,
        "sysno": Alarm.sysno,
    },
    default_order="start_time",
    tie=Alarm.sysno,
    per_project=PerProject(Alarm.project_sysno, visible_projects, orders=("start_time",)),
)


def _alarm(row: Row) -> dict[str, Any]:
    """One alarm in the shape of ``AlarmRead``."""
    (
        sysno,
        project_sysno,
        project_name,
        gateway_sysno,
        gateway_sn,
        gateway_name,
        device_sysno,
        device_id,
        target_name,
        alarm_type,
        level,
        source,
        value,
        threshold,
        detail,
        start_time,
        end_time,
        process_state,
        process_remark,
        process_time,
    ) = row
    kind = BY_CODE.get(alarm_type)
    known_level = Level(level) if level in (1, 2, 3) else Level.HINT
    state = 0 if end_time is None else 1
    return {
        "sysno": sysno,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "gateway_sysno": gateway_sysno,
        "gateway_sn": gateway_sn,
        "gateway_name": gateway_name,
        "device_sysno": device_sysno,
        "device_id": device_id,
        "target_name": target_name,
        "alarm_type": alarm_type,
        "alarm_type_name": kind.label if kind else alarm_type,
        "level": int(known_level),
        "level_name": LEVEL_LABELS[known_level],
        "source": source,
        "value": value,
        "threshold": threshold,
        "unit": unit_of(alarm_type),
        "detail": detail,
        "start_time": to_display(start_time),
        "end_time": to_display(end_time),
        "state": state,
        "state_name": STATE_NAMES[state],
        "duration_seconds": max(0, int(((end_time or utcnow()) - start_time).total_seconds())),
        "process_state": process_state,
        "process_remark": process_remark,
        "process_time": to_display(process_time),
    }


def _alarm_values(customer: Customer, query: AlarmQuery) -> dict[str, Any]:
    """The alarm list's filter values for a query."""
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "device": query.device_sysno,
        "alarm_type": query.alarm_type or None,
        "active": True if query.state == 0 else None,
        "recovered": True if query.state == 1 else None,
        "process_state": query.process_state,
        "level": query.level,
        "time": (query.start_time, query.end_time),
        "keyword": query.keyword,
    }


async def list_alarms(*, ctx: AppContext, customer: Customer, query: AlarmQuery) -> PageData:
    """One page of alarms in the projects the customer may see, newest first by default."""
    return await ALARMS.page(ctx, query=query, values=_alarm_values(customer, query), render=_alarm)


def _reading(value_key: str) -> Callable[[dict[str, Any]], str | None]:
    def shown(row: dict[str, Any]) -> str | None:
        value = row[value_key]
        if value is None:
            return None
        return f"{round(value, 2):g}{' ' + row['unit'] if row['unit'] else ''}"

    return shown


ALARM_COLUMNS = (
    Column("告警时间", "start_time", 20),
    Column("项目", "project_name", 18),
    Column("设备", "target_name", 18),
    Column("设备编号", "device_id", 12),
    Column("告警类型", "alarm_type_name", 14),
    Column("告警等级", "level_name", 10),
    Column("告警值", _reading("value"), 12),
    Column("阈值", _reading("threshold"), 12),
    Column("告警内容", "detail", 40),
    Column("告警状态", "state_name", 10),
    Column("恢复时间", "end_time", 20),
    Column("持续时长", lambda row: duration_text(row["duration_seconds"]), 12),
    Column("处理状态", lambda row: PROCESS_NAMES.get(row["process_state"]), 10),
    Column("处理备注", "process_remark", 24),
    Column("处理时间", "process_time", 20),
)


async def export_alarms(*, ctx: AppContext, customer: Customer, query: AlarmQuery) -> tuple[Path, str]:
    """Every alarm the list's filters keep, as a workbook: its path and file name."""
    kind = BY_CODE.get(query.alarm_type or "")
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("告警类型", kind.label if kind else query.alarm_type),
        ("告警等级", LEVEL_LABELS[Level(query.level)] if query.level else None),
        ("告警状态", STATE_NAMES.get(query.state) if query.state is not None else None),
        ("处理状态", PROCESS_NAMES.get(query.process_state) if query.process_state is not None else None),
        ("告警时间", during(query.start_time, query.end_time)),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="告警列表",
        listing=ALARMS,
        query=query,
        values=_alarm_values(customer, query),
        columns=ALARM_COLUMNS,
        filters=filters,
        render=_alarm,
    )


async def get_alarm(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One alarm the customer may see."""
    row = await ALARMS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("告警")
    return _alarm(row)


async def process_alarms(
    *, session: AsyncSession, customer: Customer, sysnos: list[int], remark: str, ip: str
) -> int:
    """Mark alarms processed with a remark (and the caller's notices about them read).

    Every id must be an alarm of a project the customer may control (its owner, or a sharee with
    control), or nothing changes; alarms already processed keep their first remark.
    """
    wanted = sorted(set(sysnos))
    found = (
        await session.execute(
            select(Alarm.sysno, Alarm.process_state, Alarm.project_sysno).where(
                Alarm.sysno.in_(wanted),
                Alarm.project_sysno.in_(controllable_project_ids(customer)),
                in_view(customer.sysno, project=Alarm.project_sysno, gateway=Alarm.gateway_sysno),
            )
        )
    ).all()
    if len(found) != len(wanted):
        raise NotFound("告警")
    todo = [row.sysno for row in found if row.process_state == 0]
    if todo:
        await session.execute(
            update(Alarm)
            .where(Alarm.sysno.in_(todo), Alarm.process_state == 0)
            .values(
                process_state=1,
                process_remark=remark or None,
                process_time=utcnow(),
                process_customer_sysno=customer.sysno,
            )
            .execution_options(synchronize_session=False)
        )
        await notices.mark_read_for_sources(
            session=session, customer_sysno=customer.sysno, notice_type=notices.ALARM, source_sysnos=todo
        )
        ids = "、".join(str(s) for s in todo[:20]) + ("等" if len(todo) > 20 else "")
        detail = f"处理告警 {len(todo)} 条（{ids}）" + (f"：{remark}" if remark else "")
        logs.record(
            session=session,
            customer_sysno=customer.sysno,
            operate_type=logs.OperateType.ALARM,
            detail=detail,
            ip=ip,
        )
        projects = [row.project_sysno for row in found if row.process_state == 0]
        for owner in await owners_besides(session, customer, projects):
            logs.record(
                session=session,
                customer_sysno=owner,
                operate_type=logs.OperateType.ALARM,
                detail=f"共享用户 {customer.name}（{customer.mobile}）：{detail}",
                ip=ip,
            )
    return len(todo)


def _day_expression(dialect: str) -> Any:
    offset_hours = int((utcnow().astimezone(CUSTOMER_TZ).utcoffset() or timedelta()).total_seconds() // 3600)
    if dialect == "postgresql":
        return cast(func.date(func.timezone(str(CUSTOMER_TZ), Alarm.start_time)), String)
    return func.date(Alarm.start_time, f"{offset_hours:+d} hours")


async def statistics(*, session: AsyncSession, customer: Customer, query: AlarmStatQuery) -> AlarmStatistics:
    """Counts by type, level, day, project and device over a time range (default the last 30 days)."""
    start, end = stat_bounds(
        query.start_time, query.end_time, default_days=STAT_DAYS_DEFAULT, max_days=STAT_DAYS_MAX
    )
    scope: list[Any] = [
        sees(customer.sysno, project=Alarm.project_sysno, gateway=Alarm.gateway_sysno),
        Alarm.start_time >= start,
        Alarm.start_time <= end,
    ]
    if query.project_sysno is not None:
        scope.append(Alarm.project_sysno == query.project_sysno)
    dialect = (await session.connection()).dialect.name

    by_type_rows = (
        await session.execute(select(Alarm.alarm_type, func.count()).where(*scope).group_by(Alarm.alarm_type))
    ).all()
    counts: dict[str, int] = {alarm_type: n for alarm_type, n in by_type_rows}  # noqa: C416
    by_type = [
        CountByType(alarm_type=t.code, label=t.label, count=counts.get(t.code, 0)) for t in ALARM_TYPES
    ]
    by_level_rows = dict(
        (await session.execute(select(Alarm.level, func.count()).where(*scope).group_by(Alarm.level))).all()
    )
    by_level = [
        CountByType(alarm_type=str(int(level)), label=label, count=by_level_rows.get(int(level), 0))
        for level, label in LEVEL_LABELS.items()
    ]
    day = _day_expression(dialect).label("day")
    by_day_rows: dict[str, int] = dict(
        (await session.execute(select(day, func.count()).where(*scope).group_by(day).order_by(day))).all()
    )
    by_day = []
    cursor = start.astimezone(CUSTOMER_TZ).date()
    last = end.astimezone(CUSTOMER_TZ).date()
    while cursor <= last:
        text = cursor.isoformat()
        by_day.append(CountByDay(day=text, count=int(by_day_rows.get(text, 0))))
        cursor += timedelta(days=1)
    by_project = [
        CountByProject(project_sysno=sysno, project_name=name, count=n)
        for sysno, name, n in await session.execute(
            select(Alarm.project_sysno, Project.name, func.count())
            .join(Project, Project.sysno == Alarm.project_sysno)
            .where(*scope)
            .group_by(Alarm.project_sysno, Project.name)
            .order_by(func.count().desc(), Alarm.project_sysno)
            .limit(20)
        )
    ]
    top_devices = [
        CountByDevice(
            device_sysno=device, device_id=device_id, target_name=name, project_name=project, count=n
        )
        for device, device_id, name, project, n in await session.execute(
            select(Alarm.device_sysno, Alarm.device_id, Alarm.target_name, Project.name, func.count())
            .join(Project, Project.sysno == Alarm.project_sysno)
            .where(*scope)
            .group_by(
                Alarm.device_sysno, Alarm.gateway_sysno, Alarm.device_id, Alarm.target_name, Project.name
            )
            .order_by(func.count().desc(), Alarm.device_id)
            .limit(10)
        )
    ]
    total = sum(counts.values())
    active = await session.scalar(
        select(func.count()).select_from(Alarm).where(*scope, Alarm.end_time.is_(None))
    )
    unprocessed = await session.scalar(
        select(func.count()).select_from(Alarm).where(*scope, Alarm.process_state == 0)
    )
    return AlarmStatistics(
        start_time=to_display(start) or "",
        end_time=to_display(end) or "",
        total=total,
        active=active or 0,
        unprocessed=unprocessed or 0,
        by_level=by_level,
        by_type=by_type,
        by_day=by_day,
        by_project=by_project,
        top_devices=top_devices,
    )
