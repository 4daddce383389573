"""Timed control: tasks that switch devices at times of day on chosen weekdays, or once."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.control import history
from powerportal.control.groups import (
    briefs_by_owner,
    checked_devices,
    hold_controls,
    members_of,
    with_members,
)
from powerportal.control.models import ControlRun, TimedTask, TimedTaskDevice, TimedTaskPeriod
from powerportal.control.schemas import TaskCreate, TaskEnable, TaskQuery, TaskUpdate, TaskWrite
from powerportal.core.context import AppContext
from powerportal.core.database import joined_text
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.logs import recording as logs

# Vendor platforms offer at most this many switching times per device and day.
MAX_PERIODS_PER_DEVICE_DAY = 8
WEEKDAY_NAMES = "一二三四五六日"


@dataclass(frozen=True, slots=True)
class Schedule:
    """When a task runs: weekly at ``times`` on ``weekdays`` (bit 0 Monday), or once at ``run_at``."""

    repeat: str
    weekdays: int
    times: tuple[str, ...]
    run_at: datetime | None
    timezone: str

    def occurrences(self, after: datetime, until: datetime) -> list[datetime]:
        """Run instants (UTC) in ``(after, until]``, oldest first."""
        if self.repeat == "once":
            return [self.run_at] if self.run_at is not None and after < self.run_at <= until else []
        zone = _zone(self.timezone)
        found = []
        day = after.astimezone(zone).date()
        last = until.astimezone(zone).date()
        while day <= last:
            if self.weekdays & (1 << day.weekday()):
                for text in self.times:
                    hour, minute = (int(p) for p in text.split(":"))
                    at = datetime.combine(day, time(hour, minute), tzinfo=zone).astimezone(UTC)
                    if after < at <= until:
                        found.append(at)
            day += timedelta(days=1)
        return sorted(found)

    def next_after(self, instant: datetime) -> datetime | None:
        """The first run after ``instant``, if any."""
        if self.repeat == "once":
            return self.run_at if self.run_at is not None and self.run_at > instant else None
        # Day by day, stopping at the first run (every list row shows one per task).
        zone = _zone(self.timezone)
        day = instant.astimezone(zone).date()
        for _ in range(9):
            if self.weekdays & (1 << day.weekday()):
                for text in sorted(self.times):
                    hour, minute = (int(p) for p in text.split(":"))
                    at = datetime.combine(day, time(hour, minute), tzinfo=zone).astimezone(UTC)
                    if at > instant:
                        return at
            day += timedelta(days=1)
        return None


def schedule_of(task: TimedTask, times: Sequence[str]) -> Schedule:
    """The schedule of a task row."""
    return Schedule(
        repeat=task.repeat,
        weekdays=task.weekdays,
        times=tuple(times),
        run_at=task.run_at,
        timezone=task.timezone,
    )


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ApiError(f"时区 {name} 不正确，请使用如 Asia/Shanghai 的时区名") from exc


def _validated(body: TaskWrite, now: datetime) -> tuple[int, datetime | None]:
    """The weekday mask and one-off instant of a task form, or the rule it breaks."""
    zone = _zone(body.timezone)
    if body.repeat == "weekly":
        if not body.weekdays:
            raise ApiError("请选择至少一个星期几")
        if not body.times:
            raise ApiError("请添加至少一个执行时间")
        return sum(1 << (d - 1) for d in body.weekdays), None
    if not body.run_at:
        raise ApiError("单次任务需要填写执行日期和时间")
    text = body.run_at if len(body.run_at) == 19 else body.run_at + ":00"
    try:
        run_at = datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone).astimezone(UTC)
    except ValueError as exc:
        raise ApiError("执行时间格式不正确，应为 YYYY-MM-DD HH:mm") from exc
    except OverflowError as exc:  # 9999-12-31 west of Greenwich, 0001-01-01 east of it: no UTC instant
        raise ApiError("执行时间超出可设置的范围，请选择近期的日期") from exc
    if run_at <= now:
        raise ApiError("执行时间已过，请选择将来的时间")
    return 0, run_at


async def _check_period_limit(
    *,
    session: AsyncSession,
    customer: Customer,
    devices: list[int],
    schedule: Schedule,
    ignore_task: int | None,
) -> None:
    """Refuse a task that would give a device more than eight switching times on some day."""
    rows = await session.execute(
        select(TimedTask, TimedTaskDevice.device_sysno)
        .join(TimedTaskDevice, TimedTaskDevice.task_sysno == TimedTask.sysno)
        .where(
            TimedTask.customer_sysno == customer.sysno,
            TimedTask.enabled.is_(True),
            TimedTask.sysno != (ignore_task or 0),
            TimedTaskDevice.device_sysno.in_(devices),
        )
    )
    pairs = list(rows)
    times = await _times(session, list({t.sysno for t, _ in pairs}))
    weekly: dict[int, list[int]] = defaultdict(lambda: [0] * 7)
    once: dict[int, dict[date, int]] = defaultdict(lambda: defaultdict(int))

    def add(device: int, sched: Schedule, count: int) -> None:
        if sched.repeat == "weekly":
            for day in range(7):
                if sched.weekdays & (1 << day):
                    weekly[device][day] += count
        elif sched.run_at is not None:
            once[device][sched.run_at.astimezone(_zone(sched.timezone)).date()] += 1

    for task, device in pairs:
        sched = schedule_of(task, times.get(task.sysno, []))
        add(device, sched, len(sched.times))
    for device in devices:
        add(device, schedule, len(schedule.times))
    for device in devices:
        for day in range(7):
            if weekly[device][day] > MAX_PERIODS_PER_DEVICE_DAY:
                raise ApiError(_too_many(device, f"每周{WEEKDAY_NAMES[day]}", weekly[device][day]))
        for on, count in once[device].items():
            total = count + weekly[device][on.weekday()]
            if total > MAX_PERIODS_PER_DEVICE_DAY:
                raise ApiError(_too_many(device, on.isoformat(), total))


def _too_many(device: int, day: str, count: int) -> str:
    return (
        f"设备（编号 {device}）在{day}将有 {count} 个定时时段，"
        f"每个设备每天最多 {MAX_PERIODS_PER_DEVICE_DAY} 个，请减少时段或停用其他任务"
    )


async def _times(session: AsyncSession, task_sysnos: Sequence[int]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = defaultdict(list)
    if not task_sysnos:
        return found
    rows = await session.execute(
        select(TimedTaskPeriod.task_sysno, TimedTaskPeriod.time_of_day)
        .where(TimedTaskPeriod.task_sysno.in_(list(task_sysnos)))
        .order_by(TimedTaskPeriod.time_of_day)
    )
    for sysno, text in rows:
        found[sysno].append(text)
    return found


async def _devices(session: AsyncSession, task_sysnos: Sequence[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = defaultdict(list)
    rows = await session.execute(
        select(TimedTaskDevice.task_sysno, TimedTaskDevice.device_sysno)
        .where(TimedTaskDevice.task_sysno.in_(list(task_sysnos)))
        .order_by(TimedTaskDevice.sysno)
    )
    for sysno, device in rows:
        found[sysno].append(device)
    return found


async def _task(session: AsyncSession, customer: Customer, sysno: int) -> TimedTask:
    """One of the customer's tasks, to change (read under ``hold_controls``)."""
    await hold_controls(session, customer)
    task = await session.scalar(
        select(TimedTask).where(TimedTask.sysno == sysno, TimedTask.customer_sysno == customer.sysno)
    )
    if task is None:
        raise NotFound("定时任务")
    return task


