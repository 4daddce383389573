"""The command log and the runs of timed tasks and groups: what was sent, to whom, and how it ended."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import bindparam, func, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlalchemy.sql.selectable import Subquery

from powerportal.accounts.models import Customer
from powerportal.control.models import Command, ControlRun
from powerportal.control.schemas import CommandOptions, CommandQuery, OptionRead, RunQuery
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
from powerportal.core.list_export import Column, during, export_list, filters_shown
from powerportal.core.listing import During, Keyword, Listing, PerProject, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.projects.access import sees, visible_project_name, visible_projects
from powerportal.projects.models import Project

ACTION_NAMES = {
    "switch_on": "合闸",
    "switch_off": "分闸",
    "set_thresholds": "设置阈值",
    "read_now": "立即读取",
}
STATUS_NAMES = {
    "pending": "等待应答",
    "succeeded": "成功",
    "failed": "失败",
    "timeout": "超时",
    "offline": "设备离线",
}
SOURCE_NAMES = {
    "manual": "手动",
    "task": "定时任务",
    "group": "分组控制",
    "billing": "电费管理",
    "load": "负荷识别",
}
RUN_STATUS_NAMES = {"running": "执行中", "done": "已完成", "skipped": "已跳过"}

# -- the command log ------------------------------------------------------------------------------

_COMMAND_COLUMNS = (
    Command.sysno,
    Command.project_sysno,
    Project.name,
    Command.gateway_sysno,
    Command.gateway_sn,
    Command.device_sysno,
    Command.device_id,
    Command.target_name,
    Command.source,
    ControlRun.name,
    Command.run_sysno,
    Command.operator,
    Command.action,
    Command.params,
    Command.status,
    Command.reason,
    Command.result,
    Command.sent_time,
    Command.answer_time,
    Command.create_time,
)
COMMANDS = Listing(
    select(*_COMMAND_COLUMNS)
    .join(Project, Project.sysno == Command.project_sysno)
    .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno),
    filters={
        "customer": lambda p: sees(p, project=Command.project_sysno, gateway=Command.gateway_sysno),
        "sysno": lambda p: Command.sysno == p,
        "project": lambda p: Command.project_sysno == p,
        "gateway": lambda p: Command.gateway_sysno == p,
        "device": lambda p: Command.device_sysno == p,
        "run": lambda p: Command.run_sysno == p,
        "status": lambda p: Command.status == p,
        "action": lambda p: Command.action == p,
        "source": lambda p: Command.source == p,
        "time": During(Command.create_time),
        "keyword": Keyword(Command.target_name, Command.gateway_sn, Command.device_id, Command.operator),
    },
    orders={
        "create_time": Command.create_time,
        "status": Command.status,
        "action": Command.action,
        "target_name": Command.target_name,
        "sysno": Command.sysno,
    },
    default_order="create_time",
    tie=Command.sysno,
    per_project=PerProject(Command.project_sysno, visible_projects, orders=("create_time",)),
)


def _command(row: Row) -> dict[str, Any]:
    """One command in the shape of ``CommandRead``."""
    (
        sysno,
        project_sysno,
        project_name,
        gateway_sysno,
        gateway_sn,
        device_sysno,
        device_id,
        target_name,
        source,
        run_name,
        run_sysno,
        operator,
        action,
        params,
        status,
        reason,
        result,
        sent_time,
        answer_time,
        create_time,
    ) = row
    source_name = SOURCE_NAMES.get(source, source)
    return {
        "sysno": sysno,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "gateway_sysno": gateway_sysno,
        "gateway_sn": gateway_sn,
        "device_sysno": device_sysno,
        "device_id": device_id,
        "target_name": target_name,
        "source": source,
        "source_name": f"{source_name}：{run_name}" if run_name else source_name,
        "run_sysno": run_sysno,
        "operator": operator,
        "action": action,
        "action_name": ACTION_NAMES.get(action, action),
        "params": params,
        **_ending(status, reason, result, sent_time, answer_time),
        "create_time": to_display(create_time),
    }


def _ending(
    status: str, reason: str | None, result: Any, sent: datetime | None, answered: datetime | None
) -> dict[str, Any]:
    """How a command ended, in the fields ``CommandRead`` shows it by."""
    return {
        "status": status,
        "status_name": STATUS_NAMES.get(status, status),
        "reason": reason,
        "result": result,
        "sent_time": to_display(sent),
        "answer_time": to_display(answered),
        "duration_ms": int((answered - sent).total_seconds() * 1000) if sent and answered else None,
    }


def _command_values(customer: Customer, query: CommandQuery) -> dict[str, Any]:
    """The command log's filter values for a query."""
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "gateway": query.gateway_sysno,
        "device": query.device_sysno,
        "run": query.run_sysno,
        "status": query.status,
        "action": query.action,
        "source": query.source,
        "time": (query.start_time, query.end_time),
        "keyword": query.keyword,
    }


