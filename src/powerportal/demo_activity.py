"""A month of use for the demo account, so that a first start looks like a site a month into service.

Written once, on a fresh install (when the demo breakers are created), before the server answers:
thresholds on every breaker, device groups, timed tasks (the dormitories' lights off at 23:00), a
month of alarms (most processed, with remarks) and offline spells, the commands of a week of timed
runs, group switchings and hand-sent commands, and the operation log those actions leave.

Everything goes through the product's own code: ``devices``, ``control`` (groups, timed tasks, the
scheduler and the commander), ``alarms`` (the alarm engine judging readings, device events and offline
transitions; processing; notices), ``telemetry`` (offline spells and the status log, as the ingest
writes them) and ``logs``. A gateway answers the commands at once, as the simulator would. Each
action runs "as of" its moment in the past month: the rows it writes are dated then (``Timeline``).
"""

from __future__ import annotations

import logging
import random
import time
from bisect import bisect_right
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal import demo_history
from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.alarms import service as alarms
from powerportal.alarms.engine import AlarmEngine, AlarmEngineConfig
from powerportal.alarms.models import Alarm, CustomerNotice
from powerportal.control import groups, timed
from powerportal.control.commands import Commander, send_command
from powerportal.control.models import Command, ControlRun, DeviceGroup, TimedTask, TimedTaskPeriod
from powerportal.control.scheduler import Scheduler
from powerportal.control.schemas import CommandSend, GroupCreate, GroupSwitch, TaskCreate
from powerportal.core.context import AppContext
from powerportal.core.database import Base
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.devices import service as devices
from powerportal.devices.models import Device
from powerportal.devices.schemas import DeviceUpdate
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.logs.models import OperationLog
from powerportal.mqtt import codec
from powerportal.mqtt.rpc import RpcClient
from powerportal.simulator import SimGateway
from powerportal.telemetry import service as telemetry
from powerportal.telemetry.ingest import OFFLINE_DETAIL, BatchReport, DeviceEvent, Transition

log = logging.getLogger("powerportal.demo")

DAYS = 30
# Timed runs are replayed for the last week (each is a run with its commands, as the scheduler made it).
RUN_DAYS = 7
# Where the demo customer signs in from (documentation addresses, RFC 5737).
OFFICE_IP = "203.0.113.24"
PHONE_IP = "198.51.100.7"

DORM_THRESHOLDS = {
    "over_voltage": 242.0,
    "under_voltage": 198.0,
    "leakage_limit": 30.0,
    "temperature_limit": 70.0,
}
# Each kind of breaker: over-current at its rating, and a power limit for the dormitories' rooms (no
# kettles or heaters over 6 kW) and the office circuits.
POWER_LIMITS = {"dorm": 6000.0, "office": 8000.0}
INCOMER_LEAKAGE = 300.0

REMARKS = {
    "over_power": (
        "宿管现场检查，学生使用违规电器（电热锅），已没收并教育",
        "现场查实使用大功率吹风机，已提醒",
        "学生宿舍违规使用电暖器，已收缴，通报辅导员",
    ),
    "over_current": ("插线板串接过多电器，已拆除", "空调与热水器同时启动，已错峰使用"),
    "over_temperature": ("空调回路接线端子松动发热，电工已紧固", "机房空调故障导致温度升高，已报修并恢复"),
    "leakage": ("饮水机加热管老化漏电，已更换", "雨后插座受潮，已烘干并加装防水盒"),
    "under_voltage": ("供电局线路检修造成电压偏低，已恢复",),
    "over_voltage": ("夜间轻载电压偏高，已联系供电所调整变压器分接头",),
    "short_circuit": ("电热水壶内部短路，已报废",),
    "arc_fault": ("插座接触不良产生电弧，已更换插座",),
    "device_fault": ("断路器自检异常，厂家远程复位后恢复",),
    "offline": ("配电箱停电检修，已恢复送电", "网关网线松动，已重新插好"),
    "offline_device": ("断路器通讯线松动，已重新接好", "断路器通讯模块重启后恢复"),
}


