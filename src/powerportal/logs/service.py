"""Recording and reading the customer operation log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from functools import cache
from typing import Any

from sqlalchemy import Row, Select, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.counting import CountCache, invalidate_counts
from powerportal.core.database import fetch_page
from powerportal.core.envelope import NotFound
from powerportal.core.filters import contains_pattern, time_bounds, time_range
from powerportal.core.frozen import FrozenRows
from powerportal.core.reads import AnySelect, Reader
from powerportal.core.schemas import Page, in_direction
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog, OperationLog, StatusLog
from powerportal.logs.schemas import (
    OfflineLogQuery,
    OfflineLogRead,
    OperationLogQuery,
    OperationTypeRead,
    StatusLogQuery,
    StatusLogRead,
    StatusTypeRead,
)
from powerportal.projects.access import visible_project_ids
from powerportal.projects.models import Project


class OperateType(IntEnum):
    """Kinds of recorded customer action."""

    LOGIN = 1
    LOGIN_FAILED = 2
    LOGOUT = 3
    UPDATE_INFO = 4
    UPDATE_PASSWORD = 5
    FIND_PASSWORD = 6
    TRANSFER_ACCOUNT = 7
    REGISTER = 8
    PROJECT = 20
    GATEWAY = 21
    DEVICE = 22
    COMMAND = 30
    TIMED_TASK = 31
    GROUP = 32
    ALARM = 40
    SHARE = 50


OPERATE_TYPE_LABELS: dict[OperateType, str] = {
    OperateType.LOGIN: "登录",
    OperateType.LOGIN_FAILED: "登录失败",
    OperateType.LOGOUT: "退出登录",
    OperateType.UPDATE_INFO: "修改信息",
    OperateType.UPDATE_PASSWORD: "修改密码",
    OperateType.FIND_PASSWORD: "找回密码",
    OperateType.TRANSFER_ACCOUNT: "转移账号",
    OperateType.REGISTER: "注册",
    OperateType.PROJECT: "项目管理",
    OperateType.GATEWAY: "网关管理",
    OperateType.DEVICE: "设备管理",
    OperateType.COMMAND: "远程控制",
    OperateType.TIMED_TASK: "定时控制",
    OperateType.GROUP: "分组控制",
    OperateType.ALARM: "告警处理",
    OperateType.SHARE: "分享管理",
}

_LABELS = {int(k): v for k, v in OPERATE_TYPE_LABELS.items()}
PAGE_COLUMNS = (
    OperationLog.sysno,
    OperationLog.operate_type,
    OperationLog.detail,
    OperationLog.ip,
    OperationLog.is_success,
    OperationLog.create_time,
)
_ORDERABLE = {"create_time": OperationLog.create_time, "operate_type": OperationLog.operate_type}


def record(
    *,
    session: AsyncSession,
    customer_sysno: int | None,
    operate_type: OperateType,
    detail: str,
    ip: str | None,
    success: bool = True,
) -> None:
    """Add one entry to the operation log (committed with the caller's transaction; never changed after)."""
    if customer_sysno is not None:
        invalidate_counts(session, ("operation_log", customer_sysno))
    session.add(
        OperationLog(
            customer_sysno=customer_sysno,
            operate_type=int(operate_type),
            detail=detail[:500],
            ip=ip,
            is_success=success,
        )
    )


def operate_types() -> list[OperationTypeRead]:
    """The filter options."""
    return [OperationTypeRead(value=int(k), label=v) for k, v in OPERATE_TYPE_LABELS.items()]


@dataclass(frozen=True)
class _OperationStatements:
    count: Select[int]
    ids: AnySelect
    page: AnySelect


@cache
def _operation_statements(
    by_type: bool, since: bool, until: bool, order_by: str, descending: bool, /
) -> _OperationStatements:
    """The statements of one filter shape, built once (building costs more than running).

    Positional only: the cache finds positional arguments sooner than keywords, on every call.
    """
    conditions = [OperationLog.customer_sysno == bindparam("customer")]
    if by_type:
        conditions.append(OperationLog.operate_type == bindparam("operate_type"))
    if since:
        conditions.append(OperationLog.create_time >= bindparam("since"))
    if until:
        conditions.append(OperationLog.create_time <= bindparam("until"))
    # Ties broken by sysno in the same direction, so the (customer, time, sysno) index serves the order.
    ordering = in_direction(descending, _ORDERABLE[order_by], OperationLog.sysno)

    def paged(*columns: Any) -> AnySelect:
        return (
            select(*columns)
            .where(*conditions)
            .order_by(*ordering)
            .offset(bindparam("offset"))
            .limit(bindparam("limit"))
        )

    return _OperationStatements(
        count=select(func.count()).select_from(OperationLog).where(*conditions),
        ids=paged(OperationLog.sysno),
        page=paged(*PAGE_COLUMNS),
    )


def _render_operation(row: Sequence[Any]) -> dict[str, Any]:
    """One row of ``PAGE_COLUMNS`` in the shape of ``OperationLogRead``."""
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


async def list_operations(
    *, reads: Reader, counts: CountCache, rows: FrozenRows, customer_sysno: int, query: OperationLogQuery
) -> dict[str, Any]:
    """One page of the caller's operation log, newest first unless asked otherwise.

    Its rows never change once written, so they come as remembered JSON (see ``FrozenRows``).
    """
    since, until = time_bounds(query.start_time, query.end_time)
    statements = _operation_statements(
        query.operate_type is not None,
        since is not None,
        until is not None,
        query.orderBy if query.orderBy in _ORDERABLE else "create_time",
        query.descending,
    )
    params = {
        "customer": customer_sysno,
        "operate_type": query.operate_type,
        "since": since,
        "until": until,
        "offset": query.offset,
        "limit": query.pageSize,
    }
    scope, key = ("operation_log", customer_sysno), (query.operate_type, since, until)
    total = counts.remembered(scope, key)
    if total is None:
        total = await counts.count(reads, scope=scope, key=key, statement=statements.count, params=params)
    page = rows.remembered(await reads.all(statements.ids, params))
    if page is None:
        page = rows.remember(await reads.all(statements.page, params), _render_operation)
    return {"dataSource": page, "totalCount": total}


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
_OFFLINE_ORDERABLE: dict[str, Any] = {
    "offline_time": OfflineLog.offline_time,
    "online_time": OfflineLog.online_time,
    "duration_seconds": OfflineLog.duration_seconds,
    "target_name": OfflineLog.target_name,
}
_STATUS_ORDERABLE: dict[str, Any] = {
    "create_time": StatusLog.create_time,
    "status_type": StatusLog.status_type,
    "target_name": StatusLog.target_name,
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


def _offline_query() -> Select[OfflineLog, str, str, str, str]:
    return (
        select(OfflineLog, Project.name, Gateway.sn, Gateway.name, Device.device_id)
        .join(Project, Project.sysno == OfflineLog.project_sysno)
        .join(Gateway, Gateway.sysno == OfflineLog.gateway_sysno)
        .outerjoin(Device, Device.sysno == OfflineLog.device_sysno)
    )


def _offline_read(row: Row[OfflineLog, str, str, str, str], now: datetime) -> OfflineLogRead:
    log, project_name, gateway_sn, gateway_name, device_id = row
    seconds = (
        log.duration_seconds
        if log.duration_seconds is not None
        else int(((log.online_time or now) - log.offline_time).total_seconds())
    )
    return OfflineLogRead(
        sysno=log.sysno,
        kind="gateway" if log.device_sysno is None else "device",
        target_name=log.target_name,
        project_sysno=log.project_sysno,
        project_name=project_name,
        gateway_sysno=log.gateway_sysno,
        gateway_sn=gateway_sn,
        gateway_name=gateway_name,
        device_sysno=log.device_sysno,
        device_id=device_id,
        reason=log.reason,
        reason_name=OFFLINE_REASONS.get(log.reason, log.reason),
        offline_time=to_display(log.offline_time),
        online_time=to_display(log.online_time),
        recovered=int(log.online_time is not None),
        duration_seconds=max(0, seconds),
        duration=duration_text(seconds),
    )


async def list_offline(
    *, session: AsyncSession, customer: Customer, query: OfflineLogQuery
) -> Page[OfflineLogRead]:
    """One page of offline spells in the projects the customer may see, newest first by default."""
    conditions: list[Any] = [OfflineLog.project_sysno.in_(visible_project_ids(customer))]
    if query.project_sysno is not None:
        conditions.append(OfflineLog.project_sysno == query.project_sysno)
    if query.gateway_sysno is not None:
        conditions.append(OfflineLog.gateway_sysno == query.gateway_sysno)
    if query.kind == "gateway":
        conditions.append(OfflineLog.device_sysno.is_(None))
    elif query.kind == "device":
        conditions.append(OfflineLog.device_sysno.is_not(None))
    conditions += time_range(OfflineLog.offline_time, query.start_time, query.end_time)
    if query.keyword:
        pattern = contains_pattern(query.keyword)
        conditions.append(
            or_(OfflineLog.target_name.ilike(pattern, escape="\\"), Gateway.sn.ilike(pattern, escape="\\"))
        )
    column = _OFFLINE_ORDERABLE.get(query.orderBy or "offline_time", OfflineLog.offline_time)
    rows, total = await fetch_page(
        session, _offline_query().where(*conditions).order_by(*query.ordered(column, OfflineLog.sysno)), query
    )
    now = utcnow()
    return Page(dataSource=[_offline_read(row, now) for row in rows], totalCount=total)


async def get_offline(*, session: AsyncSession, customer: Customer, sysno: int) -> OfflineLogRead:
    """One offline spell the customer may see."""
    row = (
        await session.execute(
            _offline_query().where(
                OfflineLog.sysno == sysno, OfflineLog.project_sysno.in_(visible_project_ids(customer))
            )
        )
    ).first()
    if row is None:
        raise NotFound("离线记录")
    return _offline_read(row, utcnow())


def status_types() -> list[StatusTypeRead]:
    """The status-type filter options."""
    return [StatusTypeRead(value=k, label=v) for k, v in STATUS_TYPES.items()]


async def list_status(
    *, session: AsyncSession, customer: Customer, query: StatusLogQuery
) -> Page[StatusLogRead]:
    """One page of state changes in the projects the customer may see, newest first by default."""
    conditions: list[Any] = [StatusLog.project_sysno.in_(visible_project_ids(customer))]
    if query.project_sysno is not None:
        conditions.append(StatusLog.project_sysno == query.project_sysno)
    if query.gateway_sysno is not None:
        conditions.append(StatusLog.gateway_sysno == query.gateway_sysno)
    if query.status_type:
        conditions.append(StatusLog.status_type == query.status_type)
    conditions += time_range(StatusLog.create_time, query.start_time, query.end_time)
    if query.keyword:
        pattern = contains_pattern(query.keyword)
        conditions.append(
            or_(
                StatusLog.target_name.ilike(pattern, escape="\\"),
                StatusLog.detail.ilike(pattern, escape="\\"),
                Gateway.sn.ilike(pattern, escape="\\"),
            )
        )
    column = _STATUS_ORDERABLE.get(query.orderBy or "create_time", StatusLog.create_time)
    rows, total = await fetch_page(
        session,
        select(StatusLog, Project.name, Gateway.sn)
        .join(Project, Project.sysno == StatusLog.project_sysno)
        .join(Gateway, Gateway.sysno == StatusLog.gateway_sysno)
        .where(*conditions)
        .order_by(*query.ordered(column, StatusLog.sysno)),
        query,
    )
    return Page(
        dataSource=[
            StatusLogRead(
                sysno=log.sysno,
                project_sysno=log.project_sysno,
                project_name=project_name,
                gateway_sysno=log.gateway_sysno,
                gateway_sn=gateway_sn,
                device_sysno=log.device_sysno,
                target_name=log.target_name,
                status_type=log.status_type,
                status_type_name=STATUS_TYPES.get(log.status_type, log.status_type),
                detail=log.detail,
                create_time=to_display(log.create_time),
            )
            for log, project_name, gateway_sn in rows
        ],
        totalCount=total,
    )
