"""负荷识别 routes under ``/api/CustomerLoadIdentify``: identified events, statistics, policies, unlock."""

from __future__ import annotations

from fastapi.responses import StreamingResponse

from powerportal.api.deps import ClientIp, CommanderDep, Ctx, CurrentCustomer, Session
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.load_ident import actions, policy, store
from powerportal.load_ident.model import measured_accuracy
from powerportal.load_ident.schemas import (
    LoadEventDetail,
    LoadEventQuery,
    LoadEventRead,
    LoadStatistics,
    LoadStatQuery,
    ModelAccuracy,
    PolicyRead,
    PolicyRemove,
    PolicySetting,
    PolicyWrite,
    UnlockLoad,
    UnlockResult,
    WhitelistRead,
    WhitelistWrite,
)

router = api_router("/api/CustomerLoadIdentify", "负荷识别")


@router.post("/GetLoadEventList", response_model=Envelope[Page[LoadEventRead]])
async def get_load_event_list(query: LoadEventQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Identified load events of the visible projects, paged and filtered (a room's history by device)."""
    return ok(await store.list_events(ctx=ctx, customer=customer, query=query))


@router.post("/ExportLoadEventList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_load_event_list(
    query: LoadEventQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every event the list's filters keep, as an Excel workbook (paging ignored)."""
    path, name = await store.export_events(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="load-events")


@router.get("/GetLoadEvent", response_model=Envelope[LoadEventDetail])
async def get_load_event(sysno: SysnoParam, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """One event with its power step and, where the brand has loadWaveform, its waveform."""
    return ok(await store.get_event(session=session, customer=customer, sysno=sysno))


@router.post("/GetLoadStatistics", response_model=Envelope[LoadStatistics])
async def get_load_statistics(
    query: LoadStatQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Violations by building, appliance category and day (default the last 30 days)."""
    return ok(await store.statistics(session=session, customer=customer, query=query))


@router.get("/GetLoadModelAccuracy", response_model=Envelope[ModelAccuracy])
async def get_load_model_accuracy(_customer: CurrentCustomer) -> EnvelopeResponse:
    """The identification's accuracy as measured on appliances it never saw (the same for everyone)."""
    return ok(ModelAccuracy.model_validate(measured_accuracy()))


@router.get("/GetLoadPolicy", response_model=Envelope[PolicySetting])
async def get_load_policy(
    project_sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """A project's policy, its buildings' overrides and its devices' whitelists."""
    return ok(await policy.get_setting(session=session, customer=customer, project_sysno=project_sysno))


@router.post("/SaveLoadPolicy", response_model=Envelope[PolicyRead])
async def save_load_policy(
    body: PolicyWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Save a project's policy, or a building's override of it (the project's owner)."""
    return ok(
        await policy.save_policy(session=session, customer=customer, body=body, ip=ip), message="保存成功"
    )


@router.post("/DeleteLoadPolicy", response_model=Envelope[int])
async def delete_load_policy(
    body: PolicyRemove, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Drop a building's override: the project's policy applies to it again."""
    return ok(
        await policy.remove_override(session=session, customer=customer, body=body, ip=ip), message="删除成功"
    )


@router.post("/SaveLoadWhitelist", response_model=Envelope[WhitelistRead | None])
async def save_load_whitelist(
    body: WhitelistWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Set the appliances a device may run whatever the policy forbids (empty: none)."""
    return ok(
        await policy.save_whitelist(session=session, customer=customer, body=body, ip=ip), message="保存成功"
    )


@router.post("/UnlockLoadDevice", response_model=Envelope[UnlockResult])
async def unlock_load_device(
    body: UnlockLoad, customer: CurrentCustomer, session: Session, ip: ClientIp, commander: CommanderDep
) -> EnvelopeResponse:
    """Close the breaker a trip left locked (the day's automatic re-closes used up)."""
    result = await actions.unlock(
        session=session, commander=commander, customer=customer, sysno=body.sysno, ip=ip
    )
    return ok(result, message="合闸成功")


routers = (router,)
