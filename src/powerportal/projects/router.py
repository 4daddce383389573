"""Project and building routes under ``/api/CustomerProject`` (paths as the spec lists them).

``ShareProjectList`` and ``TransferProjectList`` live with the shares (``shares/router.py``).
"""

from __future__ import annotations

from fastapi.responses import StreamingResponse

from powerportal.api.deps import ClientIp, Ctx, CurrentCustomer, Session
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.projects import service
from powerportal.projects.schemas import (
    BuildingCreate,
    BuildingRead,
    BuildingUpdate,
    ProjectCreate,
    ProjectDashboard,
    ProjectFilterQuery,
    ProjectOption,
    ProjectQuery,
    ProjectRead,
    ProjectUpdate,
    TreeNode,
)

router = api_router("/api/CustomerProject", "项目")


@router.post("/GetProjectList", response_model=Envelope[Page[ProjectRead]])
async def get_project_list(query: ProjectQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Projects the caller may see, paged, each with its buildings (``list_child``) and counts."""
    return ok(await service.list_projects(ctx=ctx, customer=customer, query=query))


@router.post("/ExportProjectList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_project_list(query: ProjectQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every project the caller may see that the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_projects(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="projects")


@router.post("/GetProjectListDashboard", response_model=Envelope[ProjectDashboard])
async def get_project_list_dashboard(
    customer: CurrentCustomer, session: Session, query: ProjectFilterQuery | None = None
) -> EnvelopeResponse:
    """Online and offline gateway and device counts per project, with totals."""
    name = query.name if query else None
    return ok(await service.dashboard(session=session, customer=customer, name=name))


@router.post("/GetProjectAndBuildingGatewayList", response_model=Envelope[list[TreeNode]])
async def get_project_and_building_gateway_list(
    customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """The monitoring tree: projects → buildings → gateways."""
    return ok(await service.tree(session=session, customer=customer))


@router.post("/GetFilterProjectList", response_model=Envelope[list[ProjectOption]])
async def get_filter_project_list(
    customer: CurrentCustomer, session: Session, query: ProjectFilterQuery | None = None
) -> EnvelopeResponse:
    """Id and name of every visible project, for filters."""
    name = query.name if query else None
    return ok(await service.filter_options(session=session, customer=customer, name=name))


@router.get("/GetSingleProject", response_model=Envelope[ProjectRead])
async def get_single_project(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One project with its buildings and counts."""
    return ok(await service.get_project(session=session, customer=customer, sysno=sysno))


@router.post("/AddProject", response_model=Envelope[ProjectRead])
async def add_project(
    body: ProjectCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Create a project."""
    project = await service.create_project(session=session, customer=customer, body=body, ip=ip)
    return ok(await service.get_project(session=session, customer=customer, sysno=project.sysno), "新增成功")


@router.put("/UpdateProject", response_model=Envelope[ProjectRead])
async def update_project(
    body: ProjectUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Edit a project (every field is replaced)."""
    project = await service.update_project(session=session, customer=customer, body=body, ip=ip)
    return ok(await service.get_project(session=session, customer=customer, sysno=project.sysno), "修改成功")


@router.delete("/DeleteProject", response_model=Envelope[None])
async def delete_project(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a project that holds no gateways."""
    await service.delete_project(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")


@router.post("/AddBuilding", response_model=Envelope[BuildingRead])
async def add_building(
    body: BuildingCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Add a building to a project."""
    return ok(await service.create_building(session=session, customer=customer, body=body, ip=ip), "新增成功")


@router.put("/UpdateBuilding", response_model=Envelope[BuildingRead])
async def update_building(
    body: BuildingUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Rename or annotate a building."""
    return ok(await service.update_building(session=session, customer=customer, body=body, ip=ip), "修改成功")


@router.delete("/DeleteBuilding", response_model=Envelope[None])
async def delete_building(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a building that holds no gateways."""
    await service.delete_building(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")
