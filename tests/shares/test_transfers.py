"""Project transfer: confirmed by password (and SMS code), accepted in time, moved in one transaction."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update

from powerportal.control.models import DeviceGroup, DeviceGroupMember
from powerportal.core.timeutil import utcnow
from powerportal.logs.models import OperationLog
from powerportal.projects.models import Project
from powerportal.shares.models import ProjectShare, ProjectTransfer
from tests.conftest import Harness, latest_code, make_settings, stamped, start_harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project

SHARE = "/api/CustomerShare"
PROJECT = "/api/CustomerProject"


async def _names(h: Harness, who: Account) -> list[str]:
    page = await h.post(f"{PROJECT}/GetProjectList", {}, token=who.token)
    return sorted(row["name"] for row in page["data"]["dataSource"])


async def _offer(h: Harness, sender: Account, project: int, mobile: str, **fields: object) -> dict[str, Any]:
    await h.post(f"{SHARE}/SendTransferProjectSms", {"mobile": sender.mobile}, token=sender.token)
    code = await latest_code(h, sender.mobile)
    body = {
        "project_sysno": project,
        "mobile": mobile,
        "password": "secret123",
        "validate_code": code,
        **fields,
    }
    return await h.post(f"{SHARE}/TransferProject", body, token=sender.token)


async def test_transfer_moves_the_project_with_its_groups_and_keeps_or_drops_shares(harness: Harness) -> None:
    sender = await make_account(harness, "13900000001")
    recipient = await make_account(harness, "13900000002")
    sharee = await make_account(harness, "13900000003")
    project = await make_project(harness, sender.sysno, name="转移项目")
    await make_project(harness, sender.sysno, name="留下项目")
    gateway = await make_gateway(harness, project, online=True)
    device = await make_device(harness, gateway, project, online=1)
    group = await harness.post(
        "/api/CustomerGroup/AddGroup", {"name": "一组", "device_sysnos": [device]}, token=sender.token
    )
    assert group["statusCode"] == 200, group
    invite = await harness.post(
        f"{SHARE}/AddShare", {"project_sysno": project, "mobile": sharee.mobile}, token=sender.token
    )
    await harness.post(f"{SHARE}/AcceptShare", {"sysno": invite["data"]["sysno"]}, token=sharee.token)

    wrong = await harness.post(
        f"{SHARE}/TransferProject",
        {
            "project_sysno": project,
            "mobile": recipient.mobile,
            "password": "wrong",
            "validate_code": "000000",
        },
        token=sender.token,
    )
    assert wrong["statusCode"] == 400 and wrong["message"] == "密码错误"
    no_code = await harness.post(
        f"{SHARE}/TransferProject",
        {"project_sysno": project, "mobile": recipient.mobile, "password": "secret123"},
        token=sender.token,
    )
    assert no_code["message"] == "请输入验证码"
    offered = await _offer(harness, sender, project, recipient.mobile, keep_shares=True)
    assert offered["statusCode"] == 200, offered
    transfer = offered["data"]["sysno"]
    # Nothing moves before acceptance; the sender cannot accept for the recipient.
    assert await _names(harness, recipient) == []
    assert (await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": transfer}, token=sender.token))[
        "statusCode"
    ] == 404
    listed = await harness.post(f"{PROJECT}/TransferProjectList", {"direction": "in"}, token=recipient.token)
    assert [r["state"] for r in listed["data"]["dataSource"]] == ["pending"]

    accepted = await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": transfer}, token=recipient.token)
    assert accepted["statusCode"] == 200, accepted
    assert await _names(harness, recipient) == ["转移项目"]
    assert await _names(harness, sender) == ["留下项目"]
    assert await _names(harness, sharee) == ["转移项目"]  # shares kept as chosen
    async with harness.ctx.sessions() as session:
        owner = await session.scalar(select(Project.customer_sysno).where(Project.sysno == project))
        moved = await session.scalar(select(DeviceGroup.customer_sysno).where(DeviceGroup.name == "一组"))
        members = await session.scalar(select(func.count()).select_from(DeviceGroupMember))
        sender_log = list(
            await session.scalars(
                select(OperationLog.detail).where(OperationLog.customer_sysno == sender.sysno)
            )
        )
    assert owner == recipient.sysno and moved == recipient.sysno and members == 1
    assert any("发起项目「转移项目」转移" in d for d in sender_log), sender_log
    out = await harness.post(f"{PROJECT}/TransferProjectList", {"direction": "out"}, token=sender.token)
    assert [r["state_name"] for r in out["data"]["dataSource"]] == ["已转移"]
    again = await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": transfer}, token=recipient.token)
    assert again["statusCode"] == 400

    # Back again, dropping the shares this time.
    back = await _offer(harness, recipient, project, sender.mobile, keep_shares=False)
    await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": back["data"]["sysno"]}, token=sender.token)
    assert await _names(harness, sharee) == []
    assert await _names(harness, recipient) == []


async def _plain_offer(h: Harness, sender: Account, project: int, mobile: str) -> dict[str, Any]:
    body = {"project_sysno": project, "mobile": mobile, "password": "secret123"}
    return await h.post(f"{SHARE}/TransferProject", body, token=sender.token)


async def test_expired_declined_and_cancelled_transfers_move_nothing(database_url: str) -> None:
    # Brand 6 has no SMS codes: the password alone confirms, and no code is sent.
    async for harness in start_harness(make_settings(database_url, brand=6)):
        await _nothing_moves(harness)


async def _nothing_moves(harness: Harness) -> None:
    sender = await make_account(harness, "13900000001")
    recipient = await make_account(harness, "13900000002")
    project = await make_project(harness, sender.sysno, name="不动项目")
    refused = await harness.post(
        f"{SHARE}/SendTransferProjectSms", {"mobile": sender.mobile}, token=sender.token
    )
    assert refused["statusCode"] != 200
    first = await _plain_offer(harness, sender, project, recipient.mobile)
    assert first["statusCode"] == 200, first
    twice = await _plain_offer(harness, sender, project, recipient.mobile)
    assert twice["statusCode"] == 400 and "待接收" in twice["message"]
    async with harness.ctx.sessions() as session:
        await session.execute(update(ProjectTransfer).values(expire_time=utcnow() - timedelta(seconds=1)))
        await session.commit()
    late = await harness.post(
        f"{SHARE}/AcceptTransfer", {"sysno": first["data"]["sysno"]}, token=recipient.token
    )
    assert late["statusCode"] == 400 and "已过期" in late["message"]
    declined = await _plain_offer(harness, sender, project, recipient.mobile)
    sysno = declined["data"]["sysno"]
    assert (await harness.post(f"{SHARE}/DeclineTransfer", {"sysno": sysno}, token=recipient.token))[
        "statusCode"
    ] == 200
    cancelled = await _plain_offer(harness, sender, project, recipient.mobile)
    sysno = cancelled["data"]["sysno"]
    assert (await harness.post(f"{SHARE}/CancelTransfer", {"sysno": sysno}, token=sender.token))[
        "statusCode"
    ] == 200
    assert (await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": sysno}, token=recipient.token))[
        "statusCode"
    ] == 400
    assert await _names(harness, sender) == ["不动项目"]
    states = await harness.post(f"{PROJECT}/TransferProjectList", {}, token=sender.token)
    assert [r["state"] for r in states["data"]["dataSource"]] == ["cancelled", "declined", "expired"]


async def _share(h: Harness, owner: Account, project: int, who: Account) -> int:
    body = await h.post(
        f"{SHARE}/AddShare", {"project_sysno": project, "mobile": who.mobile}, token=owner.token
    )
    assert body["statusCode"] == 200, body
    sysno: int = body["data"]["sysno"]
    assert (await h.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=who.token))["statusCode"] == 200
    return sysno


async def _shares(h: Harness, who: Account, **query: Any) -> list[dict[str, Any]]:
    body = await h.post(f"{PROJECT}/ShareProjectList", query, token=who.token)
    assert body["statusCode"] == 200, body
    rows: list[dict[str, Any]] = body["data"]["dataSource"]
    return rows


async def test_share_records_stay_with_whoever_made_them(harness: Harness) -> None:
    """After a transfer nobody reads the other side's contacts or the project's later name.

    A share shows who made it (or took it over with the project), and once it ended the project's
    name when it ended.
    """
    a = await make_account(harness, "13900000021")
    b = await make_account(harness, "13900000022")
    gone, kept = await make_account(harness, "13900000023"), await make_account(harness, "13900000024")
    project = await make_project(harness, a.sysno, name="甲的项目")
    first = await _share(harness, a, project, gone)
    assert (await harness.post(f"{SHARE}/RevokeShare", {"sysno": first}, token=a.token))["statusCode"] == 200
    await _share(harness, a, project, kept)
    assert (await _offer(harness, a, project, b.mobile, keep_shares=True))["statusCode"] == 200
    transfer = (await harness.post(f"{PROJECT}/TransferProjectList", {}, token=b.token))["data"]["dataSource"]
    accepted = await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": transfer[0]["sysno"]}, token=b.token)
    assert accepted["statusCode"] == 200, accepted
    renamed = await harness.put(
        f"{PROJECT}/UpdateProject", {"sysno": project, "name": "乙的新名字"}, token=b.token
    )
    assert renamed["statusCode"] == 200, renamed

    # The new owner manages the share it took over, and nothing of the old owner's history.
    given = await _shares(harness, b, direction="given")
    assert [(r["grantee_mobile"], r["state"], r["project_name"]) for r in given] == [
        (kept.mobile, "accepted", "乙的新名字")
    ]
    assert (await _shares(harness, b, keyword=gone.mobile)) == []
    # The old owner keeps its own record of the share it revoked, under the name it knew.
    mine = await _shares(harness, a)
    assert [(r["grantee_mobile"], r["state"], r["project_name"], r["direction"]) for r in mine] == [
        (gone.mobile, "revoked", "甲的项目", "given")
    ]
    # The revoked sharee sees who shared with it, never the new owner or the new name.
    (old,) = await _shares(harness, gone)
    assert (old["owner_mobile"], old["project_name"]) == (a.mobile, "甲的项目")
    assert await _shares(harness, gone, keyword="乙的新名字") == []
    # The sharee whose share went on with the project sees its new owner and name.
    (on,) = await _shares(harness, kept)
    assert (on["owner_mobile"], on["project_name"], on["state"]) == (b.mobile, "乙的新名字", "accepted")


async def test_a_share_past_its_expiry_stays_with_the_sender_expired(harness: Harness) -> None:
    """A transfer keeping the shares hands on those in force, not one whose time ran out."""
    a = await make_account(harness, "13900000025")
    b = await make_account(harness, "13900000026")
    lapsed, kept = await make_account(harness, "13900000027"), await make_account(harness, "13900000028")
    project = await make_project(harness, a.sysno, name="甲的项目")
    old = await _share(harness, a, project, lapsed)
    await _share(harness, a, project, kept)
    async with harness.ctx.sessions() as session:
        await session.execute(
            update(ProjectShare)
            .where(ProjectShare.sysno == old)
            .values(expire_time=utcnow() - timedelta(days=1))
        )
        await session.commit()
    assert (await _offer(harness, a, project, b.mobile, keep_shares=True))["statusCode"] == 200
    transfer = (await harness.post(f"{PROJECT}/TransferProjectList", {}, token=b.token))["data"]["dataSource"]
    accepted = await harness.post(f"{SHARE}/AcceptTransfer", {"sysno": transfer[0]["sysno"]}, token=b.token)
    assert accepted["statusCode"] == 200, accepted
    given = await _shares(harness, b, direction="given")
    assert [(r["grantee_mobile"], r["state"]) for r in given] == [(kept.mobile, "accepted")]
    mine = await _shares(harness, a)
    assert [(r["grantee_mobile"], r["state"], r["owner_mobile"]) for r in mine] == [
        (lapsed.mobile, "expired", a.mobile)
    ]


async def test_a_stolen_token_is_no_password_oracle_through_a_transfer(harness: Harness) -> None:
    """Wrong passwords of a transfer count with the account's failed logins: past 5, it is refused."""
    sender = await make_account(harness, "13900000001")
    recipient = await make_account(harness, "13900000002")
    project = await make_project(harness, sender.sysno, name="转移项目")
    body = {"project_sysno": project, "mobile": recipient.mobile, "password": "guess", "validate_code": "1"}
    answers = [
        (await harness.post(f"{SHARE}/TransferProject", {**body, "password": f"guess{i}"}, sender.token))
        for i in range(7)
    ]
    assert [a["message"] for a in answers[:5]] == ["密码错误"] * 5
    assert {(a["statusCode"], a["message"]) for a in answers[5:]} == {
        (429, "密码错误次数过多，请 15 分钟后再试")
    }
    # The right one too, until the window passes; and the login form counts the same failures.
    right = await harness.post(f"{SHARE}/TransferProject", {**body, "password": "secret123"}, sender.token)
    assert right["statusCode"] == 429
    login = await harness.post(
        "/api/CustomerCenter/LoginByPass", {"mobile": sender.mobile, "password": stamped("secret123")}
    )
    assert login["statusCode"] == 429


