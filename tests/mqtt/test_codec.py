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
    raw = orjson.dumps(
        {
            "1": [
                {"ts": int(NOW.timestamp() * 1000) + 86_400_000, "values": {"voltage": 220}},
                {"ts": 1000, "values": {"voltage": 220}},
                {"ts": int(NOW.timestamp() * 1000), "values": {"voltage": 220}},
            ]
        }
    )
    decoded = codec.decode("telemetry", raw, now=NOW)
    assert isinstance(decoded, codec.Telemetry)
    assert len(decoded.readings) == 1 and len(decoded.rejected) == 2


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
