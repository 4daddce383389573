"""Device groups: named sets of devices the customer may control, switched together."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

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
    GroupRead,
    GroupSwitch,
    GroupUpdate,
    RunRead,
)
from powerportal.core.database import fetch_page
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.filters import contains_pattern
from powerportal.core.schemas import Page
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import controllable_project_ids
from powerportal.projects.models import Project


async def device_briefs(
    *, session: AsyncSession, customer: Customer, device_sysnos: Sequence[int]
) -> list[DeviceBrief]:
    """The named devices the customer may control, as the task and group screens list them."""
    if not device_sysnos:
        return []
    rows = await session.execute(
        select(Device, Gateway.name, Gateway.sn, Project.name)
        .join(Gateway, Gateway.sysno == Device.gateway_sysno)
        .join(Project, Project.sysno == Device.project_sysno)
        .where(
            Device.sysno.in_(list(device_sysnos)),
            Device.project_sysno.in_(controllable_project_ids(customer)),
        )
        .order_by(Project.name, Gateway.name, Device.device_id)
    )
    return [
        DeviceBrief(
            sysno=d.sysno,
            name=d.name,
            device_id=d.device_id,
            gateway_sysno=d.gateway_sysno,
            gateway_name=gw_name,
            gateway_sn=sn,
            project_sysno=d.project_sysno,
            project_name=p_name,
            online=d.online,
            switch_state=d.switch_state,
        )
        for d, gw_name, sn, p_name in rows
    ]


async def controllable_devices(
    *, session: AsyncSession, customer: Customer, query: DevicePick
) -> list[DeviceBrief]:
    """Devices the customer may switch, filtered, at most ``MAX_DEVICES``."""
    conditions: list[Any] = [Device.project_sysno.in_(controllable_project_ids(customer))]
    if query.project_sysno is not None:
        conditions.append(Device.project_sysno == query.project_sysno)
    if query.gateway_sysno is not None:
        conditions.append(Device.gateway_sysno == query.gateway_sysno)
    if query.keyword:
        pattern = contains_pattern(query.keyword)
        conditions.append(
            or_(
                Device.name.ilike(pattern, escape="\\"),
                Device.device_id.ilike(pattern, escape="\\"),
                Gateway.name.ilike(pattern, escape="\\"),
                Gateway.sn.ilike(pattern, escape="\\"),
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
                Device.sysno.in_(device_sysnos), Device.project_sysno.in_(controllable_project_ids(customer))
            )
        )
    )
    missing = [s for s in device_sysnos if s not in allowed]
    if missing:
        raise ApiError(f"有 {len(missing)} 个设备不存在或无权控制（编号 {missing[0]}）", status_code=404)
    return device_sysnos


async def _group(session: AsyncSession, customer: Customer, sysno: int) -> DeviceGroup:
    group = await session.scalar(
        select(DeviceGroup).where(DeviceGroup.sysno == sysno, DeviceGroup.customer_sysno == customer.sysno)
    )
    if group is None:
        raise NotFound("分组")
    return group


async def _members(session: AsyncSession, group_sysnos: Sequence[int]) -> dict[int, list[int]]:
    rows = await session.execute(
        select(DeviceGroupMember.group_sysno, DeviceGroupMember.device_sysno)
        .where(DeviceGroupMember.group_sysno.in_(list(group_sysnos)))
        .order_by(DeviceGroupMember.sysno)
    )
    found: dict[int, list[int]] = defaultdict(list)
    for group_sysno, device_sysno in rows:
        found[group_sysno].append(device_sysno)
    return found


async def _reads(session: AsyncSession, customer: Customer, groups: Sequence[DeviceGroup]) -> list[GroupRead]:
    members = await _members(session, [g.sysno for g in groups])
    last_runs: dict[int, ControlRun] = {}
    if groups:
        newest = (
            select(ControlRun.group_sysno, func.max(ControlRun.sysno).label("sysno"))
            .where(ControlRun.group_sysno.in_([g.sysno for g in groups]))
            .group_by(ControlRun.group_sysno)
            .subquery()
        )
        for run in await session.scalars(select(ControlRun).join(newest, newest.c.sysno == ControlRun.sysno)):
            if run.group_sysno is not None:
                last_runs[run.group_sysno] = run
    reads = []
    for group in groups:
        devices = await device_briefs(
            session=session, customer=customer, device_sysnos=members.get(group.sysno, [])
        )
        last = last_runs.get(group.sysno)
        reads.append(
            GroupRead(
                sysno=group.sysno,
                name=group.name,
                remark=group.remark,
                devices=devices,
                device_count=len(devices),
                online_count=sum(1 for d in devices if d.online),
                on_count=sum(1 for d in devices if d.switch_state == 1),
                last_run=history.run_read(last) if last else None,
                create_time=to_display(group.create_time),
                update_time=to_display(group.update_time),
            )
        )
    return reads


async def list_groups(*, session: AsyncSession, customer: Customer, query: GroupQuery) -> Page[GroupRead]:
    """The caller's groups with their devices."""
    conditions: list[Any] = [DeviceGroup.customer_sysno == customer.sysno]
    if query.name:
        conditions.append(DeviceGroup.name.ilike(contains_pattern(query.name), escape="\\"))
    column = DeviceGroup.name if query.orderBy == "name" else DeviceGroup.create_time
    result, total = await fetch_page(
        session,
        select(DeviceGroup).where(*conditions).order_by(*query.ordered(column, DeviceGroup.sysno)),
        query,
    )
    return Page(dataSource=await _reads(session, customer, list(result.scalars())), totalCount=total)


async def get_group(*, session: AsyncSession, customer: Customer, sysno: int) -> GroupRead:
    """One of the caller's groups."""
    return (await _reads(session, customer, [await _group(session, customer, sysno)]))[0]


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


async def create_group(*, session: AsyncSession, customer: Customer, body: GroupCreate, ip: str) -> GroupRead:
    """Create a group of devices the customer may control."""
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


async def update_group(*, session: AsyncSession, customer: Customer, body: GroupUpdate, ip: str) -> GroupRead:
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


async def delete_group(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """Delete a group (its devices and past commands stay)."""
    group = await _group(session, customer, sysno)
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
) -> RunRead:
    """Start switching a whole group; the answer is the run, whose results arrive as the gateways answer."""
    group = await _group(session, customer, body.sysno)
    members = (await _members(session, [group.sysno])).get(group.sysno, [])
    targets = await load_targets(session=session, customer=customer, device_sysnos=members)
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
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GROUP,
        detail=f"分组“{group.name}”{history.ACTION_NAMES[body.action]}（{len(targets)} 个设备）",
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