@dataclass(frozen=True)
class Breaker:
    """A demo breaker as the seed needs it."""

    sysno: int
    device_id: str
    name: str
    gateway_sysno: int
    gateway_sn: str
    project_sysno: int
    profile: str
    incomer: bool
    rated_current: float


class Timeline:
    """Dates what the month's actions write: each runs now, and its rows move back to its moment."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        # (began, ended, shift) of each action, in the order they ran (never overlapping).
        self.spans: list[tuple[datetime, datetime, timedelta]] = []

    @asynccontextmanager
    async def at(self, moment: datetime) -> AsyncIterator[None]:
        """Run a block as of ``moment``: every time it writes by the clock is moved there (by ``settle``)."""
        began = utcnow()
        yield
        self.spans.append((began, utcnow(), moment - began))

    async def settle(self) -> None:
        """Move the times written so far to the moments of the actions that wrote them."""
        if not self.spans:
            return
        first, last = self.spans[0][0], self.spans[-1][1]
        starts = [span[0] for span in self.spans]
        async with self.ctx.sessions() as session:
            for model, columns in _DATED:
                attributes = [getattr(model, c) for c in columns]
                rows = await session.scalars(
                    select(model).where(or_(*(a.between(first, last) for a in attributes)))
                )
                for row in rows:
                    for name in columns:
                        value = getattr(row, name)
                        if value is None or not first <= value <= last:
                            continue
                        began, ended, shift = self.spans[bisect_right(starts, value) - 1]
                        if began <= value <= ended:
                            setattr(row, name, value + shift)
            await session.commit()
        self.spans.clear()


# The tables the month's actions write, and their time columns.
_DATED: tuple[tuple[type[Base], tuple[str, ...]], ...] = (
    (OperationLog, ("create_time",)),
    (Command, ("create_time", "sent_time", "answer_time")),
    (ControlRun, ("create_time", "start_time", "end_time")),
    (TimedTask, ("create_time", "update_time", "active_since")),
    (DeviceGroup, ("create_time", "update_time")),
    (Alarm, ("create_time", "process_time")),
    (CustomerNotice, ("create_time", "read_time")),
)


def _stopped(at: datetime) -> Callable[[], datetime]:
    """A clock standing at ``at``."""
    return lambda: at


def _answering_gateway() -> RpcClient:
    """Commands answered at once, as the demo's simulated gateways answer them (one in 40 busy)."""
    count = 0

    async def publish(topic: str, payload: bytes) -> None:
        nonlocal count
        if not topic.endswith(codec.RPC_REQUEST):
            return  # the ThingsBoard form of the request: the demo's gateways speak the native protocol
        count += 1
        request_id, _device_id, method, params = codec.decode_rpc_request(payload)
        sn = topic.split("/")[1]  # gateways/{sn}/rpc/request
        if count % 40 == 0:
            rpc.resolve(sn, codec.RpcResponse(id=request_id, ok=False, error="busy"))
        elif method == "switch":
            rpc.resolve(
                sn, codec.RpcResponse(id=request_id, ok=True, result={"switch": int(bool(params.get("on")))})
            )
        else:
            rpc.resolve(sn, codec.RpcResponse(id=request_id, ok=True, result={}))

    rpc = RpcClient(publish)
    return rpc


