"""The protocol codec, replaying the documented example messages."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from powerportal.mqtt import codec
from powerportal.telemetry.keys import BY_KEY, COLUMN_KEYS, KEYS

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gateway"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def load_fixture(path: Path) -> tuple[str, bytes, dict[str, Any]]:
    """Topic, raw payload and expectation of one example message."""
    data = json.loads(path.read_text(encoding="utf-8"))
    raw = data["payload_text"].encode() if "payload_text" in data else orjson.dumps(data["payload"])
    return data["topic"], raw, data["expect"]


ALL = sorted(FIXTURES.glob("*.json"))


def test_there_are_examples_for_every_channel() -> None:
    names = {p.stem.split("-")[0] for p in ALL}
    assert {"telemetry", "status", "events", "rpc", "garbage", "wrong"} <= names


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_example_decodes_as_documented(path: Path) -> None:
    topic, raw, expect = load_fixture(path)
    if expect.get("kind") == "rpc_request":
        request_id, device, method, params = codec.decode_rpc_request(raw)
        again_topic, again = codec.encode_rpc_request(
            sn="GW2026000001", request_id=request_id, device_id=device, method=method, params=params
        )
        assert again_topic == topic and orjson.loads(again) == orjson.loads(raw)
        return
    if "error" in expect:
        with pytest.raises(codec.ProtocolError) as caught:
            codec.decode(codec.parse_topic(topic).channel, raw, now=NOW)
        assert caught.value.reason == expect["error"]
        return
    parsed = codec.parse_topic(topic)
    assert parsed.sn == "GW2026000001"
    decoded = codec.decode(parsed.channel, raw, now=NOW)
    if expect["kind"] == "telemetry":
        assert isinstance(decoded, codec.Telemetry)
        assert len(decoded.readings) == expect["readings"]
        assert len(decoded.rejected) == expect["rejected"], decoded.rejected
        if "extra" in expect:
            assert sorted(decoded.readings[0].extra) == expect["extra"]
        for sample in decoded.readings:
            assert set(sample.values) <= set(COLUMN_KEYS)
            assert sample.ts.tzinfo is not None
    elif expect["kind"] == "status":
        assert isinstance(decoded, codec.Status)
        assert decoded.online is expect["online"]
        assert len(decoded.devices or []) == expect.get("devices", 0)
    elif expect["kind"] == "events":
        assert isinstance(decoded, list) and len(decoded) == expect["events"]
    else:
        assert isinstance(decoded, codec.RpcResponse) and decoded.ok is expect["ok"]


@pytest.mark.parametrize(
    "topic",
    [
        "gateways/GW1/rpc/request",
        "gateways//telemetry",
        "gateways/GW1",
        "devices/GW1/telemetry",
        "gateways/GW+1/telemetry",
        "gateways/GW1/telemetry/extra",
        "gateways/" + "x" * 65 + "/telemetry",
    ],
)
def test_wrong_topics_are_refused(topic: str) -> None:
    with pytest.raises(codec.ProtocolError) as caught:
        codec.parse_topic(topic)
    assert caught.value.reason == "wrong_topic"


def test_oversize_payload_is_refused_before_parsing() -> None:
    raw = b"{" + b" " * codec.MAX_PAYLOAD_BYTES + b"}"
    with pytest.raises(codec.ProtocolError) as caught:
        codec.decode("telemetry", raw, now=NOW)
    assert caught.value.reason == "oversize"


def test_future_and_ancient_instants_drop_only_that_point() -> None:
    now_ms = int(NOW.timestamp() * 1000)
    raw = orjson.dumps(
        {
            "1": [
                {"ts": now_ms + 6 * 60_000, "values": {"voltage": 220}},  # beyond the 5 min of skew
                {"ts": 1000, "values": {"voltage": 220}},
                {"ts": now_ms + 4 * 60_000, "values": {"voltage": 221}},  # within it
                {"ts": now_ms, "values": {"voltage": 222}},
            ]
        }
    )
    notes = codec.Notes()
    decoded = codec.decode("telemetry", raw, now=NOW, notes=notes)
    assert isinstance(decoded, codec.Telemetry)
    assert [r.values["voltage"] for r in decoded.readings] == [221, 222]
    assert notes.bad_ts == 2 and decoded.rejected == []


def test_an_event_or_status_dated_wrong_drops_only_that_instant() -> None:
    # One event in seconds (a careless firmware) refused the whole list, alarms of other devices with it;
    # a status dated 1970 (no clock yet at boot) lost the online state and the devices it announced.
    now_ms = int(NOW.timestamp() * 1000)
    events = [
        {"device": "1", "ts": now_ms // 1000, "type": "alarm", "code": "leakage"},
        {"device": "2", "ts": now_ms, "type": "alarm", "code": "over_current"},
        {"device": "3", "ts": now_ms + 6 * 60_000, "type": "switch", "value": 0},
    ]
    notes = codec.Notes()
    decoded = codec.decode("events", orjson.dumps(events), now=NOW, notes=notes)
    assert isinstance(decoded, list) and [e.device_id for e in decoded] == ["2"]
    assert notes.bad_ts == 2
    status = {"state": "online", "ts": 1000, "devices": [{"id": "1"}]}
    notes = codec.Notes()
    announced = codec.decode("status", orjson.dumps(status), now=NOW, notes=notes)
    assert isinstance(announced, codec.Status) and announced.online and announced.ts is None
    assert announced.devices is not None and [d.device_id for d in announced.devices] == ["1"]
    assert notes.bad_ts == 1
    with pytest.raises(codec.ProtocolError) as caught:  # not an instant at all: still garbage
        codec.decode("events", orjson.dumps([{**events[1], "ts": "soon"}]), now=NOW)
    assert caught.value.reason == "garbage"


def test_phases_and_switch_events_are_what_they_claim_to_be() -> None:
    # phases true or 3.0 passed as 1 and 3.0; a switch event of 0.5 switched the device off, of 2 on.
    for phases in (True, 3.0, "3"):
        status = {"state": "online", "devices": [{"id": "1", "phases": phases}]}
        with pytest.raises(codec.ProtocolError):
            codec.decode("status", orjson.dumps(status))
    for value in (0.5, 2, -1e308):
        with pytest.raises(codec.ProtocolError):
            codec.decode("events", orjson.dumps({"device": "1", "type": "switch", "value": value}), now=NOW)
    for value in (0, 1, None):
        decoded = codec.decode("events", orjson.dumps({"device": "1", "type": "switch", "value": value}))
        assert isinstance(decoded, list) and decoded[0].value == value


def test_values_are_what_they_claim_to_be() -> None:
    raw = orjson.dumps(
        {"1": {"values": {"voltage": True, "switch": True, "current": False, "note_x": "a\u202eb\x00"}}}
    )
    decoded = codec.decode("telemetry", raw, now=NOW)
    assert isinstance(decoded, codec.Telemetry)
    assert decoded.readings[0].values == {"switch": 1}
    assert decoded.readings[0].extra == {"note_x": "ab"}
    assert len(decoded.rejected) == 2
    # An integer a browser cannot hold exactly is refused, not shown rounded.
    raw = orjson.dumps({"1": {"values": {"count_a": 2**53 - 1, "count_b": 2**64 - 1, "count_c": -(2**53)}}})
    decoded = codec.decode("telemetry", raw, now=NOW)
    assert isinstance(decoded, codec.Telemetry)
    assert decoded.readings[0].extra == {"count_a": 2**53 - 1}
    assert len(decoded.rejected) == 2
    for bad_id in ("nl\n", "1\n", " 1", "1/2", ""):
        with pytest.raises(codec.ProtocolError):
            codec.decode("telemetry", orjson.dumps({bad_id: {"values": {"voltage": 220}}}), now=NOW)
    assert not codec.SN_PATTERN.match("GW1\n") and not codec.EXTRA_KEY_PATTERN.match("key\n")


def test_gateway_text_is_cleaned_and_counted() -> None:
    notes = codec.Notes()
    status = codec.decode(
        "status",
        orjson.dumps(
            {
                "state": "online",
                "firmware": "2.4\x00.1",
                "devices": [{"id": "1", "name": "101\u202e宿舍\n", "model": "PB\u2066-63"}],
            }
        ),
        now=NOW,
        notes=notes,
    )
    assert isinstance(status, codec.Status) and status.devices is not None
    assert status.firmware == "2.4.1"
    assert (status.devices[0].name, status.devices[0].model) == ("101宿舍", "PB-63")
    assert notes.cleaned_text == 3
    deep: dict[str, object] = {}
    node = deep
    for _ in range(200):
        node["x"] = {}
        node = node["x"]  # type: ignore[assignment]
    for result in (deep, {"blob": "x" * 250_000}):
        answer = codec.decode(
            "rpc/response",
            orjson.dumps({"id": "r1", "ok": False, "result": result, "error": "bad\x00" + "e" * 1000}),
            notes=notes,
        )
        assert isinstance(answer, codec.RpcResponse)
        assert answer.result == {} and answer.error == "bad" + "e" * 252
    assert notes.capped == 2


@pytest.mark.parametrize(
    "payload",
    [b"[]", b"null", b'"x"', b'{"1": 5}', b'{"1": [{"ts": 1}]}', b'{"bad id!": [{"values": {}}]}', b"{}"],
)
def test_garbage_shapes_are_refused(payload: bytes) -> None:
    with pytest.raises(codec.ProtocolError):
        codec.decode("telemetry", payload, now=NOW)


def test_missing_ts_means_now() -> None:
    decoded = codec.decode("telemetry", b'{"1": {"values": {"voltage": 220}}}', now=NOW)
    assert isinstance(decoded, codec.Telemetry) and decoded.readings[0].ts == NOW


def test_every_key_is_described_once_with_a_unit_and_label() -> None:
    assert len(BY_KEY) == len(KEYS)
    for key in KEYS:
        assert key.label_zh and key.minimum < key.maximum
    assert BY_KEY["voltage"].unit == "V" and BY_KEY["energy"].kind == "counter"


def test_status_round_trip() -> None:
    devices = [codec.AnnouncedDevice(device_id="3", kind="meter", phases=3, model="M1", name="总表")]
    raw = codec.encode_status(online=True, devices=devices, firmware="1.0")
    decoded = codec.decode("status", raw, now=NOW)
    assert decoded == codec.Status(online=True, firmware="1.0", devices=devices)
