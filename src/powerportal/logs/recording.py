"""Recording the customer operation log: the one part of ``logs`` every domain calls, so it imports only core.

Every domain writes its audit entries through ``record``; the log is read by ``logs.service``.
"""

from __future__ import annotations

from enum import IntEnum

from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.logs.models import OperationLog


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
    BILLING = 60
    LOAD_IDENT = 70


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
    OperateType.BILLING: "电费管理",
    OperateType.LOAD_IDENT: "负荷识别",
}


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
    session.add(
        OperationLog(
            customer_sysno=customer_sysno,
            operate_type=int(operate_type),
            detail=detail[:500],
            ip=ip,
            is_success=success,
        )
    )
