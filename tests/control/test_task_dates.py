"""A one-off task's date at the ends of the calendar is a clear refusal, never a server error."""

from __future__ import annotations

from sqlalchemy import func, select

from powerportal.control.models import TimedTask
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project

ADD = "/api/CustomerTimedTask/AddTask"


async def test_a_date_with_no_utc_instant_is_refused_in_chinese(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    device = await make_device(harness, await make_gateway(harness, project), project)
    base = {"name": "远期", "action": "switch_on", "repeat": "once", "device_sysnos": [device]}
    # The last minute of year 9999 in New York is in year 10000 in UTC; the first of year 1 in
    # Shanghai is in year 0.
    for run_at, zone in (("9999-12-31 23:59", "America/New_York"), ("0001-01-01 00:00", "Asia/Shanghai")):
        body = await harness.post(ADD, {**base, "run_at": run_at, "timezone": zone}, token=owner.token)
        assert (body["statusCode"], body["message"]) == (400, "执行时间超出可设置的范围，请选择近期的日期")
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(TimedTask)) == 0
    # The latest instant that exists is still a task.
    last = await harness.post(
        ADD, {**base, "run_at": "9999-12-31 23:59", "timezone": "Asia/Shanghai"}, token=owner.token
    )
    assert last["statusCode"] == 200, last
    assert last["data"]["run_at"] == last["data"]["next_run"] == "9999-12-31 23:59:00"