TASKS = Listing(
    select(
        TimedTask.sysno,
        TimedTask.name,
        TimedTask.action,
        TimedTask.repeat,
        TimedTask.weekdays,
        TimedTask.run_at,
        TimedTask.timezone,
        TimedTask.enabled,
        TimedTask.remark,
        TimedTask.active_since,
        TimedTask.create_time,
        TimedTask.update_time,
        select(joined_text(TimedTaskPeriod.time_of_day))
        .where(TimedTaskPeriod.task_sysno == TimedTask.sysno)
        .correlate(TimedTask)
        .scalar_subquery(),
    ),
    filters={
        "customer": lambda p: TimedTask.customer_sysno == p,
        "sysno": lambda p: TimedTask.sysno == p,
        "name": Keyword(TimedTask.name),
        "enabled": lambda p: TimedTask.enabled == p,
    },
    orders={"create_time": TimedTask.create_time, "name": TimedTask.name},
    default_order="create_time",
    tie=TimedTask.sysno,
    page_only=with_members(
        TimedTaskDevice.task_sysno,
        TimedTaskDevice.device_sysno,
        history.with_last_run(ControlRun.task_sysno, history.LAST_RUN.scheduled_for, history.LAST_RUN.status),
    ),
)
_MEMBERS = members_of(TimedTaskDevice.task_sysno, TimedTaskDevice.device_sysno)


