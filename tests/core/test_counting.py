"""Remembered counts are reused until their scope is written to."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select

from powerportal.logs.models import OperationLog
from powerportal.logs.service import OperateType, record
from tests.conftest import Harness, make_customer


async def test_count_is_remembered_until_the_scope_is_written(harness: Harness) -> None:
    customer = await make_customer(harness)
    counts = harness.ctx.counts
    statement = (
        select(func.count())
        .select_from(OperationLog)
        .where(OperationLog.customer_sysno == bindparam("customer"))
    )
    params = {"customer": customer}
    reads = harness.ctx.reads
    scope = ("operation_log", customer)
    async with harness.ctx.sessions() as session:
        assert await counts.count(reads, scope=scope, key=None, statement=statement, params=params) == 0
        session.add(
            OperationLog(customer_sysno=customer, operate_type=1, detail="旁路写入", ip=None, is_success=True)
        )
        await session.commit()
        assert await counts.count(reads, scope=scope, key=None, statement=statement, params=params) == 0, (
            "remembered"
        )
        record(
            session=session, customer_sysno=customer, operate_type=OperateType.LOGIN, detail="登录", ip=None
        )
        await session.commit()
        assert await counts.count(reads, scope=scope, key=None, statement=statement, params=params) == 2
