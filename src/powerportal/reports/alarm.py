"""The alarm report (告警报表): alarms by type, level, building, device and time, and the longest open.

An alarm belongs to the period in which it began, as the alarm list's time filter has it, so every
count here is a ``GetAlarmList`` total with the same filters. An alarm lasts from its start to its
end, or until now while it is active (the list's ``duration_seconds``); its time to process runs
from its start to its processing. A building's alarms are those of its gateways (a gateway's own
offline alarms included). Everything is summed by the database: a statement per view, none per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, case, func, select

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import ALARM_TYPES, BY_CODE, LEVEL_LABELS, Level
from powerportal.core.context import AppContext
from powerportal.core.database import seconds_between, utc_hour
from powerportal.core.timeutil import to_display
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building
from powerportal.reports import detail, scope
from powerportal.reports.document import (
    Built,
    Chart,
    Column,
    Document,
    Progress,
    Series,
    Table,
    duration_text,
)
from powerportal.reports.schemas import AlarmReportQuery
from powerportal.reports.scope import (
    BUILDING_HERE,
    BUILDING_OF_GATEWAY,
    GATEWAY_NAME,
    HI,
    LO,
    NO_BUILDING,
    NOW,
    PROJECT,
    Scope,
    in_building,
)

# The longest-open list: the alarms of the period still active, oldest first.
LONGEST_OPEN = 20
LEVELS = [int(level) for level in LEVEL_LABELS]  # 1 提示, 2 重要, 3 紧急
STATE_NAMES = {0: "告警中", 1: "已恢复"}
PROCESS_NAMES = {0: "未处理", 1: "已处理"}

_WITHIN = (
    Alarm.project_sysno == PROJECT,
    Alarm.start_time >= LO,
    Alarm.start_time < HI,
    in_building(Alarm.gateway_sysno),
)
_ACTIVE = func.sum(case((Alarm.end_time.is_(None), 1), else_=0))
_UNPROCESSED = func.sum(case((Alarm.process_state == 0, 1), else_=0))
_DURATION = seconds_between(Alarm.start_time, func.coalesce(Alarm.end_time, NOW))
_TO_PROCESS = case(
    (
        and_(Alarm.process_state == 1, Alarm.process_time.is_not(None)),
        seconds_between(Alarm.start_time, Alarm.process_time),
    )
)

_BY_KIND = (
    select(
        Alarm.alarm_type,
        Alarm.level,
        func.count(),
        _ACTIVE,
        _UNPROCESSED,
        func.sum(_DURATION),
        func.count(_TO_PROCESS),
        func.sum(_TO_PROCESS),
        func.max(_TO_PROCESS),
    )
    .where(*_WITHIN)
    .group_by(Alarm.alarm_type, Alarm.level)
)
_BY_BUILDING = (
    select(BUILDING_HERE, func.max(Building.name), func.count(), _ACTIVE, _UNPROCESSED)
    .select_from(Alarm)
    .join(Gateway, Gateway.sysno == Alarm.gateway_sysno)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .where(*_WITHIN)
    .group_by(BUILDING_HERE)
)
_HOUR = utc_hour(Alarm.start_time)
_BY_HOUR = select(_HOUR, Alarm.level, func.count()).where(*_WITHIN).group_by(_HOUR, Alarm.level)

_PER_DEVICE = (
    select(
        Alarm.gateway_sysno.label("gateway"),
        Alarm.device_sysno.label("device"),
        func.max(Alarm.target_name).label("name"),
        func.max(Alarm.device_id).label("device_id"),
        func.count().label("count"),
        func.sum(case((Alarm.level == Level.IMPORTANT, 1), else_=0)).label("important"),
        func.sum(case((Alarm.level == Level.URGENT, 1), else_=0)).label("urgent"),
        _ACTIVE.label("active"),
        _UNPROCESSED.label("unprocessed"),
        func.sum(_DURATION).label("duration"),
        func.max(_DURATION).label("longest"),
        func.avg(_TO_PROCESS).label("to_process"),
    )
    .where(*_WITHIN)
    .group_by(Alarm.gateway_sysno, Alarm.device_sysno)
    .subquery()
)
_BY_DEVICE = (
    select(_PER_DEVICE, Gateway.sn, GATEWAY_NAME, Building.name)
    .join(Gateway, Gateway.sysno == _PER_DEVICE.c.gateway)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .order_by(_PER_DEVICE.c.count.desc(), _PER_DEVICE.c.gateway, _PER_DEVICE.c.device)
)

_ALARM_COLUMNS = (
    Alarm.sysno,
    Alarm.start_time,
    Alarm.end_time,
    Alarm.target_name,
    Alarm.device_id,
    Gateway.sn,
    Building.name,
    Alarm.alarm_type,
    Alarm.level,
    Alarm.detail,
    Alarm.process_state,
    Alarm.process_time,
    Alarm.process_remark,
)
_OPEN = (
    select(*_ALARM_COLUMNS)
    .join(Gateway, Gateway.sysno == Alarm.gateway_sysno)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .where(*_WITHIN, Alarm.end_time.is_(None))
    .order_by(Alarm.start_time, Alarm.sysno)
    .limit(LONGEST_OPEN)
)
_DETAIL = (
    select(*_ALARM_COLUMNS)
    .join(Gateway, Gateway.sysno == Alarm.gateway_sysno)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .where(*_WITHIN, detail.after(Alarm.start_time, Alarm.sysno))
    .order_by(Alarm.start_time, Alarm.sysno)
    .limit(detail.CHUNK)
)


def _level(value: int) -> int:
    """A stored level as the alarm list shows it (an unknown one as 提示)."""
    return value if value in LEVELS else int(Level.HINT)


def _type_label(code: str) -> str:
    kind = BY_CODE.get(code)
    return kind.label if kind else code


def _seconds(value: float | None) -> int:
    return max(0, int(round(value or 0)))


def _mean(total: float | None, n: int) -> int | None:
    return _seconds(total / n) if n and total is not None else None


async def _kinds(ctx: AppContext, where: Scope) -> dict[str, Any]:
    """Totals, by type and by level, from one statement grouped by both."""
    by_type: dict[str, list[float]] = {t.code: [0, 0, 0.0] for t in ALARM_TYPES}
    by_level = {level: [0, 0] for level in LEVELS}
    total = active = unprocessed = processed = 0
    duration = process_sum = 0.0
    process_max: float | None = None
    for code, level, n, act, unproc, dur, n_proc, proc_sum, proc_max in await ctx.reads.all(
        _BY_KIND, where.params, inline=False
    ):
        kind = by_type.setdefault(code, [0, 0, 0.0])
        kind[0] += n
        kind[1] += act or 0
        kind[2] += dur or 0
        counted = by_level[_level(level)]
        counted[0] += n
        counted[1] += act or 0
        total += n
        active += act or 0
        unprocessed += unproc or 0
        duration += dur or 0
        processed += n_proc
        process_sum += proc_sum or 0
        if proc_max is not None:
            process_max = max(process_max or 0.0, proc_max)
    return {
        "total": total,
        "active": active,
        "recovered": total - active,
        "unprocessed": unprocessed,
        "processed": total - unprocessed,
        "duration_seconds": _seconds(duration),
        "avg_duration_seconds": _mean(duration, total),
        "avg_process_seconds": _mean(process_sum, processed),
        "max_process_seconds": None if process_max is None else _seconds(process_max),
        "by_level": [
            {"level": level, "label": LEVEL_LABELS[Level(level)], "count": n, "active": act}
            for level, (n, act) in by_level.items()
        ],
        "by_type": [
            {
                "alarm_type": code,
                "label": _type_label(code),
                "count": int(n),
                "active": int(act),
                "duration_seconds": _seconds(dur),
                "avg_duration_seconds": _mean(dur, int(n)),
            }
            for code, (n, act, dur) in by_type.items()
        ],
    }


def _row(found: Sequence[Any]) -> dict[str, Any]:
    (gateway, device, name, device_id, n, important, urgent, act, unproc, dur, longest, to_process) = found[
        :12
    ]
    gateway_sn, gateway_name, building = found[12:]
    important, urgent = int(important or 0), int(urgent or 0)
    return {
        "key": f"{gateway}-{device or 0}",
        "gateway_sysno": gateway,
        "device_sysno": device,
        "name": name,
        "device_id": device_id,
        "gateway_sn": gateway_sn,
        "gateway_name": gateway_name,
        "building_name": building,
        "count": n,
        "levels": [n - important - urgent, important, urgent],
        "active": int(act or 0),
        "unprocessed": int(unproc or 0),
        "duration_seconds": _seconds(dur),
        "longest_seconds": _seconds(longest),
        "avg_process_seconds": None if to_process is None else _seconds(to_process),
    }


def _open(found: Sequence[Any], where: Scope) -> dict[str, Any]:
    sysno, start, _end, name, device_id, gateway_sn, _building, code, level, text, state = found[:11]
    shown = _level(level)
    return {
        "sysno": sysno,
        "target_name": name,
        "device_id": device_id,
        "gateway_sn": gateway_sn,
        "alarm_type": code,
        "alarm_type_name": _type_label(code),
        "level": shown,
        "level_name": LEVEL_LABELS[Level(shown)],
        "detail": text,
        "start_time": to_display(start),
        "duration_seconds": _seconds((where.now - start).total_seconds()),
        "process_state": state,
    }


async def _report(
    ctx: AppContext, customer: Customer, query: AlarmReportQuery
) -> tuple[Scope, dict[str, Any]]:
    where = await scope.resolve(ctx, customer, query)
    params = where.params
    report: dict[str, Any] = where.header() | await _kinds(ctx, where)
    report["by_building"] = [
        {
            "building_sysno": building,
            "name": name or NO_BUILDING,
            "count": n,
            "active": int(act or 0),
            "unprocessed": int(unproc or 0),
        }
        for building, name, n, act, unproc in sorted(
            await ctx.reads.all(_BY_BUILDING, params, inline=False),
            key=lambda r: (r[0] is None, -r[2], r[1] or ""),
        )
    ]
    hours = await ctx.reads.all(_BY_HOUR, params, inline=False)
    buckets = where.per_bucket(((hour, _level(level) - 1, n) for hour, level, n in hours), len(LEVELS))
    report["points"] = [
        {"label": label, "start": begins, "count": sum(levels), "levels": levels}
        for (_lo, _hi, label, begins), levels in zip(where.buckets, buckets, strict=True)
    ]
    report["rows"] = [_row(found) for found in await ctx.reads.all(_BY_DEVICE, params, inline=False)]
    report["longest_open"] = [
        _open(found, where) for found in await ctx.reads.all(_OPEN, params, inline=False)
    ]
    return where, report


async def alarm_report(*, ctx: AppContext, customer: Customer, query: AlarmReportQuery) -> dict[str, Any]:
    """The alarm report as the 报表统计 screen shows it."""
    return (await _report(ctx, customer, query))[1]


# -- the document -------------------------------------------------------------------------------

_DETAIL_COLUMNS = [
    Column("开始时间", width=20),
    Column("结束时间", width=20),
    Column("状态", width=8),
    Column("设备/网关", width=24),
    Column("地址", width=12),
    Column("网关编号", width=16),
    Column("建筑", width=14),
    Column("类型", width=12),
    Column("级别", width=8),
    Column("持续时长", "duration", 14),
    Column("处理状态", width=10),
    Column("处理时间", width=20),
    Column("处理用时", "duration", 14),
    Column("处理备注", width=24),
    Column("详情", width=40),
]


def _detail_row(found: Sequence[Any], where: Scope) -> list[Any]:
    (_sysno, start, end, name, device_id, gateway_sn, building, code, level, text, state, at, remark) = found
    shown = _level(level)
    return [
        to_display(start),
        to_display(end),
        STATE_NAMES[0 if end is None else 1],
        name,
        device_id,
        gateway_sn,
        building or NO_BUILDING,
        _type_label(code),
        LEVEL_LABELS[Level(shown)],
        _seconds(((end or where.now) - start).total_seconds()),
        PROCESS_NAMES.get(state, str(state)),
        to_display(at),
        _seconds((at - start).total_seconds()) if state == 1 and at is not None else None,
        remark,
        text,
    ]


def _document(where: Scope, report: dict[str, Any]) -> Document:
    levels = [LEVEL_LABELS[Level(level)] for level in LEVELS]
    device_table = Table(
        "按设备",
        [
            Column("设备/网关", width=24),
            Column("地址", width=12),
            Column("网关编号", width=16),
            Column("建筑", width=14),
            Column("告警数", "int", 10),
            *[Column(name, "int", 8) for name in levels],
            Column("告警中", "int", 10),
            Column("未处理", "int", 10),
            Column("累计时长", "duration", 14),
            Column("最长一次", "duration", 14),
            Column("平均处理用时", "duration", 14),
        ],
        [
            [
                r["name"],
                r["device_id"],
                r["gateway_sn"],
                r["building_name"] or NO_BUILDING,
                r["count"],
                *r["levels"],
                r["active"],
                r["unprocessed"],
                r["duration_seconds"],
                r["longest_seconds"],
                r["avg_process_seconds"],
            ]
            for r in report["rows"]
        ],
    )
    type_table = Table(
        "按类型",
        [
            Column("类型", width=14),
            Column("告警数", "int", 10),
            Column("告警中", "int", 10),
            Column("累计时长", "duration", 14),
            Column("平均时长", "duration", 14),
        ],
        [
            [t["label"], t["count"], t["active"], t["duration_seconds"], t["avg_duration_seconds"]]
            for t in report["by_type"]
        ],
    )
    level_table = Table(
        "按级别",
        [Column("级别", width=10), Column("告警数", "int", 10), Column("告警中", "int", 10)],
        [[lv["label"], lv["count"], lv["active"]] for lv in report["by_level"]],
    )
    building_table = Table(
        "按建筑",
        [
            Column("建筑", width=20),
            Column("告警数", "int", 10),
            Column("告警中", "int", 10),
            Column("未处理", "int", 10),
        ],
        [[b["name"], b["count"], b["active"], b["unprocessed"]] for b in report["by_building"]],
    )
    open_table = Table(
        "最长未恢复告警",
        [
            Column("开始时间", width=20),
            Column("设备/网关", width=24),
            Column("地址", width=12),
            Column("网关编号", width=16),
            Column("类型", width=12),
            Column("级别", width=8),
            Column("已持续", "duration", 14),
            Column("处理状态", width=10),
            Column("详情", width=40),
        ],
        [
            [
                a["start_time"],
                a["target_name"],
                a["device_id"],
                a["gateway_sn"],
                a["alarm_type_name"],
                a["level_name"],
                a["duration_seconds"],
                PROCESS_NAMES.get(a["process_state"], ""),
                a["detail"],
            ]
            for a in report["longest_open"]
        ],
    )
    points = report["points"]
    used = [t for t in report["by_type"] if t["count"]]
    charts = [
        Chart(
            "告警趋势",
            "bar",
            [p["label"] for p in points],
            [Series(name, [p["levels"][i] for p in points]) for i, name in enumerate(levels)],
            "条",
        )
    ]
    if used:  # a ring of nothing says nothing
        charts.append(
            Chart(
                "告警类型",
                "pie",
                [t["label"] for t in used],
                [Series("告警数", [t["count"] for t in used])],
                "条",
            )
        )
    return Document(
        name="告警报表",
        project_name=where.project_name,
        filters=where.filters(),
        summary=[
            ("告警总数", report["total"]),
            ("告警中", report["active"]),
            ("已恢复", report["recovered"]),
            ("未处理", report["unprocessed"]),
            ("已处理", report["processed"]),
            ("累计时长", duration_text(report["duration_seconds"]) or "—"),
            ("平均持续时长", duration_text(report["avg_duration_seconds"]) or "—"),
            ("平均处理用时", duration_text(report["avg_process_seconds"]) or "—"),
            ("最长处理用时", duration_text(report["max_process_seconds"]) or "—"),
        ],
        tables=[device_table, type_table, level_table, building_table, open_table],
        charts=charts,
        stem=where.stem("告警报表"),
    )


async def build_alarm(ctx: AppContext, customer: Customer, query: AlarmReportQuery) -> Built:
    """The report as a document, and its 告警明细 sheet (every alarm of the period) for a workbook."""
    where, report = await _report(ctx, customer, query)

    async def more(book: Any, progress: Progress) -> None:
        await detail.write(
            ctx,
            book,
            progress,
            name="告警明细",
            columns=_DETAIL_COLUMNS,
            statement=_DETAIL,
            params=where.params,
            total=report["total"],
            key=lambda found: (found[1], found[0]),
            row=lambda found: _detail_row(found, where),
        )

    return Built(_document(where, report), more)
