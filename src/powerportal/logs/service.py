"""Recording and reading the customer operation log."""

from __future__ import annotations

from enum import IntEnum

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.envelope import ApiError
from powerportal.core.schemas import Page
from powerportal.core.timeutil import parse_display, to_display
from powerportal.logs.models import OperationLog
from powerportal.logs.schemas import OperationLogQuery, OperationLogRead, OperationTypeRead


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
    """Add one entry to the operation log (committed with the caller's transaction)."""
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


async def list_operations(
    *, session: AsyncSession, customer_sysno: int, query: OperationLogQuery
) -> Page[OperationLogRead]:
    """One page of the caller's operation log, newest first unless asked otherwise."""
    conditions = [OperationLog.customer_sysno == customer_sysno]
    if query.operate_type is not None:
        conditions.append(OperationLog.operate_type == query.operate_type)
    try:
        if query.start_time:
            conditions.append(OperationLog.create_time >= parse_display(query.start_time))
        if query.end_time:
            conditions.append(OperationLog.create_time <= parse_display(query.end_time))
    except ValueError as exc:
        raise ApiError("时间格式不正确，应为 YYYY-MM-DD HH:mm:ss") from exc
    order_column = _ORDERABLE.get(query.orderBy or "create_time", OperationLog.create_time)
    order = order_column.desc() if query.descending else order_column.asc()
    total = await session.scalar(select(func.count()).select_from(OperationLog).where(*conditions))
    rows = await session.execute(
        select(OperationLog)
        .where(*conditions)
        .order_by(order, OperationLog.sysno.desc())
        .offset(query.offset)
        .limit(query.pageSize)
    )
    labels = {int(k): v for k, v in OPERATE_TYPE_LABELS.items()}
    return Page(
        dataSource=[
            OperationLogRead(
                sysno=row.sysno,
                operate_type=row.operate_type,
                operate_type_name=labels.get(row.operate_type, "其他"),
                detail=row.detail,
                ip=row.ip,
                is_success=int(row.is_success),
                create_time=to_display(row.create_time),
            )
            for row in rows.scalars()
        ],
        totalCount=total or 0,
    )
