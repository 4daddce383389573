"""Reading the logs: the operation log, offline spells and state changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
from powerportal.core.list_export import Column, during, export_list, filters_shown
from powerportal.core.listing import During, Keyword, Listing, PerProject, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway, name_in
from powerportal.logs.models import OfflineLog, OperationLog, StatusLog
from powerportal.logs.recording import OPERATE_TYPE_LABELS
from powerportal.logs.schemas import (
    OfflineLogQuery,
    OperationLogQuery,
    OperationTypeRead,
    StatusLogQuery,
    StatusTypeRead,
)
from powerportal.projects.access import sees, visible_project_name, visible_projects
from powerportal.projects.models import Project

_LABELS = {int(k): v for k, v in OPERATE_TYPE_LABELS.items()}

OPERATIONS = Listing(
    select(
        OperationLog.sysno,
        OperationLog.operate_type,
        OperationLog.detail,
        OperationLog.ip,
        OperationLog.is_success,
        OperationLog.create_time,
    ),
    filters={
        "customer": lambda p: OperationLog.customer_sysno == p,
        "operate_type": lambda p: OperationLog.operate_type == p,
        "time": During(OperationLog.create_time),
    },
    # Ties broken by sysno in the same direction, so the (customer, time, sysno) index serves the order.
    orders={"create_time": OperationLog.create_time, "operate_type": OperationLog.operate_type},
    default_order="create_time",
    tie=OperationLog.sysno,
)


def operate_types() -> list[OperationTypeRead]:
    """The filter options."""
    return [OperationTypeRead(value=int(k), label=v) for k, v in OPERATE_TYPE_LABELS.items()]


def _operation(row: Row) -> dict[str, Any]:
    """One operation-log row in the shape of ``OperationLogRead``."""
    sysno, operate_type, detail, ip, is_success, create_time = row
    return {
        "sysno": sysno,
        "operate_type": operate_type,
        "operate_type_name": _LABELS.get(operate_type, "其他"),
        "detail": detail,
        "ip": ip,
        "is_success": int(is_success),
        "create_time": to_display(create_time),
    }


def _operation_values(customer_sysno: int, query: OperationLogQuery) -> dict[str, Any]:
    return {
        "customer": customer_sysno,
        "operate_type": query.operate_type,
        "time": (query.start_time, query.end_time),
    }


async def list_operations(*, ctx: AppContext, customer_sysno: int, query: OperationLogQuery) -> PageData:
    """One page of the caller's operation log, newest first unless asked otherwise."""
    return await OPERATIONS.page(
        ctx, query=query, values=_operation_values(customer_sysno, query), render=_operation
    )


OPERATION_COLUMNS = (
    Column("操作时间", "create_time", 20),
    Column("操作类型", "operate_type_name", 16),
    Column("操作内容", "detail", 50),
    Column("IP 地址", "ip", 18),
    Column("结果", lambda r: "成功" if r["is_success"] == 1 else "失败", 8),
)


async def export_operations(
    *, ctx: AppContext, customer_sysno: int, query: OperationLogQuery
) -> tuple[Path, str]:
    """Every entry of the caller's operation log the filters keep, as a workbook: its path and name."""
    filters = filters_shown(
        ("操作类型", _LABELS.get(query.operate_type, "其他") if query.operate_type is not None else None),
        ("操作时间", during(query.start_time, query.end_time)),
    )
    return await export_list(
        ctx,
        name="操作日志",
        listing=OPERATIONS,
        query=query,
        values=_operation_values(customer_sysno, query),
        columns=OPERATION_COLUMNS,
        filters=filters,
        render=_operation,
    )


OFFLINE_REASONS = {
    "last_will": "连接断开",
    "silence": "超时未上报",
    "no_data": "超时未上报",
    "gateway_offline": "所属网关离线",
}
STATUS_TYPES = {
    "online": "上线",
    "offline": "离线",
    "switch_on": "合闸",
    "switch_off": "分闸",
}


def duration_text(seconds: int) -> str:
    """A span as people say it: ``1小时5分``, ``2天3小时``, ``40秒``."""
    seconds = max(0, seconds)
    if seconds < 60:
        return f"{seconds}秒"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [(days, "天"), (hours, "小时"), (minutes, "分")]
    return "".join(f"{n}{unit}" for n, unit in parts if n)


