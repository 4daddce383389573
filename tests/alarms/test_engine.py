"""The engine on a real ingest: thresholds, device events, dedup, recovery, offline, notices."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from sqlalchemy import select

from powerportal.alarms.models import NoticeCounter
from powerportal.alarms.notices import ALARM
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.logs.models import OfflineLog
from powerportal.telemetry.runtime import _revocation_loop
from tests.alarms.helpers import alarm_field, base, seconds
from tests.conftest import Harness
from tests.factories import make_account, make_project


async def test_over_current_opens_once_and_closes_on_recovery(harness: Harness) -> None:
    async with alarm_field(harness, over_current=40.0) as f:
        t0 = base()
        for i, amps in enumerate([20, 45, 47, 46, 44, 41, 39, 45]):
            await f.telemetry(seconds(t0, 5 * i), current=amps, voltage=220)
        alarms = await f.alarms()
        assert len(alarms) == 1
        alarm = alarms[0]
        assert alarm.alarm_type == "over_current" and alarm.source == "rule" and alarm.level == 3
        assert alarm.threshold == 40.0 and alarm.value == 47.0
        assert alarm.start_time == seconds(t0, 5) and alarm.end_time is None
        assert "过流告警：电流 47 A，阈值 40 A" in alarm.detail
        # Below the 5 % band (38 A) for 10 s closes it.
        for i, amps in enumerate([37, 36, 35]):
            await f.telemetry(seconds(t0, 45 + 5 * i), current=amps, voltage=220)
        closed = (await f.alarms())[0]
        assert closed.end_time == seconds(t0, 45)
        # A new excursion is a new alarm.
        for i in range(3):
            await f.telemetry(seconds(t0, 70 + 5 * i), current=50, voltage=220)
        assert [a.end_time is None for a in await f.alarms()] == [False, True]
        notices = await f.notices()
        assert [(n.notice_type, n.customer_sysno, n.device_id) for n in notices] == [
            (2, f.me.sysno, "1"),
            (2, f.me.sysno, "1"),
        ]
        assert notices[0].source_sysno == alarm.sysno and notices[0].is_read == 0 and notices[0].is_push == 0


async def test_no_threshold_no_rule_alarm(harness: Harness) -> None:
    async with alarm_field(harness) as f:
        t0 = base()
        for i in range(5):
            await f.telemetry(seconds(t0, 5 * i), current=500, voltage=400, temperature=150)
        assert await f.alarms() == []


async def test_device_events_open_and_clear_and_dedup_with_rules(harness: Harness) -> None:
    async with alarm_field(harness, over_current=40.0) as f:
        t0 = base()
        await f.event(t0, "alarm", "over_current", 71.2)
        await f.event(seconds(t0, 1), "alarm", "over_current", 72.0)
        for i in range(4):
            await f.telemetry(seconds(t0, 2 + 5 * i), current=60)
        await f.event(seconds(t0, 30), "alarm", "arc_fault")
        alarms = await f.alarms()
        assert [(a.alarm_type, a.source, a.end_time) for a in alarms] == [
            ("over_current", "device", None),
            ("arc_fault", "device", None),
        ]
        assert alarms[0].value == 71.2 and "上报过流告警" in alarms[0].detail
        await f.event(seconds(t0, 40), "fault_cleared", "over_current")
        assert [a.end_time for a in await f.alarms()] == [seconds(t0, 40), None]
        assert len(await f.notices()) == 2


async def test_a_clear_dated_before_its_alarm_ends_it_as_it_began(harness: Harness) -> None:
    """A late clear, or one stamped by a clock behind the platform's, never gives a negative duration."""
    async with alarm_field(harness) as f:
        t0 = base()
        await f.event(t0, "alarm", "over_voltage", 280)
        await f.event(seconds(t0, -60), "fault_cleared", "over_voltage")
        await f.event(seconds(t0, 120), "alarm", "arc_fault")
        f.engine.reset()  # taken up again from the database after a restart
        await f.event(seconds(t0, 30), "fault_cleared", "arc_fault")
        assert [(a.alarm_type, a.start_time, a.end_time) for a in await f.alarms()] == [
            ("over_voltage", t0, t0),
            ("arc_fault", seconds(t0, 120), seconds(t0, 120)),
        ]


async def test_engine_takes_up_open_alarms_after_a_restart(harness: Harness) -> None:
    async with alarm_field(harness, over_current=40.0, min_seconds=0) as f:
        t0 = base()
        await f.telemetry(t0, current=50)
        f.engine.reset()
        await f.telemetry(seconds(t0, 5), current=55)
        assert len(await f.alarms()) == 1
        await f.telemetry(seconds(t0, 10), current=10)
        assert (await f.alarms())[0].end_time == seconds(t0, 10)


