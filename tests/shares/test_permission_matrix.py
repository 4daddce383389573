"""The permission matrix: every route of the OpenAPI document, called as each kind of account.

The owner holds a project (sysno 1) with a building, a gateway, a device, logs, a timed task and a
group (each sysno 1). The other accounts own nothing: a view-only sharee, a control sharee, a control
sharee limited to another building of the project, one whose share expired, one whose share was
revoked, and a stranger. Every secured operation is called by
each of them with a body built from the document, every id set to 1 (the owner's rows). Then:

- nothing leaks: an account without access gets no answer (JSON or workbook) naming the owner's rows
  (the sharee of another building sees the project's name, and nothing in the owner's building);
- nothing changes that should not: the owner's rows (the project and everything in it, the owner's
  tasks, groups, plans, accounts and subscriptions) are byte for byte the same after each call;
- sharees see what the owner sees: a read that shows the owner's rows to the owner shows them to a
  sharee in force too (apart from the owner's own settings, listed below with the reason);
- control needs the control permission (switching, and processing the project's alarms), and what a
  sharee does is written in the owner's operation log, naming the sharee.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from datetime import timedelta
from typing import Any

import openpyxl
import pytest
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import select, text, update

from powerportal.core.downloads import MEDIA
from powerportal.core.timeutil import utcnow
from powerportal.logs.models import OperationLog
from powerportal.models import Base
from powerportal.shares.models import ProjectShare
from tests.conftest import Harness
from tests.factories import (
    Account,
    make_account,
    make_alarm,
    make_building,
    make_device,
    make_gateway,
    make_offline_log,
    make_project,
    make_status_log,
)

MARK = "矩阵机密"
GW_MARK = "MATRIXGW"
ROLES = ("viewer", "controller", "elsewhere", "expired", "revoked", "stranger")
IN_FORCE = ("viewer", "controller")

# Calls that end or change the caller's own login; they concern no project.
SKIPPED = {
    "POST /api/CustomerCenter/LoginOut",
    "PUT /api/CustomerCenter/UpdatePassWord",
    "POST /api/CustomerCenter/TransformUsername",
}
# Reads of the owner's own settings, not of the project: a sharee has its own.
OWNER_SETTINGS = {
    "POST /api/CustomerTimedTask/GetTaskList",
    "POST /api/CustomerTimedTask/ExportTaskList",
    "GET /api/CustomerTimedTask/GetSingleTask",
    "POST /api/CustomerTimedTask/GetRunList",
    "POST /api/CustomerTimedTask/ExportRunList",
    "GET /api/CustomerTimedTask/GetRunDetail",
    "POST /api/CustomerGroup/GetGroupList",
    "POST /api/CustomerGroup/ExportGroupList",
    "GET /api/CustomerGroup/GetSingleGroup",
    "GET /api/CustomerGroup/GetRunStatus",
    "POST /api/CustomerOperationLog/GetCustomerOperationLogList",
    "POST /api/CustomerOperationLog/ExportCustomerOperationLogList",
    "POST /api/CustomerCenter/MyInfo",
    "POST /api/CustomerCenter/GetSingleCustomer",
    "POST /api/CustomerNoctice/GetNoticeList",
    "POST /api/CustomerNoctice/ExportNoticeList",
    "GET /api/CustomerNoctice/GetNewNoticeNew",
    "POST /api/CustomerReport/GetReportJobList",
    "POST /api/CustomerReport/GetReportSubscriptionList",
    # Price plans are the owner's business (a sharee's costs use its own view of prices).
    "GET /api/CustomerEnergy/GetProjectTariffList",
}
# Reads of what the caller may switch: a view-only sharee gets none of the owner's devices.
CONTROL_READS = {"POST /api/CustomerControl/GetControllableDeviceList"}
# A sharee whose share ended still sees its own invitation (naming the project) in its share list.
OWN_SHARE_RECORD = {"POST /api/CustomerProject/ShareProjectList"}
# Its notices keep the invitation it was sent (the project named in 「」); nothing else of the owner's.
INVITATION = f"「{MARK}项目」"
# What a control sharee may change of the owner's: it processes the project's alarms (its operators do).
CONTROLLER_MAY_CHANGE = {"POST /api/CustomerAlarm/ProcessAlarm"}
# Tables whose rows are history or the caller's own: calls may add to them.
HISTORY = {
    "operation_log",
    "customer_notice",
    "customer_notice_counter",
    "customer_token",
    "command",
    "control_run",
    "sms_code",
    "sms_outbox",
    "project_share",
    "project_transfer",
    "report_job",
}


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _value(doc: dict[str, Any], schema: dict[str, Any], name: str) -> Any:
    """A plausible value for a field, every id pointing at the owner's rows."""
    schema = _resolve(doc, schema)
    options = [o for o in schema.get("anyOf", []) if _resolve(doc, o).get("type") != "null"]
    if options:
        return _value(doc, options[0], name)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        required = set(schema.get("required", []))
        props = schema.get("properties", {})
        return {
            key: _value(doc, sub, key)
            for key, sub in props.items()
            if key in required or key.endswith("sysno")
        }
    if kind == "array":
        item = _value(doc, schema.get("items", {}), name)
        return [item] * max(1, schema.get("minItems", 1))
    if kind == "integer":
        return 1 if "sysno" in name else max(1, schema.get("minimum", 1))
    if kind == "number":
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return False
    pattern = schema.get("pattern", "")
    if "[0-9]{4}-" in pattern:
        return utcnow().date().isoformat()
    if "1[3-9]" in pattern:
        return "13900000009"
    if "HH" in pattern or ":[0-5]" in pattern or "[0-9]{2}:" in pattern:
        return "08:00"
    return "矩阵调用"[: max(1, schema.get("maxLength", 4))]


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            label = f"{method.upper()} {path}"
            if op.get("security") and label not in SKIPPED:
                found.append((method.upper(), path, op))
    # Reads first, then writes; the share and transfer actions (which end the caller's own share) last.
    return sorted(found, key=lambda o: (_is_read(o[0], o[1]) is False, "/CustomerShare/" in o[1], o[1]))


