"""Every account action lands in the operation log, which pages and filters."""

from __future__ import annotations

from sqlalchemy import delete, select

from powerportal.logs.models import OperationLog
from tests.conftest import Harness, login, make_customer, stamped
from tests.core.test_reads import add_log

LIST = "/api/CustomerOperationLog/GetCustomerOperationLogList"


async def test_account_actions_are_logged_with_ip_and_outcome(harness: Harness) -> None:
    await make_customer(harness)
    await make_customer(harness, mobile="13900000002")
    await harness.post(
        "/api/CustomerCenter/LoginByPass", {"mobile": "13900000001", "password": stamped("wrong-1")}
    )
    token = await login(harness)
    await harness.put("/api/CustomerCenter/UpdateCustomer", {"name": "新名字"}, token=token)
    page = (await harness.post(LIST, {"pageIndex": 1, "pageSize": 10}, token=token))["data"]
    assert page["totalCount"] == 3
    kinds = [row["operate_type_name"] for row in page["dataSource"]]
    assert kinds == ["修改信息", "登录", "登录失败"]
    failed = page["dataSource"][-1]
    assert failed["is_success"] == 0 and failed["ip"] == "10.1.2.3"
    assert len(failed["create_time"]) == 19

    only_logins = await harness.post(LIST, {"operate_type": 1}, token=token)
    assert [r["operate_type"] for r in only_logins["data"]["dataSource"]] == [1]
    future = await harness.post(LIST, {"start_time": "2099-01-01 00:00:00"}, token=token)
    assert future["data"] == {"dataSource": [], "totalCount": 0}
    ascending = await harness.post(
        LIST, {"sort": "asc", "orderBy": "create_time", "pageSize": 1}, token=token
    )
    assert ascending["data"]["dataSource"][0]["operate_type_name"] == "登录失败"

    other = await login(harness, mobile="13900000002")
    theirs = (await harness.post(LIST, {}, token=other))["data"]
    assert theirs["totalCount"] == 1


async def test_log_filters_reject_bad_values(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    bad_time = await harness.post(LIST, {"start_time": "yesterday"}, token=token)
    assert bad_time["statusCode"] == 400 and bad_time["message"] == "开始时间格式不正确"
    bad_page = await harness.post(LIST, {"pageSize": 100000}, token=token)
    assert bad_page["message"] == "每页条数过大，不能大于 200"


async def test_operation_types(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    types = (await harness.call("GET", "/api/CustomerOperationLog/GetCustomerOperationType", token=token))[
        "data"
    ]
    assert {"value": 1, "label": "登录"} in types
    assert (await harness.call("GET", "/api/CustomerOperationLog/GetCustomerOperationType"))[
        "statusCode"
    ] == 401


async def test_a_row_another_process_wrote_shows_on_the_next_page(harness: Harness) -> None:
    customer = await make_customer(harness)
    token = await login(harness)
    before = (await harness.post(LIST, {}, token=token))["data"]["dataSource"]
    async with harness.ctx.sessions() as session:  # not through record(): nothing here is told
        session.add(
            OperationLog(
                customer_sysno=customer, operate_type=4, detail="别处写入", ip=None, is_success=False
            )
        )
        await session.commit()
    after = (await harness.post(LIST, {}, token=token))["data"]["dataSource"]
    assert after[0]["detail"] == "别处写入" and after[0]["operate_type_name"] == "修改信息"
    assert after[0]["is_success"] == 0 and after[1:] == before


async def test_an_operation_log_id_stands_for_one_row_forever(harness: Harness) -> None:
    customer = await make_customer(harness)
    await add_log(harness, customer, "旧")
    async with harness.ctx.sessions() as session:
        deleted = await session.scalar(select(OperationLog.sysno).where(OperationLog.detail == "旧"))
        await session.execute(delete(OperationLog).where(OperationLog.sysno == deleted))
        await session.commit()
    await add_log(harness, customer, "新")
    async with harness.ctx.sessions() as session:
        fresh = await session.scalar(select(OperationLog.sysno).where(OperationLog.detail == "新"))
    assert deleted is not None and fresh is not None and fresh > deleted
