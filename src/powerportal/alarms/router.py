"""Alarm and notice routes (the notice paths keep the spec's spelling, CustomerNoctice)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from powerportal.alarms import notices, service
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
    ProcessAlarm,
    ProcessResult,
)
from powerportal.core.deps import ClientIp, CurrentBrand, CurrentCustomer, Session
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import MAX_SYSNO, Page

notice_router = api_router("/api/CustomerNoctice", "消息")
router = api_router("/api/CustomerAlarm", "告警")


@notice_router.get("/GetNewNoticeNew", response_model=Envelope[NoticePoll])
async def get_new_notice(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """The unread count and, once per notice, the newest notice not pushed before (polled every 30 s)."""
    return ok(await notices.poll(session=session, customer=customer))


@notice_router.post("/GetNoticeList", response_model=Envelope[Page[NoticeRead]])
async def get_notice_list(
    query: NoticeQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """The customer's notices, newest first, filtered by type and read state (null means no filter)."""
    return ok(await notices.list_notices(session=session, customer=customer, query=query))


@notice_router.post("/Cus_BatchReadNotice", response_model=Envelope[BatchReadResult])
async def batch_read_notice(
    body: BatchReadNotice, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Mark notices read."""
    count = await notices.mark_read(session=session, customer=customer, sysnos=body.notice_sysno)
    return ok(BatchReadResult(count=count), message="处理成功")


@router.post("/GetAlarmList", response_model=Envelope[Page[AlarmRead]])
async def get_alarm_list(query: AlarmQuery, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Alarms of the visible projects, paged and filtered."""
    return ok(await service.list_alarms(session=session, customer=customer, query=query))


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
