"""Projects and buildings: lists with equipment counts, the monitoring tree, and their upkeep."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import BindParameter, Select, bindparam, case, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
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
    controllable_projects,
    get_owned_project,
    in_view,
    visible_project_ids,
    visible_projects,
)
from powerportal.projects.models import Building, Project
from powerportal.projects.schemas import (
    BuildingCreate,
    BuildingRead,
    BuildingUpdate,
    DashboardSummary,
    ProjectDashboard,
    ProjectDashboardRow,
    ProjectFields,
    ProjectOption,
    ProjectQuery,
    ProjectUpdate,
    TreeNode,
)
from powerportal.shares.models import ProjectShare, ProjectShareBuilding

_VIEWER: BindParameter[int] = bindparam("customer")


def _in_view_of_project(project: Any, gateway: Any) -> Select[int]:
    """Count of the project's rows (gateways or devices) in the viewer's view."""
    seen = in_view(_VIEWER, project=project, gateway=gateway)
    return select(func.count()).where(project == Project.sysno, seen).correlate(Project)


_GATEWAYS = _in_view_of_project(Gateway.project_sysno, Gateway.sysno)
_DEVICES = _in_view_of_project(Device.project_sysno, Device.gateway_sysno)
# Per project: gateways, online gateways, devices, online devices of the part the viewer (``customer``)
# sees (read with the project's own row).
EQUIPMENT_COUNTS = (
    _GATEWAYS.scalar_subquery(),
    _GATEWAYS.where(Gateway.online.is_(True)).scalar_subquery(),
    _DEVICES.scalar_subquery(),
    _DEVICES.where(Device.online != 0).scalar_subquery(),
)
# Whose project it is (a shared project is marked with its owner's name).
_OWNER_NAME = (
    select(Customer.name).where(Customer.sysno == Project.customer_sysno).correlate(Project).scalar_subquery()
)
PROJECTS = Listing(
    select(
        Project.sysno,
        Project.name,
        Project.address,
        Project.longitude,
        Project.latitude,
        Project.contact_name,
        Project.contact_phone,
        Project.remark,
        Project.create_time,
        Project.update_time,
        *EQUIPMENT_COUNTS,
        Project.customer_sysno,
        _OWNER_NAME,
    ),
    filters={
        "customer": lambda p: Project.sysno.in_(visible_projects(p)),
        "sysno": lambda p: Project.sysno == p,
        "name": Keyword(Project.name),
    },
    orders={
        "sysno": Project.sysno,
        "name": Project.name,
        "create_time": Project.create_time,
        "update_time": Project.update_time,
    },
    default_order="create_time",
    tie=Project.sysno,
)
_BUILDINGS = ForIds(
    lambda ids: (
        select(
            Building.sysno,
            Building.project_sysno,
            Building.name,
            Building.remark,
            select(func.count())
            .where(Gateway.building_sysno == Building.sysno)
            .correlate(Building)
            .scalar_subquery(),
            Building.create_time,
        )
        .where(
            Building.project_sysno.in_(ids),
            in_view(_VIEWER, project=Building.project_sysno, building=Building.sysno),
        )
        .order_by(Building.sysno)
    )
)

# Of these shared projects, those the customer may control (``customer``: its sysno).
_CONTROLLED = ForIds(
    lambda ids: select(Project.sysno).where(
        Project.sysno.in_(ids), Project.sysno.in_(controllable_projects(bindparam("customer")))
    )
)


async def controlled_shares(
    source: AppContext | AsyncSession, customer: Customer, shared: Iterable[int]
) -> set[int]:
    """Which of these projects shared with the customer it may control (owners control their own)."""
    ids = sorted(set(shared))
    return {row[0] for row in await _CONTROLLED.all(source, ids, customer=customer.sysno)}


async def _project_rows(
    source: AppContext | AsyncSession, rows: Sequence[Row], customer: Customer
) -> list[dict[str, Any]]:
    """Projects in the shape of ``ProjectRead``: each with its buildings and equipment counts."""
    ids = [row[0] for row in rows]
    buildings: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for sysno, project_sysno, name, remark, count, create_time in await _BUILDINGS.all(
        source, ids, customer=customer.sysno
    ):
        buildings[project_sysno].append(
            {
                "sysno": sysno,
                "project_sysno": project_sysno,
                "name": name,
                "remark": remark,
                "gateway_count": int(count),
                "create_time": to_display(create_time),
            }
        )
    controlled = await controlled_shares(source, customer, (r[0] for r in rows if r[14] != customer.sysno))
    result = []
    for row in rows:
        sysno, name, address, longitude, latitude, contact_name, contact_phone, remark, created, updated = (
            row[:10]
        )
        gateway_total, gateway_online, device_total, device_online, owner, owner_name = row[10:16]
        result.append(
            {
                "sysno": sysno,
                "name": name,
                "address": address,
                "longitude": longitude,
                "latitude": latitude,
                "contact_name": contact_name,
                "contact_phone": contact_phone,
                "remark": remark,
                "create_time": to_display(created),
                "update_time": to_display(updated),
                "building_count": len(buildings[sysno]),
                "gateway_count": gateway_total,
                "online_gateway_count": gateway_online or 0,
                "device_count": device_total,
                "online_device_count": device_online or 0,
                "list_child": buildings[sysno],
                "is_shared": owner != customer.sysno,
                "owner_name": owner_name,
                "can_control": owner == customer.sysno or sysno in controlled,
            }
        )
    return result


async def list_projects(*, ctx: AppContext, customer: Customer, query: ProjectQuery) -> PageData:
    """One page of the projects the customer may see, with buildings and counts."""
    return await PROJECTS.page(
        ctx,
        query=query,
        values={"customer": customer.sysno, "name": query.name},
        render_page=lambda rows: _project_rows(ctx, rows, customer),
    )


PROJECT_COLUMNS = (
    Column("项目名称", "name", 20),
    Column("地址", "address", 30),
    Column("建筑", lambda p: "、".join(b["name"] for b in p["list_child"]) or None, 30),
    Column("在线网关", lambda p: f"{p['online_gateway_count']}/{p['gateway_count']}", 10),
    Column("在线设备", lambda p: f"{p['online_device_count']}/{p['device_count']}", 10),
    Column("联系人", "contact_name", 12),
    Column("联系电话", "contact_phone", 16),
    Column("备注", "remark", 24),
    Column("创建时间", "create_time", 20),
)


async def export_projects(*, ctx: AppContext, customer: Customer, query: ProjectQuery) -> tuple[Path, str]:
    """Every project the customer may see that the filters keep, as a workbook: its path and file name."""
    return await export_list(
        ctx,
        name="项目列表",
        listing=PROJECTS,
        query=query,
        values={"customer": customer.sysno, "name": query.name},
        columns=PROJECT_COLUMNS,
        filters=filters_shown(("项目名称", query.name)),
        render_page=lambda rows: _project_rows(ctx, rows, customer),
    )


async def get_project(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One visible project with its buildings and counts (read in the caller's session)."""
    row = await PROJECTS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("项目")
    return (await _project_rows(session, [row], customer))[0]