class Month:
    """The demo customer's past month, played forward through the product's services."""

    def __init__(self, ctx: AppContext, customer: Customer, breakers: list[Breaker], now: datetime) -> None:
        self.ctx = ctx
        self.customer = customer
        self.breakers = breakers
        self.now = now
        self.start = now - timedelta(days=DAYS)
        self.rng = random.Random(20_240_611)  # noqa: S311 - demo data, not secrets
        self.engine = AlarmEngine(
            AlarmEngineConfig(
                hysteresis=ctx.settings.alarm_hysteresis, min_seconds=ctx.settings.alarm_min_seconds
            )
        )
        self.commander = Commander(ctx, rpc=_answering_gateway())
        self.timeline = Timeline(ctx)
        self.step = timedelta(seconds=max(ctx.settings.alarm_min_seconds, 1.0) + 5)

    def local(self, days_ago: float, hour: int, minute: int = 0) -> datetime:
        """A local time of day ``days_ago`` days back (UTC)."""
        day = (self.now - timedelta(days=days_ago)).astimezone(CUSTOMER_TZ)
        return day.replace(
            hour=hour, minute=minute, second=self.rng.randint(0, 59), microsecond=0
        ).astimezone(UTC)

    def working_hours(self, at: datetime) -> datetime:
        """``at``, or the next morning when it falls at night (the customer deals with alarms by day)."""
        local = at.astimezone(CUSTOMER_TZ)
        if 8 <= local.hour < 22:
            return at
        morning = local.replace(hour=8, minute=self.rng.randint(5, 55))
        if local.hour >= 22:
            morning += timedelta(days=1)
        return morning.astimezone(UTC)

    async def answer_delays(self) -> None:
        """Commands took a gateway round trip over 4G to answer (the replay's gateway answers at once)."""
        async with self.ctx.sessions() as session:
            commands = await session.scalars(
                select(Command).where(
                    Command.project_sysno.in_({b.project_sysno for b in self.breakers}),
                    Command.sent_time.is_not(None),
                    Command.answer_time.is_not(None),
                )
            )
            for command in commands:
                assert command.sent_time is not None  # noqa: S101 - selected so
                command.answer_time = command.sent_time + timedelta(milliseconds=self.rng.randint(180, 950))
            await session.commit()

    def of(self, profile: str, *names: str) -> list[Breaker]:
        """Breakers of a profile (all but incomers), or those named."""
        return [
            b
            for b in self.breakers
            if b.profile == profile and not b.incomer and (not names or b.name in names)
        ]

    # -- set-up, the first days --------------------------------------------------------------------------

    async def login(self, at: datetime, how: str = "密码登录", ip: str = OFFICE_IP) -> None:
        """The customer signs in (the operation log entry a login leaves)."""
        async with self.timeline.at(at), self.ctx.sessions() as session:
            logs.record(
                session=session,
                customer_sysno=self.customer.sysno,
                operate_type=logs.OperateType.LOGIN,
                detail=f"{how}成功",
                ip=ip,
            )
            await session.commit()

    async def thresholds(self, at: datetime) -> None:
        """Every breaker's alarm thresholds, set on the first day."""
        async with self.timeline.at(at), self.ctx.sessions() as session:
            customer = await session.get(Customer, self.customer.sysno)
            assert customer is not None  # noqa: S101 - the demo account was just created
            for b in self.breakers:
                limits: dict[str, Any] = dict(DORM_THRESHOLDS)
                if b.incomer:
                    limits["leakage_limit"] = INCOMER_LEAKAGE
                else:
                    limits["power_limit"] = POWER_LIMITS[b.profile]
                body = DeviceUpdate(
                    sysno=b.sysno,
                    name=b.name,
                    rated_current=b.rated_current,
                    over_current=b.rated_current,
                    **limits,
                )
                await devices.update_device(session=session, customer=customer, body=body, ip=OFFICE_IP)
            await session.commit()

    async def groups(self, at: datetime) -> list[int]:
        """The device groups the customer switches together."""
        made = []
        plans = [
            (
                "1号宿舍楼全部房间",
                "熄灯检查时整栋断电",
                [b for b in self.of("dorm") if b.gateway_sn.endswith("1")],
            ),
            ("2号宿舍楼全部房间", None, [b for b in self.of("dorm") if b.gateway_sn.endswith("2")]),
            ("办公照明", "教学楼与A座的照明回路", self.of("office", "照明回路", "会议室")),
            ("空调回路", "夏季午休统一关闭", self.of("office", "空调回路", "新风机组")),
        ]
        for n, (name, remark, members) in enumerate(plans):
            async with self.timeline.at(at + timedelta(minutes=7 * n)), self.ctx.sessions() as session:
                customer = await session.get(Customer, self.customer.sysno)
                assert customer is not None  # noqa: S101
                body = GroupCreate(name=name, remark=remark, device_sysnos=[b.sysno for b in members])
                made.append(
                    int(
                        (
                            await groups.create_group(
                                session=session, customer=customer, body=body, ip=OFFICE_IP
                            )
                        )["sysno"]
                    )
                )
                await session.commit()
        return made

    async def tasks(self, at: datetime) -> None:
        """The timed tasks: the dormitories' lights out at 23:00 on school nights and on again at 06:30."""
        rooms = [b.sysno for b in self.of("dorm")]
        plans = [
            TaskCreate(
                name="宿舍熄灯",
                action="switch_off",
                repeat="weekly",
                weekdays=[7, 1, 2, 3, 4],
                times=["23:00"],
                device_sysnos=rooms,
                remark="周日至周四 23:00 宿舍房间断电",
            ),
            TaskCreate(
                name="宿舍早间来电",
                action="switch_on",
                repeat="weekly",
                weekdays=[1, 2, 3, 4, 5, 6, 7],
                times=["06:30"],
                device_sysnos=rooms,
            ),
            TaskCreate(
                name="办公楼下班关空调",
                action="switch_off",
                repeat="weekly",
                weekdays=[1, 2, 3, 4, 5],
                times=["19:00"],
                device_sysnos=[b.sysno for b in self.of("office", "空调回路", "新风机组")],
            ),
            TaskCreate(
                name="充电桩夜间断电",
                action="switch_off",
                repeat="weekly",
                weekdays=[1, 2, 3, 4, 5, 6, 7],
                times=["00:30"],
                device_sysnos=[b.sysno for b in self.of("office", "充电桩")],
                enabled=False,
                remark="试行中，暂停",
            ),
        ]
        for n, body in enumerate(plans):
            async with self.timeline.at(at + timedelta(minutes=5 * n)), self.ctx.sessions() as session:
                customer = await session.get(Customer, self.customer.sysno)
                assert customer is not None  # noqa: S101
                await timed.create_task(session=session, customer=customer, body=body, ip=OFFICE_IP)
                await session.commit()

    # -- the timed runs and commands ---------------------------------------------------------------------

    async def timed_runs(self) -> int:
        """Replay the scheduler over the last week: each occurrence a run, each device a command."""
        since = self.now - timedelta(days=RUN_DAYS)
        # Occurrences within the grace window are left to the live scheduler, which runs them late.
        grace = timedelta(seconds=self.ctx.settings.scheduler_grace_seconds)
        async with self.ctx.sessions() as session:
            # The scheduler runs occurrences from here on (earlier ones are before the replay, not skipped).
            await session.execute(update(TimedTask).values(active_since=since))
            tasks = list(await session.scalars(select(TimedTask).where(TimedTask.enabled.is_(True))))
            times: dict[int, list[str]] = {}
            for sysno, text in await session.execute(
                select(TimedTaskPeriod.task_sysno, TimedTaskPeriod.time_of_day)
            ):
                times.setdefault(sysno, []).append(text)
            await session.commit()
        due = sorted(
            {
                at
                for task in tasks
                for at in timed.schedule_of(task, times.get(task.sysno, [])).occurrences(
                    since, self.now - grace
                )
            }
        )
        for at in due:
            clock = at + timedelta(seconds=1)
            scheduler = Scheduler(self.commander, clock=_stopped(clock), name="demo")
            async with self.timeline.at(clock):
                await scheduler.tick()
                await scheduler.wait_idle()
        return len(due)

    async def command(self, at: datetime, device: Breaker, action: str) -> None:
        """A command the customer sends from the monitoring screen."""
        async with self.timeline.at(at), self.ctx.sessions() as session:
            customer = await session.get(Customer, self.customer.sysno)
            assert customer is not None  # noqa: S101
            body = CommandSend(device_sysno=device.sysno, action=action)  # type: ignore[arg-type]
            await send_command(
                commander=self.commander, session=session, customer=customer, body=body, ip=PHONE_IP
            )
            await session.commit()

    async def switch_group(self, at: datetime, group: int, action: str) -> None:
        """The customer switches a whole group."""
        async with self.timeline.at(at):
            async with self.ctx.sessions() as session:
                customer = await session.get(Customer, self.customer.sysno)
                assert customer is not None  # noqa: S101
                body = GroupSwitch(sysno=group, action=action)  # type: ignore[arg-type]
                await groups.switch_group(
                    commander=self.commander, session=session, customer=customer, body=body, ip=OFFICE_IP
                )
            await self.commander.wait_idle()

    # -- alarms and offline spells -----------------------------------------------------------------------

    async def _observe(self, at: datetime, report: BatchReport) -> None:
        async with self.timeline.at(at), self.ctx.sessions() as session:
            await self.engine.observe(session, report)
            await session.commit()

    async def beyond(
        self, b: Breaker, start: datetime, minutes: float, values: dict[str, float], calm: dict[str, float]
    ) -> None:
        """A value beyond a threshold for a while (the engine opens the alarm, then closes it)."""
        rows = [
            telemetry.reading_row(device_sysno=b.sysno, ts=start + self.step * i, values=values, extra={})
            for i in range(2)
        ]
        await self._observe(start, BatchReport(readings=rows, events=[], transitions=[]))
        end = start + timedelta(minutes=minutes)
        rows = [
            telemetry.reading_row(device_sysno=b.sysno, ts=end + self.step * i, values=calm, extra={})
            for i in range(2)
        ]
        await self._observe(end, BatchReport(readings=rows, events=[], transitions=[]))

    async def reported(
        self, b: Breaker, start: datetime, minutes: float, code: str, value: float | None = None
    ) -> None:
        """A fault the breaker itself reports, cleared later."""
        for kind, at in (("alarm", start), ("fault_cleared", start + timedelta(minutes=minutes))):
            event = codec.Event(
                device_id=b.device_id, ts=at, type=kind, code=code, value=value if kind == "alarm" else None
            )
            item = DeviceEvent(
                device_sysno=b.sysno,
                gateway_sysno=b.gateway_sysno,
                project_sysno=b.project_sysno,
                event=event,
            )
            await self._observe(at, BatchReport(readings=[], events=[item], transitions=[]))

    async def offline(
        self, b: Breaker | None, gateway: Breaker, start: datetime, minutes: float, reason: str
    ) -> None:
        """An offline spell of a gateway (``b`` None; its breakers go down with it) or of one breaker."""
        targets = (
            [b] if b is not None else [x for x in self.breakers if x.gateway_sysno == gateway.gateway_sysno]
        )
        end = start + timedelta(minutes=minutes)
        async with self.ctx.sessions() as session:
            gateway_name = (
                await session.scalar(select(Gateway.name).where(Gateway.sysno == gateway.gateway_sysno)) or ""
            )
            went: list[Transition] = []
            for t in targets:
                why = reason if b is not None else "gateway_offline"
                went.append(self._went(session, t, t.name, start, why))
            if b is None:
                went.append(self._went(session, None, gateway_name, start, reason, gateway=gateway))
            await session.flush()
            await session.commit()
        await self._observe(start, BatchReport(readings=[], events=[], transitions=went))
        back: list[Transition] = []
        async with self.ctx.sessions() as session:
            if b is None:
                back.append(await self._came(session, None, gateway_name, end, gateway=gateway))
            for t in targets:  # the breakers come back with their first readings, a tick later
                back.append(await self._came(session, t, t.name, end + timedelta(seconds=5)))
            await session.commit()
        await self._observe(end, BatchReport(readings=[], events=[], transitions=back))

    def _went(
        self,
        session: AsyncSession,
        b: Breaker | None,
        name: str,
        at: datetime,
        reason: str,
        gateway: Breaker | None = None,
    ) -> Transition:
        where = b or gateway
        assert where is not None  # noqa: S101
        device_sysno = b.sysno if b else None
        spell = telemetry.open_offline(
            session=session,
            project_sysno=where.project_sysno,
            gateway_sysno=where.gateway_sysno,
            device_sysno=device_sysno,
            target_name=name,
            reason=reason,
            at=at,
        )
        telemetry.status_log(
            session=session,
            project_sysno=where.project_sysno,
            gateway_sysno=where.gateway_sysno,
            device_sysno=device_sysno,
            target_name=name,
            status_type="offline",
            detail=OFFLINE_DETAIL[reason].format(target="设备" if b else "网关"),
            at=at,
        )
        return Transition(
            gateway_sysno=where.gateway_sysno,
            device_sysno=device_sysno,
            online=False,
            at=at,
            reason=reason,
            spell=spell,
        )

    async def _came(
        self,
        session: AsyncSession,
        b: Breaker | None,
        name: str,
        at: datetime,
        gateway: Breaker | None = None,
    ) -> Transition:
        where = b or gateway
        assert where is not None  # noqa: S101
        device_sysno = b.sysno if b else None
        await telemetry.close_offline(
            session=session, gateway_sysno=where.gateway_sysno, device_sysno=device_sysno, at=at
        )
        telemetry.status_log(
            session=session,
            project_sysno=where.project_sysno,
            gateway_sysno=where.gateway_sysno,
            device_sysno=device_sysno,
            target_name=name,
            status_type="online",
            detail="设备上线" if b else "网关上线",
            at=at,
        )
        return Transition(gateway_sysno=where.gateway_sysno, device_sysno=device_sysno, online=True, at=at)

    async def process(self, older_than: datetime) -> int:
        """The customer processes most alarms that ended before ``older_than``, each with a remark."""
        async with self.ctx.sessions() as session:
            rows = list(
                (
                    await session.execute(
                        select(Alarm.sysno, Alarm.alarm_type, Alarm.end_time, Alarm.device_sysno)
                        .where(
                            Alarm.project_sysno.in_({b.project_sysno for b in self.breakers}),
                            Alarm.end_time.is_not(None),
                            Alarm.end_time < older_than,
                        )
                        .order_by(Alarm.start_time)
                    )
                ).all()
            )
        done = 0
        for n, (sysno, alarm_type, ended, device_sysno) in enumerate(rows):
            end = ended or self.now
            if n % 5 == 4:  # one in five left for the customer to deal with
                continue
            kind = "offline_device" if alarm_type == "offline" and device_sysno is not None else alarm_type
            remark = self.rng.choice(REMARKS.get(kind, ("已现场检查，无异常",)))
            at = self.working_hours(end + timedelta(hours=self.rng.uniform(0.5, 6)))
            async with (
                self.timeline.at(min(at, self.now - timedelta(hours=1))),
                self.ctx.sessions() as session,
            ):
                customer = await session.get(Customer, self.customer.sysno)
                assert customer is not None  # noqa: S101
                done += await alarms.process_alarms(
                    session=session, customer=customer, sysnos=[sysno], remark=remark, ip=OFFICE_IP
                )
                await session.commit()
        return done

    async def read_notices(self, older_than: datetime) -> None:
        """Notices the customer's browser showed (all) and the ones they opened (all but the last days')."""
        async with self.ctx.sessions() as session:
            customer = await session.get(Customer, self.customer.sysno)
            assert customer is not None  # noqa: S101
            await notices.poll(session=session, customer=customer)
            old = list(
                await session.scalars(
                    select(CustomerNotice.sysno).where(
                        CustomerNotice.customer_sysno == customer.sysno,
                        CustomerNotice.is_read == 0,
                        CustomerNotice.create_time < older_than,
                    )
                )
            )
            await session.commit()
        if old:
            async with self.timeline.at(older_than), self.ctx.sessions() as session:
                customer = await session.get(Customer, self.customer.sysno)
                assert customer is not None  # noqa: S101
                await notices.mark_read(session=session, customer=customer, sysnos=old)
                await session.commit()


