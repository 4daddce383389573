"""A Mosquitto whose platform account predates ThingsBoard gateways (``gateways/#`` only).

Commands also go out in ThingsBoard's form on ``tb/{sn}/v1/gateway/rpc``, which that account may not
publish on: our own gateways must still get and answer theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

import aiomqtt
import orjson

from powerportal.mqtt import codec
from powerportal.mqtt.dynsec import Dynsec
from tests.mqtt.private import DYNSEC_ADMIN
from tests.thingsboard.test_tb_gateway import PLATFORM, SEND, World, _app, now_ms, tb_mosquitto


def old_platform_account() -> list[dict[str, Any]]:
    acls = [
        {"acltype": "publishClientSend", "topic": "gateways/#", "allow": True},
        {"acltype": "subscribePattern", "topic": "gateways/#", "allow": True},
        {"acltype": "subscribePattern", "topic": "$share/+/gateways/#", "allow": True},
    ]
    return [
        {"command": "createRole", "rolename": "powerportal-platform", "acls": acls},
        {"command": "createClient", "username": PLATFORM[0], "password": PLATFORM[1],
         "roles": [{"rolename": "powerportal-platform"}]},
    ]  # fmt: skip


async def test_our_gateways_are_still_commanded(database_url: str) -> None:
    sn = f"OLD{secrets.token_hex(3).upper()}"
    with tb_mosquitto([]) as (broker, _ports):
        admin_url = f"mqtt://{DYNSEC_ADMIN[0]}:{DYNSEC_ADMIN[1]}@127.0.0.1:{broker.port}"
        admin = Dynsec.from_url(admin_url)
        assert admin is not None
        await admin.check(old_platform_account())
        async for h, owner, project in _app(
            database_url,
            mqtt_url=f"mqtt://{PLATFORM[0]}:{PLATFORM[1]}@127.0.0.1:{broker.port}",
            mosquitto_dynsec_url=admin_url,
            mqtt_client_id=f"test-ingest-{secrets.token_hex(3)}",
        ):
            w = World(h=h, owner=owner, project=project, address={}, kind="mosquitto")
            secret = await w.register(sn)
            client = aiomqtt.Client("127.0.0.1", broker.port, username=sn, password=secret, identifier=sn)
            async with client:
                await client.subscribe(codec.topic_for(sn, codec.RPC_REQUEST), qos=1)
                telemetry = orjson.dumps({"1": [{"ts": now_ms(), "values": {"voltage": 220.0, "switch": 1}}]})
                await client.publish(codec.topic_for(sn, "telemetry"), telemetry, qos=1)
                row = await w.wait_for(f"{sn}/1", lambda r: r["voltage"] == 220.0)

                async def answer(client: aiomqtt.Client) -> None:
                    async for message in client.messages:
                        request_id, _device, _method, params = codec.decode_rpc_request(
                            bytes(message.payload)
                        )  # type: ignore[arg-type]
                        state = 1 if params["on"] else 0
                        body = {"id": request_id, "ok": True, "result": {"switch": state}}
                        await client.publish(codec.topic_for(sn, "rpc/response"), orjson.dumps(body), qos=1)

                answering = asyncio.create_task(answer(client))
                try:
                    body = await h.post(
                        SEND, {"device_sysno": row["sysno"], "action": "switch_off"}, owner.token
                    )
                    assert body["statusCode"] == 200 and body["data"]["result"] == {"switch": 0}, body
                finally:
                    answering.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await answering