def _visible_projects(customer: Customer, name: str | None, *columns: Any) -> Select[Any]:
    """The columns of the projects the customer may see, whose name contains ``name``, oldest first."""
    query = select(*columns).where(Project.sysno.in_(visible_project_ids(customer)))
    if name:
        query = query.where(keyword_filter(contains_pattern(name), Project.name))
    return query.order_by(Project.sysno)


async def dashboard(*, session: AsyncSession, customer: Customer, name: str | None) -> ProjectDashboard:
    """Online and offline gateway and device counts per visible project, and their totals."""
    query = _visible_projects(
        customer, name, Project.sysno, Project.name, Project.address, Project.longitude, Project.latitude
    ).add_columns(*EQUIPMENT_COUNTS)
    rows = []
    for (
        sysno,
        p_name,
        address,
        longitude,
        latitude,
        g_total,
        g_online,
        d_total,
        d_online,
    ) in await session.execute(query.order_by(Project.sysno), {"customer": customer.sysno}):
        rows.append(
            ProjectDashboardRow(
                sysno=sysno,
                name=p_name,
                address=address,
                longitude=longitude,
                latitude=latitude,
                gateway_count=g_total,
                gateway_online_count=g_online,
                gateway_offline_count=g_total - g_online,
                device_count=d_total,
                device_online_count=d_online,
                device_offline_count=d_total - d_online,
            )
        )
    summary = DashboardSummary(
        project_count=len(rows),
        gateway_count=sum(r.gateway_count for r in rows),
        gateway_online_count=sum(r.gateway_online_count for r in rows),
        gateway_offline_count=sum(r.gateway_offline_count for r in rows),
        device_count=sum(r.device_count for r in rows),
        device_online_count=sum(r.device_online_count for r in rows),
        device_offline_count=sum(r.device_offline_count for r in rows),
    )
    return ProjectDashboard(dataSource=rows, totalCount=len(rows), summary=summary)


