"""Device groups: named sets of devices the customer may control, switched together."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, delete, func, select, true
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.selectable import Subquery

from powerportal.accounts.models import Customer
from powerportal.control import history
from powerportal.control.commands import Commander, Origin, Target, load_targets, person
from powerportal.control.models import ControlRun, DeviceGroup, DeviceGroupMember
from powerportal.control.schemas import (
    MAX_DEVICES,
    DeviceBrief,
    DevicePick,
    GroupCreate,
    GroupQuery,
    GroupSwitch,
    GroupUpdate,
)
from powerportal.core.context import AppContext
from powerportal.core.database import hold_rows
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.filters import contains_pattern, keyword_filter
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import ForIds, Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import (
    controls,
    owners_besides,
)
from powerportal.projects.models import Project

BRIEF_COLUMNS = (
    Device.sysno,
    Device.name,
    Device.device_id,
    Device.gateway_sysno,
    Gateway.name,
    Gateway.sn,
    Device.project_sysno,
    Project.name,
    Device.online,
    Device.switch_state,
)


def _controllable(customer: Any) -> ColumnElement[bool]:
    return controls(customer, project=Device.project_sysno, gateway=Device.gateway_sysno)


_BRIEFS = ForIds(
    lambda ids: (
        select(*BRIEF_COLUMNS)
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .join(Project, Project.sysno == Device.project_sysno)
        .where(Device.sysno.in_(ids), _controllable(bindparam("customer")))
    )
)
# The order the screens list devices in: project name, gateway name, device id.
_BRIEF_ORDER = itemgetter("project_name", "gateway_name", "device_id")


def _brief(row: Row) -> dict[str, Any]:
    """A device in the shape of ``DeviceBrief`` (from ``BRIEF_COLUMNS``)."""
    sysno, name, device_id, gateway_sysno, gateway_name, gateway_sn, project_sysno, project_name = row[:8]
    return {
        "sysno": sysno,
        "name": name,
        "device_id": device_id,
        "gateway_sysno": gateway_sysno,
        "gateway_name": gateway_name,
        "gateway_sn": gateway_sn,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "online": row[8],
        "switch_state": row[9],
    }


async def _briefs(
    source: AppContext | AsyncSession, customer_sysno: int, device_sysnos: Sequence[int]
) -> dict[int, dict[str, Any]]:
    """The named devices the customer may control as ``DeviceBrief`` objects, by device."""
    found = await _BRIEFS.all(source, sorted(set(device_sysnos)), customer=customer_sysno)
    return {row[0]: _brief(row) for row in found}


def members_of(owner: Any, device: Any) -> ForIds:
    """``(owner, device)`` of every member of a set of groups or tasks, in the order they were added.

    ``owner`` and ``device`` are the member table's owner and device columns.
    """
    return ForIds(lambda ids: select(owner, device).where(owner.in_(ids)).order_by(owner.class_.sysno))


async def briefs_by_owner(
    source: AppContext | AsyncSession, customer_sysno: int, members: ForIds, owners: Sequence[int]
) -> dict[int, list[dict[str, Any]]]:
    """Each owner's devices the customer may control, as the screens list them (``members``: ``members_of``).

    Members first, then each device once, however many owners share it: a page of groups shows
    the same devices again and again.
    """
    rows = await members.all(source, owners)
    devices = await _briefs(source, customer_sysno, [device for _owner, device in rows])
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for owner, device in rows:
        if device in devices:
            found[owner].append(devices[device])
    for briefs in found.values():
        briefs.sort(key=_BRIEF_ORDER)  # stable: devices in the same place keep the order they were added
    return found


async def device_briefs(
    *, session: AsyncSession, customer: Customer, device_sysnos: Sequence[int]
) -> list[DeviceBrief]:
    """The named devices the customer may control, as the task and group screens list them."""
    devices = await _briefs(session, customer.sysno, device_sysnos)
    return [DeviceBrief(**d) for d in sorted(devices.values(), key=_BRIEF_ORDER)]


async def controllable_devices(
    *, session: AsyncSession, customer: Customer, query: DevicePick
) -> list[DeviceBrief]:
    """Devices the customer may switch, filtered, at most ``MAX_DEVICES``."""
    conditions: list[Any] = [_controllable(customer.sysno)]
    if query.project_sysno is not None:
        conditions.append(Device.project_sysno == query.project_sysno)
    if query.gateway_sysno is not None:
        conditions.append(Device.gateway_sysno == query.gateway_sysno)
    if query.keyword:
        conditions.append(
            keyword_filter(
                contains_pattern(query.keyword), Device.name, Device.device_id, Gateway.name, Gateway.sn
            )
        )
    sysnos = list(
        await session.scalars(
            select(Device.sysno)
            .join(Gateway, Gateway.sysno == Device.gateway_sysno)
            .where(*conditions)
            .order_by(Device.sysno)
            .limit(MAX_DEVICES)
        )
    )
    return await device_briefs(session=session, customer=customer, device_sysnos=sysnos)


async def checked_devices(
    *, session: AsyncSession, customer: Customer, device_sysnos: list[int]
) -> list[int]:
    """The devices as given, or an error naming how many the customer may not control."""
    allowed = set(
        await session.scalars(
            select(Device.sysno).where(
                Device.sysno.in_(device_sysnos),
                _controllable(customer.sysno),
            )
        )
    )
    missing = [s for s in device_sysnos if s not in allowed]
    if missing:
        raise ApiError(f"有 {len(missing)} 个设备不存在或无权控制（编号 {missing[0]}）", status_code=404)
    return device_sysnos


async def hold_controls(session: AsyncSession, customer: Customer) -> None:
    """Take the customer's lock on its groups and timed tasks until the transaction ends.

    One customer's changes then run one at a time, each reading what the one before wrote: two tabs
    adding the same group name, adding tasks past eight periods a day, or editing or switching a group
    another deletes (``core.database.hold_rows`` on the customer's row).
    """
    await hold_rows(session, Customer, Customer.sysno == customer.sysno)


async def _group(session: AsyncSession, customer: Customer, sysno: int) -> DeviceGroup:
    """One of the customer's groups, to change or switch (read under ``hold_controls``)."""
    await hold_controls(session, customer)
    group = await session.scalar(
        select(DeviceGroup).where(DeviceGroup.sysno == sysno, DeviceGroup.customer_sysno == customer.sysno)
    )
    if group is None:
        raise NotFound("分组")
    return group


def with_members(
    owner: Any, device: Any, page_only: Callable[[Subquery, bool], Any]
) -> Callable[[Subquery, bool], Any]:
    """A list's ``page_only`` adding, after what ``page_only`` selects, each row's member tallies.

    The tallies are the devices, online devices and switched-on devices of each group or task on
    the page that the caller (the list's ``customer`` parameter) may control: with LATERAL, row by
    row through the member index; without, in one grouped pass over the page's members. ``owner``
    and ``device`` are the member table's columns.
    """

    def tallies(where: ColumnElement[bool]) -> Select[int, int, int]:
        return (
            select(
                func.count().label("devices"),
                func.count().filter(Device.online != 0).label("online"),
                func.count().filter(Device.switch_state == 1).label("switched_on"),
            )
            .select_from(owner.class_)
            .join(Device, Device.sysno == device)
            .where(where, _controllable(bindparam("customer")))
        )

    def extended(page: Subquery, lateral: bool) -> Any:
        if lateral:
            each = tallies(owner == page.c.sysno).lateral("tally")
            return (
                page_only(page, lateral)
                .add_columns(each.c.devices, each.c.online, each.c.switched_on)
                .outerjoin(each, true())
            )
        tally = (
            tallies(owner.in_(select(page.c.sysno)))
            .add_columns(owner.label("owner"))
            .group_by(owner)
            .subquery()
        )
        return (
            page_only(page, lateral)
            .add_columns(tally.c.devices, tally.c.online, tally.c.switched_on)
            .outerjoin_from(page, tally, tally.c.owner == page.c.sysno)
        )

    return extended


GROUPS = Listing(
    select(
        DeviceGroup.sysno,
        DeviceGroup.name,
        DeviceGroup.remark,
        DeviceGroup.create_time,
        DeviceGroup.update_time,
    ),
    filters={
        "customer": lambda p: DeviceGroup.customer_sysno == p,
        "sysno": lambda p: DeviceGroup.sysno == p,
        "name": Keyword(DeviceGroup.name),
    },
    orders={"create_time": DeviceGroup.create_time, "name": DeviceGroup.name},
    default_order="create_time",
    tie=DeviceGroup.sysno,
    page_only=with_members(
        DeviceGroupMember.group_sysno,
        DeviceGroupMember.device_sysno,
        history.with_last_run(ControlRun.group_sysno),
    ),
)
_MEMBERS = members_of(DeviceGroupMember.group_sysno, DeviceGroupMember.device_sysno)


def _group_row(row: Row) -> dict[str, Any]:
    """One group in the shape of ``GroupRow``: its counts and last run (``GroupRead`` adds the devices)."""
    sysno, name, remark, create_time, update_time = row[:5]
    last_run, (device_count, online_count, on_count) = row[5:-3], row[-3:]
    return {
        "sysno": sysno,
        "name": name,
        "remark": remark,
        "device_count": device_count or 0,
        "online_count": online_count or 0,
        "on_count": on_count or 0,
        "last_run": history.run_row(last_run) if last_run[0] is not None else None,
        "create_time": to_display(create_time),
        "update_time": to_display(update_time),
    }


async def list_groups(*, ctx: AppContext, customer: Customer, query: GroupQuery) -> PageData:
    """The caller's groups with their device counts and last run."""
    return await GROUPS.page(
        ctx, query=query, values={"customer": customer.sysno, "name": query.name}, render=_group_row
    )


def _last_run_text(group: dict[str, Any]) -> str | None:
    run = group["last_run"]
    if run is None:
        return None
    counts = f"成功 {run['succeeded']} · 失败 {run['failed']} · 等待 {run['pending']}"
    return f"{run['create_time']} {run['action_name']} · {counts}"


GROUP_COLUMNS = (
    Column("分组名称", "name", 20),
    Column("设备数", "device_count", 8, "number"),
    Column("在线", "online_count", 8, "number"),
    Column("合闸", "on_count", 8, "number"),
    Column("上次执行", _last_run_text, 44),
    Column("备注", "remark", 24),
    Column("创建时间", "create_time", 20),
)


async def export_groups(*, ctx: AppContext, customer: Customer, query: GroupQuery) -> tuple[Path, str]:
    """Every device group of the caller's the filters keep, as a workbook: its path and file name."""
    return await export_list(
        ctx,
        name="分组控制",
        listing=GROUPS,
        query=query,
        values={"customer": customer.sysno, "name": query.name},
        columns=GROUP_COLUMNS,
        filters=filters_shown(("分组名称", query.name)),
        render=_group_row,
    )


async def get_group(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One of the caller's groups with its devices (read in the caller's session)."""
    row = await GROUPS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("分组")
    devices = await briefs_by_owner(session, customer.sysno, _MEMBERS, [sysno])
    return {**_group_row(row), "devices": devices.get(sysno, [])}


async def _unique_name(
    session: AsyncSession, customer: Customer, name: str, sysno: int | None = None
) -> None:
    clash = await session.scalar(
        select(DeviceGroup.sysno).where(
            DeviceGroup.customer_sysno == customer.sysno,
            DeviceGroup.name == name,
            DeviceGroup.sysno != (sysno or 0),
        )
    )
    if clash is not None:
        raise ApiError(f"已有名为“{name}”的分组", status_code=409)


async def create_group(
    *, session: AsyncSession, customer: Customer, body: GroupCreate, ip: str
) -> dict[str, Any]:
    """Create a group of devices the customer may control."""
    await hold_controls(session, customer)
    await _unique_name(session, customer, body.name)
    devices = await checked_devices(session=session, customer=customer, device_sysnos=body.device_sysnos)
    group = DeviceGroup(customer_sysno=customer.sysno, name=body.name, remark=body.remark)
    session.add(group)
    await session.flush()
    session.add_all(DeviceGroupMember(group_sysno=group.sysno, device_sysno=d) for d in devices)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GROUP,
        detail=f"新建分组“{group.name}”（{len(devices)} 个设备）",
        ip=ip,
    )
    await session.flush()
    return await get_group(session=session, customer=customer, sysno=group.sysno)


async def update_group(
    *, session: AsyncSession, customer: Customer, body: GroupUpdate, ip: str
) -> dict[str, Any]:
    """Replace a group's name, remark and members."""
    group = await _group(session, customer, body.sysno)
    await _unique_name(session, customer, body.name, group.sysno)
    devices = await checked_devices(session=session, customer=customer, device_sysnos=body.device_sysnos)
    group.name, group.remark, group.update_time = body.name, body.remark, utcnow()
    await session.execute(delete(DeviceGroupMember).where(DeviceGroupMember.group_sysno == group.sysno))
    session.add_all(DeviceGroupMember(group_sysno=group.sysno, device_sysno=d) for d in devices)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GROUP,
        detail=f"修改分组“{group.name}”（{len(devices)} 个设备）",
        ip=ip,
    )
    await session.flush()
    return await get_group(session=session, customer=customer, sysno=group.sysno)


