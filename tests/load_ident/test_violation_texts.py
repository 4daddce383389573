"""A load violation is texted by the notification rules like every alarm type."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from powerportal.alarms import texting
from powerportal.sms.models import SmsAccount, SmsUsage
from tests.conftest import Harness
from tests.load_ident.helpers import KETTLES, LAPTOPS, ago, load_event, load_site

SMS = "/api/CustomerSms"


async def test_a_kettle_is_texted_to_the_rule_for_load_violations_only(harness: Harness) -> None:
    async with load_site(harness) as site:
        token = site.me.token
        rules = [
            {"name": "宿管", "mobiles": ["13800001111"], "alarm_types": ["load_violation"]},
            {"name": "电工", "mobiles": ["13800002222"], "alarm_types": ["over_current"]},
        ]
        for rule in rules:
            assert (await harness.post(f"{SMS}/AddNotification", rule, token=token))["statusCode"] == 200
        async with harness.ctx.sessions() as session:
            session.add(SmsAccount(customer_sysno=site.me.sysno, balance=10, empty_noticed=0))
            await session.commit()
        texter = texting.AlarmTexter(harness.ctx)
        site.observer.on_alarms = texter.enqueue
        await site.send(load_event(KETTLES[0], ago(2)), load_event(LAPTOPS[0], ago(1), device_id="2"))
        assert texter.queue.qsize() == 1
        texter.start()
        try:
            async with asyncio.timeout(10):
                while True:
                    async with harness.ctx.sessions() as session:
                        usage = (await session.execute(select(SmsUsage.mobile, SmsUsage.status))).all()
                    if usage and all(status != "sending" for _mobile, status in usage):
                        break
                    await asyncio.sleep(0.05)
        finally:
            await texter.stop()
        assert usage == [("13800001111", "sent")]
        sent = (await harness.post(f"{SMS}/GetUsageList", {}, token=token))["data"]["dataSource"]
        assert "101宿舍" in sent[0]["content"] and "违规负荷" in sent[0]["content"]
