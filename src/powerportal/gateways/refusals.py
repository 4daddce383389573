"""The reasons the platform refuses or repairs what a gateway sends, and the owner's view of the counts."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.timeutil import to_display
from powerportal.gateways.models import GatewayRefusal
from powerportal.gateways.schemas import GatewayRefusalRead

# Every reason a gateway's message (or login, or part of a message) is refused or repaired, as the
# owner reads it. docs/gateway-protocol.md lists the same reasons.
REASONS: dict[str, str] = {
    "refused_login": "登录被拒（密钥错误）",
    "refused_client_id": "客户端标识不属于本网关",
    "refused_will": "遗嘱主题越权",
    "refused_connection_limit": "连接数超限",
    "refused_connect_rate": "重连过于频繁",
    "oversize": "消息超长",
    "malformed": "报文格式错误",
    "dollar_topic": "发布到 $ 主题",
    "acl_denied": "主题越权",
    "retain_refused": "保留消息未保存",
    "throttled": "发送过快被限速",
    "garbage": "消息格式错误",
    "wrong_topic": "主题不符合协议",
    "bad_ts": "时间戳无效或超前",
    "values_rejected": "数值越界或未知",
    "cleaned_text": "文本含控制字符（已清理）",
    "capped": "附加数据过大（已丢弃）",
    "device_limit": "设备数超限",
    "stale_source": "旧注册的消息（已丢弃）",
    "before_registration": "旧注册期间的数据（已丢弃）",
}


async def refusals_of(*, session: AsyncSession, gateway_sysno: int) -> list[GatewayRefusalRead]:
    """A gateway's refusal counts, the most frequent first (access already checked)."""
    rows = await session.scalars(
        select(GatewayRefusal)
        .where(GatewayRefusal.gateway_sysno == gateway_sysno)
        .order_by(GatewayRefusal.count.desc(), GatewayRefusal.reason)
    )
    return [
        GatewayRefusalRead(
            reason=row.reason,
            reason_name=REASONS.get(row.reason, row.reason),
            count=row.count,
            last_time=to_display(row.last_time),
            last_detail=row.last_detail,
        )
        for row in rows
    ]


async def refusal_totals(*, session: AsyncSession) -> dict[str, int]:
    """Every gateway's refusals added up by reason, as stored (they outlive restarts)."""
    rows = await session.execute(
        select(GatewayRefusal.reason, func.sum(GatewayRefusal.count)).group_by(GatewayRefusal.reason)
    )
    return {reason: int(total or 0) for reason, total in rows.tuples().all()}
