"""The timed-task scheduler: runs each due occurrence exactly once, however many processes run it.

Every tick looks at the occurrences of the enabled tasks since the last day (never before a task
was created, edited or enabled). An occurrence is claimed by inserting its ``ControlRun`` under the
unique ``(task, scheduled_for)`` key: the insert that wins runs it, every other scheduler's insert
fails and moves on. This holds on SQLite and PostgreSQL alike, across processes and hosts, with no
leader to elect. An occurrence found more than the grace window late (the servers were down) is
claimed as ``skipped``, so the history shows what did not happen and why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from powerportal.accounts.models import Customer
from powerportal.control import history
from powerportal.control.commands import Commander, Origin, load_targets
from powerportal.control.models import Command, ControlRun, TimedTask, TimedTaskDevice, TimedTaskPeriod
from powerportal.control.timed import schedule_of
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import utcnow

log = logging.getLogger("powerportal.scheduler")

# How far back a tick looks for missed occurrences (older ones are neither run nor recorded).
LOOKBACK = timedelta(days=1)
INTERRUPTED = "服务重启，执行中断，未收到网关应答"


class Scheduler:
    """Claims and runs due timed-task occurrences; ``clock`` is injectable for tests."""

    def __init__(
        self, commander: Commander, *, clock: Callable[[], datetime] = utcnow, name: str = "scheduler"
    ) -> None:
        self.commander = commander
        self.ctx = commander.ctx
        self.clock = clock
        self.name = name
        self.runs_started = 0
        self.runs_skipped = 0
        self._running: set[asyncio.Task[None]] = set()
        self.loop: asyncio.Task[None] | None = None

    async def tick(self) -> list[int]:
        """Claim every due occurrence; start the ones within the grace window. Returns the runs started."""
        now = self.clock()
        await self.close_abandoned(now)
        grace = timedelta(seconds=self.ctx.settings.scheduler_grace_seconds)
        horizon = now - LOOKBACK
        async with self.ctx.sessions() as session:
            tasks = list(await session.scalars(select(TimedTask).where(TimedTask.enabled.is_(True))))
            if not tasks:
                return []
            times: dict[int, list[str]] = {}
            for sysno, text in await session.execute(
                select(TimedTaskPeriod.task_sysno, TimedTaskPeriod.time_of_day).order_by(
                    TimedTaskPeriod.time_of_day
                )
            ):
                times.setdefault(sysno, []).append(text)
            claimed = {
                (task_sysno, at)
                for task_sysno, at in await session.execute(
                    select(ControlRun.task_sysno, ControlRun.scheduled_for).where(
                        ControlRun.kind == "task", ControlRun.scheduled_for > horizon
                    )
                )
            }
        started = []
        for task in tasks:
            after = max(task.active_since, horizon)
            for at in schedule_of(task, times.get(task.sysno, [])).occurrences(after, now):
                if (task.sysno, at) in claimed:
                    continue
                late = now - at > grace
                run_sysno = await self._claim(task, at, late)
                if run_sysno is None:
                    continue
                if late:
                    self.runs_skipped += 1
                    continue
                self.runs_started += 1
                started.append(run_sysno)
                job = asyncio.create_task(self._run(task, run_sysno), name=f"timed-task-{task.sysno}")
                self._running.add(job)
                job.add_done_callback(self._running.discard)
        return started

    async def close_abandoned(self, now: datetime) -> int:
        """Close runs whose process went away mid-way: their unanswered commands end as failed."""
        cutoff = now - history.ABANDONED_AFTER
        async with self.ctx.sessions() as session:
            await session.execute(
                update(Command)
                .where(Command.status == "pending", Command.run_sysno.is_(None), Command.create_time < cutoff)
                .values(status="failed", reason=INTERRUPTED)
            )
            stale = list(
                await session.scalars(
                    select(ControlRun.sysno).where(
                        ControlRun.status == "running", ControlRun.start_time < cutoff
                    )
                )
            )
            if not stale:
                await session.commit()
                return 0
            await session.execute(
                update(Command)
                .where(Command.run_sysno.in_(stale), Command.status == "pending")
                .values(status="failed", reason=INTERRUPTED)
            )
            for sysno in stale:
                failed = await session.scalar(
                    select(func.count()).where(Command.run_sysno == sysno, Command.status != "succeeded")
                )
                await session.execute(
                    update(ControlRun)
                    .where(ControlRun.sysno == sysno, ControlRun.status == "running")
                    .values(status="done", failed=failed or 0, end_time=now, detail=INTERRUPTED)
                )
            await session.commit()
        log.warning("closed %d control runs abandoned by a stopped server", len(stale))
        return len(stale)

    async def _claim(self, task: TimedTask, at: datetime, late: bool) -> int | None:
        run = ControlRun(
            customer_sysno=task.customer_sysno,
            kind="task",
            task_sysno=task.sysno,
            name=task.name,
            action=task.action,
            scheduled_for=at,
            status="skipped" if late else "running",
            detail="服务停机期间到期，已超过补执行时限，未执行" if late else None,
            start_time=None if late else self.clock(),
        )
        try:
            async with self.ctx.sessions() as session:
                session.add(run)
                await session.commit()
        except IntegrityError:
            return None  # another scheduler claimed this occurrence first
        log.info("%s %s task %s for %s", self.name, "skipped" if late else "runs", task.sysno, at)
        return run.sysno

    async def _run(self, task: TimedTask, run_sysno: int) -> None:
        try:
            async with self.ctx.sessions() as session:
                owner = await session.get(Customer, task.customer_sysno)
                devices = list(
                    await session.scalars(
                        select(TimedTaskDevice.device_sysno)
                        .where(TimedTaskDevice.task_sysno == task.sysno)
                        .order_by(TimedTaskDevice.sysno)
                    )
                )
                # Access is checked again at run time: the owner may have lost control since.
                targets = (
                    await load_targets(session=session, customer=owner, device_sysnos=devices)
                    if owner is not None
                    else []
                )
            origin = Origin(
                customer_sysno=task.customer_sysno,
                source="task",
                operator=f"定时任务“{task.name}”",
                run_sysno=run_sysno,
            )
            await self.commander.execute(targets=targets, action=task.action, params=None, origin=origin)
        except Exception:
            log.exception("timed task %s run %s failed", task.sysno, run_sysno)
        finally:
            await history.finish_run(ctx=self.ctx, run_sysno=run_sysno)

    async def wait_idle(self) -> None:
        """Wait until the runs started so far have finished."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def run_forever(self) -> None:
        """Tick until cancelled; a failing tick is logged and retried on the next."""
        period = self.ctx.settings.scheduler_tick_seconds
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("scheduler tick failed")
            await asyncio.sleep(period)

    async def stop(self) -> None:
        """Stop the loop and cancel runs under way (their commands stay as recorded so far)."""
        if self.loop is not None:
            await stop_tasks([self.loop])
        await stop_tasks(list(self._running))


def start(commander: Commander) -> Scheduler | None:
    """Start the scheduler loop when the settings ask for it (the server's runtime calls this)."""
    if not commander.ctx.settings.scheduler:
        return None
    scheduler = Scheduler(commander)
    scheduler.loop = asyncio.create_task(scheduler.run_forever(), name="timed-task-scheduler")
    return scheduler