async def filter_options(
    *, session: AsyncSession, customer: Customer, name: str | None
) -> list[ProjectOption]:
    """Id and name of every visible project, for filter drop-downs."""
    rows = await session.execute(
        _visible_projects(customer, name, Project.sysno, Project.name, Project.customer_sysno, _OWNER_NAME)
    )
    found = list(rows)
    controlled = await controlled_shares(session, customer, (r[0] for r in found if r[2] != customer.sysno))
    return [
        ProjectOption(
            sysno=sysno,
            name=p_name,
            owner_name=None if owner == customer.sysno else owner_name,
            can_control=owner == customer.sysno or sysno in controlled,
        )
        for sysno, p_name, owner, owner_name in found
    ]


def _sum_nodes(nodes: Iterable[TreeNode]) -> tuple[int, int]:
    nodes = list(nodes)
    return sum(n.device_count for n in nodes), sum(n.online_device_count for n in nodes)


async def tree(*, session: AsyncSession, customer: Customer) -> list[TreeNode]:
    """Projects → buildings → gateways; gateways without a building hang directly under the project."""
    projects = list(await session.scalars(_visible_projects(customer, None, Project)))
    ids = [p.sysno for p in projects]
    if not ids:
        return []
    shared = sorted({p.customer_sysno for p in projects if p.customer_sysno != customer.sysno})
    owners: dict[int, str] = {}
    controlled = await controlled_shares(
        session, customer, (p.sysno for p in projects if p.customer_sysno != customer.sysno)
    )
    can_control = {p.sysno: p.customer_sysno == customer.sysno or p.sysno in controlled for p in projects}
    if shared:
        found = await session.execute(select(Customer.sysno, Customer.name).where(Customer.sysno.in_(shared)))
        owners.update((sysno, name) for sysno, name in found)
    buildings = list(
        await session.scalars(
            select(Building)
            .where(
                Building.project_sysno.in_(ids),
                in_view(customer.sysno, project=Building.project_sysno, building=Building.sysno),
            )
            .order_by(Building.sysno)
        )
    )
    device_counts = {
        gid: (int(total), int(online or 0))
        for gid, total, online in await session.execute(
            select(Device.gateway_sysno, func.count(), func.sum(case((Device.online != 0, 1), else_=0)))
            .where(Device.project_sysno.in_(ids))
            .group_by(Device.gateway_sysno)
        )
    }
    gateways = list(
        await session.scalars(
            select(Gateway)
            .where(
                Gateway.project_sysno.in_(ids),
                in_view(customer.sysno, project=Gateway.project_sysno, gateway=Gateway.sysno),
            )
            .order_by(Gateway.sysno)
        )
    )
    by_building: dict[int, list[TreeNode]] = defaultdict(list)
    loose: dict[int, list[TreeNode]] = defaultdict(list)
    for g in gateways:
        total, online = device_counts.get(g.sysno, (0, 0))
        node = TreeNode(
            key=f"gateway-{g.sysno}",
            sysno=g.sysno,
            name=g.name,
            type="gateway",
            project_sysno=g.project_sysno,
            sn=g.sn,
            online=int(g.online),
            device_count=total,
            online_device_count=online,
            list_child=[],
            can_control=can_control[g.project_sysno],
        )
        (by_building[g.building_sysno] if g.building_sysno else loose[g.project_sysno]).append(node)
    building_nodes: dict[int, list[TreeNode]] = defaultdict(list)
    for b in buildings:
        children = by_building[b.sysno]
        total, online = _sum_nodes(children)
        building_nodes[b.project_sysno].append(
            TreeNode(
                key=f"building-{b.sysno}",
                sysno=b.sysno,
                name=b.name,
                type="building",
                project_sysno=b.project_sysno,
                device_count=total,
                online_device_count=online,
                list_child=children,
                can_control=can_control[b.project_sysno],
            )
        )
    result = []
    for p in projects:
        children = building_nodes[p.sysno] + loose[p.sysno]
        total, online = _sum_nodes(children)
        result.append(
            TreeNode(
                key=f"project-{p.sysno}",
                sysno=p.sysno,
                name=p.name,
                type="project",
                project_sysno=p.sysno,
                owner_name=owners.get(p.customer_sysno),
                device_count=total,
                online_device_count=online,
                list_child=children,
                can_control=can_control[p.sysno],
            )
        )
    return result


