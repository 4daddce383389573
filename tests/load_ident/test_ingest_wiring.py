"""Load events through the real codec and ingest: identified, judged by policy, alarmed, or refused."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import orjson
from sqlalchemy import select

from powerportal.control.models import Command
from powerportal.load_ident.circuits import Mains, synthesise
from powerportal.load_ident.events import MAX_POWER_W
from powerportal.load_ident.observer import SWITCHED_OFF, TOO_LATE
from powerportal.mqtt import codec
from tests.conftest import Harness
from tests.factories import make_project
from tests.load_ident.helpers import KETTLES, LAPTOPS, ago, load_event, load_site


async def test_a_kettle_is_forbidden_alarmed_and_noticed_once_and_a_laptop_is_not(harness: Harness) -> None:
    async with load_site(harness) as site:
        kettle = load_event(KETTLES[0], ago(3))
        await site.send(kettle, load_event(LAPTOPS[0], ago(2), device_id="2"))
        rows = await site.rows()
        assert [(r.appliance, r.forbidden, r.action, r.target_name) for r in rows] == [
            ("电水壶", 1, "alarm", "101宿舍"),
            (rows[1].appliance, 0, "none", "102宿舍"),
        ]
        assert rows[1].appliance != "电水壶"
        assert rows[0].building_sysno == site.building
        assert rows[0].power > 1900 and 0 < rows[0].confidence <= 1
        alarms = await site.alarms()
        assert [(a.alarm_type, a.device_sysno, a.source, a.end_time) for a in alarms] == [
            ("load_violation", site.room, "load", None)
        ]
        assert "电水壶" in alarms[0].detail and "101宿舍" in alarms[0].detail
        assert rows[0].alarm_sysno == alarms[0].sysno
        notices = await site.notices()
        assert [(n.customer_sysno, n.source_sysno) for n in notices] == [(site.me.sysno, alarms[0].sysno)]

        # The same message again (a redelivery) identifies and alarms nothing twice.
        await site.send(kettle)
        assert len(await site.rows()) == 2
        assert len(await site.alarms()) == 1

        # The kettle switching off ends the violation.
        off = load_event(KETTLES[0], ago(1), delta_power=-2100.0, power_series=None)
        off["code"] = "appliance_off"
        await site.send(off)
        alarms = await site.alarms()
        assert alarms[0].end_time is not None
        assert (await site.rows())[-1].action == "none"


async def test_bad_load_events_are_refused_whole_and_counted_as_garbage(harness: Harness) -> None:
    async with load_site(harness) as site:
        at = ago(1)
        bad = [
            load_event(KETTLES[0], at, features={"pf": 0.99}),  # a mis-spelt key
            load_event(KETTLES[0], at, delta_power="2100"),  # a number as text
            load_event(KETTLES[0], at, delta_power=None),  # required
            load_event(KETTLES[0], at, delta_power=1e9),  # out of range
            {**load_event(KETTLES[0], at), "code": "appliance_up"},
            load_event(KETTLES[0], at, power_series={"start_ms": 0, "step_ms": 1000, "active_power": []}),
        ]
        before = site.ingest.stats.garbage
        for event in bad:
            await site.send(event)
        await site.send_raw(b'{"device": "1", "type": "load", "code": "appliance_on", "detail": [1, 2]}')
        assert site.ingest.stats.garbage - before == len(bad) + 1
        assert await site.rows() == []
        # One bad event refuses its whole message: the good one beside it is not half-stored.
        await site.send(load_event(LAPTOPS[0], at), bad[0])
        assert await site.rows() == []


async def test_a_waveform_larger_than_other_event_details_is_kept_for_the_charts(harness: Harness) -> None:
    async with load_site(harness) as site:
        current, voltage = synthesise(
            "resistive_heater", Mains(volts=220, hertz=50), np.random.default_rng(3)
        )
        waveform: dict[str, Any] = {
            "sample_rate_hz": 6400,
            "mains_hz": 50,
            "current_a": [round(float(v), 3) for v in current],
            "voltage_v": [round(float(v), 2) for v in voltage],
        }
        event = load_event(KETTLES[1], ago(1), waveform=waveform)
        assert len(orjson.dumps(event["detail"])) > 4096
        await site.send(event)
        (row,) = await site.rows()
        assert row.has_waveform == 1
        assert len(row.detail["waveform"]["current_a"]) == len(current)
        assert math.isclose(row.detail["waveform"]["voltage_v"][5], waveform["voltage_v"][5])


async def test_policy_record_only_whitelist_and_power_limit(harness: Harness) -> None:
    async with load_site(harness) as site:
        assert (await site.policy(action="record", power_limit=3000))["statusCode"] == 200
        await site.send(load_event(KETTLES[0], ago(5)))
        (row,) = await site.rows()
        assert (row.forbidden, row.action) == (1, "record")
        assert await site.alarms() == []

        # The room may boil water (its 饮水机): whitelisted, not forbidden.
        body = {"device_sysno": site.room, "appliances": ["电水壶"]}
        answer = await harness.post("/api/CustomerLoadIdentify/SaveLoadWhitelist", body, token=site.me.token)
        assert answer["statusCode"] == 200, answer
        await site.send(load_event(KETTLES[1], ago(4)))
        row = (await site.rows())[-1]
        assert (row.forbidden, row.whitelisted, row.action) == (0, 1, "none")

        # A building's override: nothing forbidden by category, any load above 1 kW is; the whitelist
        # does not lift the power limit.
        override = await site.policy(
            building_sysno=site.building, forbidden=[], power_limit=1000, action="alarm"
        )
        assert override["statusCode"] == 200, override
        await site.send(load_event(KETTLES[2], ago(3)))
        row = (await site.rows())[-1]
        assert (row.forbidden, row.whitelisted, row.action) == (1, 0, "alarm")
        assert "超过功率上限 1000 W" in (await site.alarms())[-1].detail
        await site.send(load_event(LAPTOPS[0], ago(2), device_id="2"))
        assert (await site.rows())[-1].forbidden == 0


async def test_a_trip_for_an_offline_breaker_is_refused_in_the_command_log_and_never_repeated(
    harness: Harness,
) -> None:
    async with load_site(harness, online=False) as site:
        assert (await site.policy(action="trip", reclose_minutes=1, max_reclose=2))["statusCode"] == 200
        kettle = load_event(KETTLES[0], ago(2))
        await site.send(kettle)
        assert await site.actions.round() == 1
        (row,) = await site.rows()
        assert (row.action, row.trip_state) == ("trip", "offline")
        async with harness.ctx.sessions() as session:
            commands = (await session.scalars(select(Command))).all()
        assert [(c.action, c.status, c.source, c.device_sysno) for c in commands] == [
            ("switch_off", "offline", "load", site.room)
        ]
        assert row.command_sysno == commands[0].sysno
        # Neither another round nor the same message again sends it twice.
        assert await site.actions.round() == 0
        await site.send(kettle)
        assert await site.actions.round() == 0
        async with harness.ctx.sessions() as session:
            assert len((await session.scalars(select(Command))).all()) == 1


def _switch_offs(start: datetime, seconds: range) -> list[dict[str, Any]]:
    """Small switch-offs on both rooms, second by second: the two rooms share every instant."""
    return [
        {"device": device, "ts": int((start + timedelta(seconds=s)).timestamp() * 1000), "type": "load",
         "code": "appliance_off", "detail": {"delta_power": -50.0}}
        for s in seconds
        for device in ("1", "2")
    ]  # fmt: skip


async def test_a_full_message_of_1000_load_events_is_stored_whole_and_once(harness: Harness) -> None:
    """The protocol allows 1000 events a message: each is stored, and a redelivery stores none again.

    The check for rows already stored was one OR of a condition per event, an expression SQLite
    refuses at that size: the whole message was lost.
    """
    async with load_site(harness) as site:
        start = ago(60)
        first = _switch_offs(start, range(500))
        for message in (first, first, first[500:] + _switch_offs(start, range(500, 750))):
            assert len(message) == 1000
            await site.ingest.submit(codec.topic_for(site.sn, "events"), orjson.dumps(message))
            await site.ingest.drain(timeout=240)
        assert site.ingest.stats.messages_lost == 0, site.ingest.stats
        rows = await site.rows()
        assert len(rows) == 1500
        assert len({(r.device_sysno, r.event_time) for r in rows}) == 1500
        assert {r.device_sysno for r in rows} == {site.room, site.other_room}


async def test_a_switch_off_ends_only_the_violation_of_its_own_project(harness: Harness) -> None:
    """A breaker's switch-off in the project its gateway moved to leaves the old project's alarm open.

    The project moved to may be, after a transfer, another customer's: its data ended the violation
    alarm of the project the violation happened in.
    """
    async with load_site(harness) as site:
        await site.send(load_event(KETTLES[0], ago(30)))
        second = await make_project(harness, site.me.sysno, name="第二校区")
        body = {"sysno": site.gateway, "project_sysno": second}
        moved = await harness.put("/api/CustomerGateway/MoveGateway", body, site.me.token)
        assert moved["statusCode"] == 200, moved

        def off(minutes: float) -> dict[str, Any]:
            event = load_event(KETTLES[0], ago(minutes), delta_power=-2100.0, power_series=None)
            event["code"] = "appliance_off"
            return event

        await site.send(off(20))
        (old,) = await site.alarms()
        assert (old.project_sysno, old.end_time) == (site.project, None)
        # In the project it is in now a switch-off ends that project's violation, and that one alone.
        await site.send(load_event(KETTLES[1], ago(10)))
        await site.send(off(5))
        old, new = await site.alarms()
        assert (old.project_sysno, old.end_time) == (site.project, None)
        assert (new.project_sysno, new.end_time) == (second, (await site.rows())[-1].event_time)


async def test_a_kettle_switched_on_and_off_within_one_message_leaves_no_alarm_open(harness: Harness) -> None:
    """A gateway back from a spell offline sends its backlog at once: the switch-off is in the same message.

    The batch's switch-offs were matched against the alarms stored before it, so the violation it had
    just opened stayed open for good.
    """
    async with load_site(harness) as site:
        off = load_event(KETTLES[0], ago(20), delta_power=-2100.0, power_series=None)
        off["code"] = "appliance_off"
        await site.send(load_event(KETTLES[0], ago(30)), off)
        (alarm,) = await site.alarms()
        assert alarm.end_time == (await site.rows())[-1].event_time
        assert alarm.end_time is not None and alarm.end_time > alarm.start_time


def _off(at: datetime, device_id: str = "1") -> dict[str, Any]:
    event = load_event(KETTLES[0], at, device_id=device_id, delta_power=-2100.0, power_series=None)
    event["code"] = "appliance_off"
    return event


async def test_repeated_violations_of_a_device_are_one_alarm_until_it_switches_off_or_is_processed(
    harness: Harness,
) -> None:
    """A coffee machine's pulses, or a gateway repeating a switch-on, raise one alarm and one notice.

    Each forbidden switch-on opened an alarm of its own, with its notice and text: one machine heating
    in pulses, or careless firmware sending its switch-on every second, flooded the customer's alarms
    and spent their text balance.
    """
    async with load_site(harness) as site:
        first = load_event(KETTLES[0], ago(50))
        await site.send(first)
        await site.send(load_event(KETTLES[1], ago(49)), load_event(KETTLES[2], ago(48)))
        await site.send(load_event(KETTLES[0], ago(47), device_id="2"))  # another room: its own alarm
        rows = await site.rows()
        alarms = await site.alarms()
        assert [(a.device_sysno, a.start_time) for a in alarms] == [
            (site.room, rows[0].event_time),
            (site.other_room, rows[3].event_time),
        ]
        assert [r.alarm_sysno for r in rows] == [alarms[0].sysno] * 3 + [alarms[1].sysno]
        assert [r.action for r in rows] == ["alarm"] * 4  # each switch-on is still recorded as judged
        assert [n.source_sysno for n in await site.notices()] == [a.sysno for a in alarms]

        # Switched off, then on again: a new violation.
        await site.send(_off(ago(45)))
        await site.send(load_event(KETTLES[1], ago(40)))
        alarms = await site.alarms()
        assert len(alarms) == 3 and alarms[0].end_time is not None and alarms[2].end_time is None
        assert (await site.rows())[-1].alarm_sysno == alarms[2].sysno

        # The switch-off lost: a switch-on more than 30 minutes after the open alarm began is a new one.
        await site.send(load_event(KETTLES[2], ago(5)))
        alarms = await site.alarms()
        assert len(alarms) == 4 and (await site.rows())[-1].alarm_sysno == alarms[3].sysno

        # Someone processed it: the next switch-on is news again.
        body = {"sysno": [alarms[3].sysno], "remark": "已没收"}
        processed = await harness.post("/api/CustomerAlarm/ProcessAlarm", body, token=site.me.token)
        assert processed["statusCode"] == 200, processed
        await site.send(load_event(KETTLES[0], ago(4)))
        alarms = await site.alarms()
        assert len(alarms) == 5 and (await site.rows())[-1].alarm_sysno == alarms[4].sysno
        assert len(await site.notices()) == 5

        # A redelivery of the first message changes nothing.
        await site.send(first)
        assert len(await site.alarms()) == 5 and len(await site.rows()) == 8


async def test_a_backlog_in_any_order_holds_each_violation_under_the_alarm_of_its_time(
    harness: Harness,
) -> None:
    """A gateway back from a spell offline sends switch-ons before and after a switch-off, out of order."""
    async with load_site(harness) as site:
        await site.send(load_event(KETTLES[0], ago(20)), load_event(KETTLES[1], ago(30)), _off(ago(25)),
                        load_event(KETTLES[2], ago(29)))  # fmt: skip
        (off,) = [r for r in await site.rows() if r.code == "appliance_off"]
        rows = sorted((r for r in await site.rows() if r.code == "appliance_on"), key=lambda r: r.event_time)
        before, after = await site.alarms()  # opened in the order of the switch-ons
        assert (before.start_time, before.end_time) == (rows[0].event_time, off.event_time)
        assert (after.start_time, after.end_time) == (rows[2].event_time, None)
        assert [r.alarm_sysno for r in rows] == [before.sysno, before.sysno, after.sysno]


async def test_a_switch_on_already_off_or_reported_late_is_alarmed_but_not_tripped(harness: Harness) -> None:
    """A backlog's kettle from ten minutes ago, or on and off within the message, cuts no room now.

    A trip went out for any forbidden switch-on however old: a gateway back from an hour offline had the
    room cut for a kettle that had boiled and switched off long before, and a re-close used.
    """
    async with load_site(harness) as site:
        assert (await site.policy(action="trip", reclose_minutes=1, max_reclose=3))["statusCode"] == 200
        await site.send(load_event(KETTLES[0], ago(10)))
        await site.send(load_event(KETTLES[1], ago(3)), _off(ago(2)))
        await site.send(load_event(KETTLES[2], ago(1), device_id="2"))
        rows = [r for r in await site.rows() if r.code == "appliance_on"]
        assert [(r.target_name, r.forbidden, r.action, r.trip_state, r.trip_reason) for r in rows] == [
            ("101宿舍", 1, "trip", "skipped", TOO_LATE),
            ("101宿舍", 1, "trip", "skipped", SWITCHED_OFF),
            ("102宿舍", 1, "trip", "pending", None),
        ]
        # Each a violation all the same; the one three minutes ago is held under the open one of ten.
        alarms = await site.alarms()
        assert [r.alarm_sysno for r in rows] == [alarms[0].sysno, alarms[0].sysno, alarms[1].sysno]
        assert alarms[0].end_time == (await site.rows())[2].event_time  # the switch-off
        listed = await harness.post(
            "/api/CustomerLoadIdentify/GetLoadEventList", {"device_sysno": site.room}, token=site.me.token
        )
        assert [r["result"] for r in listed["data"]["dataSource"] if r["code"] == "appliance_on"] == [
            "已告警，电器已断开，未跳闸",
            "已告警，上报过晚，未跳闸",
        ]


async def test_a_load_is_weighed_and_stored_at_most_at_the_protocols_100_kw(harness: Harness) -> None:
    """Each point within the protocol's ±100 kW, a series from −100 kW to +100 kW made a 200 kW load."""
    async with load_site(harness) as site:
        series = {"start_ms": -10000, "step_ms": 100, "active_power": [-100000.0] * 100 + [100000.0] * 500}
        await site.send(load_event(KETTLES[0], ago(5), delta_power=2000, power_series=series, features=None))
        (row,) = await site.rows()
        assert row.power == MAX_POWER_W == 100000
        (alarm,) = await site.alarms()
        assert alarm.value == 100000 and "功率 100000 W" in alarm.detail, alarm.detail
        listed = await harness.post("/api/CustomerLoadIdentify/GetLoadEventList", {}, token=site.me.token)
        assert listed["data"]["dataSource"][0]["power"] == 100000
