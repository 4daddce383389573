"""The reasons a gateway gives for refusing a command reach the customer in Chinese."""

from __future__ import annotations

from typing import Any

from powerportal.mqtt.codec import RpcResponse
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project

SEND = "/api/CustomerControl/SendCommand"


class Refusing:
    """An rpc channel whose gateway refuses every command with one reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def call(self, **_request: Any) -> RpcResponse:
        return RpcResponse(id="1", ok=False, error=self.reason)


async def test_the_protocols_and_the_reference_gateways_reasons_are_explained(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    device = await make_device(harness, await make_gateway(harness, project, online=True), project, online=1)
    commander = harness.runtime.commander
    cases = [
        ("switch_off", "locked", "分闸失败：断路器在现场被锁定，无法远程操作"),
        ("set_thresholds", "unsupported", "设置阈值失败：网关不支持该命令"),
        ("switch_on", "busy", "合闸失败：网关忙，请稍后再试"),
        ("switch_on", "抱闸中", "合闸失败：抱闸中"),  # a gateway's own words are shown as they are
    ]
    for action, reason, message in cases:
        commander.rpc = Refusing(reason)  # type: ignore[assignment]
        body: dict[str, Any] = {"device_sysno": device, "action": action}
        if action == "set_thresholds":
            body["params"] = {"over_current": 63}
        answer = await harness.post(SEND, body, owner.token)
        assert (answer["statusCode"], answer["message"]) == (400, message), answer
