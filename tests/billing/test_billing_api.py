"""Electricity accounts as a manager and as another customer use them: money, charges, power, orders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from powerportal.alarms.models import CustomerNotice
from powerportal.alarms.notices import BILLING
from powerportal.billing import bills, charging, ledger, power
from powerportal.billing.models import BillingAccount, LedgerEntry, PowerAction
from powerportal.core.timeutil import utcnow
from powerportal.energy.counting import quarter_of
from powerportal.energy.observer import EnergyObserver
from powerportal.telemetry import service
from powerportal.telemetry.ingest import BatchReport
from tests.conftest import Harness
from tests.factories import make_account, make_building, make_device, make_gateway, make_project

B = "/api/CustomerElectricity"


async def feed(
    h: Harness, observer: EnergyObserver, device: int, values: list[tuple[datetime, float]]
) -> None:
    """Readings of an energy counter through the energy observer, folded at once (as an idle ingest does)."""
    rows = [
        service.reading_row(device_sysno=device, ts=ts, values={"energy": v}, extra={}) for ts, v in values
    ]
    async with h.ctx.sessions() as session:
        await observer.prepare(session, rows)
        await service.insert_readings(session=session, rows=rows)
        report = BatchReport(readings=rows, events=[], transitions=[])
        await observer.observe(session, report)
        await session.commit()
    await observer.committed(report)
    await observer.settle()


def opened(device: int, **fields: Any) -> dict[str, Any]:
    return {
        "device_sysno": device,
        "holder_name": "张三",
        "holder_mobile": "13812345678",
        "charge_type": 1,
        "flat_price": 1.5,
        "warn_balance": 10,
        "cutoff_balance": 0,
        "opening_balance": 30,
        "method": "cash",
        **fields,
    }


async def charged(h: Harness, devices: list[int]) -> charging.Charged:
    async with h.ctx.sessions() as session:
        done = await charging.charge(session, device_sysnos=devices)
        await session.commit()
    return done


async def backdate(h: Harness, sysno: int, at: datetime) -> None:
    """Have the account opened at ``at`` (the tests feed readings of the past hours)."""
    async with h.ctx.sessions() as session:
        account = await ledger.locked(session, sysno)
        assert account is not None
        account.create_time = at
        for column, value in charging.opening(at, ZoneInfo("Asia/Shanghai")).items():
            setattr(account, column, value)
        await session.commit()


async def account_row(h: Harness, sysno: int) -> BillingAccount:
    async with h.ctx.sessions() as session:
        found = await session.get(BillingAccount, sysno)
        assert found is not None
        return found


async def test_prepaid_account_charges_warns_cuts_once_and_recharge_restores(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000021")
    b = await make_account(h, "13900000022")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, await make_building(h, project))
    device = await make_device(h, gateway, project, rated_current=63)
    observer = EnergyObserver(h.ctx.sessions)
    start = quarter_of(utcnow() - timedelta(hours=3))
    # consumption before the account opened is not the account's
    await feed(h, observer, device, [(start + timedelta(minutes=i), 100 + 0.1 * i) for i in range(30)])

    made = await h.post(f"{B}/AddAccount", opened(device), a.token)
    assert made["statusCode"] == 200, made
    sysno = made["data"]["sysno"]
    assert made["data"]["balance"] == 30.0 and made["data"]["power"] == "on"
    await backdate(h, sysno, start + timedelta(minutes=30))  # opened after the first half hour
    again = await h.post(f"{B}/AddAccount", opened(device), a.token)
    assert again["statusCode"] == 409 and "已有电费账户" in again["message"]
    # the other customer neither sees nor touches it, nor opens one on a device of A's
    assert (await h.post(f"{B}/GetAccountList", {}, b.token))["data"]["totalCount"] == 0
    assert (await h.call("GET", f"{B}/GetAccountDetail", b.token, params={"sysno": sysno}))[
        "statusCode"
    ] == 404
    stolen = await h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 5, "method": "cash"}, b.token
    )
    assert stolen["statusCode"] == 404
    assert (await h.post(f"{B}/AddAccount", opened(device), b.token))["statusCode"] == 404

    # 12 kWh more at 1.5 ¥: 18 ¥ charged, the balance falls to 12 (not yet at the warning level)
    await feed(h, observer, device, [(start + timedelta(minutes=30 + i), 103 + 0.2 * i) for i in range(61)])
    done = await charged(h, [device])
    assert done.entries == 1
    row = await account_row(h, sysno)
    assert row.balance_fen == 3000 - 1800  # not the step from 102.9 to 103, in the quarter before
    assert row.power == "on" and not row.warned
    assert (await charged(h, [device])).entries == 0  # charged once: nothing more without new use

    # 10.3 kWh more: the balance goes below 0 → one warning notice, one cut-off action
    await feed(h, observer, device, [(start + timedelta(minutes=91 + i), 115.1 + 0.3 * i) for i in range(35)])
    done = await charged(h, [device])
    assert done.warnings == [sysno] and done.actions == 1
    row = await account_row(h, sysno)
    assert row.balance_fen < 0 and row.warned and row.power == "cut_pending"
    async with h.ctx.sessions() as session:
        notices = (
            await session.scalars(select(CustomerNotice).where(CustomerNotice.notice_type == BILLING))
        ).all()
        assert [n.customer_sysno for n in notices] == [a.sysno]
        assert "张三" in notices[0].notice_detail and "请及时充值" in notices[0].notice_detail
        actions = (await session.scalars(select(PowerAction))).all()
        assert [(x.action, x.state) for x in actions] == [("switch_off", "pending")]
    # more use: no second warning, no second cut-off
    await feed(h, observer, device, [(start + timedelta(minutes=126 + i), 125.4 + 0.1 * i) for i in range(5)])
    done = await charged(h, [device])
    assert done.warnings == [] and done.actions == 0

    # a recharge above the cut-off level before the cut was sent cancels it
    back = await h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 100, "method": "wechat"}, a.token
    )
    assert back["statusCode"] == 200 and back["data"] == {"count": 1, "restores": 0}
    row = await account_row(h, sysno)
    assert row.power == "on" and not row.warned
    async with h.ctx.sessions() as session:
        states = (await session.scalars(select(PowerAction.state))).all()
        assert states == ["cancelled"]
        assert await ledger.ledger_sum(session, sysno) == row.balance_fen

    detail = await h.call("GET", f"{B}/GetAccountDetail", a.token, params={"sysno": sysno})
    assert detail["statusCode"] == 200
    assert detail["data"]["ledger_total"] == detail["data"]["account"]["balance"]
    assert sum(d["kwh"] for d in detail["data"]["days"]) == pytest.approx(125.8 - 100, abs=0.01)
    entries = await h.post(f"{B}/GetLedgerList", {"account_sysno": sysno, "pageSize": 50}, a.token)
    kinds = [e["kind_name"] for e in entries["data"]["dataSource"]]
    assert kinds.count("充值") == 2 and kinds.count("电费扣费") == 3
    recharges = await h.post(f"{B}/GetLedgerList", {"kind": 1}, a.token)
    assert recharges["data"]["totalCount"] == 2
    assert {e["method_name"] for e in recharges["data"]["dataSource"]} == {"现金", "微信"}


async def test_cut_off_restore_and_quiet_times(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000023")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project, await make_building(h, project))
    device = await make_device(h, gateway, project, rated_current=63)
    made = await h.post(f"{B}/AddAccount", opened(device, opening_balance=0), a.token)
    sysno = made["data"]["sysno"]
    # at 0 the account is at its cut-off level at once
    row = await account_row(h, sysno)
    assert row.power == "cut_pending"

    async with h.ctx.sessions() as session:
        account = await ledger.locked(session, sysno)
        assert account is not None
        # the command went out and was carried out: the account is cut; a recharge restores it once
        account.power, account.cut_command_sysno = "cut", 12345
        await session.execute(
            PowerAction.__table__.update().where(PowerAction.account_sysno == sysno).values(state="done")
        )
        await session.commit()
    paid = await h.post(f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 50, "method": "cash"}, a.token)
    assert paid["data"]["restores"] == 1 and "恢复供电" in paid["message"]
    async with h.ctx.sessions() as session:
        pending = (await session.scalars(select(PowerAction).where(PowerAction.state == "pending"))).all()
        assert [(x.action, x.due_time <= utcnow()) for x in pending] == [("switch_on", True)]

    # quiet times: a cut-off decided at 23:30 Shanghai waits until 07:00; on a holiday, the day after
    quiet = power.Quiet("22:00", "07:00", weekends=True, holidays=frozenset({"2026-12-01"}))
    zone = ZoneInfo("Asia/Shanghai")
    night = datetime(2026, 11, 30, 15, 30, tzinfo=UTC)  # Monday 23:30 in Shanghai
    assert quiet.next_allowed(night, zone) == datetime(2026, 12, 1, 23, 0, tzinfo=UTC)  # Wed 07:00 local
    saturday = datetime(2026, 11, 28, 4, 0, tzinfo=UTC)  # Saturday noon: Monday, once the night is over
    assert quiet.next_allowed(saturday, zone).astimezone(zone) == datetime(2026, 11, 30, 7, 0, tzinfo=zone)
    weekday = datetime(2026, 11, 26, 4, 0, tzinfo=UTC)
    assert quiet.next_allowed(weekday, zone) == weekday

    rule = {"quiet_start": "22:00", "quiet_end": "07:00", "quiet_weekends": True, "holidays": ["2026-12-01"]}
    saved = await h.post(f"{B}/SaveCutoffRule", rule, a.token)
    assert saved["statusCode"] == 200 and saved["data"]["holidays"] == ["2026-12-01"]
    half = await h.post(f"{B}/SaveCutoffRule", {"quiet_start": "22:00"}, a.token)
    assert half["statusCode"] == 400 and "同时填写" in half["message"]
    wrong = await h.post(f"{B}/SaveCutoffRule", {"quiet_start": "25:00", "quiet_end": "07:00"}, a.token)
    assert wrong["statusCode"] == 400 and "禁止断电开始时间" in wrong["message"]


async def test_bad_input_changes_nothing(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000024")
    project = await make_project(h, a.sysno)
    device = await make_device(h, await make_gateway(h, project), project)
    cases = [
        ({**opened(device), "holder_mobile": "12345"}, "户主手机号"),
        ({**opened(device), "holder_name": "x" * 33}, "户主姓名"),
        ({**opened(device), "opening_balance": 1.234}, "开户金额"),
        ({**opened(device), "opening_balance": -5}, "开户金额"),
        ({**opened(device), "flat_price": "abc"}, "固定电价"),
        ({**opened(device), "charge_type": 7}, "计费方式"),
        ({**opened(device), "device_sysno": 99999999}, "设备"),
    ]
    for body, word in cases:
        answer = await h.post(f"{B}/AddAccount", body, a.token)
        assert answer["statusCode"] in (400, 404), (body, answer)
        assert word in answer["message"], (word, answer["message"])
    async with h.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(BillingAccount)) == 0
        assert await session.scalar(select(func.count()).select_from(LedgerEntry)) == 0
    assert (await h.post(f"{B}/Recharge", {"account_sysnos": [], "amount": 5, "method": "cash"}, a.token))[
        "statusCode"
    ] == 400
    assert (await h.post(f"{B}/Recharge", {"account_sysnos": [1], "amount": 0, "method": "cash"}, a.token))[
        "statusCode"
    ] == 400
    unknown = await h.post(
        f"{B}/Recharge", {"account_sysnos": [424242], "amount": 5, "method": "cash"}, a.token
    )
    assert unknown["statusCode"] == 404 and "电费账户" in unknown["message"]


async def test_post_paid_bills_and_business_orders(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000025")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project)
    device = await make_device(h, gateway, project, rated_current=63)
    observer = EnergyObserver(h.ctx.sessions)
    made = await h.post(f"{B}/AddAccount", opened(device, charge_type=3, opening_balance=0), a.token)
    sysno = made["data"]["sysno"]
    assert made["data"]["power"] == "on"  # post-paid accounts are never cut
    start = utcnow().replace(microsecond=0) - timedelta(hours=2)
    await feed(h, observer, device, [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(61)])
    assert (await charged(h, [device])).entries == 0  # post-paid: billed monthly, not charged as used

    # the account opened "last month": the first of next month's run bills it, once
    await backdate(h, sysno, utcnow() - timedelta(days=40))
    next_month = (utcnow().replace(day=1) + timedelta(days=32)).replace(day=2)
    assert await bills.issue_due(h.ctx, now=next_month) == 1
    assert await bills.issue_due(h.ctx, now=next_month) == 0
    found = await h.post(f"{B}/GetBillList", {"account_sysno": sysno}, a.token)
    (bill,) = found["data"]["dataSource"]
    assert bill["kwh"] == pytest.approx(6.0, abs=0.001) and bill["amount"] == 9.0
    assert bill["status"] == 2 and bill["status_name"] == "未结清"
    paid = await h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 9, "method": "transfer"}, a.token
    )
    assert paid["statusCode"] == 200
    found = await h.post(f"{B}/GetBillList", {"account_sysno": sysno}, a.token)
    assert found["data"]["dataSource"][0]["status_name"] == "已结清"

    # 补电 credits after review; a refused order changes nothing
    order = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, "business_type": 1, "amount": 5}, a.token)
    assert order["statusCode"] == 200 and order["data"]["review_state_name"] == "未审核"
    twice = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, "business_type": 1, "amount": 5}, a.token)
    assert twice["statusCode"] == 409
    passed = await h.post(f"{B}/ReviewOrder", {"sysno": order["data"]["sysno"], "approve": True}, a.token)
    assert passed["data"]["done_state_name"] == "已完成"
    assert (await account_row(h, sysno)).balance_fen == 500
    again = await h.post(f"{B}/ReviewOrder", {"sysno": order["data"]["sysno"], "approve": True}, a.token)
    assert again["statusCode"] == 409
    missing = await h.post(f"{B}/AddOrder", {"account_sysno": sysno, "business_type": 3}, a.token)
    assert missing["statusCode"] == 400 and "新户主姓名" in missing["message"]

    # 过户: the old holder settled (use to now billed, the rest refunded), the new one starts at 0
    await feed(h, observer, device, [(start + timedelta(minutes=61 + i), 16 + 0.1 * i) for i in range(10)])
    transfer = await h.post(
        f"{B}/AddOrder",
        {
            "account_sysno": sysno,
            "business_type": 3,
            "new_holder_name": "李四",
            "new_holder_mobile": "13987654321",
        },
        a.token,
    )
    await h.post(f"{B}/ReviewOrder", {"sysno": transfer["data"]["sysno"], "approve": True}, a.token)
    row = await account_row(h, sysno)
    assert row.holder_name == "李四" and row.balance_fen == 0
    # 销户: closed, nothing more can be paid in
    close = await h.post(
        f"{B}/AddOrder", {"account_sysno": sysno, "business_type": 4, "method": "cash"}, a.token
    )
    await h.post(f"{B}/ReviewOrder", {"sysno": close["data"]["sysno"], "approve": True}, a.token)
    row = await account_row(h, sysno)
    assert row.state == 2
    closed = await h.post(
        f"{B}/Recharge", {"account_sysnos": [sysno], "amount": 1, "method": "cash"}, a.token
    )
    assert closed["statusCode"] == 400 and "已销户" in closed["message"]
    async with h.ctx.sessions() as session:
        assert await ledger.ledger_sum(session, sysno) == row.balance_fen
    listed = await h.post(f"{B}/GetOrderList", {"account_sysno": sysno}, a.token)
    assert [o["business_type_name"] for o in listed["data"]["dataSource"]] == ["销户", "过户", "补电"]
    # the device may have a new account now
    assert (await h.post(f"{B}/AddAccount", opened(device), a.token))["statusCode"] == 200


async def test_brand_without_billing_refuses(database_url: str) -> None:
    from tests.conftest import make_settings, start_harness

    async for h in start_harness(make_settings(database_url, brand=3)):
        a = await make_account(h, "13900000026")
        answer = await h.post(f"{B}/GetAccountList", {}, a.token)
        assert answer["statusCode"] == 403 and "电费管理" in answer["message"]


async def test_keep_power_is_never_cut_and_prestore_cuts_past_its_overdraft(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000027")
    project = await make_project(h, a.sysno)
    gateway = await make_gateway(h, project)
    kept = await make_device(h, gateway, project, rated_current=63)
    made = await h.post(f"{B}/AddAccount", opened(kept, opening_balance=0, keep_power=True), a.token)
    assert made["data"]["power"] == "on" and made["data"]["keep_power"] is True  # at 0, yet 保电

    # 预存: the month's bill is drawn from the prestore; past the overdraft the room is cut
    device = await make_device(h, gateway, project, rated_current=63)
    observer = EnergyObserver(h.ctx.sessions)
    body = opened(device, charge_type=2, opening_balance=5, overdraft_limit=3)
    sysno = (await h.post(f"{B}/AddAccount", body, a.token))["data"]["sysno"]
    start = utcnow().replace(microsecond=0) - timedelta(hours=2)
    await feed(h, observer, device, [(start + timedelta(minutes=i), 10 + 0.1 * i) for i in range(61)])
    assert (await charged(h, [device])).entries == 0  # billed monthly
    await backdate(h, sysno, utcnow() - timedelta(days=40))
    next_month = (utcnow().replace(day=1) + timedelta(days=32)).replace(day=2)
    assert await bills.issue_due(h.ctx, now=next_month) == 1
    row = await account_row(h, sysno)
    assert row.balance_fen == 500 - 900 and row.power == "cut_pending"  # 6 kWh × 1.5: −4 < −3
    found = await h.post(f"{B}/GetBillList", {"account_sysno": sysno}, a.token)
    assert found["data"]["dataSource"][0]["status_name"] == "已结清"  # paid from the prestore


async def test_a_backlog_from_before_the_opening_is_not_charged(harness: Harness) -> None:
    h = harness
    a = await make_account(h, "13900000028")
    project = await make_project(h, a.sysno)
    device = await make_device(h, await make_gateway(h, project), project, rated_current=63)
    start = quarter_of(utcnow() - timedelta(days=2))
    sysno = (await h.post(f"{B}/AddAccount", opened(device), a.token))["data"]["sysno"]
    await backdate(h, sysno, start + timedelta(hours=25))  # opened yesterday, an hour past this time
    observer = EnergyObserver(h.ctx.sessions)
    # the gateway was offline: its buffered readings of the day before the opening arrive now
    await feed(h, observer, device, [(start + timedelta(minutes=10 * i), 500 + 0.5 * i) for i in range(151)])
    done = await charged(h, [device])
    assert done.entries == 0 and (await account_row(h, sysno)).balance_fen == 3000
    # the hour after the opening is the account's: 6 readings, 3 kWh at 1.5 ¥
    await feed(
        h, observer, device, [(start + timedelta(minutes=1510 + 10 * i), 575.5 + 0.5 * i) for i in range(6)]
    )
    await charged(h, [device])
    assert (await account_row(h, sysno)).balance_fen == 3000 - 450