def _task_row(row: Row) -> dict[str, Any]:
    """One task in the shape of ``TaskRow``: its schedule, device count, next and last run."""
    sysno, name, action, repeat, weekdays, run_at, timezone, enabled, remark, active_since = row[:10]
    created, updated, times, last_at, last_status, device_count = row[10:16]
    sorted_times = _sorted_times(times)
    next_run = (
        _next_run(repeat, weekdays, sorted_times, run_at, timezone, max(utcnow(), active_since))
        if enabled
        else None
    )
    return {
        "sysno": sysno,
        "name": name,
        "action": action,
        "action_name": history.ACTION_NAMES.get(action, action),
        "repeat": repeat,
        "weekdays": list(_weekday_numbers(weekdays)),
        "times": list(sorted_times),
        "run_at": _local(run_at, timezone),
        "timezone": timezone,
        "enabled": int(enabled),
        "remark": remark,
        "device_count": device_count or 0,
        "next_run": _local(next_run, timezone),
        "last_run": _local(last_at, timezone),
        "last_run_status": history.RUN_STATUS_NAMES.get(last_status) if last_status else None,
        "create_time": to_display(created),
        "update_time": to_display(updated),
    }


@lru_cache(maxsize=1024)
def _sorted_times(joined: str | None) -> tuple[str, ...]:
    return tuple(sorted(joined.split(","))) if joined else ()


@lru_cache(maxsize=128)
def _weekday_numbers(weekdays: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in range(7) if weekdays & (1 << d))


# A weekly schedule's next run after the start of a minute, by schedule and minute (lists ask it for
# every row of every page; working it out walks days in the task's zone, ~4 µs).
_NEXT_RUNS: dict[tuple[Any, ...], datetime | None] = {}
MAX_NEXT_RUNS = 4096


def _next_run(
    repeat: str,
    weekdays: int,
    times: tuple[str, ...],
    run_at: datetime | None,
    timezone: str,
    after: datetime,
) -> datetime | None:
    """``Schedule.next_after(after)``, remembered per minute for weekly schedules.

    Runs fall on whole minutes, so the first run after the minute's start is also the first after
    any instant within that minute, as long as it lies beyond that instant; else it is worked out.
    """
    if repeat != "weekly":
        return Schedule(repeat, weekdays, times, run_at, timezone).next_after(after)
    key = (
        weekdays,
        times,
        timezone,
        after.year,
        after.month,
        after.day,
        after.hour,
        after.minute,
        after.tzinfo,
    )
    found = _NEXT_RUNS.get(key)
    if found is None:
        minute = datetime(*key[3:8], tzinfo=after.tzinfo)
        found = Schedule(repeat, weekdays, times, run_at, timezone).next_after(minute)
        if len(_NEXT_RUNS) >= MAX_NEXT_RUNS:
            _NEXT_RUNS.clear()
        _NEXT_RUNS[key] = found
    if found is None or found <= after:
        return Schedule(repeat, weekdays, times, run_at, timezone).next_after(after)
    return found


@lru_cache(maxsize=4096)
def _local(instant: datetime | None, zone: str) -> str | None:
    """An instant as the task's own time zone reads it (lists show the same instants again and again)."""
    if instant is None:
        return None
    try:
        tz: Any = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return to_display(instant)
    return instant.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")


def _task_values(customer: Customer, query: TaskQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "name": query.name,
        "enabled": None if query.enabled is None else bool(query.enabled),
    }


async def list_tasks(*, ctx: AppContext, customer: Customer, query: TaskQuery) -> PageData:
    """The caller's timed tasks with their device count and next run."""
    return await TASKS.page(ctx, query=query, values=_task_values(customer, query), render=_task_row)


ENABLED_NAMES = {0: "已停用", 1: "已启用"}


def _schedule_text(task: dict[str, Any]) -> str:
    """The schedule as the task list shows it: 单次 2026-12-01 23:00, 每周一、周三 23:00、06:00."""
    if task["repeat"] == "once":
        return f"单次 {(task['run_at'] or '')[:16]}"
    weekdays: list[int] = task["weekdays"]
    days = "天" if len(weekdays) == 7 else "、".join(f"周{WEEKDAY_NAMES[d - 1]}" for d in weekdays)
    return f"每{days} {'、'.join(task['times'])}"


TASK_COLUMNS = (
    Column("任务名称", "name", 20),
    Column("动作", "action_name", 8),
    Column("状态", lambda t: ENABLED_NAMES[t["enabled"]], 8),
    Column("执行计划", _schedule_text, 30),
    Column("设备数", "device_count", 8, "number"),
    Column("下次执行", "next_run", 20),
    Column(
        "上次执行",
        lambda t: f"{t['last_run']}（{t['last_run_status'] or ''}）" if t["last_run"] else None,
        28,
    ),
    Column("时区", "timezone", 16),
    Column("备注", "remark", 24),
    Column("创建时间", "create_time", 20),
)