async def _breakers(session: AsyncSession, fleet_profiles: Mapping[str, str]) -> list[Breaker]:
    rows = await session.execute(
        select(Device, Gateway.sn)
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .where(Gateway.sn.in_(list(fleet_profiles)))
        .order_by(Gateway.sn, Device.sysno)
    )
    return [
        Breaker(
            sysno=d.sysno,
            device_id=d.device_id,
            name=d.name,
            gateway_sysno=d.gateway_sysno,
            gateway_sn=sn,
            project_sysno=d.project_sysno,
            profile=fleet_profiles[sn],
            incomer=d.device_id == "1",
            rated_current=float(d.rated_current or 32.0),
        )
        for d, sn in rows
    ]


@contextmanager
def _quiet(*names: str) -> Iterator[None]:
    """The month's hundreds of commands and runs are summed up in one line, not logged one by one."""
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@asynccontextmanager
async def _online(ctx: AppContext, gateway_sysnos: Sequence[int]) -> AsyncIterator[None]:
    """The demo's gateways and breakers were online through the month; afterwards as they are now."""
    async with ctx.sessions() as session:
        gateways_now = dict(
            (
                await session.execute(
                    select(Gateway.sysno, Gateway.online).where(Gateway.sysno.in_(gateway_sysnos))
                )
            )
            .tuples()
            .all()
        )
        devices_now = dict(
            (
                await session.execute(
                    select(Device.sysno, Device.online).where(Device.gateway_sysno.in_(gateway_sysnos))
                )
            )
            .tuples()
            .all()
        )
        await session.execute(update(Gateway).where(Gateway.sysno.in_(gateway_sysnos)).values(online=True))
        await session.execute(update(Device).where(Device.gateway_sysno.in_(gateway_sysnos)).values(online=1))
        await session.commit()
    try:
        yield
    finally:
        async with ctx.sessions() as session:
            for sysno, online in gateways_now.items():
                await session.execute(update(Gateway).where(Gateway.sysno == sysno).values(online=online))
            for sysno, state in devices_now.items():
                await session.execute(update(Device).where(Device.sysno == sysno).values(online=state))
            await session.commit()


