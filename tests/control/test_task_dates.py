"""Task times and dates at the edges: a clear refusal, never a 500 or a time stored in another form."""

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


async def test_times_of_day_are_ascii_digits(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    device = await make_device(harness, await make_gateway(harness, project), project)
    base = {
        "name": "每周",
        "action": "switch_on",
        "repeat": "weekly",
        "weekdays": [1],
        "device_sysnos": [device],
    }
    # A full-width, Arabic-Indic or superscript digit is no HH:mm (and "0８:00" would sit beside "08:00").
    for text in ("0８:00", "0٨:00", "0²:00", "08:0٠"):
        body = await harness.post(ADD, {**base, "times": ["08:00", text]}, token=owner.token)
        assert (body["statusCode"], body["message"]) == (400, f"执行时间中的 {text} 应为 HH:mm 格式"), body
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(TimedTask)) == 0
