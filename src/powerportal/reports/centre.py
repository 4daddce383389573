"""The report centre: report files written in the background, listed, downloaded and expired.

A job is a row of ``report_job``. Asking for one checks the query and the caller's access at once
(a mistake is told now, not in a failed job later); a worker in any server process with background
roles claims it (``queued`` → ``running``, one ``UPDATE`` that only one process wins), writes the
file under ``report_dir`` with the caller's permissions as they are then, and beats ``heartbeat``
while it writes. A running job whose heartbeat stopped lost its process: it is queued again once,
then failed; a job that outlives ``report_job_timeout_seconds`` fails. So no job hangs.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, cast

from pydantic import ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.brands.service import Brand
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound, describe_validation_error
from powerportal.core.listing import Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display
from powerportal.projects.access import get_visible_project
from powerportal.reports.exports import KINDS
from powerportal.reports.models import ReportJob
from powerportal.reports.schemas import Format, JobQuery, ReportJobCreate

# Jobs a customer may have waiting or running at once.
MAX_ACTIVE = 5
STATUS_NAMES = {"queued": "排队中", "running": "生成中", "done": "已完成", "failed": "失败"}
# What a worker's lost job says when it is failed.
LOST = "服务重启，报表生成中断，请重新生成"


class ReportQuery(Protocol):
    """What every report's query has: its project and the file's format."""

    project_sysno: int
    format: Format

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The query as stored."""
        ...


def report_query(kind: str, query: dict[str, Any]) -> ReportQuery:
    """The kind's query from its JSON, or a Chinese error naming the field."""
    found = KINDS.get(kind)
    if found is None:
        raise ApiError("报表类型不存在")
    try:
        return cast(ReportQuery, found.query.model_validate_json(json.dumps(query)))
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", "query", *e["loc"])} for e in exc.errors()]
        raise ApiError(describe_validation_error(errors)) from None


async def job_title(
    ctx: AppContext, session: AsyncSession, customer: Customer, kind: str, query: ReportQuery
) -> str:
    """The job's name in the list (the report and its project).

    Refuses at once a project, building or device the caller may not see, as the report itself would.
    """
    project = await get_visible_project(session=session, customer=customer, sysno=query.project_sysno)
    await KINDS[kind].check(ctx, customer, query)
    return f"{KINDS[kind].name} · {project.name}"


async def create_job(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, brand: Brand, body: ReportJobCreate
) -> dict[str, Any]:
    """Queue a report file for the caller; refused at once if the query or the project is wrong."""
    query = report_query(body.kind, body.query)
    title = await job_title(ctx, session, customer, body.kind, query)
    active = await session.scalar(
        select(func.count())
        .select_from(ReportJob)
        .where(ReportJob.customer_sysno == customer.sysno, ReportJob.status.in_(("queued", "running")))
    )
    if (active or 0) >= MAX_ACTIVE:
        raise ApiError(f"最多同时生成 {MAX_ACTIVE} 个报表，请等待当前报表完成")
    job = ReportJob(
        customer_sysno=customer.sysno,
        kind=body.kind,
        format=query.format,
        query=query.model_dump(mode="json"),
        brand=brand.type,
        title=f"{title}（{'PDF' if query.format == 'pdf' else 'Excel'}）",
    )
    session.add(job)
    await session.flush()
    return job_read(job)


_COLUMNS = (
    ReportJob.sysno,
    ReportJob.kind,
    ReportJob.format,
    ReportJob.title,
    ReportJob.status,
    ReportJob.progress,
    ReportJob.file_name,
    ReportJob.size,
    ReportJob.detail,
    ReportJob.subscription_sysno,
    ReportJob.period,
    ReportJob.create_time,
    ReportJob.end_time,
    ReportJob.expire_time,
)

JOBS = Listing(
    select(*_COLUMNS),
    filters={
        "customer": lambda p: ReportJob.customer_sysno == p,
        "status": lambda p: ReportJob.status == p,
        "kind": lambda p: ReportJob.kind == p,
    },
    orders={"create_time": ReportJob.sysno, "sysno": ReportJob.sysno},
    default_order="sysno",
    tie=ReportJob.sysno,
)