async def seed(
    ctx: AppContext, customer: Customer, fleet: list[SimGateway], *, now: datetime | None = None
) -> bool:
    """Create the demo breakers, then play their past month once (none has thresholds yet)."""
    started = time.perf_counter()
    now = (now or utcnow()).replace(microsecond=0)
    profiles = {g.sn: g.devices[0].profile for g in fleet if g.devices}
    async with ctx.sessions() as session:
        await demo_history.ensure_devices(session, fleet)
        await session.commit()
        breakers = await _breakers(session, profiles)
        configured = await session.scalar(
            select(func.count())
            .select_from(Device)
            .where(Device.sysno.in_([b.sysno for b in breakers]), Device.over_current.is_not(None))
        )
    if not breakers or configured:
        return False
    with _quiet("powerportal.control", "powerportal.scheduler"):
        month = Month(ctx, customer, breakers, now)
        rng = month.rng
        by_name = {(b.gateway_sn, b.name): b for b in breakers}
        incomers = [b for b in breakers if b.incomer]

        await month.login(month.local(30, 9, 12))
        await month.thresholds(month.local(30, 9, 40))
        group_ids = await month.groups(month.local(30, 10, 30))
        await month.tasks(month.local(29, 16, 5))

        dorm_rooms = month.of("dorm")
        office = month.of("office")
        # Alarms across the month: forbidden appliances in the rooms at night, a hot air-conditioning
        # circuit, a leaking water dispenser, a sag and a swell on the incomers, faults the breakers report.
        for day in range(DAYS - 1, 0, -1):
            if day % 3 == 0:
                room = rng.choice(dorm_rooms)
                power = round(rng.uniform(6300, 7900), 1)
                await month.beyond(
                    room,
                    month.local(day, 21, rng.randint(0, 50)),
                    rng.uniform(3, 25),
                    {"active_power": power},
                    {"active_power": 900.0},
                )
            if day % 4 == 1:
                room = rng.choice(dorm_rooms)
                amps = round(room.rated_current * rng.uniform(1.08, 1.3), 2)
                await month.beyond(
                    room,
                    month.local(day, 22, rng.randint(0, 40)),
                    rng.uniform(2, 10),
                    {"current": amps},
                    {"current": 6.0},
                )
            if day % 5 == 2:
                circuit = rng.choice(month.of("office", "空调回路", "机房UPS"))
                await month.beyond(
                    circuit,
                    month.local(day, 14, rng.randint(0, 50)),
                    rng.uniform(15, 60),
                    {"temperature": round(rng.uniform(72, 86), 1)},
                    {"temperature": 45.0},
                )
            if day % 7 == 3:
                circuit = rng.choice(month.of("office", "饮水机", "茶水间"))
                await month.beyond(
                    circuit,
                    month.local(day, 9, rng.randint(0, 50)),
                    rng.uniform(5, 40),
                    {"leakage_current": round(rng.uniform(33, 58), 1)},
                    {"leakage_current": 3.0},
                )
            if day in (26, 12):
                main = rng.choice(incomers)
                sag = {f"voltage_{p}": round(rng.uniform(186, 196), 1) for p in "abc"}
                await month.beyond(
                    main,
                    month.local(day, 19, rng.randint(0, 50)),
                    rng.uniform(10, 40),
                    sag,
                    dict.fromkeys(sag, 220.0),
                )
            if day == 18:
                main = rng.choice(incomers)
                swell = {f"voltage_{p}": round(rng.uniform(244, 250), 1) for p in "abc"}
                await month.beyond(
                    main, month.local(day, 3, rng.randint(0, 50)), 35, swell, dict.fromkeys(swell, 226.0)
                )
        await month.reported(rng.choice(dorm_rooms), month.local(23, 22, 14), 1, "short_circuit")
        await month.reported(rng.choice(dorm_rooms), month.local(16, 20, 47), 2, "arc_fault")
        await month.reported(
            by_name.get(("DEMO-GW-0004", "充电桩"), office[0]), month.local(9, 11, 3), 30, "device_fault"
        )
        await month.reported(rng.choice(office), month.local(4, 15, 21), 3, "leakage", 41.0)

        # Offline spells: a gateway's network cut, a night's power work, breakers that stopped reporting.
        gateways_by_sn = {b.gateway_sn: b for b in incomers}
        await month.offline(None, gateways_by_sn["DEMO-GW-0003"], month.local(27, 10, 20), 18, "last_will")
        await month.offline(None, gateways_by_sn["DEMO-GW-0002"], month.local(20, 1, 5), 135, "silence")
        await month.offline(None, gateways_by_sn["DEMO-GW-0004"], month.local(11, 15, 40), 7, "last_will")
        await month.offline(None, gateways_by_sn["DEMO-GW-0001"], month.local(5, 2, 30), 46, "silence")
        for day, b in (
            (25, rng.choice(office)),
            (17, rng.choice(dorm_rooms)),
            (8, rng.choice(dorm_rooms)),
            (2, rng.choice(office)),
        ):
            await month.offline(
                b,
                gateways_by_sn[b.gateway_sn],
                month.local(day, rng.randint(8, 20), rng.randint(0, 59)),
                rng.uniform(6, 50),
                "no_data",
            )

        async with _online(ctx, sorted({b.gateway_sysno for b in breakers})):
            for day in range(DAYS - 2, 0, -1):  # the customer looks in most days, and acts now and then
                if day % 7 not in (5, 6):
                    await month.login(
                        month.local(day, 8, rng.randint(30, 59)), "短信登录" if day % 4 == 0 else "密码登录"
                    )
                if day % 6 == 1:
                    await month.login(month.local(day, 21, rng.randint(0, 59)), "免密链接登录", PHONE_IP)
                if day % 4 == 2:
                    b = rng.choice(dorm_rooms + office)
                    at = month.local(day, 10, rng.randint(0, 40))
                    await month.command(at, b, "switch_off")
                    await month.command(at + timedelta(minutes=rng.randint(3, 30)), b, "switch_on")
                if day % 9 == 3:
                    await month.command(
                        month.local(day, 11, rng.randint(0, 59)), rng.choice(incomers), "read_now"
                    )
            await month.switch_group(month.local(21, 12, 30), group_ids[3], "switch_off")
            await month.switch_group(month.local(21, 14, 0), group_ids[3], "switch_on")
            await month.switch_group(month.local(6, 23, 40), group_ids[0], "switch_off")
            await month.switch_group(month.local(5, 6, 50), group_ids[0], "switch_on")
            runs = await month.timed_runs()
        await month.timeline.settle()
        await month.answer_delays()
        processed = await month.process(now - timedelta(days=2))
        await month.timeline.settle()
        await month.read_notices(now - timedelta(days=3))
        await month.timeline.settle()
        log.info(
            "演示数据：一个月的使用记录（%d 次定时执行，%d 条告警已处理），%.1f 秒",
            runs,
            processed,
            time.perf_counter() - started,
        )
        return True
