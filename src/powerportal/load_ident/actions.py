"""Trips and re-closes of forbidden loads, sent through the command path like any other command.

A trip is written ``pending`` in the transaction that identified its event and sent once by this
worker (a ``switch_off`` command in the command log, refused at once for an offline device, never
sent again for the same event, not even after a restart). A trip that went through is re-closed
after the policy's minutes, at most the policy's number of times a local day per device; past that,
or when automatic re-close was turned off before it fell due, the breaker stays off until someone
with control of the project unlocks it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm
from powerportal.control.commands import Commander, Origin, Outcome, Target, load_targets, person
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.load_ident import policy
from powerportal.load_ident.models import LoadEvent
from powerportal.load_ident.schemas import UnlockResult
from powerportal.logs import recording as logs
from powerportal.projects.access import sees

log = logging.getLogger("powerportal.load_ident.actions")

WAKE_SECONDS = 10.0
# A trip or re-close ``sending`` this long lost its process (a send ends within the command timeout).
STALE = timedelta(minutes=2)
TRIP_OPERATOR = "负荷识别（违规负荷跳闸）"
RECLOSE_OPERATOR = "负荷识别（自动合闸）"
LOST = "服务重启，命令结果未知，未重发"
MOVED = "设备已移出该事件的项目或网关，未执行"
# Re-closes that count against the day's allowance.
RECLOSES = ("pending", "sending", "done", "failed", "skipped")


class MovedAway(Exception):
    """The event's device is no longer where the event happened: its trip or re-close is not sent."""


class LoadActions:
    """Sends pending trips and due re-closes; woken by the observer, else every ``WAKE_SECONDS``."""

    def __init__(self, ctx: AppContext, commander: Commander, *, clock: Callable[[], datetime] = utcnow):
        self.ctx = ctx
        self.commander = commander
        self.clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the loop."""
        self._task = asyncio.create_task(self._run(), name="load-actions")

    async def stop(self) -> None:
        """Stop the loop."""
        await stop_tasks([self._task] if self._task is not None else [])

    def wake(self) -> None:
        """Send what is pending now (a batch wrote trips)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.round()
            except Exception:
                log.exception("load action round failed; the next round tries again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), WAKE_SECONDS)

    async def round(self, now: datetime | None = None) -> int:
        """One pass: give up on lost sends, send the pending trips, then the due re-closes."""
        now = now or self.clock()
        await self.recover(now)
        return await self.send_trips(now) + await self.send_recloses(now)

    async def recover(self, now: datetime) -> None:
        """Sends a stopped process left ``sending`` are marked failed, never sent again."""
        async with self.ctx.sessions() as session:
            stale = LoadEvent.claim_time < now - STALE
            await session.execute(
                update(LoadEvent)
                .where(LoadEvent.trip_state == "sending", stale)
                .values(trip_state="failed", trip_reason=LOST)
            )
            await session.execute(
                update(LoadEvent)
                .where(LoadEvent.reclose_state == "sending", stale)
                .values(reclose_state="failed", trip_reason=LOST)
            )
            await session.commit()

    async def _claim(self, column: str, sysno: int, now: datetime) -> bool:
        state = getattr(LoadEvent, column)
        async with self.ctx.sessions() as session:
            claimed = await session.execute(
                update(LoadEvent)
                .where(LoadEvent.sysno == sysno, state == "pending")
                .values({column: "sending", "claim_time": now})
            )
            await session.commit()
        return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]

    async def send_trips(self, now: datetime) -> int:
        """Send every pending trip once."""
        async with self.ctx.sessions() as session:
            pending = (
                await session.scalars(
                    select(LoadEvent.sysno).where(LoadEvent.trip_state == "pending").order_by(LoadEvent.sysno)
                )
            ).all()
        sent = 0
        for sysno in pending:
            if not await self._claim("trip_state", sysno, now):
                continue  # another process took it
            outcome: Outcome | str | None
            try:
                outcome = await self._send(sysno, "switch_off", TRIP_OPERATOR)
            except MovedAway:
                outcome = MOVED
            async with self.ctx.sessions() as session:
                await self._tripped(session, sysno, outcome, now)
                await session.commit()
            sent += 1
        return sent

    async def _send(self, sysno: int, action: str, operator: str) -> Outcome | None:
        """Send ``action`` to the event's device; None when it was deleted, MovedAway when it moved."""
        async with self.ctx.sessions() as session:
            row = await session.get(LoadEvent, sysno)
            target = await _target(session, row.device_sysno) if row is not None else None
        if row is None or target is None:
            return None
        if not _in_place(target, row):
            raise MovedAway
        origin = Origin(customer_sysno=None, source="load", operator=operator)
        return (await self.commander.execute(targets=[target], action=action, params=None, origin=origin))[0]

    async def _tripped(
        self, session: AsyncSession, sysno: int, outcome: Outcome | str | None, now: datetime
    ) -> None:
        row = await session.get(LoadEvent, sysno)
        if row is None:
            return
        row.trip_time = now
        if outcome is None or isinstance(outcome, str):
            row.trip_state, row.trip_reason = "failed", outcome or "设备已删除"
            return
        row.command_sysno = outcome.command_sysno
        if outcome.status != "succeeded":
            row.trip_state = "offline" if outcome.status == "offline" else "failed"
            row.trip_reason = (outcome.reason or outcome.status)[:255]
            return
        row.trip_state, row.trip_reason = "done", None
        if row.alarm_sysno is not None:
            await session.execute(
                update(Alarm)
                .where(Alarm.sysno == row.alarm_sysno, Alarm.end_time.is_(None))
                .values(end_time=now)
            )
        rules = await _rules(session, row)
        used = await recloses_today(session, row.device_sysno, now)
        if rules.recloses and used < rules.max_reclose:
            row.reclose_state = "pending"
            row.reclose_at = now + timedelta(minutes=rules.reclose_minutes)
        else:
            row.reclose_state = "locked"

    async def send_recloses(self, now: datetime) -> int:
        """Close the breakers whose re-close is due (unless they are on already)."""
        async with self.ctx.sessions() as session:
            due = (
                await session.scalars(
                    select(LoadEvent.sysno)
                    .where(LoadEvent.reclose_state == "pending", LoadEvent.reclose_at <= now)
                    .order_by(LoadEvent.reclose_at)
                )
            ).all()
        sent = 0
        for sysno in due:
            if not await self._claim("reclose_state", sysno, now):
                continue
            async with self.ctx.sessions() as session:
                row = await session.get(LoadEvent, sysno)
                state = (
                    await session.scalar(select(Device.switch_state).where(Device.sysno == row.device_sysno))
                    if row
                    else None
                )
                if row is not None and state == 1:
                    row.reclose_state = "skipped"  # closed by hand meanwhile
                    await session.commit()
                    continue
                # The policy as it reads now: who turned automatic re-close off since the trip (a room
                # that keeps tripping) wants the breaker to stay off until someone unlocks it.
                if row is not None and not (await _rules(session, row)).recloses:
                    row.reclose_state = "locked"
                    await session.commit()
                    continue
            try:
                outcome = await self._send(sysno, "switch_on", RECLOSE_OPERATOR)
            except MovedAway:  # the breaker is now another project's, maybe another customer's
                async with self.ctx.sessions() as session:
                    await session.execute(
                        update(LoadEvent)
                        .where(LoadEvent.sysno == sysno)
                        .values(reclose_state="moved", trip_reason=MOVED)
                    )
                    await session.commit()
                continue
            async with self.ctx.sessions() as session:
                row = await session.get(LoadEvent, sysno)
                if row is not None:
                    good = outcome is not None and outcome.status == "succeeded"
                    row.reclose_state = "done" if good else "failed"
                    row.reclose_command_sysno = outcome.command_sysno if outcome else None
                    if not good:
                        row.trip_reason = ((outcome.reason or outcome.status) if outcome else "设备已删除")[
                            :255
                        ]
                await session.commit()
            sent += 1
        return sent


