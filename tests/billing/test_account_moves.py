"""A room's electricity account is in its device's project, whatever moved the device there."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

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


async def test_a_project_transfer_takes_the_accounts_before_their_orders(harness: Harness) -> None:
    """A reviewer holding an account then its order, and a transfer of its project, never deadlock.

    Every billing writer holds the accounts first and reaches their orders, ledgers and bills after;
    a transfer that updated the orders first and the accounts last would wait on the reviewer while
    holding what the reviewer waits for. PostgreSQL only: SQLite has no row locks to take in turn.
    """
    if harness.ctx.engine.dialect.name == "sqlite":
        pytest.skip("SQLite serialises writers whole; there is no lock order to get wrong")
    owner = await make_account(harness, "13900000001")
    recipient = await make_account(harness, "13900000002")
    project = await make_project(harness, owner.sysno, name="一区")
    device = await make_device(harness, await make_gateway(harness, project, online=True), project, online=1)
    account = (await harness.post(f"{B}/AddAccount", opened(device), owner.token))["data"]["sysno"]
    order = await harness.post(
        f"{B}/AddOrder",
        {"account_sysno": account, "business_type": 3, "new_holder_name": "李四",
         "new_holder_mobile": "13987654321"},
        owner.token,
    )  # fmt: skip
    assert order["statusCode"] == 200, order
    await harness.post(
        "/api/CustomerShare/SendTransferProjectSms", {"mobile": owner.mobile}, token=owner.token
    )
    offer = await harness.post(
        "/api/CustomerShare/TransferProject",
        {"project_sysno": project, "mobile": recipient.mobile, "password": "secret123",
         "validate_code": await latest_code(harness, owner.mobile)},
        token=owner.token,
    )  # fmt: skip
    assert offer["statusCode"] == 200, offer

    async with harness.ctx.engine.connect() as reviewer:
        await reviewer.execute(text("SET lock_timeout = '3s'"))
        await reviewer.execute(
            text("SELECT 1 FROM billing_account WHERE sysno = :a FOR UPDATE"), {"a": account}
        )
        accepting = asyncio.create_task(
            harness.post(
                "/api/CustomerShare/AcceptTransfer", {"sysno": offer["data"]["sysno"]}, recipient.token
            )
        )
        await asyncio.sleep(1.0)  # the transfer is now waiting on what the reviewer holds
        assert not accepting.done()
        await reviewer.execute(
            text("SELECT 1 FROM billing_order WHERE sysno = :o FOR UPDATE"), {"o": order["data"]["sysno"]}
        )
        await reviewer.commit()
    accepted = await accepting
    assert accepted["statusCode"] == 200, accepted
    listed = await harness.post(f"{B}/GetAccountList", {}, recipient.token)
    assert [r["device_sysno"] for r in listed["data"]["dataSource"]] == [device]
