"""Commands end to end: HTTP → MQTT → simulated gateway → answer → command log, over a real broker."""

from __future__ import annotations

from sqlalchemy import func, select, update

from powerportal.control.models import Command
from powerportal.devices.models import Device
from powerportal.logs.models import OperationLog, StatusLog
from powerportal.mqtt import codec
from tests.control.conftest import Field

SEND = "/api/CustomerControl/SendCommand"
LOG = "/api/CustomerCommandLog/GetCommandLogList"


async def count(f: Field, model: object, *where: object) -> int:
    async with f.h.ctx.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(model).where(*where)) or 0)  # type: ignore[arg-type]


async def test_switch_off_and_on_change_state_once_each(any_broker_site: Field) -> None:
    f = any_broker_site
    device = (await f.devices())[1]
    assert device.switch_state == 1
    body = await f.h.post(SEND, {"device_sysno": device.sysno, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 200, body
    assert body["message"] == "分闸成功"
    command = body["data"]
    assert command["status"] == "succeeded" and command["status_name"] == "成功"
    assert command["sent_time"] and command["answer_time"] and command["duration_ms"] is not None
    assert command["operator"].endswith(f"（{f.owner.mobile}）") and command["source"] == "manual"
    assert command["result"] == {"switch": 0}
    await f.settle()
    assert (await f.device(device.sysno)).switch_state == 0
    # The gateway's own switch event and the platform's confirmation make one status-log row.
    assert (
        await count(
            f, StatusLog, StatusLog.device_sysno == device.sysno, StatusLog.status_type == "switch_off"
        )
        == 1
    )

    body = await f.h.post(SEND, {"device_sysno": device.sysno, "action": "switch_on"}, token=f.owner.token)
    assert body["statusCode"] == 200 and body["message"] == "合闸成功"
    await f.settle()
    assert (await f.device(device.sysno)).switch_state == 1
    assert (
        await count(
            f, StatusLog, StatusLog.device_sysno == device.sysno, StatusLog.status_type == "switch_on"
        )
        == 1
    )

    page = (await f.h.post(LOG, {"device_sysno": device.sysno}, token=f.owner.token))["data"]
    assert page["totalCount"] == 2
    assert [r["action"] for r in page["dataSource"]] == ["switch_on", "switch_off"]
    assert page["dataSource"][0]["project_name"] == "控制测试项目"
    assert (
        await count(f, OperationLog, OperationLog.operate_type == 30, OperationLog.is_success.is_(True)) == 2
    )


async def test_read_now_and_thresholds(field_site: Field) -> None:
    f = field_site
    device = (await f.devices())[0]
    body = await f.h.post(SEND, {"device_sysno": device.sysno, "action": "read_now"}, token=f.owner.token)
    assert body["statusCode"] == 200 and "voltage_a" in body["data"]["result"]
    body = await f.h.post(
        SEND,
        {"device_sysno": device.sysno, "action": "set_thresholds", "params": {"over_current": 100}},
        token=f.owner.token,
    )
    assert body["statusCode"] == 200, body
    assert (await f.device(device.sysno)).over_current == 100
    bad = await f.h.post(
        SEND,
        {"device_sysno": device.sysno, "action": "set_thresholds", "params": {"x": 1}},
        token=f.owner.token,
    )
    assert bad["statusCode"] == 400 and "未知阈值" in bad["message"]
    empty = await f.h.post(
        SEND, {"device_sysno": device.sysno, "action": "set_thresholds"}, token=f.owner.token
    )
    assert empty["statusCode"] == 400
    assert await count(f, Command) == 2


async def test_gateway_refusal_is_a_failure_with_its_reason(any_broker_site: Field) -> None:
    f = any_broker_site
    f.simulator.behaviour.rpc = "refuse"
    device = (await f.devices())[0]
    body = await f.h.post(SEND, {"device_sysno": device.sysno, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 400
    assert body["message"] == "分闸失败：网关拒绝执行"
    assert body["data"]["status"] == "failed" and body["data"]["answer_time"]
    await f.settle()
    assert (await f.device(device.sysno)).switch_state == 1
    assert await count(f, StatusLog, StatusLog.status_type == "switch_off") == 0


async def test_silent_gateway_times_out(any_broker_site: Field) -> None:
    f = any_broker_site
    f.simulator.behaviour.rpc = "silent"
    device = (await f.devices())[0]
    body = await f.h.post(SEND, {"device_sysno": device.sysno, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 504
    assert "超时" in body["message"] and "1.5 秒内未应答" in body["message"]
    assert body["data"]["status"] == "timeout" and body["data"]["answer_time"] is None
    assert (await f.device(device.sysno)).switch_state == 1
    runtime = f.h.runtime.telemetry
    assert runtime is not None and runtime.rpc.timeouts == 1


async def test_offline_device_and_gateway_refuse_at_once(field_site: Field) -> None:
    f = field_site
    await f.simulator.stop()
    first, second = (await f.devices())[:2]
    async with f.h.ctx.sessions() as session:
        await session.execute(update(Device).where(Device.sysno == first.sysno).values(online=0))
        await session.commit()
    body = await f.h.post(SEND, {"device_sysno": first.sysno, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 400 and body["message"].startswith("设备离线")
    assert body["data"]["status"] == "offline" and body["data"]["sent_time"] is None

    sn, _ = f.gateways[0]
    runtime = f.h.runtime.telemetry
    assert runtime is not None
    # The gateway's last will, as the broker hands it to the ingest.
    await runtime.ingest.submit(codec.topic_for(sn, "status"), codec.encode_status(online=False))
    await f.settle()
    body = await f.h.post(SEND, {"device_sysno": second.sysno, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 400 and body["message"].startswith("所属网关离线"), body
    assert await count(f, Command, Command.status == "offline") == 2


async def test_unknown_or_foreign_device_is_not_found(field_site: Field) -> None:
    f = field_site
    body = await f.h.post(SEND, {"device_sysno": 999999, "action": "switch_off"}, token=f.owner.token)
    assert body["statusCode"] == 404 and body["message"] == "设备不存在或无权访问"
    bad = await f.h.post(SEND, {"device_sysno": 1, "action": "explode"}, token=f.owner.token)
    assert bad["statusCode"] == 400 and bad["message"] == "操作取值不在允许范围内"
    assert await count(f, Command) == 0
