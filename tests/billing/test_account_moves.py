"""A room's electricity account is in its device's project, whatever moved the device there."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness, latest_code
from tests.factories import Account, make_account, make_device, make_gateway, make_project

B = "/api/CustomerElectricity"


def opened(device: int) -> dict[str, Any]:
    return {"device_sysno": device, "holder_name": "张三", "holder_mobile": "13812345678", "charge_type": 1,
            "flat_price": 1.5, "warn_balance": 10, "cutoff_balance": 0, "opening_balance": 30,
            "method": "cash"}  # fmt: skip


async def moved_room(h: Harness, owner: Account) -> tuple[int, int, int, int]:
    """An account opened in 一区 whose gateway then moved to 二区: (一区, 二区, device, account)."""
    first = await make_project(h, owner.sysno, name="一区")
    second = await make_project(h, owner.sysno, name="二区")
    gateway = await make_gateway(h, first, online=True)
    device = await make_device(h, gateway, first, online=1)
    made = await h.post(f"{B}/AddAccount", opened(device), owner.token)
    assert made["statusCode"] == 200, made
    moved = await h.put(
        "/api/CustomerGateway/MoveGateway", {"sysno": gateway, "project_sysno": second}, owner.token
    )
    assert moved["statusCode"] == 200, moved
    return first, second, device, made["data"]["sysno"]


async def test_an_account_follows_its_gateway_to_another_project(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    first, second, device, _account = await moved_room(harness, owner)

    async def listed(project: int) -> list[int]:
        page = await harness.post(f"{B}/GetAccountList", {"project_sysno": project}, owner.token)
        return [r["device_sysno"] for r in page["data"]["dataSource"]]

    assert await listed(second) == [device]
    assert await listed(first) == []


async def test_giving_away_the_old_project_keeps_the_moved_room(harness: Harness) -> None:
    owner = await make_account(harness, "13900000001")
    stranger = await make_account(harness, "13900000002")
    first, _second, device, account = await moved_room(harness, owner)
    # The owner gives away 一区, now empty; 二区 with the room stays the owner's.
    await harness.post(
        "/api/CustomerShare/SendTransferProjectSms", {"mobile": owner.mobile}, token=owner.token
    )
    code = await latest_code(harness, owner.mobile)
    offer = await harness.post(
        "/api/CustomerShare/TransferProject",
        {"project_sysno": first, "mobile": stranger.mobile, "password": "secret123", "validate_code": code},
        token=owner.token,
    )
    assert offer["statusCode"] == 200, offer
    accepted = await harness.post(
        "/api/CustomerShare/AcceptTransfer", {"sysno": offer["data"]["sysno"]}, token=stranger.token
    )
    assert accepted["statusCode"] == 200, accepted

    assert (await harness.post(f"{B}/GetAccountList", {}, stranger.token))["data"]["totalCount"] == 0
    paid = await harness.post(
        f"{B}/Recharge", {"account_sysnos": [account], "amount": 5, "method": "cash"}, stranger.token
    )
    assert paid["statusCode"] == 404, paid
    mine = await harness.post(f"{B}/GetAccountList", {}, owner.token)
    assert [r["device_sysno"] for r in mine["data"]["dataSource"]] == [device]
    assert mine["data"]["dataSource"][0]["balance"] == 30