async def _running(session: AsyncSession, group: DeviceGroup) -> bool:
    """Whether a run of the group is under way (one a stopped server abandoned does not count)."""
    found = await session.scalar(
        select(ControlRun.sysno)
        .where(
            ControlRun.group_sysno == group.sysno,
            ControlRun.status == "running",
            ControlRun.start_time > utcnow() - history.ABANDONED_AFTER,
        )
        .limit(1)
    )
    return found is not None


async def delete_group(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """Delete a group (its devices and past commands stay), unless it is switching right now."""
    group = await _group(session, customer, sysno)
    # Its runs go with it: a run under way would vanish from the tab polling it, or, deleted before its
    # commands were written, fail on their foreign key with nothing sent.
    if await _running(session, group):
        raise ApiError("该分组正在执行，请在执行结束后再删除", status_code=409)
    await session.delete(group)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GROUP,
        detail=f"删除分组“{group.name}”",
        ip=ip,
    )


async def switch_group(
    *, commander: Commander, session: AsyncSession, customer: Customer, body: GroupSwitch, ip: str
) -> dict[str, Any]:
    """Start switching a whole group; the answer is the run, whose results arrive as the gateways answer."""
    group = await _group(session, customer, body.sysno)
    if await _running(session, group):  # a double click, or a second tab: each device would get both commands
        raise ApiError("该分组上一次执行尚未完成，请在执行结束后再操作", status_code=409)
    members = await session.scalars(
        select(DeviceGroupMember.device_sysno)
        .where(DeviceGroupMember.group_sysno == group.sysno)
        .order_by(DeviceGroupMember.sysno)
    )
    targets = await load_targets(session=session, customer=customer, device_sysnos=list(members))
    if not targets:
        raise ApiError("分组内没有可控制的设备，请先添加设备")
    run = ControlRun(
        customer_sysno=customer.sysno,
        kind="group",
        group_sysno=group.sysno,
        name=group.name,
        action=body.action,
        total=len(targets),
        status="running",
        start_time=utcnow(),
    )
    session.add(run)
    detail = f"分组“{group.name}”{history.ACTION_NAMES[body.action]}（{len(targets)} 个设备）"
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GROUP,
        detail=detail,
        ip=ip,
    )
    for owner in await owners_besides(session, customer, [t.project_sysno for t in targets]):
        logs.record(
            session=session,
            customer_sysno=owner,
            operate_type=logs.OperateType.GROUP,
            detail=f"共享用户 {person(customer)}：{detail}",
            ip=ip,
        )
    # The run must be visible to the poller and to the commands' foreign key before they start.
    await session.commit()
    origin = Origin(
        customer_sysno=customer.sysno, source="group", operator=person(customer), run_sysno=run.sysno
    )
    commander.start_background(_run_group(commander, targets, body.action, origin))
    return history.run_read(run)


async def _run_group(commander: Commander, targets: list[Target], action: str, origin: Origin) -> None:
    assert origin.run_sysno is not None  # noqa: S101 - switch_group always creates the run first
    try:
        await commander.execute(targets=targets, action=action, params=None, origin=origin)
    finally:
        await history.finish_run(ctx=commander.ctx, run_sysno=origin.run_sysno)
