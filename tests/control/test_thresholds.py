"""Thresholds sent to a device obey the ranges and the voltage rule of the device's own settings form."""

from __future__ import annotations

from sqlalchemy import func, select

from powerportal.control.models import Command
from powerportal.devices.models import Device
from tests.conftest import Harness
from tests.factories import make_account, make_device, make_gateway, make_project

SEND = "/api/CustomerControl/SendCommand"


async def test_thresholds_out_of_range_or_crossed_are_refused_before_sending(harness: Harness) -> None:
    owner = await make_account(harness)
    project = await make_project(harness, owner.sysno)
    gateway = await make_gateway(harness, project, online=True)
    device = await make_device(harness, gateway, project, online=1, over_voltage=250.0, under_voltage=180.0)
    refused = {
        '{"over_voltage": 1e400}': "过压阈值应在 100–500 V 之间",
        '{"over_voltage": NaN}': "过压阈值应在 100–500 V 之间",
        '{"leakage_limit": -5}': "漏电阈值应在 1–1000 mA 之间",
        '{"power_limit": 1e300}': "功率上限应在 1–5000000 W 之间",
        # Against the device's stored over-voltage threshold, and within one request.
        '{"under_voltage": 260}': "欠压阈值应低于过压阈值",
        '{"over_voltage": 170}': "欠压阈值应低于过压阈值",
        '{"over_voltage": 200, "under_voltage": 300}': "欠压阈值应低于过压阈值",
    }
    for params, message in refused.items():
        body = await harness.call(
            "POST",
            SEND,
            token=owner.token,
            content=f'{{"device_sysno": {device}, "action": "set_thresholds", "params": {params}}}',
            headers={"content-type": "application/json"},
        )
        assert body["statusCode"] == 400 and message in body["message"], (params, body)
    async with harness.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Command)) == 0
        stored = await session.get(Device, device)
        assert stored is not None and (stored.over_voltage, stored.under_voltage) == (250.0, 180.0)
    # Within range and below the stored over-voltage: sent (no broker link here, so it fails as such).
    sent = await harness.post(
        SEND,
        {"device_sysno": device, "action": "set_thresholds", "params": {"under_voltage": 190}},
        token=owner.token,
    )
    assert sent["data"]["params"] == {"under_voltage": 190.0}, sent
