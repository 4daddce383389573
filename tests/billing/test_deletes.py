"""Deleting a gateway, a device or a project never takes a room's open electricity account with it."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from powerportal.billing.models import BillingAccount, BusinessOrder, LedgerEntry
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Project
from tests.billing.test_billing_api import B, opened
from tests.conftest import Harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project

GATEWAYS, DEVICES, PROJECTS = "/api/CustomerGateway", "/api/CustomerDevice", "/api/CustomerProject"


async def counts(h: Harness) -> dict[str, int]:
    """How many rows of each kind a delete could take away."""
    async with h.ctx.sessions() as session:
        return {
            model.__tablename__: await session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Project, Gateway, Device, BillingAccount, LedgerEntry, BusinessOrder)
        }


async def close(h: Harness, me: Account, account: int) -> None:
    """销户 through an order, as the landlord closes a room."""
    order = await h.post(f"{B}/AddOrder", {"account_sysno": account, "business_type": 4}, me.token)
    passed = await h.post(f"{B}/ReviewOrder", {"sysno": order["data"]["sysno"], "approve": True}, me.token)
    assert passed["data"]["done_state_name"] == "已完成"


async def test_deletes_are_refused_while_a_room_has_an_open_account(harness: Harness) -> None:
    # A gateway's delete cascaded to its devices and from them to their accounts: the prepaid money,
    # its ledger, bills and orders went without a word.
    h = harness
    me = await make_account(h, "13900000070")
    project = await make_project(h, me.sysno)
    gateway = await make_gateway(h, project)
    rooms = [await make_device(h, gateway, project) for _ in range(3)]
    accounts = []
    for room in rooms[:2]:
        made = await h.post(f"{B}/AddAccount", opened(room, opening_balance=300), me.token)
        accounts.append(made["data"]["sysno"])
    before = await counts(h)

    gone = await h.call("DELETE", f"{GATEWAYS}/DeleteGateway", me.token, params={"sysno": gateway})
    assert gone["statusCode"] == 400
    assert gone["message"] == "该网关下有 2 个电费账户未销户，请先在电费管理中销户"
    device = await h.call("DELETE", f"{DEVICES}/DeleteDevice", me.token, params={"sysno": rooms[0]})
    assert device["statusCode"] == 400
    assert device["message"] == "该设备有未销户的电费账户，请先在电费管理中销户"
    whole = await h.call("DELETE", f"{PROJECTS}/DeleteProject", me.token, params={"sysno": project})
    assert whole["statusCode"] == 400 and "还有 1 个网关" in whole["message"]
    assert await counts(h) == before
    listed = await h.post(f"{B}/GetLedgerList", {"kind": 1}, me.token)
    assert listed["data"]["totalCount"] == 2

    # a room without an account goes; a closed account goes with its room, its records with it
    assert (await h.call("DELETE", f"{DEVICES}/DeleteDevice", me.token, params={"sysno": rooms[2]}))[
        "statusCode"
    ] == 200
    await close(h, me, accounts[0])
    gone = await h.call("DELETE", f"{GATEWAYS}/DeleteGateway", me.token, params={"sysno": gateway})
    assert gone["message"] == "该网关下有 1 个电费账户未销户，请先在电费管理中销户"
    await close(h, me, accounts[1])
    gone = await h.call("DELETE", f"{GATEWAYS}/DeleteGateway", me.token, params={"sysno": gateway})
    assert gone["statusCode"] == 200, gone
    after = await counts(h)
    assert (after["gateway"], after["device"], after["billing_account"], after["billing_ledger"]) == (
        0,
        0,
        0,
        0,
    )
    assert (await h.call("DELETE", f"{PROJECTS}/DeleteProject", me.token, params={"sysno": project}))[
        "statusCode"
    ] == 200


async def test_an_account_opened_while_its_gateway_is_deleted_is_never_lost(harness: Harness) -> None:
    # Checked, then deleted: an account opened between the two went with the gateway. The delete
    # holds the devices first, so an opening either comes before it (and the delete is refused) or
    # after it (and finds no device).
    h = harness
    me = await make_account(h, "13900000071")
    project = await make_project(h, me.sysno)
    for _ in range(8):
        gateway = await make_gateway(h, project)
        device = await make_device(h, gateway, project)
        deleted, made = await asyncio.gather(
            h.call("DELETE", f"{GATEWAYS}/DeleteGateway", me.token, params={"sysno": gateway}),
            h.post(f"{B}/AddAccount", opened(device, opening_balance=300), me.token),
        )
        assert (deleted["statusCode"] == 200) != (made["statusCode"] == 200), (deleted, made)
        if deleted["statusCode"] == 200:  # not 该设备已有电费账户, as the failed reference once said
            assert made["message"] == "设备不存在或无权访问"
        async with h.ctx.sessions() as session:
            kept = await session.scalar(
                select(func.count()).select_from(BillingAccount).where(BillingAccount.device_sysno == device)
            )
        assert kept == (made["statusCode"] == 200), (deleted, made)
