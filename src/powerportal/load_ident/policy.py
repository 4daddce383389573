"""Load policies: which loads a project (or one of its buildings) forbids, and what is done about them.

A building's policy replaces the project's whole; a project without a saved policy has the defaults
(the heating and cooking categories, 2 kW, an alarm). A device's whitelist lets it run the named
appliances whatever its policy forbids. Reading needs sight of the project; editing needs to own it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.database import upsert_insert
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.load_ident.model import CATEGORIES, DEFAULT_POLICY, HEATING_AND_COOKING, Policy
from powerportal.load_ident.models import LoadPolicy, LoadWhitelist
from powerportal.load_ident.schemas import (
    BuildingOption,
    PolicyRead,
    PolicyRemove,
    PolicySetting,
    PolicyWrite,
    WhitelistRead,
    WhitelistWrite,
)
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned_project, get_visible_project, in_view
from powerportal.projects.models import Building

ACTION_NAMES = {"none": "无", "record": "仅记录", "alarm": "告警", "trip": "跳闸"}
DEFAULT_ACTION = "alarm"
DEFAULT_RECLOSE_MINUTES = 30
DEFAULT_MAX_RECLOSE = 3


@dataclass(frozen=True)
class Rules:
    """The policy in force for one device's building: the verdict's policy and the action on a violation."""

    policy: Policy
    action: str
    reclose_minutes: int
    max_reclose: int

    @property
    def recloses(self) -> bool:
        """Whether a trip is re-closed automatically at all (minutes to wait, and re-closes a day)."""
        return self.reclose_minutes > 0 and self.max_reclose > 0


DEFAULT_RULES = Rules(DEFAULT_POLICY, DEFAULT_ACTION, DEFAULT_RECLOSE_MINUTES, DEFAULT_MAX_RECLOSE)


def rules_of(row: LoadPolicy | None) -> Rules:
    """The rules a stored policy gives (the defaults where none is stored)."""
    if row is None:
        return DEFAULT_RULES
    return Rules(
        policy=Policy(forbidden=frozenset(row.forbidden), power_limit_w=float(row.power_limit)),
        action=row.action,
        reclose_minutes=row.reclose_minutes,
        max_reclose=row.max_reclose,
    )


async def rules_for(
    session: AsyncSession, places: Iterable[tuple[int, int | None]]
) -> dict[tuple[int, int | None], Rules]:
    """The rules in force for each (project, building) place: the building's, else the project's."""
    wanted = set(places)
    projects = {project for project, _building in wanted}
    rows = (
        (await session.scalars(select(LoadPolicy).where(LoadPolicy.project_sysno.in_(projects)))).all()
        if projects
        else []
    )
    stored = {(row.project_sysno, row.building_sysno): row for row in rows}
    return {
        (project, building): rules_of(stored.get((project, building)) or stored.get((project, None)))
        for project, building in wanted
    }


async def whitelists_for(session: AsyncSession, device_sysnos: Iterable[int]) -> dict[int, frozenset[str]]:
    """The whitelisted appliances of each device that has any."""
    ids = sorted(set(device_sysnos))
    if not ids:
        return {}
    rows = await session.execute(
        select(LoadWhitelist.device_sysno, LoadWhitelist.appliances).where(
            LoadWhitelist.device_sysno.in_(ids)
        )
    )
    return {device: frozenset(appliances) for device, appliances in rows}


def _read(project_sysno: int, building: Building | None, row: LoadPolicy | None) -> PolicyRead:
    rules = rules_of(row)
    return PolicyRead(
        project_sysno=project_sysno,
        building_sysno=building.sysno if building else None,
        building_name=building.name if building else None,
        forbidden=[c for c in CATEGORIES if c in rules.policy.forbidden],
        power_limit=rules.policy.power_limit_w,
        action=rules.action,
        reclose_minutes=rules.reclose_minutes,
        max_reclose=rules.max_reclose,
        is_default=row is None,
    )


async def get_setting(*, session: AsyncSession, customer: Customer, project_sysno: int) -> PolicySetting:
    """A project's policy, its buildings' overrides and its devices' whitelists."""
    project = await get_visible_project(session=session, customer=customer, sysno=project_sysno)
    buildings = (
        await session.scalars(
            select(Building)
            .where(
                Building.project_sysno == project.sysno,
                in_view(customer.sysno, project=Building.project_sysno, building=Building.sysno),
            )
            .order_by(Building.sysno)
        )
    ).all()
    rows = (await session.scalars(select(LoadPolicy).where(LoadPolicy.project_sysno == project.sysno))).all()
    stored = {row.building_sysno: row for row in rows}
    whitelists = await session.execute(
        select(LoadWhitelist.device_sysno, Device.device_id, Device.name, LoadWhitelist.appliances)
        .join(Device, Device.sysno == LoadWhitelist.device_sysno)
        .where(
            Device.project_sysno == project.sysno,
            in_view(customer.sysno, project=Device.project_sysno, gateway=Device.gateway_sysno),
        )
        .order_by(Device.name, Device.sysno)
    )
    return PolicySetting(
        project=_read(project.sysno, None, stored.get(None)),
        buildings=[_read(project.sysno, b, stored[b.sysno]) for b in buildings if b.sysno in stored],
        building_options=[BuildingOption(sysno=b.sysno, name=b.name) for b in buildings],
        whitelists=[
            WhitelistRead(device_sysno=sysno, device_id=device_id, device_name=name, appliances=appliances)
            for sysno, device_id, name, appliances in whitelists
        ],
        categories=list(CATEGORIES),
        default_forbidden=[c for c in CATEGORIES if c in HEATING_AND_COOKING],
        can_edit=project.customer_sysno == customer.sysno,
    )