async def test_offline_makes_an_alarm_and_a_type_3_notice_pointing_at_the_spell(harness: Harness) -> None:
    async with alarm_field(harness) as f:
        t0 = base()
        await f.telemetry(t0, current=5)
        await f.ingest.submit(f"gateways/{f.sn}/status", b'{"state": "offline"}')
        await f.ingest.drain()
        alarms = await f.alarms()
        # The gateway's alarm covers its device: one alarm, one notice.
        assert [(a.alarm_type, a.device_sysno, a.device_id) for a in alarms] == [("offline", None, f.sn)]
        notices = await f.notices()
        async with harness.ctx.sessions() as session:
            spell = await session.scalar(select(OfflineLog).where(OfflineLog.device_sysno.is_(None)))
        assert spell is not None
        assert [(n.notice_type, n.source_sysno, n.device_id) for n in notices] == [(3, spell.sysno, f.sn)]
        assert "离线（连接断开）" in notices[0].notice_detail
        await f.telemetry(utcnow(), current=5)
        assert (await f.alarms())[0].end_time is not None


async def test_notices_go_to_the_projects_viewers_only_and_counters_follow(harness: Harness) -> None:
    stranger = await make_account(harness, mobile="13900000009")
    async with alarm_field(harness, leakage_limit=30.0, min_seconds=0) as f:
        await f.telemetry(utcnow() - timedelta(seconds=30), leakage_current=45)
        notices = await f.notices()
        assert [n.customer_sysno for n in notices] == [f.me.sysno]
        async with harness.ctx.sessions() as session:
            counters = (await session.scalars(select(NoticeCounter))).all()
        assert [(c.customer_sysno, c.notice_type, c.total, c.unread) for c in counters] == [
            (f.me.sysno, 2, 1, 1)
        ]
        assert stranger.sysno not in {c.customer_sysno for c in counters}


async def test_removing_a_threshold_closes_its_open_alarm(harness: Harness) -> None:
    import powerportal.alarms.engine as engine_module

    async with alarm_field(harness, over_current=40.0, min_seconds=0) as f:
        t0 = base()
        await f.telemetry(t0, current=50)
        assert (await f.alarms())[0].end_time is None
        async with harness.ctx.sessions() as session:
            device = await session.get(Device, f.device)
            assert device is not None
            device.over_current = None
            await session.commit()
        # The engine reads thresholds again when its copy is older than DEVICE_TTL.
        original = engine_module.DEVICE_TTL
        engine_module.DEVICE_TTL = -1.0
        try:
            await f.telemetry(seconds(t0, 5), current=50)
        finally:
            engine_module.DEVICE_TTL = original
        alarm = (await f.alarms())[0]
        assert alarm.end_time is not None
        await f.telemetry(seconds(t0, 10), current=60)
        assert len(await f.alarms()) == 1


async def test_an_alarm_after_a_move_is_the_new_projects(harness: Harness) -> None:
    """The engine keeps a device's project for a minute; a move (a revocation) makes it read it again."""
    async with alarm_field(harness, over_current=40.0, min_seconds=0) as f:
        sharee = await make_account(harness, "13900000009")
        invite = {"project_sysno": f.project, "mobile": sharee.mobile}
        offer = await harness.post("/api/CustomerShare/AddShare", invite, token=f.me.token)
        assert offer["statusCode"] == 200, offer
        share = {"sysno": offer["data"]["sysno"]}
        assert (await harness.post("/api/CustomerShare/AcceptShare", share, token=sharee.token))[
            "statusCode"
        ] == 200
        t0 = base()
        await f.telemetry(t0, current=10, voltage=220)  # the engine has the device, in the old project
        second = await make_project(harness, f.me.sysno, name="二号园区")
        # The process's own revocation loop reads the move and tells the ingest (and so the engine).
        forgotten = asyncio.Event()
        forget = f.ingest.forget_gateway

        def noted(sn: str, gateway_sysno: int | None = None) -> None:
            forget(sn, gateway_sysno)
            if sn == f.sn:
                forgotten.set()

        f.ingest.forget_gateway = noted  # type: ignore[method-assign]
        loop = asyncio.create_task(_revocation_loop(harness.ctx, None, f.ingest))
        try:
            moved = await harness.put(
                "/api/CustomerGateway/MoveGateway", {"sysno": f.gateway, "project_sysno": second}, f.me.token
            )
            assert moved["statusCode"] == 200, moved
            await asyncio.wait_for(forgotten.wait(), 10)
        finally:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        await f.telemetry(seconds(t0, 5), current=50, voltage=220)
        (alarm,) = await f.alarms()
        assert alarm.project_sysno == second
        told = {n.customer_sysno for n in await f.notices() if n.notice_type == ALARM}
        assert f.me.sysno in told and sharee.sysno not in told  # the old project's sharee cannot see it