async def _check_project_name(
    *, session: AsyncSession, customer: Customer, name: str, exclude_sysno: int | None = None
) -> None:
    query = select(Project.sysno).where(Project.customer_sysno == customer.sysno, Project.name == name)
    if exclude_sysno is not None:
        query = query.where(Project.sysno != exclude_sysno)
    if await session.scalar(query.limit(1)) is not None:
        raise ApiError(f"已有名为“{name}”的项目，请换一个名称", status_code=409)


def _apply(project: Project, fields: ProjectFields) -> None:
    project.name = fields.name
    project.address = fields.address or None
    project.longitude = fields.longitude
    project.latitude = fields.latitude
    project.contact_name = fields.contact_name or None
    project.contact_phone = fields.contact_phone or None
    project.remark = fields.remark or None


async def create_project(
    *, session: AsyncSession, customer: Customer, body: ProjectFields, ip: str | None
) -> Project:
    """Create a project owned by the customer."""
    await _check_project_name(session=session, customer=customer, name=body.name)
    project = Project(customer_sysno=customer.sysno)
    _apply(project, body)
    session.add(project)
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"新增项目：{project.name}",
        ip=ip,
    )
    return project


async def update_project(
    *, session: AsyncSession, customer: Customer, body: ProjectUpdate, ip: str | None
) -> Project:
    """Edit a project the customer owns."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.sysno)
    await _check_project_name(session=session, customer=customer, name=body.name, exclude_sysno=project.sysno)
    _apply(project, body)
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"修改项目：{project.name}",
        ip=ip,
    )
    return project


async def delete_project(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """Delete an owned project and its buildings; refused while gateways remain in it."""
    project = await get_owned_project(session=session, customer=customer, sysno=sysno, hold=True)
    gateways = await session.scalar(select(func.count()).where(Gateway.project_sysno == sysno)) or 0
    if gateways:
        raise ApiError(f"项目“{project.name}”下还有 {gateways} 个网关，请先删除或移走这些网关后再删除项目")
    await session.execute(delete(Building).where(Building.project_sysno == sysno))
    await session.delete(project)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"删除项目：{project.name}",
        ip=ip,
    )


async def get_owned_building(*, session: AsyncSession, customer: Customer, sysno: int) -> Building:
    """A building in a project the customer owns."""
    building = await session.scalar(
        select(Building)
        .join(Project, Project.sysno == Building.project_sysno)
        .where(Building.sysno == sysno, Project.customer_sysno == customer.sysno)
    )
    if building is None:
        raise NotFound("楼栋")
    return building


async def _check_building_name(
    *, session: AsyncSession, project_sysno: int, name: str, exclude_sysno: int | None = None
) -> None:
    query = select(Building.sysno).where(Building.project_sysno == project_sysno, Building.name == name)
    if exclude_sysno is not None:
        query = query.where(Building.sysno != exclude_sysno)
    if await session.scalar(query.limit(1)) is not None:
        raise ApiError(f"该项目下已有名为“{name}”的楼栋，请换一个名称", status_code=409)


def _building_read(building: Building, gateway_count: int) -> BuildingRead:
    return BuildingRead(
        sysno=building.sysno,
        project_sysno=building.project_sysno,
        name=building.name,
        remark=building.remark,
        gateway_count=gateway_count,
        create_time=to_display(building.create_time),
    )


async def create_building(
    *, session: AsyncSession, customer: Customer, body: BuildingCreate, ip: str | None
) -> BuildingRead:
    """Add a building to an owned project."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    await _check_building_name(session=session, project_sysno=project.sysno, name=body.name)
    building = Building(project_sysno=project.sysno, name=body.name, remark=body.remark or None)
    session.add(building)
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"新增楼栋：{project.name} / {building.name}",
        ip=ip,
    )
    return _building_read(building, 0)


