"""Every list route answers through the one list mechanism in the shape its OpenAPI document promises.

The rows are rendered straight from columns (no model is built per row), so this test holds every
renderer to its documented ``Page[XRead]``: each list is filled, called, and its answer validated
against the route's own response model; a second customer sees none of the rows.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy import select

from powerportal.alarms import notices
from powerportal.alarms.models import Alarm
from powerportal.billing.models import Bill
from powerportal.control.models import Command, ControlRun
from powerportal.core.timeutil import utcnow
from powerportal.dashboard.models import KioskLink
from powerportal.load_ident.models import LoadEvent
from powerportal.logs.recording import OperateType, record
from powerportal.shares.models import ProjectShare, ProjectTransfer
from powerportal.sms.models import SmsRecharge, SmsUsage
from tests.conftest import Harness, make_customer
from tests.factories import (
    Account,
    make_account,
    make_building,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
    make_status_log,
)

LOGIN = OperateType.LOGIN


def list_routes(harness: Harness) -> dict[str, type[BaseModel]]:
    """Path → response model of every route that answers a page."""
    found = {}
    for route in harness.app.routes:
        if not isinstance(route, APIRoute) or not isinstance(route.response_model, type):
            continue  # no model, or a union of answers (SendCommand's), which is never a page
        field = route.response_model.model_fields.get("data")
        if field is None:
            continue  # not the envelope (EMQX's BrokerAuth answers are EMQX's shape)
        data = field.annotation
        if isinstance(data, type) and data.__name__.startswith("Page["):
            found[route.path] = route.response_model
    return found


async def fill(harness: Harness, owner: Account) -> None:
    """At least one row in every list of the owner."""
    project = await make_project(harness, owner.sysno, name="列表项目")
    building = await make_building(harness, project)
    gateway = await make_gateway(harness, project, building, online=True)
    device = await make_device(harness, gateway, project, online=1)
    await make_offline_log(harness, project, gateway)
    await make_status_log(harness, project, gateway)
    now = utcnow()
    async with harness.ctx.sessions() as session:
        record(
            session=session,
            customer_sysno=owner.sysno,
            operate_type=OperateType.LOGIN,
            detail="登录",
            ip=None,
        )
        alarm = Alarm(
            project_sysno=project,
            gateway_sysno=gateway,
            device_sysno=device,
            device_id="1",
            target_name="101宿舍",
            alarm_type="over_current",
            level=3,
            source="rule",
            value=41.6,
            threshold=40.0,
            detail="过流",
            start_time=now - timedelta(minutes=5),
            process_state=0,
        )
        session.add(alarm)
        await session.flush()
        await notices.send(
            session=session,
            notices=[
                notices.NewNotice(
                    project_sysno=project,
                    notice_type=notices.ALARM,
                    device_id="1",
                    detail="过流",
                    source_sysno=alarm.sysno,
                )
            ],
        )
        run = ControlRun(
            customer_sysno=owner.sysno, kind="group", name="一组", action="switch_off", total=1, status="done"
        )
        session.add(run)
        await session.flush()
        session.add(
            Command(
                project_sysno=project,
                gateway_sysno=gateway,
                device_sysno=device,
                customer_sysno=owner.sysno,
                run_sysno=run.sysno,
                source="group",
                operator="测试",
                target_name="101宿舍",
                gateway_sn="GW",
                device_id="1",
                action="switch_off",
                status="succeeded",
                sent_time=now,
                answer_time=now + timedelta(milliseconds=80),
                create_time=now,
            )
        )
        session.add(
            SmsUsage(
                customer_sysno=owner.sysno,
                mobile="13800001111",
                content="告警",
                status="sent",
                create_time=now,
            )
        )
        session.add(
            SmsRecharge(customer_sysno=owner.sysno, quantity=100, amount=5.0, state=0, create_time=now)
        )
        await session.commit()
    group = await harness.post(
        "/api/CustomerGroup/AddGroup", {"name": "宿舍回路", "device_sysnos": [device]}, token=owner.token
    )
    assert group["statusCode"] == 200, group
    task = await harness.post(
        "/api/CustomerTimedTask/AddTask",
        {
            "name": "夜间断电",
            "action": "switch_off",
            "repeat": "weekly",
            "weekdays": [1, 2, 3, 4, 5, 6, 7],
            "times": ["23:00"],
            "device_sysnos": [device],
        },
        token=owner.token,
    )
    assert task["statusCode"] == 200, task
    plan = await harness.post(
        "/api/CustomerEnergy/AddTariffPlan",
        {
            "name": "平价",
            "version": {
                "effective_date": "2024-01-01",
                "prices": {"flat": 0.6},
                "seasons": [{"name": "全年", "months": list(range(1, 13)), "slots": "2" * 48}],
            },
        },
        token=owner.token,
    )
    assert plan["statusCode"] == 200, plan
    today = utcnow().date().isoformat()
    job = await harness.post(
        "/api/CustomerReport/CreateReportJob",
        {"kind": "energy", "query": {"project_sysno": project, "date": today}},
        token=owner.token,
    )
    assert job["statusCode"] == 200, job
    subscription = await harness.post(
        "/api/CustomerReport/SaveReportSubscription",
        {"name": "月报", "kind": "alarm", "frequency": "month", "query": {"project_sysno": project}},
        token=owner.token,
    )
    assert subscription["statusCode"] == 200, subscription
    # electricity billing: a post-paid account (its opening payment in the ledger), an order and a bill
    account = await harness.post(
        "/api/CustomerElectricity/AddAccount",
        {
            "device_sysno": device,
            "holder_name": "张三",
            "charge_type": 3,
            "opening_balance": 5,
            "method": "cash",
        },
        token=owner.token,
    )
    assert account["statusCode"] == 200, account
    order = await harness.post(
        "/api/CustomerElectricity/AddOrder",
        {"account_sysno": account["data"]["sysno"], "business_type": 1, "amount": 2},
        token=owner.token,
    )
    assert order["statusCode"] == 200, order
    async with harness.ctx.sessions() as session:
        session.add(
            Bill(
                account_sysno=account["data"]["sysno"],
                customer_sysno=owner.sysno,
                month="2026-10",
                kwh=1.0,
                periods=[{"kwh": 1.0, "cost": 0.6}] + [{"kwh": 0.0, "cost": 0.0}] * 4,
                amount_fen=60,
                status=2,
                create_time=now,
            )
        )
        await session.commit()
    # load identification: one identified switch-on
    async with harness.ctx.sessions() as session:
        session.add(
            LoadEvent(
                project_sysno=project,
                building_sysno=building,
                gateway_sysno=gateway,
                device_sysno=device,
                device_id="1",
                target_name="101宿舍",
                event_time=now,
                code="appliance_on",
                delta_power=2000.0,
                power=2000.0,
                appliance="电水壶",
                confidence=0.9,
                forbidden=1,
                whitelisted=0,
                action="alarm",
                has_waveform=0,
                detail={"delta_power": 2000.0},
            )
        )
        await session.commit()
    # shares and transfers: one given to a third account (the stranger of the test must see none)
    third = await make_customer(harness, mobile="13900000003")
    async with harness.ctx.sessions() as session:
        session.add(
            ProjectShare(
                project_sysno=project,
                sharer_sysno=owner.sysno,
                grantee_sysno=third,
                permission=1,
                status="pending",
                invite_expire_time=now + timedelta(days=7),
            )
        )
        session.add(
            ProjectTransfer(
                project_sysno=project,
                project_name="列表项目",
                from_sysno=owner.sysno,
                to_sysno=third,
                status="pending",
                expire_time=now + timedelta(hours=72),
            )
        )
        await session.commit()
    # the data dashboard's kiosk links
    async with harness.ctx.sessions() as session:
        session.add(
            KioskLink(
                customer_sysno=owner.sysno,
                name="大厅",
                token_hash="0" * 64,
                expire_time=now + timedelta(days=30),
            )
        )
        await session.commit()


async def test_every_list_answers_its_documented_page(harness: Harness) -> None:
    owner = await make_account(harness)
    stranger = await make_account(harness, mobile="13900000002")
    await fill(harness, owner)
    routes = list_routes(harness)
    assert len(routes) >= 14, sorted(routes)
    for path, model in routes.items():
        answer = await harness.post(path, {"pageIndex": 1, "pageSize": 20}, token=owner.token)
        assert answer["statusCode"] == 200, (path, answer)
        model.model_validate(answer)  # every row as the document describes it
        page = answer["data"]
        assert page["dataSource"] and page["totalCount"] == len(page["dataSource"]), (path, page)
        theirs = (await harness.post(path, {}, token=stranger.token))["data"]["dataSource"]
        assert not {r["sysno"] for r in theirs} & {r["sysno"] for r in page["dataSource"]}, (path, theirs)


async def test_pages_read_project_by_project_are_the_pages_of_the_whole_log(harness: Harness) -> None:
    owner = await make_account(harness)
    projects = [await make_project(harness, owner.sysno, name=f"项目{n}") for n in range(3)]
    gateways = [await make_gateway(harness, p) for p in projects]
    start = utcnow() - timedelta(hours=5)
    async with harness.ctx.sessions() as session:
        for i in range(41):
            p = i % 3 if i % 5 else 0  # uneven: the first project holds most rows
            session.add(
                Alarm(
                    project_sysno=projects[p],
                    gateway_sysno=gateways[p],
                    device_id="1",
                    target_name=f"回路{i}",
                    alarm_type="over_current" if i % 2 else "leakage",
                    level=3,
                    source="rule",
                    detail="过流",
                    # Ties on the time too: the id must break them the same way in every read.
                    start_time=start + timedelta(minutes=i // 2),
                    process_state=0,
                )
            )
        await session.commit()
        expected = [
            (a.start_time, a.sysno, a.alarm_type) for a in (await session.scalars(select(Alarm))).all()
        ]
    newest_first = [sysno for _t, sysno, _k in sorted(expected, reverse=True)]
    seen = []
    for index in range(1, 6):
        page = await harness.post(
            "/api/CustomerAlarm/GetAlarmList", {"pageIndex": index, "pageSize": 9}, token=owner.token
        )
        assert page["data"]["totalCount"] == 41
        seen += [row["sysno"] for row in page["data"]["dataSource"]]
    assert seen == newest_first
    oldest_first = await harness.post(
        "/api/CustomerAlarm/GetAlarmList", {"pageSize": 50, "sort": "asc"}, token=owner.token
    )
    assert [row["sysno"] for row in oldest_first["data"]["dataSource"]] == newest_first[::-1]
    leakage = await harness.post(
        "/api/CustomerAlarm/GetAlarmList", {"pageSize": 5, "alarm_type": "leakage"}, token=owner.token
    )
    assert [row["sysno"] for row in leakage["data"]["dataSource"]] == [
        sysno for _t, sysno, kind in sorted(expected, reverse=True) if kind == "leakage"
    ][:5]
