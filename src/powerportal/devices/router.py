"""Device routes under ``/api/CustomerDevice``."""

from __future__ import annotations

from fastapi.responses import StreamingResponse

from powerportal.api.deps import ClientIp, Ctx, CurrentCustomer, Latest, Session
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.devices import service
from powerportal.devices.schemas import DeviceQuery, DeviceRead, DeviceTrend, DeviceUpdate, TrendQuery

router = api_router("/api/CustomerDevice", "设备")


@router.post("/GetDeviceList", response_model=Envelope[Page[DeviceRead]])
async def get_device_list(
    query: DeviceQuery, ctx: Ctx, hot: Latest, customer: CurrentCustomer
) -> EnvelopeResponse:
    """Devices of the visible projects with online flag, switch state and latest values."""
    return ok(await service.list_devices(ctx=ctx, customer=customer, query=query, hot=hot))


@router.post("/ExportDeviceList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_device_list(
    query: DeviceQuery, ctx: Ctx, hot: Latest, customer: CurrentCustomer
) -> StreamingResponse:
    """Every device the list's filters keep, with its latest values, as an Excel workbook (paging ignored)."""
    path, name = await service.export_devices(ctx=ctx, customer=customer, query=query, hot=hot)
    return send_file(path, name, fallback="devices")


@router.get("/GetSingleDevice", response_model=Envelope[DeviceRead])
async def get_single_device(
    sysno: SysnoParam, hot: Latest, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One device with its settings and latest values."""
    return ok(await service.get_device(session=session, customer=customer, sysno=sysno, hot=hot))


@router.put("/UpdateDevice", response_model=Envelope[DeviceRead])
async def update_device(
    body: DeviceUpdate, hot: Latest, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Name a device and set its rated current and thresholds."""
    device = await service.update_device(session=session, customer=customer, body=body, ip=ip)
    return ok(
        await service.get_device(session=session, customer=customer, sysno=device.sysno, hot=hot), "修改成功"
    )


@router.delete("/DeleteDevice", response_model=Envelope[None])
async def delete_device(
    sysno: SysnoParam, hot: Latest, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a device and its readings."""
    await service.delete_device(session=session, customer=customer, sysno=sysno, ip=ip)
    if hot is not None:
        hot.forget([sysno])
    return ok(None, "删除成功")


@router.post("/GetDeviceTrend", response_model=Envelope[DeviceTrend])
async def get_device_trend(
    query: TrendQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Voltage, current, power, temperature and leakage over the last hours (default 24, at most 168)."""
    return ok(await service.trend(session=session, customer=customer, sysno=query.sysno, hours=query.hours))