OFFLINE = Listing(
    select(
        OfflineLog.sysno,
        OfflineLog.device_sysno,
        OfflineLog.target_name,
        OfflineLog.project_sysno,
        Project.name,
        OfflineLog.gateway_sysno,
        Gateway.sn,
        name_in(OfflineLog.project_sysno),
        Device.device_id,
        OfflineLog.reason,
        OfflineLog.offline_time,
        OfflineLog.online_time,
        OfflineLog.duration_seconds,
    )
    .join(Project, Project.sysno == OfflineLog.project_sysno)
    .join(Gateway, Gateway.sysno == OfflineLog.gateway_sysno)
    .outerjoin(Device, Device.sysno == OfflineLog.device_sysno),
    filters={
        "customer": lambda p: sees(p, project=OfflineLog.project_sysno, gateway=OfflineLog.gateway_sysno),
        "sysno": lambda p: OfflineLog.sysno == p,
        "project": lambda p: OfflineLog.project_sysno == p,
        "gateway": lambda p: OfflineLog.gateway_sysno == p,
        "gateways_only": lambda _p: OfflineLog.device_sysno.is_(None),
        "devices_only": lambda _p: OfflineLog.device_sysno.is_not(None),
        "time": During(OfflineLog.offline_time),
        "keyword": Keyword(OfflineLog.target_name, Gateway.sn),
    },
    orders={
        "offline_time": OfflineLog.offline_time,
        "online_time": OfflineLog.online_time,
        "duration_seconds": OfflineLog.duration_seconds,
        "target_name": OfflineLog.target_name,
    },
    default_order="offline_time",
    tie=OfflineLog.sysno,
    per_project=PerProject(OfflineLog.project_sysno, visible_projects, orders=("offline_time",)),
)


def _offline(row: Row) -> dict[str, Any]:
    """One offline spell in the shape of ``OfflineLogRead``."""
    (
        sysno,
        device_sysno,
        target_name,
        project_sysno,
        project_name,
        gateway_sysno,
        gateway_sn,
        gateway_name,
        device_id,
        reason,
        offline_time,
        online_time,
        duration_seconds,
    ) = row
    seconds = (
        duration_seconds
        if duration_seconds is not None
        else int(((online_time or utcnow()) - offline_time).total_seconds())
    )
    return {
        "sysno": sysno,
        "kind": "gateway" if device_sysno is None else "device",
        "target_name": target_name,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "gateway_sysno": gateway_sysno,
        "gateway_sn": gateway_sn,
        "gateway_name": gateway_name,
        "device_sysno": device_sysno,
        "device_id": device_id,
        "reason": reason,
        "reason_name": OFFLINE_REASONS.get(reason, reason),
        "offline_time": to_display(offline_time),
        "online_time": to_display(online_time),
        "recovered": int(online_time is not None),
        "duration_seconds": max(0, seconds),
        "duration": duration_text(seconds),
    }


def _offline_values(customer: Customer, query: OfflineLogQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "gateway": query.gateway_sysno,
        "gateways_only": True if query.kind == "gateway" else None,
        "devices_only": True if query.kind == "device" else None,
        "time": (query.start_time, query.end_time),
        "keyword": query.keyword,
    }


async def list_offline(*, ctx: AppContext, customer: Customer, query: OfflineLogQuery) -> PageData:
    """One page of offline spells in the projects the customer may see, newest first by default."""
    return await OFFLINE.page(ctx, query=query, values=_offline_values(customer, query), render=_offline)


KIND_NAMES = {"gateway": "网关", "device": "设备"}
OFFLINE_COLUMNS = (
    Column("类型", lambda r: KIND_NAMES[r["kind"]], 8),
    Column(
        "对象",
        lambda r: f"{r['target_name']}（#{r['device_id']}）" if r["device_id"] else r["target_name"],
        22,
    ),
    Column("网关", "gateway_name", 18),
    Column("网关序列号", "gateway_sn", 16),
    Column("所属项目", "project_name", 18),
    Column("原因", "reason_name", 14),
    Column("离线时间", "offline_time", 20),
    Column("恢复时间", "online_time", 20),
    Column("离线时长", "duration", 14),
    Column("状态", lambda r: "已恢复" if r["recovered"] else "仍离线", 10),
)


