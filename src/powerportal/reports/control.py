"""The control report (控制报表): a period's commands by kind and outcome, per gateway, and timed-task runs.

A command counts for the period in which it was created, as the command log's time filter has it,
so every count is a ``GetCommandLogList`` total with the same filters. The success rate is the
share of commands that ended (every outcome but 等待应答) which succeeded: a device found offline
counts as not succeeded, since the switching asked for did not happen. The response time runs from
sending to the gateway's answer. A timed task's runs are those that sent commands to the scope's
devices in the period, and its occurrences skipped in the period (the service was down) while it
held a device of the scope. The database sums every view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, case, func, select

from powerportal.accounts.models import Customer
from powerportal.control.history import ACTION_NAMES, SOURCE_NAMES, STATUS_NAMES
from powerportal.control.models import Command, ControlRun, TimedTaskDevice
from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.core.database import seconds_between, utc_hour
from powerportal.core.timeutil import to_display
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building
from powerportal.reports import detail, scope
from powerportal.reports.document import Built, Chart, Column, Document, Progress, Series, Table
from powerportal.reports.schemas import ControlReportQuery
from powerportal.reports.scope import (
    BUILDING_OF_GATEWAY,
    GATEWAY_NAME,
    HI,
    LO,
    NO_BUILDING,
    PROJECT,
    Scope,
    in_building,
    rate,
)

OUTCOMES = ("succeeded", "failed", "timeout", "offline", "pending")
DELETED_TASK = "已删除的任务"

_WITHIN = (
    Command.project_sysno == PROJECT,
    Command.create_time >= LO,
    Command.create_time < HI,
    in_building(Command.gateway_sysno),
)
_RESPONSE = case(
    (
        and_(Command.sent_time.is_not(None), Command.answer_time.is_not(None)),
        seconds_between(Command.sent_time, Command.answer_time),
    )
)


def _status_is(status: str) -> Any:
    return func.sum(case((Command.status == status, 1), else_=0))


_BY_KIND = (
    select(
        Command.action,
        Command.source,
        Command.status,
        func.count(),
        func.count(_RESPONSE),
        func.sum(_RESPONSE),
    )
    .where(*_WITHIN)
    .group_by(Command.action, Command.source, Command.status)
)
_PER_GATEWAY = (
    select(
        Command.gateway_sysno.label("gateway"),
        func.max(Command.gateway_sn).label("sn"),
        *[_status_is(status).label(status) for status in OUTCOMES],
        func.count(_RESPONSE).label("answered"),
        func.sum(_RESPONSE).label("response"),
    )
    .where(*_WITHIN)
    .group_by(Command.gateway_sysno)
    .subquery()
)
_BY_GATEWAY = (
    select(_PER_GATEWAY, GATEWAY_NAME, Building.name)
    .join(Gateway, Gateway.sysno == _PER_GATEWAY.c.gateway)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .order_by(GATEWAY_NAME, _PER_GATEWAY.c.gateway)
)
_HOUR = utc_hour(Command.create_time)
_SLOT = case((Command.status == "succeeded", 0), (Command.status == "pending", 2), else_=1)
_BY_HOUR = select(_HOUR, _SLOT, func.count()).where(*_WITHIN).group_by(_HOUR, _SLOT)
_RUN_TIME = func.coalesce(ControlRun.scheduled_for, ControlRun.create_time)
_TASK_COMMANDS = (
    select(
        ControlRun.task_sysno,
        func.max(ControlRun.name),
        func.count(func.distinct(Command.run_sysno)),
        func.count(),
        _status_is("succeeded"),
        _status_is("pending"),
        func.max(_RUN_TIME),
    )
    .select_from(Command)
    .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno)
    .where(*_WITHIN, Command.source == "task")
    .group_by(ControlRun.task_sysno)
)
_TASKS_HERE = (
    select(TimedTaskDevice.task_sysno)
    .join(Device, Device.sysno == TimedTaskDevice.device_sysno)
    .where(Device.project_sysno == PROJECT, in_building(Device.gateway_sysno))
)
_SKIPPED = (
    select(ControlRun.task_sysno, func.max(ControlRun.name), func.count(), func.max(ControlRun.scheduled_for))
    .where(
        ControlRun.kind == "task",
        ControlRun.status == "skipped",
        ControlRun.scheduled_for >= LO,
        ControlRun.scheduled_for < HI,
        ControlRun.task_sysno.in_(_TASKS_HERE),
    )
    .group_by(ControlRun.task_sysno)
)
_COMMAND_COLUMNS = (
    Command.sysno,
    Command.create_time,
    Command.target_name,
    Command.device_id,
    Command.gateway_sn,
    Building.name,
    Command.action,
    Command.source,
    ControlRun.name,
    Command.operator,
    Command.status,
    Command.reason,
    _RESPONSE,
)
_DETAIL = (
    select(*_COMMAND_COLUMNS)
    .join(Gateway, Gateway.sysno == Command.gateway_sysno)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno)
    .where(*_WITHIN, detail.after(Command.create_time, Command.sysno))
    .order_by(Command.create_time, Command.sysno)
    .limit(detail.CHUNK)
)


def _ms(seconds: float | None, n: int) -> int | None:
    return int(round(seconds / n * 1000)) if n and seconds is not None else None


def _counts(by_status: dict[str, int]) -> dict[str, Any]:
    """Totals by outcome and the success rate of those that ended."""
    counts = {status: int(by_status.get(status, 0)) for status in OUTCOMES}
    total = sum(by_status.values())
    return {"total": total, **counts, "success_rate": rate(counts["succeeded"], total - counts["pending"])}


def _kinds(rows: Sequence[Sequence[Any]], names: dict[str, str], column: int) -> list[dict[str, Any]]:
    """Counts by action or by source (every known one, then any other found)."""
    found: dict[str, dict[str, int]] = {key: {} for key in names}
    for row in rows:
        outcomes = found.setdefault(row[column], {})
        outcomes[row[2]] = outcomes.get(row[2], 0) + row[3]
    return [
        {"key": key, "label": names.get(key, key), **_counts(outcomes)} for key, outcomes in found.items()
    ]


def _gateway(found: Sequence[Any]) -> dict[str, Any]:
    gateway, sn, *outcomes, answered, response, name, building = found
    counts = _counts(dict(zip(OUTCOMES, (int(n or 0) for n in outcomes), strict=True)))
    return {
        "gateway_sysno": gateway,
        "gateway_sn": sn,
        "gateway_name": name,
        "building_name": building,
        **counts,
        "avg_response_ms": _ms(response, answered),
    }


def _tasks(ran: Sequence[Sequence[Any]], skipped: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    tasks: dict[int | None, dict[str, Any]] = {}

    def task(sysno: int | None, name: str | None) -> dict[str, Any]:
        if sysno not in tasks:
            tasks[sysno] = {
                "key": f"task-{sysno or 0}",
                "task_sysno": sysno,
                "name": name or DELETED_TASK,
                "runs": 0,
                "skipped": 0,
                "commands": 0,
                "succeeded": 0,
                "unsuccessful": 0,
                "pending": 0,
                "success_rate": None,
                "last_run": None,
            }
        return tasks[sysno]

    last: dict[int | None, Any] = {}
    for sysno, name, runs, commands, succeeded, pending, at in ran:
        row = task(sysno, name)
        row.update(
            runs=int(runs), commands=int(commands), succeeded=int(succeeded or 0), pending=int(pending or 0)
        )
        row["unsuccessful"] = row["commands"] - row["succeeded"] - row["pending"]
        row["success_rate"] = rate(row["succeeded"], row["commands"] - row["pending"])
        last[sysno] = at
    for sysno, name, n, at in skipped:
        task(sysno, name)["skipped"] = int(n)
        last[sysno] = max(filter(None, (last.get(sysno), at)), default=None)
    for sysno, row in tasks.items():
        row["last_run"] = to_display(last.get(sysno))
    return sorted(tasks.values(), key=lambda r: (r["task_sysno"] is None, r["name"], r["task_sysno"] or 0))


async def _report(
    ctx: AppContext, customer: Customer, query: ControlReportQuery
) -> tuple[Scope, dict[str, Any]]:
    where = await scope.resolve(ctx, customer, query)
    params = where.params
    kinds = await ctx.reads.all(_BY_KIND, params, inline=False)
    by_status: dict[str, int] = {}
    answered, response = 0, 0.0
    for _action, _source, status, n, n_answered, seconds in kinds:
        by_status[status] = by_status.get(status, 0) + n
        answered += n_answered
        response += seconds or 0
    hours = await ctx.reads.all(_BY_HOUR, params, inline=False)
    buckets = where.per_bucket(hours, 3)
    ran = await ctx.reads.all(_TASK_COMMANDS, params, inline=False)
    skipped = await ctx.reads.all(_SKIPPED, params, inline=False)
    return where, where.header() | _counts(by_status) | {
        "avg_response_ms": _ms(response, answered),
        "by_action": _kinds(kinds, ACTION_NAMES, 0),
        "by_source": _kinds(kinds, SOURCE_NAMES, 1),
        "points": [
            {"label": label, "start": begins, "succeeded": n[0], "unsuccessful": n[1], "pending": n[2]}
            for (_lo, _hi, label, begins), n in zip(where.buckets, buckets, strict=True)
        ],
        "gateways": [_gateway(found) for found in await ctx.reads.all(_BY_GATEWAY, params, inline=False)],
        "tasks": _tasks(ran, skipped),
    }


async def control_report(*, ctx: AppContext, customer: Customer, query: ControlReportQuery) -> dict[str, Any]:
    """The control report as the 报表统计 screen shows it."""
    return (await _report(ctx, customer, query))[1]


# -- the document -------------------------------------------------------------------------------

_OUTCOME_COLUMNS = [
    Column("命令数", "int", 10),
    Column("成功", "int", 8),
    Column("失败", "int", 8),
    Column("超时", "int", 8),
    Column("设备离线", "int", 10),
    Column("等待应答", "int", 10),
    Column("成功率(%)", "percent", 12),
]
_DETAIL_COLUMNS = [
    Column("时间", width=20),
    Column("设备", width=24),
    Column("地址", width=10),
    Column("网关编号", width=16),
    Column("建筑", width=14),
    Column("动作", width=10),
    Column("来源", width=20),
    Column("操作人", width=24),
    Column("结果", width=10),
    Column("原因", width=24),
    Column("响应(毫秒)", "int", 12),
]


def _outcomes(r: dict[str, Any]) -> list[Any]:
    return [r["total"], *[r[status] for status in OUTCOMES], r["success_rate"]]


def _detail_row(found: Sequence[Any]) -> list[Any]:
    (_sysno, at, name, device_id, sn, building, action, source, run, operator, status, reason, seconds) = (
        found
    )
    source_name = SOURCE_NAMES.get(source, source)
    return [
        to_display(at),
        name,
        device_id,
        sn,
        building or NO_BUILDING,
        ACTION_NAMES.get(action, action),
        f"{source_name}：{run}" if run else source_name,
        operator,
        STATUS_NAMES.get(status, status),
        reason,
        None if seconds is None else int(round(seconds * 1000)),
    ]


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}%"


def _document(where: Scope, report: dict[str, Any]) -> Document:
    points = report["points"]
    gateways = report["gateways"]
    rated = [g for g in gateways if g["success_rate"] is not None]
    charts = [
        Chart(
            "命令趋势",
            "bar",
            [p["label"] for p in points],
            [
                Series("成功", [p["succeeded"] for p in points]),
                Series("未成功", [p["unsuccessful"] for p in points]),
                Series("等待应答", [p["pending"] for p in points]),
            ],
            "条",
        )
    ]
    if rated:  # no gateway had a command that ended
        charts.append(
            Chart(
                "各网关成功率",
                "bar",
                [g["gateway_name"] for g in rated],
                [Series("成功率", [g["success_rate"] for g in rated])],
                "%",
            )
        )
    return Document(
        name="控制报表",
        project_name=where.project_name,
        filters=where.filters(),
        summary=[
            ("命令总数", report["total"]),
            ("成功", report["succeeded"]),
            ("失败", report["failed"]),
            ("超时", report["timeout"]),
            ("设备离线", report["offline"]),
            ("等待应答", report["pending"]),
            ("成功率", _percent(report["success_rate"])),
            ("平均响应", "—" if report["avg_response_ms"] is None else f"{report['avg_response_ms']} 毫秒"),
        ],
        tables=[
            Table(
                "按网关",
                [
                    Column("网关", width=20),
                    Column("网关编号", width=16),
                    Column("建筑", width=14),
                    *_OUTCOME_COLUMNS,
                    Column("平均响应(毫秒)", "int", 14),
                ],
                [
                    [g["gateway_name"], g["gateway_sn"], g["building_name"] or NO_BUILDING]
                    + _outcomes(g)
                    + [g["avg_response_ms"]]
                    for g in gateways
                ],
            ),
            Table(
                "按动作",
                [Column("动作", width=12), *_OUTCOME_COLUMNS],
                [[k["label"], *_outcomes(k)] for k in report["by_action"]],
            ),
            Table(
                "按来源",
                [Column("来源", width=12), *_OUTCOME_COLUMNS],
                [[k["label"], *_outcomes(k)] for k in report["by_source"]],
            ),
            Table(
                "定时任务执行",
                [
                    Column("任务", width=24),
                    Column("执行次数", "int", 10),
                    Column("跳过次数", "int", 10),
                    Column("命令数", "int", 10),
                    Column("成功", "int", 8),
                    Column("未成功", "int", 8),
                    Column("等待应答", "int", 10),
                    Column("成功率(%)", "percent", 12),
                    Column("最近执行", width=20),
                ],
                [
                    [
                        t["name"],
                        t["runs"],
                        t["skipped"],
                        t["commands"],
                        t["succeeded"],
                        t["unsuccessful"],
                        t["pending"],
                        t["success_rate"],
                        t["last_run"],
                    ]
                    for t in report["tasks"]
                ],
            ),
        ],
        charts=charts,
        stem=where.stem("控制报表"),
    )


async def build_control(ctx: AppContext, customer: Customer, query: ControlReportQuery) -> Built:
    """The report as a document, and its 命令明细 sheet (every command of the period) for a workbook."""
    where, report = await _report(ctx, customer, query)

    async def more(book: xlsx.Workbook, progress: Progress) -> None:
        await detail.write(
            ctx,
            book,
            progress,
            name="命令明细",
            columns=_DETAIL_COLUMNS,
            statement=_DETAIL,
            params=where.params,
            total=report["total"],
            key=lambda found: (found[1], found[0]),
            row=_detail_row,
        )

    return Built(_document(where, report), more)
