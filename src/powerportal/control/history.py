"""The command log and the runs of timed tasks and groups: what was sent, to whom, and how it ended."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.control.models import Command, ControlRun
from powerportal.control.schemas import (
    CommandOptions,
    CommandQuery,
    CommandRead,
    OptionRead,
    RunDetail,
    RunQuery,
    RunRead,
)
from powerportal.core.context import AppContext
from powerportal.core.database import fetch_page
from powerportal.core.envelope import NotFound
from powerportal.core.filters import contains_pattern, time_range
from powerportal.core.schemas import Page
from powerportal.core.timeutil import to_display, utcnow
from powerportal.projects.access import visible_project_ids
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
SOURCE_NAMES = {"manual": "手动", "task": "定时任务", "group": "分组控制"}
RUN_STATUS_NAMES = {"running": "执行中", "done": "已完成", "skipped": "已跳过"}

# -- the command log ----------------------------------------------------------------------------

_ORDERABLE: dict[str, Any] = {
    "create_time": Command.create_time,
    "status": Command.status,
    "action": Command.action,
    "target_name": Command.target_name,
}


def _visible_commands(customer: Customer) -> Any:
    return Command.project_sysno.in_(visible_project_ids(customer))


async def list_commands(
    *, session: AsyncSession, customer: Customer, query: CommandQuery
) -> Page[CommandRead]:
    """One page of the command log of the projects the customer may see, newest first by default."""
    conditions: list[Any] = [_visible_commands(customer)]
    for column, value in (
        (Command.project_sysno, query.project_sysno),
        (Command.gateway_sysno, query.gateway_sysno),
        (Command.device_sysno, query.device_sysno),
        (Command.run_sysno, query.run_sysno),
        (Command.status, query.status),
        (Command.action, query.action),
        (Command.source, query.source),
    ):
        if value is not None:
            conditions.append(column == value)
    conditions += time_range(Command.create_time, query.start_time, query.end_time)
    if query.keyword:
        pattern = contains_pattern(query.keyword)
        conditions.append(
            or_(
                Command.target_name.ilike(pattern, escape="\\"),
                Command.gateway_sn.ilike(pattern, escape="\\"),
                Command.device_id.ilike(pattern, escape="\\"),
                Command.operator.ilike(pattern, escape="\\"),
            )
        )
    column = _ORDERABLE.get(query.orderBy or "create_time", Command.create_time)
    rows, total = await fetch_page(
        session,
        select(Command, Project.name, ControlRun.name)
        .join(Project, Project.sysno == Command.project_sysno)
        .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno)
        .where(*conditions)
        .order_by(*query.ordered(column, Command.sysno)),
        query,
    )
    return Page(
        dataSource=[command_read(c, project_name=p, run_name=r) for c, p, r in rows],
        totalCount=total,
    )


async def get_command(*, session: AsyncSession, customer: Customer, sysno: int) -> CommandRead:
    """One command of the log."""
    row = (
        await session.execute(
            select(Command, Project.name, ControlRun.name)
            .join(Project, Project.sysno == Command.project_sysno)
            .outerjoin(ControlRun, ControlRun.sysno == Command.run_sysno)
            .where(Command.sysno == sysno, _visible_commands(customer))
        )
    ).first()
    if row is None:
        raise NotFound("命令")
    return command_read(row[0], project_name=row[1], run_name=row[2])


def command_read(
    command: Command, *, project_name: str | None = None, run_name: str | None = None
) -> CommandRead:
    """The wire shape of a command row."""
    duration = None
    if command.sent_time and command.answer_time:
        duration = int((command.answer_time - command.sent_time).total_seconds() * 1000)
    source_name = SOURCE_NAMES.get(command.source, command.source)
    if run_name:
        source_name = f"{source_name}：{run_name}"
    # Built without validation: every field comes from our own row (a run polls a thousand of these).
    return CommandRead.model_construct(
        sysno=command.sysno,
        project_sysno=command.project_sysno,
        project_name=project_name,
        gateway_sysno=command.gateway_sysno,
        gateway_sn=command.gateway_sn,
        device_sysno=command.device_sysno,
        device_id=command.device_id,
        target_name=command.target_name,
        source=command.source,
        source_name=source_name,
        run_sysno=command.run_sysno,
        operator=command.operator,
        action=command.action,
        action_name=ACTION_NAMES.get(command.action, command.action),
        params=command.params,
        status=command.status,
        status_name=STATUS_NAMES.get(command.status, command.status),
        reason=command.reason,
        result=command.result,
        sent_time=to_display(command.sent_time),
        answer_time=to_display(command.answer_time),
        duration_ms=duration,
        create_time=to_display(command.create_time),
    )


def command_options() -> CommandOptions:
    """The filter options of the command log."""
    return CommandOptions(
        status=[OptionRead(value=k, label=v) for k, v in STATUS_NAMES.items()],
        action=[OptionRead(value=k, label=v) for k, v in ACTION_NAMES.items()],
        source=[OptionRead(value=k, label=v) for k, v in SOURCE_NAMES.items()],
    )


# -- runs ------------------------------------------------------------------------------------------


def run_read(run: ControlRun) -> RunRead:
    """The wire shape of a run."""
    return RunRead(
        sysno=run.sysno,
        kind=run.kind,
        task_sysno=run.task_sysno,
        group_sysno=run.group_sysno,
        name=run.name,
        action=run.action,
        action_name=ACTION_NAMES.get(run.action, run.action),
        scheduled_for=to_display(run.scheduled_for),
        status=run.status,
        status_name=RUN_STATUS_NAMES.get(run.status, run.status),
        detail=run.detail,
        total=run.total,
        succeeded=run.succeeded,
        failed=run.failed,
        pending=max(0, run.total - run.succeeded - run.failed) if run.status == "running" else 0,
        start_time=to_display(run.start_time),
        end_time=to_display(run.end_time),
        create_time=to_display(run.create_time),
    )


async def list_runs(*, session: AsyncSession, customer: Customer, query: RunQuery) -> Page[RunRead]:
    """The caller's task and group runs, newest first."""
    conditions: list[Any] = [ControlRun.customer_sysno == customer.sysno]
    if query.task_sysno is not None:
        conditions.append(ControlRun.task_sysno == query.task_sysno)
    if query.group_sysno is not None:
        conditions.append(ControlRun.group_sysno == query.group_sysno)
    if query.kind is not None:
        conditions.append(ControlRun.kind == query.kind)
    result, total = await fetch_page(
        session,
        select(ControlRun)
        .where(*conditions)
        .order_by(*query.ordered(ControlRun.create_time, ControlRun.sysno)),
        query,
    )
    return Page(dataSource=[run_read(r) for r in result.scalars()], totalCount=total)


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
) -> RunDetail:
    """A run of the caller's, with each result so far (``ahead``: outcomes by command not yet written)."""
    run = await session.scalar(
        select(ControlRun).where(ControlRun.sysno == sysno, ControlRun.customer_sysno == customer.sysno)
    )
    if run is None:
        raise NotFound("执行记录")
    rows = await session.execute(
        select(Command, Project.name)
        .join(Project, Project.sysno == Command.project_sysno)
        .where(Command.run_sysno == run.sysno, _visible_commands(customer))
        .order_by(Command.sysno)
    )
    ahead = dict(ahead or {})
    commands = []
    for command, project_name in rows:
        read_one = command_read(command, project_name=project_name, run_name=run.name)
        known = ahead.get(command.sysno)
        if known is not None:
            # Answered, not yet committed: show it now rather than at the next batch write.
            read_one.status, read_one.status_name = known.status, STATUS_NAMES.get(known.status, known.status)
            read_one.reason, read_one.result = known.reason, known.result
            read_one.sent_time, read_one.answer_time = (
                to_display(known.sent_time),
                to_display(known.answer_time),
            )
            if known.sent_time and known.answer_time:
                read_one.duration_ms = int((known.answer_time - known.sent_time).total_seconds() * 1000)
        commands.append(read_one)
    read = run_read(run)
    if ahead:
        read.succeeded = sum(1 for c in commands if c.status == "succeeded")
        read.failed = sum(1 for c in commands if c.status not in ("succeeded", "pending"))
        read.pending = max(0, read.total - read.succeeded - read.failed)
    return RunDetail(**read.model_dump(), commands=commands)


async def finish_run(*, ctx: AppContext, run_sysno: int) -> None:
    """Mark a run done."""
    async with ctx.sessions() as session:
        await session.execute(
            update(ControlRun).where(ControlRun.sysno == run_sysno).values(status="done", end_time=utcnow())
        )
        await session.commit()
