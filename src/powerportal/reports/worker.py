"""The report worker: claims due subscription periods, writes queued report files, delivers them.

Every tick: running jobs whose process stopped beating are queued again or failed
(``centre.recover``); each enabled subscription's period just ended is claimed by moving its
``last_period`` to it and inserting its job (unique by subscription and period) in one transaction,
so across processes a period is reported once, even after its job expired; expired files are
deleted; then queued jobs are claimed one at a time (``queued`` → ``running`` by an ``UPDATE`` one
process wins) and written.
A subscription's file goes by e-mail to its recipients and as a notice to its customer; a
subscription whose customer may no longer see its project (a share revoked) stops.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError

from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.brands.service import all_brands
from powerportal.core import mail
from powerportal.core.context import AppContext
from powerportal.core.downloads import safe_name
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.tasks import stop_tasks
from powerportal.core.timeutil import utcnow
from powerportal.projects.models import Project
from powerportal.reports import centre
from powerportal.reports.exports import KINDS, export
from powerportal.reports.models import ReportJob, ReportSubscription
from powerportal.reports.subscriptions import FREQUENCY_NAMES, LOST_PROJECT, SEEN_NAME, due_period

log = logging.getLogger("powerportal.reports")

TIMED_OUT = "报表生成超时，请缩小范围后重试"
BROKEN = "报表生成失败，请稍后重试"


class ReportWorker:
    """Writes the report centre's files; ``clock`` is injectable for tests."""

    def __init__(
        self, ctx: AppContext, *, clock: Callable[[], datetime] = utcnow, name: str = "reports"
    ) -> None:
        self.ctx = ctx
        self.clock = clock
        self.name = name
        self.loop: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.jobs_done = 0

    async def tick(self) -> list[int]:
        """One round: recover, schedule, expire, then write every queued job. Returns the jobs written."""
        now = self.clock()
        await centre.recover(self.ctx, now)
        await self.schedule(now)
        await centre.expire(self.ctx, now)
        written = []
        while (job := await self._claim()) is not None:
            await self._run(job)
            written.append(job.sysno)
        return written

    async def schedule(self, now: datetime) -> list[int]:
        """Queue the job of each enabled subscription's period just ended, once; return the jobs queued."""
        delay = timedelta(minutes=self.ctx.settings.report_schedule_delay_minutes)
        queued = []
        async with self.ctx.sessions() as session:
            found = list(
                await session.execute(
                    select(ReportSubscription, Project.timezone, SEEN_NAME)
                    .join(Project, Project.sysno == ReportSubscription.project_sysno)
                    .where(ReportSubscription.enabled.is_(True))
                )
            )
        for subscription, zone, project_name in found:
            key, end, fields = due_period(subscription.frequency, zone, now, delay)
            if end <= subscription.create_time or subscription.last_period == key:
                continue
            name = KINDS[subscription.kind].name if subscription.kind in KINDS else subscription.kind
            # A project the subscriber lost is not named; its job fails and stops the subscription.
            place = project_name or LOST_PROJECT
            job = ReportJob(
                customer_sysno=subscription.customer_sysno,
                subscription_sysno=subscription.sysno,
                period=key,
                kind=subscription.kind,
                format=subscription.format,
                query={**subscription.query, **fields},
                brand=subscription.brand,
                title=f"{name} · {place} · {FREQUENCY_NAMES.get(subscription.frequency, '')} {key}",
            )
            try:
                async with self.ctx.sessions() as session:
                    won = await session.execute(
                        update(ReportSubscription)
                        .where(
                            ReportSubscription.sysno == subscription.sysno,
                            or_(
                                ReportSubscription.last_period.is_(None),
                                ReportSubscription.last_period != key,
                            ),
                        )
                        .values(last_period=key)
                    )
                    if not won.rowcount:  # type: ignore[attr-defined]
                        continue  # another process claimed this period
                    session.add(job)
                    await session.commit()
            except IntegrityError:
                continue  # another process claimed this period
            queued.append(job.sysno)
        return queued

    async def _claim(self) -> ReportJob | None:
        now = self.clock()
        async with self.ctx.sessions() as session:
            candidates = list(
                await session.scalars(
                    select(ReportJob.sysno)
                    .where(ReportJob.status == "queued")
                    .order_by(ReportJob.sysno)
                    .limit(5)
                )
            )
            for sysno in candidates:
                won = await session.execute(
                    update(ReportJob)
                    .where(ReportJob.sysno == sysno, ReportJob.status == "queued")
                    .values(
                        status="running",
                        start_time=now,
                        heartbeat=now,
                        attempts=ReportJob.attempts + 1,
                        progress=0,
                    )
                )
                await session.commit()
                if won.rowcount:  # type: ignore[attr-defined]
                    return await session.get(ReportJob, sysno, populate_existing=True)
        return None

    async def _set(self, job: ReportJob, **values: object) -> bool:
        """Update the job while it is still this worker's (same attempt, still running)."""
        async with self.ctx.sessions() as session:
            done = await session.execute(
                update(ReportJob)
                .where(
                    ReportJob.sysno == job.sysno,
                    ReportJob.attempts == job.attempts,
                    ReportJob.status == "running",
                )
                .values(**values)
            )
            await session.commit()
        return bool(done.rowcount)  # type: ignore[attr-defined]

    async def _run(self, job: ReportJob) -> None:
        settings = self.ctx.settings
        folder = Path(settings.report_dir)
        folder.mkdir(parents=True, exist_ok=True)
        part = folder / f"{job.sysno}-{job.attempts}.{job.format}.part"
        last = [self.clock()]

        async def progress(done: float) -> None:
            now = self.clock()
            if (now - last[0]).total_seconds() >= 1 or done >= 1:
                last[0] = now
                await self._set(job, progress=min(99, int(done * 100)), heartbeat=now)

        async def beat() -> None:
            while True:
                await asyncio.sleep(settings.report_heartbeat_seconds)
                await self._set(job, heartbeat=self.clock())

        beating = asyncio.create_task(beat(), name=f"report-{job.sysno}-heartbeat")
        failure: str | None = None
        stopped = False
        name = ""
        try:
            async with self.ctx.sessions() as session:
                customer = await session.get(Customer, job.customer_sysno)
            if customer is None:
                raise NotFound("账号")
            query = centre.report_query(job.kind, job.query)
            brand = all_brands()[job.brand]
            _, name = await asyncio.wait_for(
                export(
                    ctx=self.ctx,
                    customer=customer,
                    kind=job.kind,
                    query=query,
                    fmt=query.format,
                    brand=brand,
                    target=part,
                    progress=progress,
                ),
                settings.report_job_timeout_seconds,
            )
        except asyncio.CancelledError:
            # The server stops: the job waits for the next worker rather than for its heartbeat to age.
            part.unlink(missing_ok=True)
            await asyncio.shield(self._set(job, status="queued", progress=0))
            raise
        except TimeoutError:
            failure = TIMED_OUT
        except NotFound as exc:
            failure, stopped = exc.message, True
        except ApiError as exc:
            failure = exc.message
        except Exception:
            log.exception("report job %s failed", job.sysno)
            failure = BROKEN
        finally:
            await stop_tasks([beating])
        now = self.clock()
        keep = now + centre.keep_for(self.ctx)
        if failure is not None:
            part.unlink(missing_ok=True)
            if await self._set(job, status="failed", detail=failure[:500], end_time=now, expire_time=keep):
                await self._tell(job, None, failure, stop=stopped)
            return
        size = part.stat().st_size
        if not await self._set(
            job,
            status="done",
            progress=100,
            file_name=safe_name(name),
            size=size,
            end_time=now,
            expire_time=keep,
        ):
            part.unlink(missing_ok=True)  # recovered and written again elsewhere meanwhile
            return
        final = centre.job_path(self.ctx, job)
        part.replace(final)
        self.jobs_done += 1
        await self._tell(job, (final, name), None, stop=False)

    async def _tell(
        self, job: ReportJob, file: tuple[Path, str] | None, failure: str | None, *, stop: bool
    ) -> None:
        """A subscription's delivery: the e-mail (with the file) and the notice; a lost project stops it."""
        if job.subscription_sysno is None:
            return
        async with self.ctx.sessions() as session:
            subscription = await session.get(ReportSubscription, job.subscription_sysno)
            if subscription is None:
                return
            if stop:
                subscription.enabled = False
            if failure is None:
                text = f"{job.title} 已生成，请到报表中心下载"
            else:
                text = f"{job.title} 生成失败：{failure}" + ("，该定时报表已停用" if stop else "")
            await notices.send(
                session=session,
                notices=[
                    notices.NewNotice(subscription.project_sysno, notices.REPORT, None, text, job.sysno)
                ],
                audience={subscription.project_sysno: [job.customer_sysno]},
            )
            await session.commit()
            emails = list(subscription.emails)
        if file is None or not emails or not mail.configured(self.ctx.settings):
            return
        try:
            await asyncio.to_thread(
                mail.send,
                self.ctx.settings,
                to=emails,
                subject=job.title,
                body=f"{job.title}\n\n报表见附件，也可登录平台在报表中心下载。",
                attachment=file,
            )
            detail = f"已发送邮件至 {', '.join(emails)}"
        except mail.MailError as exc:
            log.warning("report job %s: %s", job.sysno, exc)
            detail = str(exc)
        async with self.ctx.sessions() as session:
            await session.execute(
                update(ReportJob).where(ReportJob.sysno == job.sysno).values(detail=detail[:500])
            )
            await session.commit()

    async def run_forever(self) -> None:
        """Tick every ``report_tick_seconds`` (sooner when woken) until cancelled; errors are logged."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("report worker tick failed")
            try:
                await asyncio.wait_for(self.wake.wait(), self.ctx.settings.report_tick_seconds)
            except TimeoutError:
                pass
            self.wake.clear()

    async def stop(self) -> None:
        """Stop ticking; a job being written is left to be recovered by a later worker."""
        if self.loop is not None:
            await stop_tasks([self.loop])
            self.loop = None


def start(ctx: AppContext) -> ReportWorker | None:
    """Start the worker loop when the settings ask for it."""
    if not ctx.settings.reports:
        return None
    worker = ReportWorker(ctx)
    worker.loop = asyncio.create_task(worker.run_forever(), name="report-worker")
    return worker