async def test_a_moved_group_gets_a_free_name_however_many_the_recipient_has(harness: Harness) -> None:
    """A full-length name whose （转入） form the recipient also had looped forever, freezing the server."""
    sender = await make_account(harness, "13900000001")
    recipient = await make_account(harness, "13900000002")
    project = await make_project(harness, sender.sysno, name="转移项目")
    device = await make_device(harness, await make_gateway(harness, project, online=True), project, online=1)
    own = await make_project(harness, recipient.sysno, name="自己的项目")
    own_device = await make_device(harness, await make_gateway(harness, own, online=True), own, online=1)
    name = "宿" * 64
    # The loop's own next name (58 + （转入）) and the first two that fit the column.
    taken = [name, "宿" * 58 + "（转入）", "宿" * 60 + "（转入）", "宿" * 59 + "（转入2）"]
    for group_name, who, member in [(name, sender, device)] + [(n, recipient, own_device) for n in taken]:
        added = await harness.post(
            "/api/CustomerGroup/AddGroup", {"name": group_name, "device_sysnos": [member]}, token=who.token
        )
        assert added["statusCode"] == 200, added
    offered = await _offer(harness, sender, project, recipient.mobile)
    accepted = await asyncio.wait_for(
        harness.post(f"{SHARE}/AcceptTransfer", {"sysno": offered["data"]["sysno"]}, token=recipient.token),
        10,
    )
    assert accepted["statusCode"] == 200, accepted
    async with harness.ctx.sessions() as session:
        names = set(
            await session.scalars(
                select(DeviceGroup.name).where(DeviceGroup.customer_sysno == recipient.sysno)
            )
        )
    assert names == {*taken, "宿" * 59 + "（转入3）"}