async def list_commands(*, ctx: AppContext, customer: Customer, query: CommandQuery) -> PageData:
    """One page of the command log of the projects the customer may see, newest first by default."""
    return await COMMANDS.page(ctx, query=query, values=_command_values(customer, query), render=_command)


COMMAND_COLUMNS = (
    Column("下发时间", "create_time", 20),
    Column("设备", "target_name", 18),
    Column("网关", lambda c: f"{c['gateway_sn']} · #{c['device_id']}", 22),
    Column("所属项目", "project_name", 18),
    Column("命令", "action_name", 10),
    Column("来源", "source_name", 22),
    Column("操作人", "operator", 18),
    Column("结果", "status_name", 10),
    Column("原因", "reason", 24),
    Column("应答时间", "answer_time", 20),
    Column("耗时", lambda c: None if c["duration_ms"] is None else f"{c['duration_ms']} 毫秒", 12),
)


async def export_commands(*, ctx: AppContext, customer: Customer, query: CommandQuery) -> tuple[Path, str]:
    """Every command the log's filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("网关编号", query.gateway_sysno),
        ("设备编号", query.device_sysno),
        ("执行记录", query.run_sysno),
        ("结果", STATUS_NAMES.get(query.status) if query.status else None),
        ("命令", ACTION_NAMES.get(query.action) if query.action else None),
        ("来源", SOURCE_NAMES.get(query.source) if query.source else None),
        ("下发时间", during(query.start_time, query.end_time)),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="命令日志",
        listing=COMMANDS,
        query=query,
        values=_command_values(customer, query),
        columns=COMMAND_COLUMNS,
        filters=filters,
        render=_command,
    )


async def get_command(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One command of the log (read in the caller's session)."""
    row = await COMMANDS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("命令")
    return _command(row)


def command_options() -> CommandOptions:
    """The filter options of the command log."""
    return CommandOptions(
        status=[OptionRead(value=k, label=v) for k, v in STATUS_NAMES.items()],
        action=[OptionRead(value=k, label=v) for k, v in ACTION_NAMES.items()],
        source=[OptionRead(value=k, label=v) for k, v in SOURCE_NAMES.items()],
    )


# -- runs ------------------------------------------------------------------------------------------

_RUN_COLUMNS = (
    ControlRun.sysno,
    ControlRun.kind,
    ControlRun.task_sysno,
    ControlRun.group_sysno,
    ControlRun.name,
    ControlRun.action,
    ControlRun.scheduled_for,
    ControlRun.status,
    ControlRun.detail,
    ControlRun.total,
    ControlRun.succeeded,
    ControlRun.failed,
    ControlRun.start_time,
    ControlRun.end_time,
    ControlRun.create_time,
)
RUNS = Listing(
    select(*_RUN_COLUMNS),
    filters={
        "customer": lambda p: ControlRun.customer_sysno == p,
        "sysno": lambda p: ControlRun.sysno == p,
        "task": lambda p: ControlRun.task_sysno == p,
        "group": lambda p: ControlRun.group_sysno == p,
        "kind": lambda p: ControlRun.kind == p,
    },
    orders={"create_time": ControlRun.create_time},
    default_order="create_time",
    tie=ControlRun.sysno,
)


def run_row(row: Row) -> dict[str, Any]:
    """One run in the shape of ``RunRead``."""
    (
        sysno,
        kind,
        task_sysno,
        group_sysno,
        name,
        action,
        scheduled_for,
        status,
        detail,
        total,
        succeeded,
        failed,
        start_time,
        end_time,
        create_time,
    ) = row
    return {
        "sysno": sysno,
        "kind": kind,
        "task_sysno": task_sysno,
        "group_sysno": group_sysno,
        "name": name,
        "action": action,
        "action_name": ACTION_NAMES.get(action, action),
        "scheduled_for": to_display(scheduled_for),
        "status": status,
        "status_name": RUN_STATUS_NAMES.get(status, status),
        "detail": detail,
        "total": total,
        "succeeded": succeeded,
        "failed": failed,
        "pending": max(0, total - succeeded - failed) if status == "running" else 0,
        "start_time": to_display(start_time),
        "end_time": to_display(end_time),
        "create_time": to_display(create_time),
    }


def run_read(run: ControlRun) -> dict[str, Any]:
    """A run row in the shape of ``RunRead``."""
    return run_row([getattr(run, column.key) for column in _RUN_COLUMNS])


def _run_values(customer: Customer, query: RunQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "task": query.task_sysno,
        "group": query.group_sysno,
        "kind": query.kind,
    }


async def list_runs(*, ctx: AppContext, customer: Customer, query: RunQuery) -> PageData:
    """The caller's task and group runs, newest first."""
    return await RUNS.page(ctx, query=query, values=_run_values(customer, query), render=run_row)


def _run_result(run: dict[str, Any]) -> str | None:
    if run["status"] == "skipped":
        detail: str | None = run["detail"]
        return detail
    return f"成功 {run['succeeded']} / 失败 {run['failed']} / 共 {run['total']}"


