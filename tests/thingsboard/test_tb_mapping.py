"""The ThingsBoard mapping on its own: keys, ids, and any bytes (a ProtocolError at worst, never a crash)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from powerportal.mqtt import codec, thingsboard

CHANNELS = ("connect", "disconnect", "telemetry", "attributes", "rpc", "claim", "attributes/request", "x")
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(channel=st.sampled_from(CHANNELS), body=json_values)
def test_any_json_on_any_channel_is_decoded_or_refused(channel: str, body: Any) -> None:
    try:
        thingsboard.decode(f"tb/GW1/v1/gateway/{channel}", orjson.dumps(body))
    except codec.ProtocolError as exc:
        assert exc.reason in ("garbage", "oversize", "bad_ts", "wrong_topic")


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=64))
def test_any_bytes_are_decoded_or_refused(raw: bytes) -> None:
    with pytest.raises(codec.ProtocolError):
        thingsboard.decode("tb/GW1/v1/gateway/telemetry", b"\xff" + raw)


def test_keys_map_through_the_key_table() -> None:
    assert thingsboard.key("powerFactor") == "power_factor"
    assert thingsboard.key("activePower") == "active_power"
    assert thingsboard.key("power") == "active_power"
    assert thingsboard.key("voltageA") == "voltage_a"
    assert thingsboard.key("leakageCurrent") == "leakage_current"
    assert thingsboard.key("Temperature") == "temperature"
    assert thingsboard.key("switchState") == "switch"
    assert thingsboard.key("signalStrength") == "signal_strength"


def test_rpc_ids_round_trip_below_2_to_the_53() -> None:
    ours = "001fffffffffffff"
    topic, payload = thingsboard.encode_rpc_request(
        sn="GW1", request_id=ours, device_id="1", method="switch", params={"on": True}
    )
    assert topic == "tb/GW1/v1/gateway/rpc"
    sent = orjson.loads(payload)
    assert sent["data"]["id"] == 2**53 - 1 and sent["data"]["method"] == "switch"
    reply = orjson.dumps({"device": "1", "id": sent["data"]["id"], "data": {"switch": 1}})
    _sn, answer = thingsboard.decode(topic, reply)
    assert isinstance(answer, codec.RpcResponse) and answer.id == ours and answer.ok
    refused = orjson.dumps({"device": "1", "id": 5, "data": {"success": False}})
    _sn, answer = thingsboard.decode(topic, refused)
    assert isinstance(answer, codec.RpcResponse) and not answer.ok and answer.error == "refused"
    # the platform's own request, seen again on a broker that echoes, is let go
    assert thingsboard.decode(topic, payload) == ("GW1", None)
    with pytest.raises(codec.ProtocolError):
        thingsboard.decode(topic, orjson.dumps({"device": "1", "id": 2**60, "data": {}}))


def test_another_gateways_mount_point_or_our_own_topics_are_wrong_topics() -> None:
    for topic in ("tb/GW 1/v1/gateway/telemetry", "tb/GW1/gateways/GW1/telemetry", "tb//v1/gateway/rpc"):
        with pytest.raises(codec.ProtocolError, match="wrong_topic"):
            thingsboard.decode(topic, b"{}")
