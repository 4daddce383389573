"""SMS alarm notification: rules, templates, recharge orders, sending with a balance, and access."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from powerportal.alarms import texting
from powerportal.alarms.models import Alarm, CustomerNotice, SmsNotificationRule
from powerportal.sms.models import SmsAccount, SmsUsage
from tests.conftest import Harness, make_customer, make_settings, start_harness
from tests.factories import make_account, make_project

SMS = "/api/CustomerSms"
NOON = datetime(2026, 11, 21, 4, 0, tzinfo=UTC)  # 12:00 in Shanghai


def test_quiet_hours() -> None:
    night = datetime(2026, 11, 21, 15, 0, tzinfo=UTC)  # 23:00 in Shanghai
    assert texting.in_quiet_hours("22:00", "07:00", night)
    assert not texting.in_quiet_hours("22:00", "07:00", NOON)
    assert texting.in_quiet_hours("11:00", "13:00", NOON)
    assert not texting.in_quiet_hours("13:00", "14:00", NOON)
    assert not texting.in_quiet_hours(None, None, NOON)


async def test_rules_crud_validation_and_second_customer(harness: Harness) -> None:
    me = await make_account(harness)
    other = await make_account(harness, mobile="13900000002")
    project = await make_project(harness, me.sysno, name="一号园区")
    theirs = await make_project(harness, other.sysno)
    body = {
        "name": "值班电工",
        "mobiles": ["13800001111", "13800002222"],
        "alarm_types": ["over_current", "leakage"],
        "project_sysnos": [project],
        "quiet_start": "22:00",
        "quiet_end": "07:00",
    }
    added = await harness.post(f"{SMS}/AddNotification", body, token=me.token)
    assert added["statusCode"] == 200, added
    rule = added["data"]
    assert (
        rule["alarm_type_names"] == ["漏电", "过流"]
        and rule["project_names"] == ["一号园区"]
        and rule["enabled"] == 1
    )
    for bad, message in (
        ({**body, "mobiles": ["12345"]}, "接收手机号应为 11 位手机号码"),
        ({**body, "mobiles": ["13800000000", "13800000000"]}, "接收手机号有重复"),
        ({**body, "mobiles": []}, "接收手机号项数过少，至少 1 项"),
        ({**body, "alarm_types": ["boom"]}, "告警类型不正确"),
        ({**body, "name": "规" * 65}, "规则名称过长，最多 64 个字符，当前 65 个"),
        ({**body, "quiet_end": None}, "免打扰时段需同时填写开始和结束时间"),
        ({**body, "quiet_start": "25:00"}, "免打扰开始时间格式不正确"),
        ({**body, "project_sysnos": [theirs]}, "项目不存在或无权访问"),
    ):
        answer = await harness.post(f"{SMS}/AddNotification", bad, token=me.token)
        assert answer["statusCode"] in (400, 404) and message in answer["message"], (bad, answer)
    listed = await harness.post(f"{SMS}/GetNotificationList", {}, token=me.token)
    assert [r["sysno"] for r in listed["data"]] == [rule["sysno"]]
    updated = await harness.put(
        f"{SMS}/UpdateNotification",
        {**body, "sysno": rule["sysno"], "enabled": 0, "alarm_types": []},
        token=me.token,
    )
    assert updated["data"]["enabled"] == 0 and updated["data"]["alarm_types"] == []
    # The second customer sees, changes and deletes nothing.
    assert (await harness.post(f"{SMS}/GetNotificationList", {}, token=other.token))["data"] == []
    stolen = await harness.put(
        f"{SMS}/UpdateNotification", {**body, "sysno": rule["sysno"]}, token=other.token
    )
    assert stolen["statusCode"] == 404
    gone = await harness.call(
        "DELETE", f"{SMS}/DeleteNotification", token=other.token, params={"sysno": rule["sysno"]}
    )
    assert gone["statusCode"] == 404
    assert len((await harness.post(f"{SMS}/GetNotificationList", {}, token=me.token))["data"]) == 1
    deleted = await harness.call(
        "DELETE", f"{SMS}/DeleteNotification", token=me.token, params={"sysno": rule["sysno"]}
    )
    assert deleted["statusCode"] == 200
    assert (await harness.post(f"{SMS}/GetNotificationList", {}, token=me.token))["data"] == []


async def test_templates_and_preview(harness: Harness) -> None:
    me = await make_account(harness)
    other = await make_account(harness, mobile="13900000002")
    templates = (await harness.call("GET", f"{SMS}/GetTemplateList", token=me.token))["data"]
    assert [t["template_key"] for t in templates] == ["alarm", "offline"]
    assert templates[0]["customized"] == 0 and {v["key"] for v in templates[0]["variables"]} >= {
        "project",
        "time",
    }
    preview = await harness.post(f"{SMS}/PreviewTemplate", {"template_key": "alarm"}, token=me.token)
    assert "阳光实验学校" in preview["data"]["text"] and preview["data"]["segments"] >= 1
    bad = await harness.put(
        f"{SMS}/UpdateTemplate", {"template_key": "alarm", "content": "{nope} 告警"}, token=me.token
    )
    assert bad["statusCode"] == 400 and "{nope}" in bad["message"]
    saved = await harness.put(
        f"{SMS}/UpdateTemplate",
        {"template_key": "alarm", "content": "{project}{device}{type}告警"},
        token=me.token,
    )
    assert saved["data"]["customized"] == 1 and saved["data"]["content"] == "{project}{device}{type}告警"
    preview = await harness.post(f"{SMS}/PreviewTemplate", {"template_key": "alarm"}, token=me.token)
    assert preview["data"] == {"text": "阳光实验学校101宿舍过流告警", "length": 15, "segments": 1}
    # A multi-line template previews as multi-line text (found by the contract test: it answered 500).
    lines = await harness.post(
        f"{SMS}/PreviewTemplate", {"template_key": "alarm", "content": "{project}\r\n{type}"}, token=me.token
    )
    assert lines["data"]["text"] == "阳光实验学校\r\n过流"
    theirs = (await harness.call("GET", f"{SMS}/GetTemplateList", token=other.token))["data"]
    assert theirs[0]["customized"] == 0
    restored = await harness.put(
        f"{SMS}/UpdateTemplate", {"template_key": "alarm", "content": ""}, token=me.token
    )
    assert restored["data"]["customized"] == 0
    unknown = await harness.put(
        f"{SMS}/UpdateTemplate", {"template_key": "x", "content": "a"}, token=me.token
    )
    assert unknown["statusCode"] == 404


async def test_recharge_confirmed_by_a_brand_administrator(harness: Harness) -> None:
    me = await make_account(harness)
    await make_customer(harness, mobile="13900000099", is_brand_admin=True)
    from tests.conftest import login

    admin = await login(harness, mobile="13900000099")
    order = await harness.post(f"{SMS}/AddRecharge", {"quantity": 500, "remark": "月度"}, token=me.token)
    assert (
        order["statusCode"] == 200
        and order["data"]["amount"] == 25.0
        and order["data"]["state_name"] == "待确认"
    )
    assert (await harness.post(f"{SMS}/AddRecharge", {"quantity": 5}, token=me.token))["statusCode"] == 400
    sysno = order["data"]["sysno"]
    refused = await harness.post(f"{SMS}/ConfirmRecharge", {"sysno": sysno, "approve": True}, token=me.token)
    assert refused["statusCode"] == 403
    assert (await harness.post(f"{SMS}/GetRechargeList", {"all": True}, token=me.token))["statusCode"] == 403
    pending = await harness.post(f"{SMS}/GetRechargeList", {"all": True, "state": 0}, token=admin)
    assert [o["sysno"] for o in pending["data"]["dataSource"]] == [sysno]
    assert (await harness.call("GET", f"{SMS}/GetSmsAccount", token=me.token))["data"]["balance"] == 0
    done = await harness.post(f"{SMS}/ConfirmRecharge", {"sysno": sysno, "approve": True}, token=admin)
    assert done["data"]["state"] == 1 and done["data"]["confirm_time"]
    again = await harness.post(f"{SMS}/ConfirmRecharge", {"sysno": sysno, "approve": True}, token=admin)
    assert again["statusCode"] == 400
    account = (await harness.call("GET", f"{SMS}/GetSmsAccount", token=me.token))["data"]
    assert account["balance"] == 500 and account["sent_total"] == 0 and account["can_confirm"] == 0
    assert (await harness.call("GET", f"{SMS}/GetSmsAccount", token=admin))["data"]["can_confirm"] == 1
    mine = await harness.post(f"{SMS}/GetRechargeList", {}, token=me.token)
    assert mine["data"]["totalCount"] == 1 and mine["data"]["dataSource"][0]["state_name"] == "已到账"


async def test_sending_takes_the_balance_and_stops_with_one_notice(harness: Harness) -> None:
    me = await make_account(harness)
    stranger = await make_account(harness, mobile="13900000002")
    project = await make_project(harness, me.sysno, name="一号园区")
    await harness.post(
        f"{SMS}/AddNotification",
        {"name": "值班", "mobiles": ["13800001111", "13800002222"], "alarm_types": ["over_current"]},
        token=me.token,
    )
    await harness.post(
        f"{SMS}/AddNotification",
        {"name": "夜间静默", "mobiles": ["13800003333"], "quiet_start": "11:00", "quiet_end": "13:00"},
        token=me.token,
    )
    await harness.post(
        f"{SMS}/AddNotification", {"name": "别人", "mobiles": ["13800004444"]}, token=stranger.token
    )
    async with harness.ctx.sessions() as session:
        session.add(SmsAccount(customer_sysno=me.sysno, balance=3, empty_noticed=0))
        await session.commit()

    def alarm(sysno: int, alarm_type: str = "over_current") -> texting.AlarmText:
        return texting.AlarmText(
            sysno=sysno,
            project_sysno=project,
            alarm_type=alarm_type,
            level=3,
            target_name="101宿舍",
            device_id="2",
            detail="电流 41.6 A，阈值 40 A",
            start_time=NOON,
            gateway_sysno=1,
        )

    assert await texting.notify_alarm(ctx=harness.ctx, alarm=alarm(1), now=NOON) == 2
    # A leakage alarm matches no rule outside quiet hours: the all-types rule is quiet at noon.
    assert await texting.notify_alarm(ctx=harness.ctx, alarm=alarm(2, "leakage"), now=NOON) == 0
    assert await texting.notify_alarm(ctx=harness.ctx, alarm=alarm(3), now=NOON) == 1
    assert await texting.notify_alarm(ctx=harness.ctx, alarm=alarm(4), now=NOON) == 0
    async with harness.ctx.sessions() as session:
        usage = (await session.execute(select(SmsUsage.alarm_sysno, SmsUsage.mobile, SmsUsage.status))).all()
        balance = await session.scalar(
            select(SmsAccount.balance).where(SmsAccount.customer_sysno == me.sysno)
        )
        notes = (await session.scalars(select(CustomerNotice).where(CustomerNotice.notice_type == 1))).all()
    assert sorted(usage) == [
        (1, "13800001111", "sent"),
        (1, "13800002222", "sent"),
        (3, "13800001111", "sent"),
        (3, "13800002222", "no_balance"),
        (4, "13800001111", "no_balance"),
        (4, "13800002222", "no_balance"),
    ]
    assert balance == 0
    assert [(n.customer_sysno, n.notice_detail) for n in notes] == [(me.sysno, texting.BALANCE_EMPTY_NOTICE)]
    sent = (await harness.post(f"{SMS}/GetUsageList", {}, token=me.token))["data"]
    assert sent["totalCount"] == 6 and sent["dataSource"][0]["status_name"] == "余额不足"
    assert "101宿舍" in sent["dataSource"][0]["content"]
    assert (await harness.post(f"{SMS}/GetUsageList", {}, token=stranger.token))["data"]["totalCount"] == 0
    account = (await harness.call("GET", f"{SMS}/GetSmsAccount", token=me.token))["data"]
    assert account["sent_total"] == 3 and account["balance"] == 0


async def test_brands_without_sms_config_refuse(database_url: str) -> None:
    # Brand 4 has SmsConfig off (brands.json).
    async for h in start_harness(make_settings(database_url, brand=4)):
        me = await make_account(h)
        for method, path in (
            ("POST", "GetNotificationList"),
            ("GET", "GetTemplateList"),
            ("GET", "GetSmsAccount"),
        ):
            answer = await h.call(
                method, f"{SMS}/{path}", token=me.token, json={} if method == "POST" else None
            )
            assert answer["statusCode"] == 403 and answer["message"] == "当前版本未开放短信配置"


async def test_the_texter_sends_only_for_committed_alarms(harness: Harness) -> None:
    import asyncio
    from datetime import timedelta

    from powerportal.alarms.engine import AlarmEngine
    from powerportal.telemetry.ingest import BatchReport, Transition
    from tests.factories import make_gateway

    me = await make_account(harness)
    project = await make_project(harness, me.sysno, name="一号园区")
    gateway = await make_gateway(harness, project, sn="SMSGW01")
    await harness.post(f"{SMS}/AddNotification", {"name": "值班", "mobiles": ["13800001111"]}, token=me.token)
    texter = texting.AlarmTexter(harness.ctx)
    engine = AlarmEngine(on_opened=texter.enqueue)
    async with harness.ctx.sessions() as session:
        session.add(SmsAccount(customer_sysno=me.sysno, balance=10, empty_noticed=0))
        await session.commit()

    def offline(at: datetime) -> BatchReport:
        change = Transition(gateway_sysno=gateway, device_sysno=None, online=False, at=at, reason="silence")
        return BatchReport(readings=[], events=[], transitions=[change])

    # The engine opens an alarm inside a batch that is then rolled back: nothing is handed on.
    async with harness.ctx.sessions() as session:
        await engine.observe(session, offline(NOON))
        await session.rollback()
    engine.reset()
    assert texter.queue.empty()
    # The same alarm in a batch that commits is handed on once the commit is done.
    report = offline(NOON + timedelta(minutes=1))
    async with harness.ctx.sessions() as session:
        await engine.observe(session, report)
        assert texter.queue.empty(), "nothing before the commit"
        await session.commit()
    await engine.committed(report)
    assert texter.queue.qsize() == 1
    texter.start()
    for _ in range(200):
        if texter.queue.empty():
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)
    await texter.stop()
    async with harness.ctx.sessions() as session:
        kept = await session.scalar(select(Alarm.sysno))
        usage = (await session.execute(select(SmsUsage.alarm_sysno, SmsUsage.status))).all()
    assert usage == [(kept, "sent")]


async def test_a_rule_names_only_the_projects_its_customer_still_sees(harness: Harness) -> None:
    """A share that ends leaves the project in the rule: counted as lost, never named, dropped on save."""
    owner = await make_account(harness)
    holder = await make_account(harness, mobile="13900000002")
    shared = await make_project(harness, owner.sysno, name="甲的项目")
    own = await make_project(harness, holder.sysno, name="乙的项目")
    share = await harness.post(
        "/api/CustomerShare/AddShare", {"project_sysno": shared, "mobile": holder.mobile}, token=owner.token
    )
    sysno = share["data"]["sysno"]
    assert (await harness.post("/api/CustomerShare/AcceptShare", {"sysno": sysno}, token=holder.token))[
        "statusCode"
    ] == 200
    body = {"name": "值班", "mobiles": ["13800001111"], "project_sysnos": [shared, own]}
    both = (await harness.post(f"{SMS}/AddNotification", body, token=holder.token))["data"]
    alone = (
        await harness.post(f"{SMS}/AddNotification", {**body, "project_sysnos": [shared]}, token=holder.token)
    )["data"]
    assert both["project_names"] == ["甲的项目", "乙的项目"] and both["lost_projects"] == 0

    revoked = await harness.post("/api/CustomerShare/RevokeShare", {"sysno": sysno}, token=owner.token)
    assert revoked["statusCode"] == 200
    renamed = await harness.put(
        "/api/CustomerProject/UpdateProject", {"sysno": shared, "name": "甲的新名字"}, token=owner.token
    )
    assert renamed["statusCode"] == 200
    listed = await harness.post(f"{SMS}/GetNotificationList", {}, token=holder.token)
    assert "甲的" not in str(listed)
    rows = {r["sysno"]: r for r in listed["data"]}
    assert [(r["project_sysnos"], r["project_names"], r["lost_projects"]) for r in rows.values()] == [
        ([own], ["乙的项目"], 1),
        ([], [], 1),
    ]
    # Saving the rule as read keeps the projects still seen and drops the lost one.
    saved = await harness.put(
        f"{SMS}/UpdateNotification",
        {**body, "sysno": both["sysno"], "project_sysnos": rows[both["sysno"]]["project_sysnos"]},
        token=holder.token,
    )
    assert saved["statusCode"] == 200 and saved["data"]["lost_projects"] == 0
    # Naming the lost project again is refused as any project it cannot see.
    again = await harness.put(
        f"{SMS}/UpdateNotification", {**body, "sysno": alone["sysno"]}, token=holder.token
    )
    assert again["statusCode"] == 404 and "项目不存在或无权访问" in again["message"]
    async with harness.ctx.sessions() as session:
        kept = await session.get(SmsNotificationRule, alone["sysno"])
        assert kept is not None and kept.project_sysnos == [shared]