async def export_tasks(*, ctx: AppContext, customer: Customer, query: TaskQuery) -> tuple[Path, str]:
    """Every timed task of the caller's the filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("任务名称", query.name),
        ("状态", ENABLED_NAMES.get(query.enabled) if query.enabled is not None else None),
    )
    return await export_list(
        ctx,
        name="定时任务",
        listing=TASKS,
        query=query,
        values=_task_values(customer, query),
        columns=TASK_COLUMNS,
        filters=filters,
        render=_task_row,
    )


async def get_task(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One of the caller's tasks with its devices (read in the caller's session)."""
    row = await TASKS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("定时任务")
    devices = await briefs_by_owner(session, customer.sysno, _MEMBERS, [sysno])
    return {**_task_row(row), "devices": devices.get(sysno, [])}


async def _write(
    session: AsyncSession, customer: Customer, task: TimedTask | None, body: TaskWrite
) -> TimedTask:
    now = utcnow()
    weekdays, run_at = _validated(body, now)
    devices = await checked_devices(session=session, customer=customer, device_sysnos=body.device_sysnos)
    times = tuple(body.times) if body.repeat == "weekly" else ()
    schedule = Schedule(
        repeat=body.repeat, weekdays=weekdays, times=times, run_at=run_at, timezone=body.timezone
    )
    if body.enabled:
        await _check_period_limit(
            session=session,
            customer=customer,
            devices=devices,
            schedule=schedule,
            ignore_task=task.sysno if task else None,
        )
    if task is None:
        task = TimedTask(customer_sysno=customer.sysno, create_time=now)
        session.add(task)
    task.name, task.action, task.repeat = body.name, body.action, body.repeat
    task.weekdays, task.run_at, task.timezone = weekdays, run_at, body.timezone
    task.enabled, task.remark = body.enabled, body.remark
    task.active_since, task.update_time = now, now
    await session.flush()
    await session.execute(delete(TimedTaskPeriod).where(TimedTaskPeriod.task_sysno == task.sysno))
    await session.execute(delete(TimedTaskDevice).where(TimedTaskDevice.task_sysno == task.sysno))
    session.add_all(TimedTaskPeriod(task_sysno=task.sysno, time_of_day=t) for t in times)
    session.add_all(TimedTaskDevice(task_sysno=task.sysno, device_sysno=d) for d in devices)
    await session.flush()
    return task


def _describe(task: TimedTask, body: TaskWrite) -> str:
    if body.repeat == "weekly":
        days = "、".join(f"周{WEEKDAY_NAMES[d - 1]}" for d in body.weekdays)
        when = f"每{days} {'、'.join(body.times)}"
    else:
        when = f"{body.run_at}"
    action = history.ACTION_NAMES[body.action]
    return f"“{task.name}”：{when} {action}，{len(body.device_sysnos)} 个设备"


async def create_task(
    *, session: AsyncSession, customer: Customer, body: TaskCreate, ip: str
) -> dict[str, Any]:
    """Create a timed task."""
    await hold_controls(session, customer)
    task = await _write(session, customer, None, body)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.TIMED_TASK,
        detail=f"新建定时任务{_describe(task, body)}",
        ip=ip,
    )
    return await get_task(session=session, customer=customer, sysno=task.sysno)


async def update_task(
    *, session: AsyncSession, customer: Customer, body: TaskUpdate, ip: str
) -> dict[str, Any]:
    """Replace a timed task; occurrences before the edit are not run."""
    task = await _write(session, customer, await _task(session, customer, body.sysno), body)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.TIMED_TASK,
        detail=f"修改定时任务{_describe(task, body)}",
        ip=ip,
    )
    return await get_task(session=session, customer=customer, sysno=task.sysno)


async def enable_task(
    *, session: AsyncSession, customer: Customer, body: TaskEnable, ip: str
) -> dict[str, Any]:
    """Enable or disable a task; enabling does not run what fell due while it was off."""
    task = await _task(session, customer, body.sysno)
    if body.enabled and not task.enabled:
        times = (await _times(session, [task.sysno])).get(task.sysno, [])
        devices = (await _devices(session, [task.sysno])).get(task.sysno, [])
        await _check_period_limit(
            session=session,
            customer=customer,
            devices=devices,
            schedule=schedule_of(task, times),
            ignore_task=task.sysno,
        )
        task.active_since = utcnow()
    task.enabled = body.enabled
    task.update_time = utcnow()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.TIMED_TASK,
        detail=f"{'启用' if body.enabled else '停用'}定时任务“{task.name}”",
        ip=ip,
    )
    await session.flush()
    return await get_task(session=session, customer=customer, sysno=task.sysno)


async def delete_task(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """Delete a task and its run history (its commands stay in the command log)."""
    task = await _task(session, customer, sysno)
    await session.delete(task)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.TIMED_TASK,
        detail=f"删除定时任务“{task.name}”",
        ip=ip,
    )