def job_row(row: Row) -> dict[str, Any]:
    """One job in the shape of ``ReportJobRead``."""
    (
        sysno,
        kind,
        fmt,
        title,
        status,
        progress,
        name,
        size,
        detail,
        subscription,
        period,
        created,
        ended,
        expires,
    ) = row
    return {
        "sysno": sysno,
        "kind": kind,
        "kind_name": KINDS[kind].name if kind in KINDS else kind,
        "format": fmt,
        "title": title,
        "status": status,
        "status_name": STATUS_NAMES.get(status, status),
        "progress": progress,
        "file_name": name,
        "size": size,
        "detail": detail,
        "subscription_sysno": subscription,
        "period": period,
        "create_time": to_display(created),
        "end_time": to_display(ended),
        "expire_time": to_display(expires),
    }


def job_read(job: ReportJob) -> dict[str, Any]:
    """A job row in the shape of ``ReportJobRead``."""
    return job_row([getattr(job, column.key) for column in _COLUMNS])


async def list_jobs(*, ctx: AppContext, customer: Customer, query: JobQuery) -> PageData:
    """The caller's report files, newest first."""
    return await JOBS.page(
        ctx,
        query=query,
        values={"customer": customer.sysno, "status": query.status, "kind": query.kind},
        render=job_row,
    )


def job_path(ctx: AppContext, job: ReportJob) -> Path:
    """Where a job's file is kept."""
    return Path(ctx.settings.report_dir) / f"{job.sysno}.{job.format}"


async def _job(session: AsyncSession, customer: Customer, sysno: int) -> ReportJob:
    job = await session.scalar(
        select(ReportJob).where(ReportJob.sysno == sysno, ReportJob.customer_sysno == customer.sysno)
    )
    if job is None:
        raise NotFound("报表")
    return job


async def download(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, sysno: int
) -> tuple[Path, str]:
    """A finished job's file and its name."""
    job = await _job(session, customer, sysno)
    if job.status != "done" or job.file_name is None:
        raise ApiError(
            "报表尚未生成完成" if job.status in ("queued", "running") else "报表生成失败，没有文件"
        )
    path = job_path(ctx, job)
    if not path.exists():
        raise ApiError("报表文件已过期，请重新生成")
    return path, job.file_name


async def delete_jobs(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, sysnos: list[int]
) -> int:
    """Delete the caller's jobs and their files (a running one is left to finish: refused)."""
    jobs = list(
        await session.scalars(
            select(ReportJob).where(ReportJob.sysno.in_(sysnos), ReportJob.customer_sysno == customer.sysno)
        )
    )
    if len(jobs) != len(set(sysnos)):
        raise NotFound("报表")
    if any(job.status == "running" for job in jobs):
        raise ApiError("报表正在生成，完成后才能删除")
    for job in jobs:
        job_path(ctx, job).unlink(missing_ok=True)
    await session.execute(delete(ReportJob).where(ReportJob.sysno.in_([job.sysno for job in jobs])))
    return len(jobs)


async def expire(ctx: AppContext, now: datetime) -> int:
    """Delete the jobs kept past their days, with their files."""
    async with ctx.sessions() as session:
        jobs = list(await session.scalars(select(ReportJob).where(ReportJob.expire_time < now)))
        for job in jobs:
            job_path(ctx, job).unlink(missing_ok=True)
        if jobs:
            await session.execute(delete(ReportJob).where(ReportJob.sysno.in_([job.sysno for job in jobs])))
            await session.commit()
    return len(jobs)


async def recover(ctx: AppContext, now: datetime) -> int:
    """Queue again (once) or fail the running jobs whose process stopped beating; return how many."""
    silent = now - timedelta(seconds=4 * ctx.settings.report_heartbeat_seconds)
    lost = (ReportJob.status == "running") & (ReportJob.heartbeat < silent)
    async with ctx.sessions() as session:
        again = await session.execute(
            update(ReportJob).where(lost, ReportJob.attempts < 2).values(status="queued", progress=0)
        )
        failed = await session.execute(
            update(ReportJob)
            .where(lost)
            .values(status="failed", detail=LOST, end_time=now, expire_time=now + keep_for(ctx))
        )
        await session.commit()
    return int(again.rowcount or 0) + int(failed.rowcount or 0)  # type: ignore[attr-defined]


def keep_for(ctx: AppContext) -> timedelta:
    """How long a finished job and its file are listed."""
    return timedelta(days=ctx.settings.report_keep_days)
