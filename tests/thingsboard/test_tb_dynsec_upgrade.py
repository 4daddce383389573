"""Gateway roles made before ThingsBoard gateways were accepted gain their ACLs at resynchronisation.

The platform's start resynchronises; a ThingsBoard gateway refused before then reports.
"""

from __future__ import annotations

import asyncio
import secrets

from powerportal.gateways import broker_accounts
from powerportal.mqtt.dynsec import Dynsec, role_name, thingsboard_acls
from tests.mqtt.private import DYNSEC_ADMIN
from tests.thingsboard.test_tb_gateway import PLATFORM, World, _app, now_ms, platform_account, tb_mosquitto


async def test_resync_gives_old_roles_the_thingsboard_acls(database_url: str) -> None:
    sn = f"TBU{secrets.token_hex(3).upper()}"
    with tb_mosquitto([sn]) as (broker, ports):
        admin_url = f"mqtt://{DYNSEC_ADMIN[0]}:{DYNSEC_ADMIN[1]}@127.0.0.1:{broker.port}"
        admin = Dynsec.from_url(admin_url)
        assert admin is not None
        await admin.check(platform_account())
        async for h, owner, project in _app(
            database_url,
            mqtt_url=f"mqtt://{PLATFORM[0]}:{PLATFORM[1]}@127.0.0.1:{broker.port}",
            mosquitto_dynsec_url=admin_url,
            mqtt_client_id=f"test-ingest-{secrets.token_hex(3)}",
        ):
            w = World(
                h=h, owner=owner, project=project, address={sn: ("127.0.0.1", ports[sn])}, kind="mosquitto"
            )
            secret = await w.register(sn)
            # As an older platform left it: the role without the ThingsBoard ACLs.
            await admin.check(
                [
                    {
                        "command": "removeRoleACL",
                        "rolename": role_name(sn),
                        "acltype": a["acltype"],
                        "topic": a["topic"],
                    }
                    for a in thingsboard_acls(sn)
                ]
            )
            gateway = await w.connect(sn, secret)
            try:
                gateway.client.gw_send_telemetry("1", {"ts": now_ms(), "values": {"voltage": 201.0}})
                await asyncio.sleep(1.5)
                await w.settle()
                assert f"{sn}/1" not in await w.devices(), "the old role let a ThingsBoard publish through"

                result = await broker_accounts.resync(h.ctx)
                assert result is not None and result.kept == 1
                gateway.client.gw_send_telemetry("1", {"ts": now_ms(), "values": {"voltage": 202.0}})
                await w.wait_for(f"{sn}/1", lambda r: r["voltage"] == 202.0)
                again = await broker_accounts.resync(h.ctx)  # nothing left to add: no error
                assert again is not None and again.kept == 1
            finally:
                await asyncio.to_thread(gateway.stop)
