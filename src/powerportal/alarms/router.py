"""Alarm, notice and alarm-text routes (the notice paths keep the spec's spelling, CustomerNoctice)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query
from fastapi.responses import StreamingResponse

from powerportal.alarms import notices, service, texting
from powerportal.alarms.schemas import (
    AlarmQuery,
    AlarmRead,
    AlarmStatistics,
    AlarmStatQuery,
    AlarmTypeRead,
    BatchReadNotice,
    BatchReadResult,
    NoticePoll,
    NoticeQuery,
    NoticeRead,
    NotificationRead,
    NotificationUpdate,
    NotificationWrite,
    ProcessAlarm,
    ProcessResult,
    TemplatePreview,
    TemplatePreviewQuery,
    TemplateRead,
    TemplateUpdate,
)
from powerportal.api.deps import ClientIp, Ctx, CurrentBrand, CurrentCustomer, Session, sms_config_on
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import MAX_SYSNO, Page

notice_router = api_router("/api/CustomerNoctice", "消息")
router = api_router("/api/CustomerAlarm", "告警")
# Who gets alarm texts and in what words; beside the text balance routes of ``sms``.
texting_router = api_router("/api/CustomerSms", "短信通知", dependencies=[Depends(sms_config_on)])


@notice_router.get("/GetNewNoticeNew", response_model=Envelope[NoticePoll])
async def get_new_notice(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """The unread count and, once per notice, the newest notice not pushed before (polled every 30 s)."""
    return ok(await notices.poll(session=session, customer=customer))


@notice_router.post("/GetNoticeList", response_model=Envelope[Page[NoticeRead]])
async def get_notice_list(query: NoticeQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The customer's notices, newest first, filtered by type and read state (null means no filter)."""
    return ok(await notices.list_notices(ctx=ctx, customer=customer, query=query))


@notice_router.post("/ExportNoticeList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_notice_list(query: NoticeQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every notice the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await notices.export_notices(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="notices")


@notice_router.post("/Cus_BatchReadNotice", response_model=Envelope[BatchReadResult])
async def batch_read_notice(
    body: BatchReadNotice, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Mark notices read."""
    count = await notices.mark_read(session=session, customer=customer, sysnos=body.notice_sysno)
    return ok(BatchReadResult(count=count), message="处理成功")


@router.post("/GetAlarmList", response_model=Envelope[Page[AlarmRead]])
async def get_alarm_list(query: AlarmQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Alarms of the visible projects, paged and filtered."""
    return ok(await service.list_alarms(ctx=ctx, customer=customer, query=query))


@router.post("/ExportAlarmList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_alarm_list(query: AlarmQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every alarm the list's filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_alarms(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="alarms")


@router.get("/GetSingleAlarm", response_model=Envelope[AlarmRead])
async def get_single_alarm(
    sysno: Annotated[int, Query(ge=1, le=MAX_SYSNO)], customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One alarm (for the ``sysno`` route parameter of the alarm screen)."""
    return ok(await service.get_alarm(session=session, customer=customer, sysno=sysno))


@router.get("/GetAlarmType", response_model=Envelope[list[AlarmTypeRead]])
async def get_alarm_type(customer: CurrentCustomer) -> EnvelopeResponse:
    """The alarm types with their levels."""
    return ok(service.alarm_types())


@router.post("/ProcessAlarm", response_model=Envelope[ProcessResult])
async def process_alarm(
    body: ProcessAlarm, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Process one or many alarms with a remark."""
    count = await service.process_alarms(
        session=session, customer=customer, sysnos=body.sysno, remark=body.remark, ip=ip
    )
    return ok(ProcessResult(count=count), message="处理成功")


@router.post("/GetAlarmStatistics", response_model=Envelope[AlarmStatistics])
async def get_alarm_statistics(
    query: AlarmStatQuery, customer: CurrentCustomer, session: Session, brand: CurrentBrand
) -> EnvelopeResponse:
    """Counts for the alarm statistics screen (brands with the alarmDetail flag)."""
    if not brand.flags.alarmDetail:
        raise ApiError("当前版本未开放告警统计", status_code=403)
    return ok(await service.statistics(session=session, customer=customer, query=query))


@texting_router.post("/GetNotificationList", response_model=Envelope[list[NotificationRead]])
async def get_notification_list(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Who gets which alarm texts."""
    return ok(await texting.list_rules(session=session, customer=customer))


@texting_router.post("/AddNotification", response_model=Envelope[NotificationRead])
async def add_notification(
    body: NotificationWrite, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Add a notification rule."""
    return ok(await texting.add_rule(session=session, customer=customer, body=body), message="保存成功")


@texting_router.put("/UpdateNotification", response_model=Envelope[NotificationRead])
async def update_notification(
    body: NotificationUpdate, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Replace a notification rule."""
    return ok(await texting.update_rule(session=session, customer=customer, body=body), message="保存成功")


@texting_router.delete("/DeleteNotification", response_model=Envelope[None])
async def delete_notification(
    sysno: Annotated[int, Query(ge=1, le=MAX_SYSNO)], customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Delete a notification rule."""
    await texting.delete_rule(session=session, customer=customer, sysno=sysno)
    return ok(None, message="删除成功")


@texting_router.get("/GetTemplateList", response_model=Envelope[list[TemplateRead]])
async def get_template_list(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """The message templates with their variables."""
    return ok(await texting.list_templates(session=session, customer=customer))


@texting_router.put("/UpdateTemplate", response_model=Envelope[TemplateRead])
async def update_template(
    body: TemplateUpdate, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Change a template's wording (empty restores the built-in one)."""
    template = await texting.update_template(
        session=session, customer=customer, key=body.template_key, content=body.content
    )
    return ok(template, message="保存成功")


@texting_router.post("/PreviewTemplate", response_model=Envelope[TemplatePreview])
async def preview_template(
    body: TemplatePreviewQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """A template rendered with example values."""
    return ok(
        await texting.preview_template(
            session=session, customer=customer, key=body.template_key, content=body.content
        )
    )
