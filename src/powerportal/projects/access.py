"""The one place that decides which projects a customer may see or control.

Every query for projects, gateways, devices, alarms, notices, energy, commands and logs filters
through ``visible_project_ids`` (or ``controllable_project_ids`` for commands); nothing is fetched
by id without it.

A customer sees the projects it owns and those shared with it: a share accepted, neither revoked,
left nor ended, and not past its expiry (compared in SQL at each statement, so an expiry or a
revocation ends access with the next query in every process, and no cache holds project ids).
A share "view and control" also lets its holder switch the project's devices (by hand, on timers,
in groups). Editing or deleting a project, its buildings, gateways, devices and shares stays with
the owner (``owned_projects``). A share limited to buildings narrows both seeing and switching to
the rows of those buildings (``in_view``, with ``sees`` and ``controls``): their gateways, devices,
alarms, logs, commands, load events and energy (see docs/decisions.md, "Shares").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, CompoundSelect, Select, and_, bindparam, func, null, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.database import hold_rows
from powerportal.core.envelope import NotFound
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Project
from powerportal.shares.models import CONTROL, ProjectShare, ProjectShareBuilding


def share_in_force() -> ColumnElement[bool]:
    """The condition of a share that grants access now: accepted and not past its expiry."""
    return and_(
        ProjectShare.status == "accepted",
        or_(ProjectShare.expire_time.is_(None), ProjectShare.expire_time > func.current_timestamp()),
    )


def shared_projects(customer_sysno: Any, *, control: bool = False) -> Select[Any]:
    """Sub-query of the projects shared with a customer (with control only, if asked)."""
    query = select(ProjectShare.project_sysno).where(
        ProjectShare.grantee_sysno == customer_sysno, share_in_force()
    )
    return query.where(ProjectShare.permission == CONTROL) if control else query


def visible_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects a customer may see (``customer_sysno``: a value or a bind parameter)."""
    return select(Project.sysno).where(
        or_(Project.customer_sysno == customer_sysno, Project.sysno.in_(shared_projects(customer_sysno)))
    )


def visible_project_ids(customer: Customer) -> Select[Any]:
    """Sub-query of the projects the customer may see."""
    return visible_projects(customer.sysno)


def controllable_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects whose devices a customer may switch (a value or a bind parameter)."""
    return select(Project.sysno).where(
        or_(
            Project.customer_sysno == customer_sysno,
            Project.sysno.in_(shared_projects(customer_sysno, control=True)),
        )
    )


def controllable_project_ids(customer: Customer) -> Select[Any]:
    """Sub-query of the projects whose devices the customer may switch."""
    return controllable_projects(customer.sysno)


def limited_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects a customer sees only in part: shared with it, limited to buildings."""
    named = select(ProjectShareBuilding.share_sysno).where(
        ProjectShareBuilding.share_sysno == ProjectShare.sysno
    )
    return select(ProjectShare.project_sysno).where(
        ProjectShare.grantee_sysno == customer_sysno, share_in_force(), named.exists()
    )