async def export_offline(*, ctx: AppContext, customer: Customer, query: OfflineLogQuery) -> tuple[Path, str]:
    """Every offline spell the log's filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("网关编号", query.gateway_sysno),
        ("类型", KIND_NAMES.get(query.kind) if query.kind else None),
        ("离线时间", during(query.start_time, query.end_time)),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="离线日志",
        listing=OFFLINE,
        query=query,
        values=_offline_values(customer, query),
        columns=OFFLINE_COLUMNS,
        filters=filters,
        render=_offline,
    )


async def get_offline(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One offline spell the customer may see."""
    row = await OFFLINE.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("离线记录")
    return _offline(row)


def status_types() -> list[StatusTypeRead]:
    """The status-type filter options."""
    return [StatusTypeRead(value=k, label=v) for k, v in STATUS_TYPES.items()]


STATUS = Listing(
    select(
        StatusLog.sysno,
        StatusLog.project_sysno,
        Project.name,
        StatusLog.gateway_sysno,
        Gateway.sn,
        StatusLog.device_sysno,
        StatusLog.target_name,
        StatusLog.status_type,
        StatusLog.detail,
        StatusLog.create_time,
    )
    .join(Project, Project.sysno == StatusLog.project_sysno)
    .join(Gateway, Gateway.sysno == StatusLog.gateway_sysno),
    filters={
        "customer": lambda p: sees(p, project=StatusLog.project_sysno, gateway=StatusLog.gateway_sysno),
        "project": lambda p: StatusLog.project_sysno == p,
        "gateway": lambda p: StatusLog.gateway_sysno == p,
        "status_type": lambda p: StatusLog.status_type == p,
        "time": During(StatusLog.create_time),
        "keyword": Keyword(StatusLog.target_name, StatusLog.detail, Gateway.sn),
    },
    orders={
        "create_time": StatusLog.create_time,
        "status_type": StatusLog.status_type,
        "target_name": StatusLog.target_name,
    },
    default_order="create_time",
    tie=StatusLog.sysno,
    per_project=PerProject(StatusLog.project_sysno, visible_projects, orders=("create_time",)),
)


def _status(row: Row) -> dict[str, Any]:
    """One state change in the shape of ``StatusLogRead``."""
    (
        sysno,
        project_sysno,
        project_name,
        gateway_sysno,
        gateway_sn,
        device_sysno,
        target_name,
        status_type,
        detail,
        create_time,
    ) = row
    return {
        "sysno": sysno,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "gateway_sysno": gateway_sysno,
        "gateway_sn": gateway_sn,
        "device_sysno": device_sysno,
        "target_name": target_name,
        "status_type": status_type,
        "status_type_name": STATUS_TYPES.get(status_type, status_type),
        "detail": detail,
        "create_time": to_display(create_time),
    }


def _status_values(customer: Customer, query: StatusLogQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "gateway": query.gateway_sysno,
        "status_type": query.status_type or None,
        "time": (query.start_time, query.end_time),
        "keyword": query.keyword,
    }


async def list_status(*, ctx: AppContext, customer: Customer, query: StatusLogQuery) -> PageData:
    """One page of state changes in the projects the customer may see, newest first by default."""
    return await STATUS.page(ctx, query=query, values=_status_values(customer, query), render=_status)


STATUS_COLUMNS = (
    Column("时间", "create_time", 20),
    Column("状态类型", "status_type_name", 10),
    Column("对象", "target_name", 22),
    Column("网关序列号", "gateway_sn", 16),
    Column("所属项目", "project_name", 18),
    Column("详情", "detail", 40),
)


async def export_status(*, ctx: AppContext, customer: Customer, query: StatusLogQuery) -> tuple[Path, str]:
    """Every state change the log's filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("网关编号", query.gateway_sysno),
        ("状态类型", STATUS_TYPES.get(query.status_type, query.status_type) if query.status_type else None),
        ("时间", during(query.start_time, query.end_time)),
        ("关键字", query.keyword),
    )
    return await export_list(
        ctx,
        name="状态日志",
        listing=STATUS,
        query=query,
        values=_status_values(customer, query),
        columns=STATUS_COLUMNS,
        filters=filters,
        render=_status,
    )
