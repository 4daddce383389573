"""Dates that cannot be carried out are refused when they are sent, not stored to be refused later."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from powerportal.billing.models import BillingRule, BusinessOrder
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from tests.billing.test_billing_api import opened
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project

B = "/api/CustomerElectricity"


async def test_a_meter_change_order_with_no_such_time_or_a_future_one_is_not_taken(harness: Harness) -> None:
    h = harness
    me = await make_account(h, "13900000043")
    project = await make_project(h, me.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    sysno = (await h.post(f"{B}/AddAccount", opened(device), me.token))["data"]["sysno"]
    change = {"account_sysno": sysno, "business_type": 2, "old_final": 100, "new_initial": 0}
    tomorrow = (utcnow() + timedelta(days=1)).astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M:%S")
    for when, message in (
        ("2025-02-30 10:00:00", "换表时间无效"),
        ("2025-13-01 10:00:00", "换表时间无效"),
        ("2025-06-01 24:00:00", "换表时间无效"),
        ("0001-01-01 00:00:00", "换表时间无效"),  # was stored, and its review answered 500
        (tomorrow, "换表时间不能晚于当前时间"),
    ):
        answer = await h.post(f"{B}/AddOrder", {**change, "change_time": when}, me.token)
        assert answer["statusCode"] == 400 and answer["message"] == message, (when, answer)
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(BusinessOrder)) == 0

    earlier = (utcnow() - timedelta(hours=1)).astimezone(CUSTOMER_TZ).strftime("%Y-%m-%d %H:%M:%S")
    taken = await h.post(f"{B}/AddOrder", {**change, "change_time": earlier}, me.token)
    assert taken["statusCode"] == 200 and taken["data"]["details"]["change_time"] == earlier


async def test_cutoff_rule_refuses_days_that_do_not_exist_naming_the_field(harness: Harness) -> None:
    h = harness
    me = await make_account(h, "13900000044")
    for holidays, message in (
        (["2026-13-45"], "节假日第 1 项不是有效的日期"),
        (["2026-10-01", "2026-02-30"], "节假日第 2 项不是有效的日期"),
        (["2026-10-1"], "节假日第 1 项格式不正确"),
    ):
        saved = await h.post(f"{B}/SaveCutoffRule", {"holidays": holidays}, me.token)
        assert saved["statusCode"] == 400 and saved["message"] == message, (holidays, saved)
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(BillingRule)) == 0

    leap = await h.post(f"{B}/SaveCutoffRule", {"holidays": ["2028-02-29", "2026-10-01"]}, me.token)
    assert leap["statusCode"] == 200 and leap["data"]["holidays"] == ["2026-10-01", "2028-02-29"]
