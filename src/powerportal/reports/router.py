"""Report routes under ``/api/CustomerReport``: the reports and their Excel and PDF exports."""

from __future__ import annotations

from typing import Any

from fastapi.responses import StreamingResponse

from powerportal.accounts.models import Customer
from powerportal.api.deps import Ctx, CurrentBrand, CurrentCustomer, CurrentRuntime, Session
from powerportal.brands.service import Brand
from powerportal.core.context import AppContext
from powerportal.core.downloads import MEDIA, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.reports import alarm, availability, centre, control, service, subscriptions
from powerportal.reports.exports import export
from powerportal.reports.schemas import (
    AlarmReport,
    AlarmReportQuery,
    AvailabilityReport,
    AvailabilityReportQuery,
    ControlReport,
    ControlReportQuery,
    EnergyReport,
    EnergyReportQuery,
    JobId,
    JobIds,
    JobQuery,
    ReportJobCreate,
    ReportJobRead,
    SubscriptionQuery,
    SubscriptionRead,
    SubscriptionSave,
)

router = api_router("/api/CustomerReport", "报表")

FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {media: {} for media in MEDIA.values()}, "description": "The report as a file"}
}


async def _file(
    ctx: AppContext, customer: Customer, brand: Brand, kind: str, query: Any
) -> StreamingResponse:
    """A report's export (Excel or PDF, as its query's ``format`` says) as a download."""
    path, name = await export(
        ctx=ctx, customer=customer, kind=kind, query=query, fmt=query.format, brand=brand
    )
    return send_file(path, name)


@router.post("/GetEnergyReport", response_model=Envelope[EnergyReport])
async def get_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The energy report of a project, building or devices: by device, building or project."""
    return ok(await service.energy_report(ctx=ctx, customer=customer, query=query))


@router.post("/ExportEnergyReport", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def export_energy_report(
    query: EnergyReportQuery, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand
) -> StreamingResponse:
    """The energy report as an Excel workbook (汇总 and 明细: every row, not a page) or an A4 PDF."""
    return await _file(ctx, customer, brand, "energy", query)


# -- the report centre ---------------------------------------------------------------------------


@router.post("/CreateReportJob", response_model=Envelope[ReportJobRead])
async def create_report_job(
    body: ReportJobCreate,
    ctx: Ctx,
    customer: CurrentCustomer,
    brand: CurrentBrand,
    session: Session,
    runtime: CurrentRuntime,
) -> EnvelopeResponse:
    """Generate a report file in the background; it is listed in the report centre with its progress."""
    job = await centre.create_job(ctx=ctx, session=session, customer=customer, brand=brand, body=body)
    await session.commit()
    if runtime.reports is not None:
        runtime.reports.wake.set()
    return ok(job, "已加入报表中心，生成后可下载")


@router.post("/GetReportJobList", response_model=Envelope[Page[ReportJobRead]])
async def get_report_job_list(query: JobQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's report files, newest first."""
    return ok(await centre.list_jobs(ctx=ctx, customer=customer, query=query))


@router.post("/DownloadReportFile", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def download_report_file(
    body: JobId, ctx: Ctx, customer: CurrentCustomer, session: Session
) -> StreamingResponse:
    """A finished report file of the caller's."""
    path, name = await centre.download(ctx=ctx, session=session, customer=customer, sysno=body.sysno)
    return send_file(path, name, keep=True)


@router.post("/DeleteReportJob", response_model=Envelope[None])
async def delete_report_job(
    body: JobIds, ctx: Ctx, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Delete report files of the caller's."""
    await centre.delete_jobs(ctx=ctx, session=session, customer=customer, sysnos=body.sysnos)
    return ok(None, "删除成功")


@router.post("/GetReportSubscriptionList", response_model=Envelope[Page[SubscriptionRead]])
async def get_subscription_list(
    query: SubscriptionQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The caller's scheduled reports."""
    return ok(await subscriptions.list_subscriptions(ctx=ctx, customer=customer, query=query))


@router.post("/SaveReportSubscription", response_model=Envelope[SubscriptionRead])
async def save_subscription(
    body: SubscriptionSave, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand, session: Session
) -> EnvelopeResponse:
    """Create or replace a scheduled report."""
    found = await subscriptions.save(ctx=ctx, session=session, customer=customer, brand=brand, body=body)
    return ok(found, "保存成功")


@router.delete("/DeleteReportSubscription", response_model=Envelope[None])
async def delete_subscription(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Delete a scheduled report (the files it made stay in the report centre)."""
    await subscriptions.remove(session=session, customer=customer, sysno=sysno)
    return ok(None, "删除成功")


# -- the alarm, availability and control reports -------------------------------------------------


@router.post("/GetAlarmReport", response_model=Envelope[AlarmReport])
async def get_alarm_report(query: AlarmReportQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The alarms that began in the period: by type, level, building, device and time; the longest open."""
    return ok(await alarm.alarm_report(ctx=ctx, customer=customer, query=query))


@router.post("/ExportAlarmReport", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def export_alarm_report(
    query: AlarmReportQuery, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand
) -> StreamingResponse:
    """The alarm report as an Excel workbook (with every alarm in 告警明细) or an A4 PDF."""
    return await _file(ctx, customer, brand, "alarm", query)


@router.post("/GetAvailabilityReport", response_model=Envelope[AvailabilityReport])
async def get_availability_report(
    query: AvailabilityReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """Each gateway's and device's offline spells and online rate over the period."""
    return ok(await availability.availability_report(ctx=ctx, customer=customer, query=query))


@router.post("/ExportAvailabilityReport", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def export_availability_report(
    query: AvailabilityReportQuery, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand
) -> StreamingResponse:
    """The availability report as an Excel workbook (with every spell in 离线明细) or an A4 PDF."""
    return await _file(ctx, customer, brand, "availability", query)


@router.post("/GetControlReport", response_model=Envelope[ControlReport])
async def get_control_report(
    query: ControlReportQuery, ctx: Ctx, customer: CurrentCustomer
) -> EnvelopeResponse:
    """The commands sent in the period: by kind and outcome, per gateway, and the timed tasks' runs."""
    return ok(await control.control_report(ctx=ctx, customer=customer, query=query))


@router.post("/ExportControlReport", response_class=StreamingResponse, responses=FILE_RESPONSES)
async def export_control_report(
    query: ControlReportQuery, ctx: Ctx, customer: CurrentCustomer, brand: CurrentBrand
) -> StreamingResponse:
    """The control report as an Excel workbook (with every command in 命令明细) or an A4 PDF."""
    return await _file(ctx, customer, brand, "control", query)
