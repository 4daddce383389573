"""Sending commands to gateways and recording how each ended.

One path serves a button press, a group switch and a timed task: ``Commander.execute`` writes a
pending ``Command`` row per device (offline devices are refused at once), fans the requests out
concurrently per gateway, and writes the outcomes in small batches as they arrive so that a screen
polling the run sees each device's result as soon as it is known.

The device's switch state is changed only by the ingest (the single writer of switch state and the
status log): confirmed switchings are handed to it through ``Ingest.confirm_switches``, which
changes nothing when the gateway has already reported the same state itself. A process without
the ingest leaves it to the gateway's own switch event, which the ingest process records.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.control.history import ACTION_NAMES, STATUS_NAMES, get_command
from powerportal.control.models import Command, ControlRun
from powerportal.control.schemas import CommandSend
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import utcnow
from powerportal.devices import service as devices
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.mqtt.rpc import RpcClient
from powerportal.projects.access import controls, owners_besides
from powerportal.telemetry.ingest import SwitchConfirmation

log = logging.getLogger("powerportal.control")

# What a gateway's machine-readable reasons mean to a person (docs/gateway-protocol.md names "locked";
# the reference Modbus gateway in edge/ answers "unsupported" to a method it does not carry out).
GATEWAY_REASONS = {
    "refused": "网关拒绝执行",
    "unknown_device": "网关上没有该设备",
    "busy": "网关忙，请稍后再试",
    "locked": "断路器在现场被锁定，无法远程操作",
    "unsupported": "网关不支持该命令",
}
OFFLINE_DEVICE = "设备离线，无法下发命令，请待设备上线后再试"
OFFLINE_GATEWAY = "所属网关离线，无法下发命令，请检查网关的网络和电源"
NO_LINK = "控制通道未连接（本服务进程未运行消息服务），命令未发出"
GATEWAY_GONE = "网关已删除或已移至其他项目，命令未发出"
CONTROL_LOST = "执行期间已失去该设备的控制权限（共享已结束或网关已移出共享的楼栋），命令未发出"
DELETED_MEANWHILE = "执行期间该设备或其网关已被删除，命令结果未保存"
# Outcomes reach the database in batches this often while a run is under way.
FLUSH_SECONDS = 0.2
# Requests in flight per gateway: a gateway works its bus one device at a time, but pipelining a
# few hides the round trip.
PER_GATEWAY_IN_FLIGHT = 16

_RPC = {
    "switch_on": ("switch", {"on": True}),
    "switch_off": ("switch", {"on": False}),
    "read_now": ("read", {}),
    "set_thresholds": ("set_thresholds", {}),
}

# (serial number, gateway sysno, switches): the ingest writes them for that registration only.
SwitchConfirmer = Callable[[str, int, Sequence[SwitchConfirmation]], Awaitable[None]]


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


_OUTCOME = (
    update(Command)
    .where(Command.sysno == bindparam("o_command"))
    .values(
        status=bindparam("o_status"),
        reason=bindparam("o_reason"),
        result=bindparam("o_result"),
        sent_time=bindparam("o_sent_time"),
        answer_time=bindparam("o_answer_time"),
    )
)


class Registration:
    """Whether a run's commands to a gateway may still go, asked before each send.

    A gateway deleted (its serial number then registered by another customer) or moved to another
    project while requests wait behind its slow bus gets none of them; nor does one the sender lost
    control of meanwhile (a share revoked, ended, or the gateway moved out of the buildings it
    covers). Requests that arrive while a check is under way share it, so a gateway's wave of
    requests costs one query.
    """

    def __init__(self, ctx: AppContext, target: Target, customer_sysno: int | None) -> None:
        self.ctx = ctx
        self.target = target
        self.customer_sysno = customer_sysno
        self._asking: asyncio.Future[str | None] | None = None

    async def refusal(self) -> str | None:
        """Read now (or by a read under way) why the commands may not go, if they may not."""
        if self._asking is None or self._asking.done():
            self._asking = asyncio.ensure_future(self._ask())
        return await asyncio.shield(self._asking)

    async def _ask(self) -> str | None:
        t = self.target
        allowed = (
            true()
            if self.customer_sysno is None
            else controls(self.customer_sysno, project=Gateway.project_sysno, gateway=Gateway.sysno)
        )
        async with self.ctx.sessions() as session:
            found = (
                await session.execute(
                    select(Gateway.sysno, allowed).where(
                        Gateway.sysno == t.gateway_sysno,
                        Gateway.sn == t.gateway_sn,
                        Gateway.project_sysno == t.project_sysno,
                    )
                )
            ).first()
        if found is None:
            return GATEWAY_GONE
        return None if found[1] else CONTROL_LOST


@dataclass
class RunWriter:
    """Collects a run's outcomes and writes them in batches (and the run's tallies with them)."""

    ctx: AppContext
    run_sysno: int | None
    queue: list[Outcome] = field(default_factory=list)
    written: list[Outcome] = field(default_factory=list)
    # Known but not yet committed, by command: what a poll of this run in this process sees at once.
    unwritten: dict[int, Outcome] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        """Take one outcome."""
        self.queue.append(outcome)
        self.unwritten[outcome.command_sysno] = outcome

    async def flush(self) -> None:
        """Write the outcomes taken so far."""
        if not self.queue:
            return
        batch, self.queue = self.queue, []
        async with self.ctx.sessions() as session:
            # On the connection, not the ORM's update by primary key, which fails on a row deleted
            # meanwhile (its gateway was deleted): such a row is simply not there to update.
            await (await session.connection()).execute(
                _OUTCOME,
                [
                    {
                        "o_command": o.command_sysno,
                        "o_status": o.status,
                        "o_reason": o.reason,
                        "o_result": o.result,
                        "o_sent_time": o.sent_time,
                        "o_answer_time": o.answer_time,
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
        .where(controls(customer.sysno, project=Device.project_sysno, gateway=Device.gateway_sysno))
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


class Commander:
    """Sends this process's commands: its rpc channel (None without the MQTT side) and its runs under way."""

    def __init__(
        self, ctx: AppContext, *, rpc: RpcClient | None = None, confirm: SwitchConfirmer | None = None
    ) -> None:
        self.ctx = ctx
        self.rpc = rpc
        self.confirm = confirm
        # Runs this process is executing, by run: their outcomes known ahead of the database.
        self.live_runs: dict[int, RunWriter] = {}
        self._background: set[asyncio.Task[None]] = set()

    async def execute(
        self,
        *,
        targets: Sequence[Target],
        action: str,
        params: dict[str, Any] | None,
        origin: Origin,
    ) -> list[Outcome]:
        """Send one command per target, wait for every answer or timeout, and record each outcome."""
        commands = await self._record_pending(targets, action, params, origin)
        refused = [
            Outcome(command_sysno=c.sysno, target=t, status="offline", reason=c.reason)
            for t, c in commands
            if c.status == "offline"
        ]
        live = [(t, c.sysno) for t, c in commands if c.status == "pending"]
        writer = RunWriter(ctx=self.ctx, run_sysno=origin.run_sysno)
        if self.rpc is None:
            for t, sysno in live:
                writer.add(Outcome(command_sysno=sysno, target=t, status="failed", reason=NO_LINK))
            await writer.flush()
        else:
            await self._send_all(self.rpc, live, action, params, writer, origin.customer_sysno)
        await self._apply_confirmed(action, params, writer.written)
        return refused + writer.written

    async def _record_pending(
        self, targets: Sequence[Target], action: str, params: dict[str, Any] | None, origin: Origin
    ) -> list[tuple[Target, Command]]:
        """One command row per target: pending, or refused at once when its device or gateway is offline."""
        now = utcnow()
        commands: list[tuple[Target, Command]] = []
        async with self.ctx.sessions() as session:
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
        return commands

    async def _send_all(
        self,
        rpc: RpcClient,
        live: list[tuple[Target, int]],
        action: str,
        params: dict[str, Any] | None,
        writer: RunWriter,
        customer_sysno: int | None,
    ) -> None:
        """Send the pending commands, gateways in parallel, and write outcomes as they arrive.

        ``customer_sysno``: the sender, who must still control each gateway when its commands go.
        """
        by_gateway: dict[int, list[tuple[Target, int]]] = defaultdict(list)
        for target, sysno in live:
            by_gateway[target.gateway_sysno].append((target, sysno))
        method, base_params = _RPC[action]
        rpc_params = {**base_params, **(params or {})}
        timeout = self.ctx.settings.command_timeout_seconds

        async def gateway_batch(items: list[tuple[Target, int]]) -> None:
            gate = asyncio.Semaphore(PER_GATEWAY_IN_FLIGHT)
            registration = Registration(self.ctx, items[0][0], customer_sysno)

            async def one(target: Target, sysno: int) -> None:
                async with gate:
                    refusal = await registration.refusal()
                    if refusal is not None:
                        writer.add(Outcome(sysno, target, "failed", refusal))
                        return
                    writer.add(await _send_one(rpc, target, sysno, action, method, rpc_params, timeout))

            await asyncio.gather(*(one(t, s) for t, s in items))

        finished = asyncio.Event()

        async def flush_loop() -> None:
            # Never cancelled mid-write: a batch taken off the queue always reaches the database.
            while not finished.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(finished.wait(), FLUSH_SECONDS)
                await writer.flush()

        flusher = asyncio.create_task(flush_loop()) if len(live) > 1 else None
        if writer.run_sysno is not None:
            self.live_runs[writer.run_sysno] = writer
        try:
            await asyncio.gather(*(gateway_batch(items) for items in by_gateway.values()))
        finally:
            finished.set()
            if flusher is not None:
                await flusher
            await writer.flush()
            if writer.run_sysno is not None:
                self.live_runs.pop(writer.run_sysno, None)

    async def _apply_confirmed(self, action: str, params: dict[str, Any] | None, done: list[Outcome]) -> None:
        """Pass confirmed switchings to the ingest, and store confirmed thresholds on the devices."""
        good = [o for o in done if o.status == "succeeded"]
        if not good:
            return
        if action == "set_thresholds" and params:
            async with self.ctx.sessions() as session:
                await session.execute(
                    update(Device)
                    .where(Device.sysno.in_([o.target.device_sysno for o in good]))
                    .values(**params)
                )
                await session.commit()
            return
        if action not in ("switch_on", "switch_off") or self.confirm is None:
            return
        by_gateway: dict[tuple[str, int], list[SwitchConfirmation]] = defaultdict(list)
        for o in good:
            by_gateway[(o.target.gateway_sn, o.target.gateway_sysno)].append(
                SwitchConfirmation(
                    device_id=o.target.device_id, on=action == "switch_on", at=o.answer_time or utcnow()
                )
            )
        for (sn, gateway_sysno), switches in by_gateway.items():
            await self.confirm(sn, gateway_sysno, switches)

    def start_background(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a coroutine beyond the request, keeping a reference so it is not collected midway."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)
        return task

    async def wait_idle(self) -> None:
        """Wait until the runs started in the background so far have finished."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the runs under way in the background (their commands stay as recorded so far)."""
        await stop_tasks(list(self._background))


async def _send_one(
    rpc: RpcClient,
    target: Target,
    sysno: int,
    action: str,
    method: str,
    params: dict[str, Any],
    timeout: float,
) -> Outcome:
    """Send one command and wait for its answer; every way it can end becomes an outcome."""
    sent = utcnow()
    try:
        answer = await rpc.call(
            sn=target.gateway_sn, device_id=target.device_id, method=method, params=params, timeout=timeout
        )
    except TimeoutError:
        return Outcome(sysno, target, "timeout", f"网关 {timeout:g} 秒内未应答", sent_time=sent)
    except Exception as exc:  # a dropped broker link must not leave the command pending
        log.warning(
            "command %s to %s/%s failed to send: %s", action, target.gateway_sn, target.device_id, exc
        )
        return Outcome(sysno, target, "failed", "命令发送失败（消息服务器连接中断）", sent_time=sent)
    if answer.ok:
        return Outcome(sysno, target, "succeeded", None, answer.result, sent, utcnow())
    reason = answer.error or "unknown"
    text = GATEWAY_REASONS.get(reason, reason)
    return Outcome(sysno, target, "failed", text[:255], answer.result or None, sent, utcnow())


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("control run failed", exc_info=task.exception())


async def send_command(
    *, commander: Commander, session: AsyncSession, customer: Customer, body: CommandSend, ip: str
) -> dict[str, Any]:
    """Send one command a person asked for and wait for its outcome."""
    if body.action == "set_thresholds" and not body.params:
        raise ApiError("设置阈值需要提供至少一个阈值")
    targets = await load_targets(session=session, customer=customer, device_sysnos=[body.device_sysno])
    if not targets:
        raise NotFound("设备")
    target = targets[0]
    if body.action == "set_thresholds" and body.params:
        stored = await session.get(Device, target.device_sysno)
        if stored is None:
            raise NotFound("设备")
        devices.check_voltages(
            over_voltage=body.params.get("over_voltage", stored.over_voltage),
            under_voltage=body.params.get("under_voltage", stored.under_voltage),
        )
    origin = Origin(customer_sysno=customer.sysno, source="manual", operator=person(customer))
    started = time.perf_counter()
    outcome = (
        await commander.execute(
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
    detail = (
        f"{ACTION_NAMES[body.action]} {target.name}（网关 {target.gateway_sn}）："
        f"{STATUS_NAMES[outcome.status]}" + (f"，{outcome.reason}" if outcome.reason else "")
    )
    succeeded = outcome.status == "succeeded"
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.COMMAND,
        detail=detail,
        ip=ip,
        success=succeeded,
    )
    # A sharee's command is the owner's business too: it goes in the owner's log, naming who.
    for owner in await owners_besides(session, customer, [target.project_sysno]):
        logs.record(
            session=session,
            customer_sysno=owner,
            operate_type=logs.OperateType.COMMAND,
            detail=f"共享用户 {person(customer)}：{detail}",
            ip=ip,
            success=succeeded,
        )
    try:
        return await get_command(session=session, customer=customer, sysno=outcome.command_sysno)
    except NotFound:  # the gateway was deleted while it worked on the command, and its commands with it
        raise ApiError(DELETED_MEANWHILE) from None


def outcome_message(command: dict[str, Any]) -> tuple[int, str]:
    """The envelope's status code and message for a finished command (a ``CommandRead``)."""
    action, status, reason = command["action_name"], command["status"], command["reason"]
    if status == "succeeded":
        return 200, f"{action}成功"
    if status == "timeout":
        return 504, f"{action}超时：{reason}，请稍后查看设备状态"
    if status == "offline":
        return 400, reason or OFFLINE_DEVICE
    return 400, f"{action}失败：{reason or '网关未说明原因'}"


def person(customer: Customer) -> str:
    """How a customer is named as the operator of a command."""
    return f"{customer.name}（{customer.account}）"
