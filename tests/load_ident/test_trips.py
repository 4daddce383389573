"""Trips through the command path against a running server and simulated gateways that answer commands."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import orjson
from sqlalchemy import select

from powerportal.alarms.models import Alarm
from powerportal.control.models import Command
from powerportal.core.timeutil import utcnow
from powerportal.load_ident.actions import LoadActions
from powerportal.load_ident.models import LoadEvent
from powerportal.load_ident.observer import breaker_still_off
from powerportal.mqtt import codec
from tests.control.conftest import Field, start_field
from tests.factories import make_project
from tests.load_ident.helpers import KETTLES, ago, load_event

API = "/api/CustomerLoadIdentify"


async def _row(f: Field, sysno: int | None = None) -> LoadEvent:
    h = f.h
    async with h.ctx.sessions() as session:
        query = select(LoadEvent).order_by(LoadEvent.sysno.desc()).limit(1)
        found = await session.scalar(
            query if sysno is None else select(LoadEvent).where(LoadEvent.sysno == sysno)
        )
        assert found is not None
        return found


async def _trip_policy(f: Field, **rules: object) -> LoadActions:
    """Save a policy that trips kettles (``rules`` on top); answer the action worker."""
    policy = {"project_sysno": f.project_sysno, "forbidden": ["电水壶"], "power_limit": 2500,
              "action": "trip", "reclose_minutes": 1, "max_reclose": 1} | rules  # fmt: skip
    assert (await f.h.post(f"{API}/SaveLoadPolicy", policy, token=f.owner.token))["statusCode"] == 200
    assert f.h.runtime.load_actions is not None
    return f.h.runtime.load_actions


async def _switch_on(f: Field, *minutes_ago: float) -> None:
    """Kettles switched on in room 2 of the first gateway, in one message; wait until they are stored."""
    ingest = f.h.runtime.telemetry.ingest  # type: ignore[union-attr]
    events = [load_event(KETTLES[0], ago(minutes), device_id="2") for minutes in minutes_ago]
    await ingest.submit(codec.topic_for(f.gateways[0][0], "events"), orjson.dumps(events))
    await ingest.drain()


async def _load_commands(f: Field) -> list[str]:
    """The actions of the commands load identification sent, oldest first."""
    async with f.h.ctx.sessions() as session:
        query = select(Command.action).where(Command.source == "load").order_by(Command.sysno)
        return list((await session.scalars(query)).all())


async def _kettle(f: Field, minutes_ago: float) -> LoadEvent:
    """A kettle switched on in room 2 of the first gateway; its row once the trip was sent."""
    await _switch_on(f, minutes_ago)
    async with asyncio.timeout(15):
        while (row := await _row(f)).trip_state in ("pending", "sending"):
            await asyncio.sleep(0.1)
    return row


async def _close_by_hand(f: Field, device_sysno: int) -> None:
    """Switch a tripped breaker on before its re-close (here remotely, by the owner)."""
    body = {"device_sysno": device_sysno, "action": "switch_on"}
    closed = await f.h.post("/api/CustomerControl/SendCommand", body, token=f.owner.token)
    assert closed["statusCode"] == 200, closed
    await f.settle()
    assert (await f.device(device_sysno)).switch_state == 1


async def test_a_kettle_trips_its_breaker_which_recloses_then_stays_locked_until_unlocked(
    database_url: str,
) -> None:
    async for f in start_field(database_url, devices_per_gateway=2):
        await _scenario(f)


async def _scenario(f: Field) -> None:
    """A kettle in room 2, twice, under a policy that trips and re-closes once a day."""
    h, token = f.h, f.owner.token
    actions = await _trip_policy(f, forbidden=["电水壶", "电热器/取暖器"])
    row = await _kettle(f, 3)
    assert (row.appliance, row.forbidden, row.trip_state) == ("电水壶", 1, "done")
    assert row.reclose_state == "pending"
    await f.settle()
    device = await f.device(row.device_sysno)
    assert device.switch_state == 0
    async with h.ctx.sessions() as session:
        trip = await session.get(Command, row.command_sysno)
    assert trip is not None
    assert (trip.action, trip.status, trip.source, trip.customer_sysno) == (
        "switch_off",
        "succeeded",
        "load",
        None,
    )

    # Not due yet; due a minute later: closed again through the command path.
    assert await actions.send_recloses(utcnow()) == 0
    assert await actions.send_recloses(utcnow() + timedelta(minutes=2)) == 1
    row = await _row(f, row.sysno)
    assert row.reclose_state == "done"
    await f.settle()
    assert (await f.device(row.device_sysno)).switch_state == 1

    # The day's one re-close is used: the next violation leaves the breaker off until unlocked.
    second = await _kettle(f, 1)
    assert (second.trip_state, second.reclose_state) == ("done", "locked")
    listed = await h.post(f"{API}/GetLoadEventList", {"device_sysno": second.device_sysno}, token=token)
    first_row = listed["data"]["dataSource"][0]
    assert first_row["result"] == "已跳闸，已锁定（待解锁）" and first_row["can_unlock"] is True
    answer = await h.post(f"{API}/UnlockLoadDevice", {"sysno": second.sysno}, token=token)
    assert answer["statusCode"] == 200, answer
    assert (await _row(f, second.sysno)).reclose_state == "unlocked"
    again = await h.post(f"{API}/UnlockLoadDevice", {"sysno": second.sysno}, token=token)
    assert again["statusCode"] != 200 and "无需解锁" in again["message"]
    assert await _load_commands(f) == ["switch_off", "switch_on", "switch_off", "switch_on"]


async def test_a_breaker_that_left_the_project_is_neither_reclosed_nor_unlocked_from_its_old_events(
    database_url: str,
) -> None:
    async for f in start_field(database_url, devices_per_gateway=2):
        await _moved_scenario(f)


async def _moved_scenario(f: Field) -> None:
    """Two kettles trip room 2 (the first to be re-closed, the second locked), then its gateway moves on.

    The re-close falls due in the other project, and the lock belongs to an event of the old one:
    neither switches the breaker on there (after a transfer that project is another customer's).
    """
    h, token = f.h, f.owner.token
    actions = await _trip_policy(f)
    first = await _kettle(f, 3)
    await _close_by_hand(f, first.device_sysno)  # else the second kettle could not be on: no second trip
    second = await _kettle(f, 2)
    assert (first.reclose_state, second.reclose_state) == ("pending", "locked")

    other = await make_project(h, f.owner.sysno, name="另一个项目")
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway", {"sysno": f.gateways[0][1], "project_sysno": other}, token
    )
    assert moved["statusCode"] == 200, moved

    assert await actions.send_recloses(utcnow() + timedelta(minutes=2)) == 0
    first = await _row(f, first.sysno)
    assert first.reclose_state == "moved"
    refused = await h.post(f"{API}/UnlockLoadDevice", {"sysno": second.sysno}, token=token)
    assert refused["statusCode"] != 200 and "移出" in refused["message"], refused
    assert (await _row(f, second.sysno)).reclose_state == "locked"
    listed = await h.post(f"{API}/GetLoadEventList", {"device_sysno": first.device_sysno}, token=token)
    by_sysno = {r["sysno"]: r for r in listed["data"]["dataSource"]}
    assert by_sysno[first.sysno]["result"] == "已跳闸，设备已移出该项目，未自动合闸"
    assert by_sysno[first.sysno]["can_unlock"] is False
    await f.settle()
    assert (await f.device(first.device_sysno)).switch_state == 0
    assert await _load_commands(f) == ["switch_off", "switch_off"]


async def test_a_reclose_turned_off_after_the_trip_leaves_the_breaker_locked(database_url: str) -> None:
    async for f in start_field(database_url, devices_per_gateway=2):
        await _turned_off_scenario(f)


async def _turned_off_scenario(f: Field) -> None:
    """The room trips and a re-close is due in a minute; meanwhile the owner turns re-closing off."""
    h, token = f.h, f.owner.token
    actions = await _trip_policy(f, max_reclose=3)
    row = await _kettle(f, 2)
    assert (row.trip_state, row.reclose_state) == ("done", "pending")

    await _trip_policy(f, reclose_minutes=0, max_reclose=0)
    assert await actions.send_recloses(utcnow() + timedelta(minutes=2)) == 0
    row = await _row(f, row.sysno)
    assert row.reclose_state == "locked"
    listed = await h.post(f"{API}/GetLoadEventList", {"device_sysno": row.device_sysno}, token=token)
    assert listed["data"]["dataSource"][0]["can_unlock"] is True
    await f.settle()
    assert (await f.device(row.device_sysno)).switch_state == 0
    assert await _load_commands(f) == ["switch_off"]


async def test_switch_ons_repeated_while_the_trip_holds_the_breaker_off_are_not_tripped_again(
    database_url: str,
) -> None:
    async for f in start_field(database_url, devices_per_gateway=2):
        await _repeated_scenario(f)


async def _repeated_scenario(f: Field) -> None:
    """Firmware repeats a kettle's switch-on: one trip, one alarm, and the day's re-closes untouched.

    Each repeat was tripped again: a switch-off command, an alarm and a text each, and one of the day's
    re-closes each, so one kettle locked the room within seconds.
    """
    h, token = f.h, f.owner.token
    actions = await _trip_policy(f, max_reclose=2)
    first = await _kettle(f, 3)
    assert (first.trip_state, first.reclose_state) == ("done", "pending")
    await _switch_on(f, 2.9, 2.8, 2.7)  # the gateway repeats it
    assert await actions.round() == 0
    async with h.ctx.sessions() as session:
        rows = (await session.scalars(select(LoadEvent).order_by(LoadEvent.sysno))).all()
        alarms = (await session.scalars(select(Alarm).where(Alarm.alarm_type == "load_violation"))).all()
    assert [(r.forbidden, r.trip_state, r.reclose_state, r.alarm_sysno) for r in rows[1:]] == [
        (1, "skipped", None, first.alarm_sysno)
    ] * 3
    assert [a.sysno for a in alarms] == [first.alarm_sysno] and await _load_commands(f) == ["switch_off"]
    listed = await h.post(f"{API}/GetLoadEventList", {"device_sysno": first.device_sysno}, token=token)
    assert listed["data"]["dataSource"][0]["result"] == "已由前次跳闸断开"

    # Closed by hand since: the next switch-on is tripped again.
    await _close_by_hand(f, first.device_sysno)
    again = await _kettle(f, 1)
    assert (again.trip_state, again.reclose_state) == ("done", "pending")
    assert again.alarm_sysno not in (None, first.alarm_sysno)


def test_a_tripped_breaker_counts_as_off_until_it_reports_itself_on() -> None:
    """Whose trip holds a breaker off; one that reports no switch state, for 30 minutes only.

    A lock whose breaker never said it was closed held every later switch-on untripped for good.
    """
    now = utcnow()
    tripped = now - timedelta(hours=2)
    after, before = tripped + timedelta(minutes=1), tripped - timedelta(minutes=1)
    assert breaker_still_off(tripped, 0, after, now)  # reported off since: off until it says otherwise
    assert not breaker_still_off(tripped, 1, after, now)  # reported on since: closed by hand
    assert not breaker_still_off(tripped, 1, before, now)  # nothing since, two hours ago: no longer assumed
    assert breaker_still_off(now - timedelta(minutes=5), 1, before, now)  # nothing since, five minutes ago
    assert not breaker_still_off(tripped, None, None, now)
    assert not breaker_still_off(None, 0, after, now)