def _is_read(method: str, path: str) -> bool:
    verb = path.rsplit("/", 1)[1]
    return (
        method == "GET" or verb.startswith(("Get", "Export", "Download", "Preview")) or verb.endswith("List")
    )


async def _call(
    h: Harness, token: str, method: str, path: str, op: dict[str, Any], doc: dict[str, Any]
) -> str:
    """Call an operation; its answer as text (a workbook's cells, or the envelope)."""
    params = {p["name"]: _value(doc, p.get("schema", {}), p["name"]) for p in op.get("parameters", [])}
    body = None
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content:
        body = _value(doc, content["schema"], "")
    response = await h.client.request(method, path, params=params, json=body, headers={"SYSTOKEN": token})
    assert response.status_code < 500, (method, path, response.text)
    media = response.headers.get("content-type", "")
    if media.startswith(MEDIA["xlsx"]):
        book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
        cells = [list(row) for sheet in book for row in sheet.iter_rows(values_only=True)]
        return json.dumps(cells, ensure_ascii=False, default=str)
    if not media.startswith("application/json"):
        return response.content.decode("utf-8", "replace")
    return json.dumps(response.json(), ensure_ascii=False)


async def _owner_world(h: Harness, owner: int) -> str:
    """A digest of every row of the owner's: the project and what is in it, the owner's own settings."""
    digest = hashlib.sha256()
    async with h.ctx.sessions() as session:
        for table in Base.metadata.sorted_tables:
            if table.name in HISTORY:
                continue
            columns = set(table.c.keys())
            where = []
            if "project_sysno" in columns:
                where.append("project_sysno = 1")
            if "customer_sysno" in columns:
                where.append(f"customer_sysno = {owner}")
            if table.name in ("project", "customer"):
                where.append(f"sysno = {owner if table.name == 'customer' else 1}")
            if not where:
                continue
            order = ", ".join(c.name for c in sa_inspect(table).primary_key) or "1"
            rows = await session.execute(
                text(f'SELECT * FROM "{table.name}" WHERE {" OR ".join(where)} ORDER BY {order}')  # noqa: S608
            )
            digest.update(f"{table.name}:{[tuple(map(str, r)) for r in rows]}".encode())
    return digest.hexdigest()


