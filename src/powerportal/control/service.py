"""Commands: send them to gateways over MQTT, record how each ended, and read the command log.

One path serves a button press, a group switch and a timed task: ``execute`` writes a pending
``Command`` row per device (offline devices are refused at once), fans the requests out
concurrently per gateway, and writes the outcomes in small batches as they arrive so that a screen
polling the run sees each device's result as soon as it is known.

The device's switch state is changed only by the ingest (the single writer of switch state and the
status log): a confirmed switch is handed to it as a switch event of that gateway, which it ignores
when the gateway has already reported the same state itself. A process without the ingest leaves
it to the gateway's own switch event, which the ingest process records.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Select, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.control.models import Command, ControlRun
from powerportal.control.schemas import (
    CommandOptions,
    CommandQuery,
    CommandRead,
    CommandSend,
    OptionRead,
    RunDetail,
    RunQuery,
    RunRead,
)
from powerportal.core.context import AppContext
from powerportal.core.database import fetch_page
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.filters import contains_pattern, time_range
from powerportal.core.schemas import Page
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs import service as logs
from powerportal.logs.service import OperateType
from powerportal.mqtt import codec
from powerportal.projects.access import controllable_project_ids, visible_project_ids
from powerportal.projects.models import Project
from powerportal.telemetry.runtime import runtime_of

log = logging.getLogger("powerportal.control")

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
# What a gateway's machine-readable reasons mean to a person.
GATEWAY_REASONS = {
    "refused": "网关拒绝执行",
    "unknown_device": "网关上没有该设备",
    "busy": "网关忙，请稍后再试",
}
OFFLINE_DEVICE = "设备离线，无法下发命令，请待设备上线后再试"
OFFLINE_GATEWAY = "所属网关离线，无法下发命令，请检查网关的网络和电源"
NO_LINK = "控制通道未连接（本服务进程未运行消息服务），命令未发出"
# Outcomes reach the database in batches this often while a run is under way.
FLUSH_SECONDS = 0.2
LIVE_RUNS_KEY = "control-live-runs"
# Requests in flight per gateway: a gateway works its bus one device at a time, but pipelining a
# few hides the round trip.
PER_GATEWAY_IN_FLIGHT = 16

_RPC = {
    "switch_on": ("switch", {"on": True}),
    "switch_off": ("switch", {"on": False}),
    "read_now": ("read", {}),
    "set_thresholds": ("set_thresholds", {}),
}


@dataclass(frozen=True, slots=True)
class Target:
    """A device a command goes to, with what the command needs of its gateway."""

    device_sysno: int
    device_id: str
    name: str
    project_sysno: int
    gateway_sysno: int
    gateway_sn: str
    device_online: bool
    gateway_online: bool


@dataclass(frozen=True, slots=True)
class Origin:
    """Who or what sends a batch of commands."""

    customer_sysno: int | None
    source: str  # manual | task | group
    operator: str
    run_sysno: int | None = None


@dataclass
class Outcome:
    """How one command ended."""

    command_sysno: int
    target: Target
    status: str
    reason: str | None = None
    result: dict[str, Any] | None = None
    sent_time: datetime | None = None
    answer_time: datetime | None = None


@dataclass
class _Writer:
    """Collects outcomes and writes them in batches (and the run's tallies with them)."""

    ctx: AppContext
    run_sysno: int | None
    queue: list[Outcome] = field(default_factory=list)
    written: list[Outcome] = field(default_factory=list)
    # Known but not yet committed, by command: what a poll of this run in this process sees at once.
    unwritten: dict[int, Outcome] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        self.queue.append(outcome)
        self.unwritten[outcome.command_sysno] = outcome

    async def flush(self) -> None:
        if not self.queue:
            return
        batch, self.queue = self.queue, []
        async with self.ctx.sessions() as session:
            await session.execute(
                update(Command),
                [
                    {
                        "sysno": o.command_sysno,
                        "status": o.status,
                        "reason": o.reason,
                        "result": o.result,
                        "sent_time": o.sent_time,
                        "answer_time": o.answer_time,
                    }
                    for o in batch
                ],
            )
            if self.run_sysno is not None:
                good = sum(1 for o in batch if o.status == "succeeded")
                await session.execute(
                    update(ControlRun)
                    .where(ControlRun.sysno == self.run_sysno)
                    .values(
                        succeeded=ControlRun.succeeded + good,
                        failed=ControlRun.failed + (len(batch) - good),
                    )
                )
            await session.commit()
        self.written.extend(batch)
        for o in batch:
            self.unwritten.pop(o.command_sysno, None)


def _live_runs(ctx: AppContext) -> dict[int, _Writer]:
    """Runs this process is executing, by run: their outcomes known ahead of the database."""
    runs = ctx.extras.setdefault(LIVE_RUNS_KEY, {})
    assert isinstance(runs, dict)  # noqa: S101
    return runs


def device_targets(customer: Customer) -> Select[int, str, str, int, int, str, int, bool]:
    """Devices the customer may command, with their gateway (callers add their own filters)."""
    return (
        select(
            Device.sysno,
            Device.device_id,
            Device.name,
            Device.project_sysno,
            Device.gateway_sysno,
            Gateway.sn,
            Device.online,
            Gateway.online,
        )
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .where(Device.project_sysno.in_(controllable_project_ids(customer)))
    )


async def load_targets(
    *, session: AsyncSession, customer: Customer, device_sysnos: Sequence[int]
) -> list[Target]:
    """The named devices the customer may command, in the order given (others are left out)."""
    if not device_sysnos:
        return []
    rows = await session.execute(device_targets(customer).where(Device.sysno.in_(list(device_sysnos))))
    found = {
        row[0]: Target(
            device_sysno=row[0],
            device_id=row[1],
            name=row[2],
            project_sysno=row[3],
            gateway_sysno=row[4],
            gateway_sn=row[5],
            device_online=bool(row[6]),
            gateway_online=bool(row[7]),
        )
        for row in rows
    }
    return [found[s] for s in device_sysnos if s in found]


async def execute(
    *,
    ctx: AppContext,
    targets: Sequence[Target],
    action: str,
    params: dict[str, Any] | None,
    origin: Origin,
) -> list[Outcome]:
    """Send one command per target, wait for every answer or timeout, and record each outcome."""
    now = utcnow()
    commands: list[tuple[Target, Command]] = []
    async with ctx.sessions() as session:
        for target in targets:
            refused = (
                OFFLINE_GATEWAY
                if not target.gateway_online
                else OFFLINE_DEVICE
                if not target.device_online
                else None
            )
            command = Command(
                project_sysno=target.project_sysno,
                gateway_sysno=target.gateway_sysno,
                device_sysno=target.device_sysno,
                customer_sysno=origin.customer_sysno,
                run_sysno=origin.run_sysno,
                source=origin.source,
                operator=origin.operator[:128],
                target_name=target.name,
                gateway_sn=target.gateway_sn,
                device_id=target.device_id,
                action=action,
                params=params,
                status="offline" if refused else "pending",
                reason=refused,
                create_time=now,
            )
            session.add(command)
            commands.append((target, command))
        await session.flush()
        if origin.run_sysno is not None:
            refused_count = sum(1 for _, c in commands if c.status == "offline")
            await session.execute(
                update(ControlRun)
                .where(ControlRun.sysno == origin.run_sysno)
                .values(total=len(commands), failed=refused_count, start_time=now)
            )
        await session.commit()
    outcomes = [
        Outcome(command_sysno=c.sysno, target=t, status="offline", reason=c.reason)
        for t, c in commands
        if c.status == "offline"
    ]
    live = [(t, c.sysno) for t, c in commands if c.status == "pending"]
    writer = _Writer(ctx=ctx, run_sysno=origin.run_sysno)
    runtime = runtime_of(ctx)
    if runtime is None:
        for t, sysno in live:
            writer.add(Outcome(command_sysno=sysno, target=t, status="failed", reason=NO_LINK))
        await writer.flush()
        return outcomes + writer.written
    by_gateway: dict[str, list[tuple[Target, int]]] = defaultdict(list)
    for target, sysno in live:
        by_gateway[target.gateway_sn].append((target, sysno))
    method, base_params = _RPC[action]
    rpc_params = {**base_params, **(params or {})}
    timeout = ctx.settings.command_timeout_seconds

    async def one(target: Target, sysno: int, gate: asyncio.Semaphore) -> None:
        async with gate:
            sent = utcnow()
            try:
                answer = await runtime.rpc.call(
                    sn=target.gateway_sn,
                    device_id=target.device_id,
                    method=method,
                    params=rpc_params,
                    timeout=timeout,
                )
            except TimeoutError:
                outcome = Outcome(
                    sysno, target, "timeout", f"网关 {timeout:g} 秒内未应答", sent_time=sent, answer_time=None
                )
            except Exception as exc:  # a dropped broker link must not leave the command pending
                log.warning(
                    "command %s to %s/%s failed to send: %s", action, target.gateway_sn, target.device_id, exc
                )
                outcome = Outcome(
                    sysno, target, "failed", "命令发送失败（消息服务器连接中断）", sent_time=sent
                )
            else:
                if answer.ok:
                    outcome = Outcome(sysno, target, "succeeded", None, answer.result, sent, utcnow())
                else:
                    reason = answer.error or "unknown"
                    text = GATEWAY_REASONS.get(reason, reason)
                    outcome = Outcome(
                        sysno, target, "failed", text[:255], answer.result or None, sent, utcnow()
                    )
            writer.add(outcome)

    async def gateway_batch(items: list[tuple[Target, int]]) -> None:
        gate = asyncio.Semaphore(PER_GATEWAY_IN_FLIGHT)
        await asyncio.gather(*(one(t, s, gate) for t, s in items))

    finished = asyncio.Event()

    async def flush_loop() -> None:
        # Never cancelled mid-write: a batch taken off the queue always reaches the database.
        while not finished.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(finished.wait(), FLUSH_SECONDS)
            await writer.flush()

    flusher = asyncio.create_task(flush_loop()) if len(live) > 1 else None
    runs = _live_runs(ctx)
    if origin.run_sysno is not None:
        runs[origin.run_sysno] = writer
    try:
        await asyncio.gather(*(gateway_batch(items) for items in by_gateway.values()))
    finally:
        finished.set()
        if flusher is not None:
            await flusher
        await writer.flush()
        if origin.run_sysno is not None:
            runs.pop(origin.run_sysno, None)
    await _confirm(ctx, action, params, writer.written)
    return outcomes + writer.written


async def _confirm(ctx: AppContext, action: str, params: dict[str, Any] | None, done: list[Outcome]) -> None:
    """Pass confirmed switchings to the ingest, and store confirmed thresholds on the devices."""
    good = [o for o in done if o.status == "succeeded"]
    if not good:
        return
    if action == "set_thresholds" and params:
        async with ctx.sessions() as session:
            await session.execute(
                update(Device).where(Device.sysno.in_([o.target.device_sysno for o in good])).values(**params)
            )
            await session.commit()
        return
    runtime = runtime_of(ctx)
    if action not in ("switch_on", "switch_off") or runtime is None or not ctx.settings.ingest:
        return
    value = 1 if action == "switch_on" else 0
    by_gateway: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for o in good:
        ts = int((o.answer_time or utcnow()).timestamp() * 1000)
        by_gateway[o.target.gateway_sn].append(
            {
                "device": o.target.device_id,
                "ts": ts,
                "type": "switch",
                "value": value,
                "detail": {"by": "command"},
            }
        )
    for sn, events in by_gateway.items():
        await runtime.ingest.submit(codec.topic_for(sn, "events"), orjson.dumps(events))


async def send_command(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, body: CommandSend, ip: str
) -> CommandRead:
    """Send one command a person asked for and wait for its outcome."""
    if body.action == "set_thresholds" and not body.params:
        raise ApiError("设置阈值需要提供至少一个阈值")
    targets = await load_targets(session=session, customer=customer, device_sysnos=[body.device_sysno])
    if not targets:
        raise NotFound("设备")
    target = targets[0]
    origin = Origin(customer_sysno=customer.sysno, source="manual", operator=_person(customer))
    started = time.perf_counter()
    outcome = (
        await execute(
            ctx=ctx,
            targets=targets,
            action=body.action,
            params=body.params if body.action == "set_thresholds" else None,
            origin=origin,
        )
    )[0]
    log.info(
        "command %s to %s/%s: %s in %.0f ms",
        body.action,
        target.gateway_sn,
        target.device_id,
        outcome.status,
        (time.perf_counter() - started) * 1000,
    )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=OperateType.COMMAND,
        detail=f"{ACTION_NAMES[body.action]} {target.name}（网关 {target.gateway_sn}）："
        f"{STATUS_NAMES[outcome.status]}" + (f"，{outcome.reason}" if outcome.reason else ""),
        ip=ip,
        success=outcome.status == "succeeded",
    )
    return await get_command(session=session, customer=customer, sysno=outcome.command_sysno)


def outcome_message(command: CommandRead) -> tuple[int, str]:
    """The envelope's status code and message for a finished command."""
    action = command.action_name
    if command.status == "succeeded":
        return 200, f"{action}成功"
    if command.status == "timeout":
        return 504, f"{action}超时：{command.reason}，请稍后查看设备状态"
    if command.status == "offline":
        return 400, command.reason or OFFLINE_DEVICE
    return 400, f"{action}失败：{command.reason or '网关未说明原因'}"


def _person(customer: Customer) -> str:
    return f"{customer.name}（{customer.account}）"


# -- the command log -------------------------------------------------------------------------------

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


async def get_run(
    *, session: AsyncSession, customer: Customer, sysno: int, ctx: AppContext | None = None
) -> RunDetail:
    """A run of the caller's, with each result so far (ahead of the database where ``ctx`` runs it)."""
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
    live = _live_runs(ctx).get(run.sysno) if ctx is not None else None
    ahead = dict(live.unwritten) if live is not None else {}
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