def shared_buildings(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the buildings named by the shares in force of a customer."""
    return (
        select(ProjectShareBuilding.building_sysno)
        .join(ProjectShare, ProjectShare.sysno == ProjectShareBuilding.share_sysno)
        .where(ProjectShare.grantee_sysno == customer_sysno, share_in_force())
    )


def in_view(
    customer_sysno: Any,
    *,
    project: Any,
    building: Any = None,
    gateway: Any = None,
    device: Any = None,
) -> ColumnElement[bool]:
    """Whether a row of a visible project lies in the part of it the customer sees.

    All of a project it owns or that is shared with it whole; of a share limited to buildings, the
    rows of those buildings, found by the row's ``building`` column, else its ``gateway``'s building,
    else its ``device``'s gateway's. Callers also filter by ``visible_projects`` (or
    ``controllable_projects``: a control share limited to buildings switches only their devices).

    A gateway or device counts only while it is in the row's project: rows keep the project they
    were made in, and a gateway moved into a building the customer sees in another project does not
    bring its old project's rows along (a building is of one project, so that column needs no such tie).
    """
    buildings = shared_buildings(customer_sysno)
    if building is not None:
        inside = building.in_(buildings)
    elif gateway is not None:
        placed = select(Gateway.sysno, Gateway.project_sysno).where(Gateway.building_sysno.in_(buildings))
        inside = tuple_(gateway, project).in_(placed)
    else:
        placed = (
            select(Device.sysno, Gateway.project_sysno)
            .join(Gateway, Gateway.sysno == Device.gateway_sysno)
            .where(Gateway.building_sysno.in_(buildings))
        )
        inside = tuple_(device, project).in_(placed)
    return or_(project.not_in(limited_projects(customer_sysno)), inside)


def sees(
    customer_sysno: Any, *, project: Any, building: Any = None, gateway: Any = None, device: Any = None
) -> ColumnElement[bool]:
    """Whether the customer may see a row of a project: a visible project, and the part of it in view.

    A row that records its own building (where it happened) passes it as ``building``: then that
    building decides, not the one its gateway is in now.
    """
    return and_(
        project.in_(visible_projects(customer_sysno)),
        in_view(customer_sysno, project=project, building=building, gateway=gateway, device=device),
    )


def controls(customer_sysno: Any, *, project: Any, gateway: Any) -> ColumnElement[bool]:
    """Whether the customer may switch a device: of a project it controls, in the part of it in view."""
    return and_(
        project.in_(controllable_projects(customer_sysno)),
        in_view(customer_sysno, project=project, gateway=gateway),
    )


def owned_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects a customer owns (only owners edit a project and what is in it)."""
    return select(Project.sysno).where(Project.customer_sysno == customer_sysno)


class InProject(Protocol):
    """A row that belongs to one project (a gateway, a device)."""

    sysno: Any
    project_sysno: Any


Owned = TypeVar("Owned", bound=InProject)


async def get_owned(
    *, session: AsyncSession, customer: Customer, model: type[Owned], sysno: int, what: str
) -> Owned:
    """A row of ``model`` in a project the customer owns, or a not-found error that reveals nothing."""
    found = await session.scalar(
        select(model).where(model.sysno == sysno, model.project_sysno.in_(owned_projects(customer.sysno)))
    )
    if found is None:
        raise NotFound(what)
    return found


def project_viewers(project_sysnos: list[int]) -> CompoundSelect[int, int, int | None]:
    """Query of ``(project_sysno, customer_sysno, building_sysno)``: who may see each of these projects.

    ``building_sysno`` is null for a customer who sees the whole project (its owner, a share without
    buildings); a share limited to buildings gives one row per building (for notices).
    """
    whole = select(Project.sysno, Project.customer_sysno, null().label("building_sysno"))
    return whole.where(Project.sysno.in_(project_sysnos)).union_all(
        select(ProjectShare.project_sysno, ProjectShare.grantee_sysno, ProjectShareBuilding.building_sysno)
        .outerjoin(ProjectShareBuilding, ProjectShareBuilding.share_sysno == ProjectShare.sysno)
        .where(ProjectShare.project_sysno.in_(project_sysnos), share_in_force())
    )


async def owners_besides(
    session: AsyncSession, customer: Customer, project_sysnos: Iterable[int]
) -> list[int]:
    """The owners of these projects other than the customer (whose logs also record a sharee's act)."""
    wanted = sorted(set(project_sysnos))
    if not wanted:
        return []
    owners = await session.scalars(
        select(Project.customer_sysno)
        .where(Project.sysno.in_(wanted), Project.customer_sysno != customer.sysno)
        .distinct()
    )
    return sorted(owners)


async def get_visible_project(*, session: AsyncSession, customer: Customer, sysno: int) -> Project:
    """A project the customer may see, or a not-found error that reveals nothing."""
    project = await session.scalar(
        select(Project).where(Project.sysno == sysno, Project.sysno.in_(visible_project_ids(customer)))
    )
    if project is None:
        raise NotFound("项目")
    return project


async def get_owned_project(
    *, session: AsyncSession, customer: Customer, sysno: int, hold: bool = False
) -> Project:
    """A project the customer owns (only owners edit or delete it).

    With ``hold`` its row is held until the transaction ends (``core.database.hold_rows``): deleting
    it and putting a gateway into it then run one at a time, each seeing what the other left.
    """
    if hold:
        await hold_rows(session, Project, Project.sysno == sysno)
    project = await session.scalar(
        select(Project).where(Project.sysno == sysno, Project.sysno.in_(owned_projects(customer.sysno)))
    )
    if project is None:
        raise NotFound("项目")
    return project


_VISIBLE_NAME = select(Project.name).where(
    Project.sysno == bindparam("sysno"), Project.sysno.in_(visible_projects(bindparam("customer")))
)


async def visible_project_name(ctx: AppContext, *, customer: Customer, sysno: int | None) -> str | None:
    """The name of a project the customer may see (for an export's filters), or None."""
    if sysno is None:
        return None
    name: str | None = await ctx.reads.scalar(_VISIBLE_NAME, {"sysno": sysno, "customer": customer.sysno})
    return name