async def _seed(h: Harness) -> tuple[Account, dict[str, Account]]:
    owner = await make_account(h, "13900000001")
    project = await make_project(h, owner.sysno, name=f"{MARK}项目")
    building = await make_building(h, project, name=f"{MARK}楼")
    gateway = await make_gateway(h, project, building, sn=f"{GW_MARK}1", name=f"{MARK}网关", online=True)
    device = await make_device(h, gateway, project, name=f"{MARK}设备", online=1, switch_state=1)
    assert (project, building, gateway, device) == (1, 1, 1, 1)
    other_building = await make_building(h, project, name="别的楼")
    await make_offline_log(h, project, gateway, device, target_name=f"{MARK}设备")
    assert await make_alarm(h, project, gateway, device, f"{MARK}过流", target_name=f"{MARK}设备") == 1
    await make_status_log(h, project, gateway, target_name=f"{MARK}网关")
    task = {
        "name": f"{MARK}任务",
        "action": "switch_off",
        "repeat": "weekly",
        "weekdays": [1],
        "times": ["03:00"],
        "device_sysnos": [device],
    }
    assert (await h.post("/api/CustomerTimedTask/AddTask", task, token=owner.token))["statusCode"] == 200
    group = {"name": f"{MARK}分组", "device_sysnos": [device]}
    assert (await h.post("/api/CustomerGroup/AddGroup", group, token=owner.token))["statusCode"] == 200
    accounts: dict[str, Account] = {}
    for number, role in enumerate(ROLES, start=2):
        accounts[role] = await make_account(h, f"139000000{number:02d}")
        if role == "stranger":
            continue
        permission = 1 if role == "viewer" else 2
        invite = {"project_sysno": project, "mobile": accounts[role].mobile, "permission": permission}
        if role == "elsewhere":
            invite["building_sysnos"] = [other_building]
        sysno = (await h.post("/api/CustomerShare/AddShare", invite, token=owner.token))["data"]["sysno"]
        accepted = await h.post(
            "/api/CustomerShare/AcceptShare", {"sysno": sysno}, token=accounts[role].token
        )
        assert accepted["statusCode"] == 200
        if role == "revoked":
            assert (await h.post("/api/CustomerShare/RevokeShare", {"sysno": sysno}, token=owner.token))[
                "statusCode"
            ] == 200
    async with h.ctx.sessions() as session:
        expired = accounts["expired"].sysno
        await session.execute(
            update(ProjectShare)
            .where(ProjectShare.grantee_sysno == expired)
            .values(expire_time=utcnow() - timedelta(minutes=1))
        )
        await session.commit()
        assert await session.scalar(select(ProjectShare.status).where(ProjectShare.grantee_sysno == expired))
    return owner, accounts


@pytest.mark.parametrize("role", ROLES)
async def test_every_route_as_each_account(harness: Harness, role: str) -> None:
    doc = harness.app.openapi()
    owner, accounts = await _seed(harness)
    me = accounts[role]
    operations = _operations(doc)
    assert len(operations) > 140
    owner_saw: set[str] = set()
    owner_ok = 0
    for method, path, op in operations:
        label = f"{method} {path}"
        read = _is_read(method, path)
        if read:
            seen = await _call(harness, owner.token, method, path, op, doc)
            owner_ok += '"statusCode": 200' in seen or not seen.startswith("{")
            if MARK in seen or GW_MARK in seen:
                owner_saw.add(label)
        before = await _owner_world(harness, owner.sysno)
        answer = await _call(harness, me.token, method, path, op, doc)
        after = await _owner_world(harness, owner.sysno)
        if role == "controller" and label in CONTROLLER_MAY_CHANGE:
            assert '"statusCode": 200' in answer and before != after, f"{label}: {answer[:300]}"
        else:
            assert before == after, f"{role}: {label} changed the owner's rows: {answer[:300]}"
        if role == "elsewhere":  # the project is in view, by name
            answer = answer.replace(f"{MARK}项目", "")
        shows = MARK in answer.replace(INVITATION, "") or GW_MARK in answer
        if role == "viewer" and label in CONTROL_READS:
            assert not shows, f"{role}: {label} offers the owner's devices to switch: {answer[:300]}"
        elif role in IN_FORCE:
            if label in owner_saw and label not in OWNER_SETTINGS:
                assert shows, f"{role}: {label} hides what the owner sees: {answer[:300]}"
        elif label not in OWN_SHARE_RECORD:
            assert not shows, f"{role}: {label} leaks the owner's rows: {answer[:300]}"
    # The built bodies are good enough to reach the data: most reads answer the owner, many show its rows.
    reads = sum(_is_read(m, p) for m, p, _ in operations)
    assert owner_ok >= reads * 0.8, (owner_ok, reads)
    assert len(owner_saw) >= 30, sorted(owner_saw)

    # Control needs the control permission (the gateway is not connected, so the command fails, but is sent).
    command = {"device_sysno": 1, "action": "switch_off"}
    sent = await harness.post("/api/CustomerControl/SendCommand", command, token=me.token)
    if role == "controller":
        assert sent["statusCode"] != 404, sent
        assert sent["data"] is not None and MARK in json.dumps(sent["data"], ensure_ascii=False)
    else:
        assert sent["statusCode"] == 404, sent
    async with harness.ctx.sessions() as session:
        owner_log = " ".join(
            await session.scalars(
                select(OperationLog.detail).where(OperationLog.customer_sysno == owner.sysno)
            )
        )
    named = f"共享用户 测试用户（{me.mobile}）"
    assert (named in owner_log) == (role == "controller"), owner_log


def test_the_matrix_covers_the_document(harness: Harness) -> None:
    """Every secured operation is called (but the caller's own logout, password and account moves)."""
    doc = harness.app.openapi()
    secured = {
        f"{m.upper()} {p}" for p, item in doc["paths"].items() for m, op in item.items() if op.get("security")
    }
    called = {f"{m} {p}" for m, p, _ in _operations(doc)}
    assert secured - called == SKIPPED
    assert all(re.match(r"^(GET|POST|PUT|DELETE) /api/", label) for label in called)