async def _rules(session: AsyncSession, row: LoadEvent) -> policy.Rules:
    """The rules in force now where the event happened."""
    place = (row.project_sysno, row.building_sysno)
    return (await policy.rules_for(session, [place]))[place]


async def recloses_today(session: AsyncSession, device_sysno: int, now: datetime) -> int:
    """Automatic re-closes of a device's trips since local midnight (pending ones included)."""
    local = now.astimezone(CUSTOMER_TZ)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return int(
        await session.scalar(
            select(func.count())
            .select_from(LoadEvent)
            .where(
                LoadEvent.device_sysno == device_sysno,
                LoadEvent.reclose_state.in_(RECLOSES),
                LoadEvent.trip_time >= midnight,
            )
        )
        or 0
    )


async def _target(session: AsyncSession, device_sysno: int) -> Target | None:
    found = (
        await session.execute(
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
            .where(Device.sysno == device_sysno)
        )
    ).first()
    if found is None:
        return None
    return Target(
        device_sysno=found[0],
        device_id=found[1],
        name=found[2],
        project_sysno=found[3],
        gateway_sysno=found[4],
        gateway_sn=found[5],
        device_online=bool(found[6]),
        gateway_online=bool(found[7]),
    )


def _in_place(target: Target, row: LoadEvent) -> bool:
    """Whether the event's device is still in the event's project, on the event's gateway."""
    return (target.project_sysno, target.gateway_sysno) == (row.project_sysno, row.gateway_sysno)


async def unlock(
    *, session: AsyncSession, commander: Commander, customer: Customer, sysno: int, ip: str
) -> UnlockResult:
    """Close a breaker a trip left locked (someone with control of the project)."""
    row = await session.scalar(
        select(LoadEvent).where(
            LoadEvent.sysno == sysno,
            sees(customer.sysno, project=LoadEvent.project_sysno, building=LoadEvent.building_sysno),
        )
    )
    if row is None:
        raise NotFound("负荷事件")
    if row.reclose_state not in ("locked", "failed"):
        raise ApiError("该事件的断路器不在锁定状态，无需解锁")
    targets = await load_targets(session=session, customer=customer, device_sysnos=[row.device_sysno])
    if not targets:
        raise ApiError("没有该设备的控制权限")
    if not _in_place(targets[0], row):
        raise ApiError("该设备已移出此事件所在的项目或网关，请在其现所在项目中操作")
    await session.commit()  # the command path writes in sessions of its own
    outcome = (
        await commander.execute(
            targets=targets,
            action="switch_on",
            params=None,
            origin=Origin(customer_sysno=customer.sysno, source="load", operator=person(customer)),
        )
    )[0]
    good = outcome.status == "succeeded"
    row = await session.get(LoadEvent, sysno)
    if row is not None and good:
        row.reclose_state, row.reclose_command_sysno = "unlocked", outcome.command_sysno
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.LOAD_IDENT,
        detail=f"解锁合闸 {targets[0].name}（网关 {targets[0].gateway_sn}）："
        + ("成功" if good else f"失败，{outcome.reason or outcome.status}"),
        ip=ip,
        success=good,
    )
    if not good:
        await session.commit()
        raise ApiError(f"合闸失败：{outcome.reason or '网关未应答'}")
    return UnlockResult(status=outcome.status, command_sysno=outcome.command_sysno)