async def _building(session: AsyncSession, project_sysno: int, building_sysno: int) -> Building:
    building = await session.get(Building, building_sysno)
    if building is None or building.project_sysno != project_sysno:
        raise NotFound("楼栋")
    return building


async def save_policy(*, session: AsyncSession, customer: Customer, body: PolicyWrite, ip: str) -> PolicyRead:
    """Save a project's policy or a building's override (the project's owner only)."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    building = await _building(session, project.sysno, body.building_sysno) if body.building_sysno else None
    if body.action == "trip" and body.reclose_minutes == 0 and body.max_reclose > 0:
        raise ApiError("自动合闸需要填写合闸等待时间（分钟）；不自动合闸请把每日自动合闸次数设为 0")
    values = {
        "forbidden": [c for c in CATEGORIES if c in body.forbidden],
        "power_limit": float(body.power_limit),
        "action": body.action,
        "reclose_minutes": body.reclose_minutes,
        "max_reclose": body.max_reclose,
        "update_time": utcnow(),
    }
    # One statement whether the row is there or not: two first saves at once both found none, and the
    # second insert broke the unique index (HTTP 500). Now the later save wins.
    stmt = (await upsert_insert(session))(LoadPolicy).values(
        project_sysno=project.sysno, building_sysno=building.sysno if building else None, **values
    )
    if building is None:
        stmt = stmt.on_conflict_do_update(
            index_elements=["project_sysno"], index_where=LoadPolicy.building_sysno.is_(None), set_=values
        )
    else:
        stmt = stmt.on_conflict_do_update(index_elements=["project_sysno", "building_sysno"], set_=values)
    try:
        row = await session.scalar(stmt.returning(LoadPolicy), execution_options={"populate_existing": True})
    except IntegrityError:  # the project or building was deleted meanwhile
        raise NotFound("楼栋" if building else "项目") from None
    where = f"{project.name}" + (f" {building.name}" if building else "")
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.LOAD_IDENT,
        detail=f"保存负荷识别策略：{where}，处理方式 {ACTION_NAMES[body.action]}，"
        f"功率上限 {body.power_limit:g} W，禁用 {len(body.forbidden)} 类电器",
        ip=ip,
    )
    return _read(project.sysno, building, row)


async def remove_override(*, session: AsyncSession, customer: Customer, body: PolicyRemove, ip: str) -> int:
    """Drop a building's override (the project's owner only); returns how many were removed."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    building = await _building(session, project.sysno, body.building_sysno)
    removed = await session.execute(
        delete(LoadPolicy).where(
            LoadPolicy.project_sysno == project.sysno, LoadPolicy.building_sysno == building.sysno
        )
    )
    count = int(removed.rowcount or 0)  # type: ignore[attr-defined]
    if count:
        logs.record(
            session=session,
            customer_sysno=customer.sysno,
            operate_type=logs.OperateType.LOAD_IDENT,
            detail=f"删除负荷识别策略：{project.name} {building.name}（改用项目策略）",
            ip=ip,
        )
    return count


async def save_whitelist(
    *, session: AsyncSession, customer: Customer, body: WhitelistWrite, ip: str
) -> WhitelistRead | None:
    """Set a device's whitelist (the project's owner only); an empty list removes it."""
    device = await session.get(Device, body.device_sysno)
    try:
        if device is None:
            raise NotFound("设备")
        await get_owned_project(session=session, customer=customer, sysno=device.project_sysno)
    except NotFound:
        raise NotFound("设备") from None
    # Statements that hold whether or not another save got there first: two first saves at once both
    # inserted, and the second broke the key (HTTP 500). The later save wins.
    if not body.appliances:
        await session.execute(delete(LoadWhitelist).where(LoadWhitelist.device_sysno == device.sysno))
        result = None
    else:
        appliances = [c for c in CATEGORIES if c in body.appliances]
        stmt = (await upsert_insert(session))(LoadWhitelist).values(
            device_sysno=device.sysno, appliances=appliances, update_time=utcnow()
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["device_sysno"], set_={"appliances": appliances, "update_time": utcnow()}
        )
        try:
            await session.execute(stmt)
        except IntegrityError:  # the device was deleted meanwhile
            raise NotFound("设备") from None
        result = WhitelistRead(
            device_sysno=device.sysno,
            device_id=device.device_id,
            device_name=device.name,
            appliances=appliances,
        )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.LOAD_IDENT,
        detail=f"设置负荷白名单：{device.name}（{device.device_id}）："
        + ("、".join(body.appliances) if body.appliances else "清空"),
        ip=ip,
    )
    await session.flush()
    return result


async def seed_demo(session: AsyncSession, *, project_sysno: int, tripping_building_sysno: int) -> None:
    """The demo school's policies (once): alarms for the project, trips in one dormitory building."""
    if await session.scalar(select(LoadPolicy.sysno).where(LoadPolicy.project_sysno == project_sysno)):
        return
    forbidden = [c for c in CATEGORIES if c in HEATING_AND_COOKING]
    common = {"project_sysno": project_sysno, "forbidden": forbidden, "power_limit": 2000.0}
    session.add_all(
        [
            LoadPolicy(**common, building_sysno=None, action="alarm", reclose_minutes=30, max_reclose=3),
            LoadPolicy(
                **common,
                building_sysno=tripping_building_sysno,
                action="trip",
                reclose_minutes=5,
                max_reclose=3,
            ),
        ]
    )