RUN_COLUMNS = (
    Column("计划时间", "scheduled_for", 20),
    Column("名称", "name", 20),
    Column("来源", lambda r: SOURCE_NAMES.get(r["kind"], r["kind"]), 10),
    Column("动作", "action_name", 10),
    Column("执行状态", "status_name", 10),
    Column("结果", _run_result, 30),
    Column("开始时间", "start_time", 20),
    Column("结束时间", "end_time", 20),
)


async def export_runs(*, ctx: AppContext, customer: Customer, query: RunQuery) -> tuple[Path, str]:
    """Every run of the caller's tasks and groups the filters keep, as a workbook: its path and name."""
    filters = filters_shown(
        ("定时任务编号", query.task_sysno),
        ("分组编号", query.group_sysno),
        ("来源", SOURCE_NAMES.get(query.kind) if query.kind else None),
    )
    return await export_list(
        ctx,
        name="执行记录",
        listing=RUNS,
        query=query,
        values=_run_values(customer, query),
        columns=RUN_COLUMNS,
        filters=filters,
        render=run_row,
    )


LAST_RUN = aliased(ControlRun, name="last_run")
# The columns of ``LAST_RUN`` that ``run_row`` reads, for lists that show the last run of each row.
LAST_RUN_COLUMNS = tuple(getattr(LAST_RUN, column.key) for column in _RUN_COLUMNS)


def with_last_run(column: Any, *columns: Any) -> Callable[[Subquery, bool], Any]:
    """A list's ``page_only``: its page with ``columns`` of the newest run of each task or group.

    ``column`` is the run's owner column (task or group); the page's own id column is ``sysno``;
    ``columns`` are of ``LAST_RUN``, by default those ``run_row`` reads. With LATERAL, each row's
    newest run is read by a sub-query of its own (PostgreSQL otherwise hashes every run to join
    them); without, the page is joined to the run whose id is the newest (SQLite finds it by key).
    """
    selected = columns or LAST_RUN_COLUMNS
    owner = getattr(LAST_RUN, column.key)

    def page_only(page: Subquery, lateral: bool) -> Any:
        if lateral:
            newest_run = (
                select(*selected)
                .where(owner == page.c.sysno)
                .order_by(LAST_RUN.sysno.desc())
                .limit(1)
                .lateral("last_run")
            )
            return select(page, *newest_run.c).outerjoin_from(page, newest_run, true())
        newest = select(func.max(ControlRun.sysno)).where(column == page.c.sysno).scalar_subquery()
        return select(page, *selected).outerjoin_from(page, LAST_RUN, LAST_RUN.sysno == newest)

    return page_only


class KnownOutcome(Protocol):
    """How a command of a run under way ended, known before its batch is written."""

    status: str
    reason: str | None
    result: dict[str, Any] | None
    sent_time: datetime | None
    answer_time: datetime | None


async def get_run(
    *,
    session: AsyncSession,
    customer: Customer,
    sysno: int,
    ahead: Mapping[int, KnownOutcome] | None = None,
) -> dict[str, Any]:
    """A run of the caller's, with each result so far (``ahead``: outcomes by command not yet written)."""
    found = await RUNS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if found is None:
        raise NotFound("执行记录")
    run = run_row(found)
    rows = await session.execute(COMMANDS_OF_RUN, {"run": sysno, "customer": customer.sysno})
    commands = []
    for row in rows:
        command = _command(row)
        known = (ahead or {}).get(command["sysno"])
        if known is not None:
            # Answered, not yet committed: show it now rather than at the next batch write.
            command.update(
                _ending(known.status, known.reason, known.result, known.sent_time, known.answer_time)
            )
        commands.append(command)
    if ahead:
        run["succeeded"] = sum(1 for c in commands if c["status"] == "succeeded")
        run["failed"] = sum(1 for c in commands if c["status"] not in ("succeeded", "pending"))
        run["pending"] = max(0, run["total"] - run["succeeded"] - run["failed"])
    return {**run, "commands": commands}


COMMANDS_OF_RUN = (
    select(*_COMMAND_COLUMNS)
    .join(Project, Project.sysno == Command.project_sysno)
    .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno)
    .where(
        Command.run_sysno == bindparam("run"),
        sees(bindparam("customer"), project=Command.project_sysno, gateway=Command.gateway_sysno),
    )
    .order_by(Command.sysno)
)


# A run still "running" this long after it started lost its process (a run ends within the command
# timeout, however many devices it has).
ABANDONED_AFTER = timedelta(minutes=10)


async def finish_run(*, ctx: AppContext, run_sysno: int) -> None:
    """Mark a run done."""
    async with ctx.sessions() as session:
        await session.execute(
            update(ControlRun).where(ControlRun.sysno == run_sysno).values(status="done", end_time=utcnow())
        )
        await session.commit()
