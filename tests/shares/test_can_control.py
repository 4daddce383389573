"""``can_control`` of the project reads: the client hides control actions where it is false."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness
from tests.factories import Account, make_account, make_building, make_gateway, make_project

SHARE = "/api/CustomerShare"
PROJECT = "/api/CustomerProject"


async def _accepted_share(h: Harness, owner: Account, guest: Account, project: int, permission: int) -> int:
    body = await h.post(
        f"{SHARE}/AddShare",
        {"project_sysno": project, "mobile": guest.mobile, "permission": permission},
        token=owner.token,
    )
    assert body["statusCode"] == 200, body
    sysno: int = body["data"]["sysno"]
    accepted = await h.post(f"{SHARE}/AcceptShare", {"sysno": sysno}, token=guest.token)
    assert accepted["statusCode"] == 200, accepted
    return sysno


def _tree_flags(nodes: list[dict[str, Any]]) -> dict[str, bool]:
    """``can_control`` of every node of the tree, by key."""
    flags: dict[str, bool] = {}
    for node in nodes:
        flags[node["key"]] = node["can_control"]
        flags.update(_tree_flags(node["list_child"]))
    return flags


async def _reads(h: Harness, who: Account) -> dict[str, dict[int, bool]]:
    """``can_control`` per project as the list, the single read, the filter options and the tree say."""
    page = (await h.post(f"{PROJECT}/GetProjectList", {}, token=who.token))["data"]["dataSource"]
    options = (await h.post(f"{PROJECT}/GetFilterProjectList", {}, token=who.token))["data"]
    tree = (await h.post(f"{PROJECT}/GetProjectAndBuildingGatewayList", {}, token=who.token))["data"]
    single = {}
    for row in page:
        one = await h.call(
            "GET", f"{PROJECT}/GetSingleProject", token=who.token, params={"sysno": row["sysno"]}
        )
        single[row["sysno"]] = one["data"]["can_control"]
    return {
        "list": {row["sysno"]: row["can_control"] for row in page},
        "single": single,
        "options": {row["sysno"]: row["can_control"] for row in options},
        "tree": {node["sysno"]: node["can_control"] for node in tree},
    }


async def test_view_only_sharee_reads_false_control_sharee_and_owner_true(harness: Harness) -> None:
    owner = await make_account(harness, "13900000011")
    guest = await make_account(harness, "13900000012")
    viewed = await make_project(harness, owner.sysno, name="仅查看项目")
    controlled = await make_project(harness, owner.sysno, name="可控制项目")
    own = await make_project(harness, guest.sysno, name="自己的项目")
    building = await make_building(harness, viewed)
    gateway = await make_gateway(harness, viewed, building)
    await _accepted_share(harness, owner, guest, viewed, permission=1)
    share = await _accepted_share(harness, owner, guest, controlled, permission=2)

    expected = {viewed: False, controlled: True, own: True}
    reads = await _reads(harness, guest)
    assert reads == {"list": expected, "single": expected, "options": expected, "tree": expected}
    # Every node of a view-only project carries false: buildings and gateways too.
    tree = (await harness.post(f"{PROJECT}/GetProjectAndBuildingGatewayList", {}, token=guest.token))["data"]
    flags = _tree_flags(tree)
    assert flags[f"building-{building}"] is False and flags[f"gateway-{gateway}"] is False
    assert flags[f"project-{controlled}"] is True

    # The owner controls both of its projects, whatever it shared.
    mine = await _reads(harness, owner)
    assert mine["list"] == mine["options"] == mine["tree"] == {viewed: True, controlled: True}

    # A revoked control share takes the project away (and with it any control).
    revoked = await harness.post(f"{SHARE}/RevokeShare", {"sysno": share}, token=owner.token)
    assert revoked["statusCode"] == 200
    after = await _reads(harness, guest)
    assert after["options"] == {viewed: False, own: True}
