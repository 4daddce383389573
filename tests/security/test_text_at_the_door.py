"""Text is cleaned at the door: users are refused, gateways cleaned and counted, stored text served clean."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import String, Text, text

from powerportal.core.text import FORBIDDEN
from powerportal.gateways.models import Gateway
from powerportal.models import Base
from powerportal.mqtt import codec
from tests.security.conftest import Edge, reading
from tests.security.rawmqtt import RawClient, RawWill

BAD = "\u202e\x01\x07\u2066"
# Columns holding text that came from a user or a gateway.
OUTSIDE_TEXT = {
    "name", "remark", "model", "firmware", "detail", "content", "target_name", "address", "contact_name",
    "process_remark", "notice_detail", "reason", "operator", "email", "screen_title",
}  # fmt: skip


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    return []


def page_paths(edge: Edge) -> list[str]:
    """Every route answering a page, read from the application."""
    paths = []
    for route in edge.h.app.routes:
        # A union of answers (SendCommand's) is never a page.
        if isinstance(route, APIRoute) and isinstance(route.response_model, type):
            field = route.response_model.model_fields.get("data")  # EMQX's BrokerAuth answers have none
            data = field.annotation if field is not None else None
            if isinstance(data, type) and data.__name__.startswith("Page["):
                paths.append(route.path)
    return paths


async def fill(edge: Edge) -> None:
    """A gateway with devices, readings, an alarm event, a switch and an offline spell; a group and a task."""
    gw = await edge.register(edge.a, edge.a_project)
    devices = [codec.AnnouncedDevice(device_id=str(n), name=f"回路{n}") for n in (1, 2)]
    will = RawWill(codec.topic_for(gw.sn, "status"), codec.encode_status(online=False))
    client, code = await RawClient.login("127.0.0.1", edge.port, gw.sn, gw.sn, gw.secret, will=will)
    assert code == 0
    async with edge.client(gw.sn, gw.secret) as mqtt:
        await mqtt.publish(
            codec.topic_for(gw.sn, "status"), codec.encode_status(online=True, devices=devices), qos=1
        )
        await mqtt.publish(*reading(gw.sn, "1"), qos=1)
        await mqtt.publish(*reading(gw.sn, "2"), qos=1)
        event = {"device": "1", "type": "alarm", "code": "leakage", "value": 35.0}
        await mqtt.publish(codec.topic_for(gw.sn, "events"), orjson.dumps(event), qos=1)
        await mqtt.publish(
            codec.topic_for(gw.sn, "events"),
            orjson.dumps({"device": "2", "type": "switch", "value": 1}),
            qos=1,
        )
    client.drop()
    await edge.settle()
    await asyncio.sleep(0.3)
    await edge.settle()
    sysnos = [d.sysno for d in await edge.devices_in(edge.a_project)]
    group = await edge.h.post(
        "/api/CustomerGroup/AddGroup", {"name": "一楼", "device_sysnos": sysnos}, token=edge.a.token
    )
    assert group["statusCode"] == 200, group
    task = await edge.h.post(
        "/api/CustomerTimedTask/AddTask",
        {"name": "夜间断电", "action": "switch_off", "repeat": "weekly", "weekdays": [1], "times": ["23:00"],
         "device_sysnos": sysnos},
        token=edge.a.token,
    )  # fmt: skip
    assert task["statusCode"] == 200, task


async def test_stored_bad_text_never_breaks_a_list_and_is_served_clean(edge: Edge) -> None:
    await fill(edge)
    # Bad text reaches the database behind the API's back (an old row, a script, another tool).
    async with edge.h.ctx.sessions() as session:
        for table in Base.metadata.sorted_tables:
            columns = [
                c.name
                for c in table.columns
                if isinstance(c.type, String | Text) and c.name in OUTSIDE_TEXT and not c.primary_key
            ]
            for column in columns:
                await session.execute(
                    text(f"UPDATE {table.name} SET {column} = {column} || :bad WHERE {column} IS NOT NULL"),  # noqa: S608
                    {"bad": BAD},
                )
        await session.commit()
    answered = 0
    for path in page_paths(edge):
        body = await edge.h.post(path, {"pageIndex": 1, "pageSize": 50}, token=edge.a.token)
        assert body["statusCode"] != 500, (path, body)
        dirty = [s for s in strings(body) if FORBIDDEN.search(s)]
        assert dirty == [], (path, dirty[:3])
        answered += bool(body["data"] and body["data"]["totalCount"])
    assert answered >= 8, "the lists under test were mostly empty"
    for path, params in (
        ("/api/CustomerDevice/GetSingleDevice", {"sysno": (await edge.devices_in(edge.a_project))[0].sysno}),
        ("/api/CustomerCenter/MyInfo", None),
    ):
        body = await edge.h.call("POST" if params is None else "GET", path, token=edge.a.token, params=params)
        assert body["statusCode"] == 200 and not [s for s in strings(body) if FORBIDDEN.search(s)], body


async def test_a_user_is_refused_bad_text_with_the_field_named(edge: Edge) -> None:
    for name in ("楼\n栋", "a\u202eb", "x\x00y", "tab\there"):
        refused = await edge.h.post("/api/CustomerProject/AddProject", {"name": name}, token=edge.a.token)
        assert refused["statusCode"] == 400 and refused["message"] == "项目名称包含非法字符", refused
    # A remark may hold line breaks, not bidi controls.
    fine = await edge.h.post(
        "/api/CustomerProject/AddProject", {"name": "园区", "remark": "第一行\n第二行"}, token=edge.a.token
    )
    assert fine["statusCode"] == 200, fine
    refused = await edge.h.post(
        "/api/CustomerProject/AddProject", {"name": "园区2", "remark": "a\u2067b"}, token=edge.a.token
    )
    assert refused["message"] == "备注包含非法字符"


async def test_gateway_text_is_stored_clean_and_counted(edge: Edge) -> None:
    gw = await edge.register(edge.a, edge.a_project)
    devices = [{"id": "1", "name": "101\u202e宿舍\x00", "model": "PB\u2066-63\n"}]
    async with edge.client(gw.sn, gw.secret) as mqtt:
        status = {"state": "online", "firmware": "v1\x00\u202e.2", "devices": devices}
        await mqtt.publish(codec.topic_for(gw.sn, "status"), orjson.dumps(status), qos=1)
    await edge.settle()
    async with edge.h.ctx.sessions() as session:
        device = (await edge.devices_in(edge.a_project))[0]
        gateway = await session.get(Gateway, gw.sysno)
        assert gateway is not None
        assert (device.name, device.model, gateway.firmware) == ("101宿舍", "PB-63", "v1.2")
    assert edge.ingest.stats.cleaned_text == 3


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_json = st.recursive(
    _scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(), c, max_size=4), max_leaves=12
)
_ids = st.text(max_size=8) | st.integers(-5, 99)
_values = st.dictionaries(
    st.sampled_from(["voltage", "current", "energy", "switch", "note", "x\n"]) | st.text(max_size=6),
    _json,
    max_size=4,
)
_telemetry = st.dictionaries(_ids.map(str), st.fixed_dictionaries({"values": _values}), max_size=3)
_device = st.fixed_dictionaries({"id": _ids, "name": _json, "model": _json})
_status = st.fixed_dictionaries(
    {
        "state": st.sampled_from(["online", "offline", "x"]),
        "firmware": _json,
        "devices": st.lists(_device, max_size=3),
    }
)
_event = st.fixed_dictionaries(
    {
        "device": _ids,
        "type": st.sampled_from(["alarm", "switch", "load", "boom"]),
        "code": _json,
        "value": _json,
        "detail": _json,
    }
)
_answer = st.fixed_dictionaries(
    {"id": st.text(max_size=8), "ok": st.booleans(), "result": _json, "error": _json}
)
_messages = st.one_of(
    st.tuples(st.just("telemetry"), _telemetry),
    st.tuples(st.just("status"), _status),
    st.tuples(st.just("events"), _event),
    st.tuples(st.just("rpc/response"), _answer),
    st.tuples(st.sampled_from(["telemetry", "status", "events"]), _json),
)


async def test_arbitrary_gateway_input_is_stored_clean_or_counted(edge: Edge) -> None:
    examples: list[tuple[str, Any]] = []

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(_messages)
    def collect(message: tuple[str, Any]) -> None:
        examples.append(message)

    collect()
    gw = await edge.register(edge.a, edge.a_project)
    ingest = edge.ingest
    for channel, body in examples:
        payload = orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
        await ingest.submit(codec.topic_for(gw.sn, channel), payload)
    await edge.settle()
    stats = ingest.stats
    assert stats.batch_failures == 0 and stats.messages_lost == 0, stats
    accounted = (
        stats.telemetry_messages + stats.status_messages + stats.event_messages + stats.rpc_responses
        + stats.garbage + stats.oversize + stats.bad_ts + stats.wrong_topic
    )  # fmt: skip
    assert accounted >= stats.messages == len(examples)
    async with edge.h.ctx.sessions() as session:
        for table in Base.metadata.sorted_tables:
            for column in (c for c in table.columns if isinstance(c.type, String | Text)):
                rows = (await session.execute(text(f"SELECT {column.name} FROM {table.name}"))).scalars()  # noqa: S608
                assert not [v for v in rows if v and FORBIDDEN.search(v)], (table.name, column.name)
    for path in page_paths(edge):
        body = await edge.h.post(path, {"pageIndex": 1, "pageSize": 50}, token=edge.a.token)
        assert body["statusCode"] != 500, (path, body)