async def update_building(
    *, session: AsyncSession, customer: Customer, body: BuildingUpdate, ip: str | None
) -> BuildingRead:
    """Rename or annotate a building of an owned project."""
    building = await get_owned_building(session=session, customer=customer, sysno=body.sysno)
    await _check_building_name(
        session=session, project_sysno=building.project_sysno, name=body.name, exclude_sysno=building.sysno
    )
    building.name = body.name
    building.remark = body.remark or None
    await session.flush()
    count = await session.scalar(select(func.count()).where(Gateway.building_sysno == building.sysno)) or 0
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"修改楼栋：{building.name}",
        ip=ip,
    )
    return _building_read(building, count)


async def _drop_from_shares(session: AsyncSession, building: int) -> None:
    """Take a building out of the shares limited to it; a share left without any ends.

    Left alone, its ``project_share_building`` rows would go with the building, and a share limited
    to it would then reach the whole project.
    """
    named = select(ProjectShareBuilding.share_sysno).where(ProjectShareBuilding.building_sysno == building)
    shares = await session.scalars(
        select(ProjectShare).where(
            ProjectShare.sysno.in_(named), ProjectShare.status.in_(("pending", "accepted"))
        )
    )
    for share in shares:
        left = [b for b in share.building_sysnos or () if b != building]
        share.building_sysnos = left
        if not left:
            share.status, share.end_time = "ended", utcnow()


async def delete_building(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """Delete a building; refused while gateways remain in it."""
    building = await get_owned_building(session=session, customer=customer, sysno=sysno)
    # As deleting its project: a gateway registered or moved into it meanwhile is counted, not orphaned.
    await hold_rows(session, Project, Project.sysno == building.project_sysno)
    count = await session.scalar(select(func.count()).where(Gateway.building_sysno == sysno)) or 0
    if count:
        raise ApiError(f"楼栋“{building.name}”下还有 {count} 个网关，请先移走或删除这些网关后再删除楼栋")
    await _drop_from_shares(session, sysno)
    await session.delete(building)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"删除楼栋：{building.name}",
        ip=ip,
    )
