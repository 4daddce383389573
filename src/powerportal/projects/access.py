"""The one place that decides which projects a customer may see or control.

Every query for projects, gateways, devices, alarms, notices, energy, commands and logs filters
through ``visible_project_ids`` (or ``controllable_project_ids`` for commands); nothing is fetched
by id without it.

A customer sees the projects it owns and those shared with it: a share accepted, neither revoked,
left nor ended, and not past its expiry (compared in SQL at each statement, so an expiry or a
revocation ends access with the next query in every process, and no cache holds project ids).
A share "view and control" also lets its holder switch the project's devices (by hand, on timers,
in groups). Editing or deleting a project, its buildings, gateways, devices and shares stays with
the owner (``owned_projects``). A share limited to buildings narrows control to the devices whose
gateway stands in those buildings (``within_control``); seeing stays project-wide (see
docs/decisions.md, "Shares").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, CompoundSelect, Select, and_, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
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


def within_control(customer_sysno: Any, *, project: Any, gateway: Any) -> ColumnElement[bool]:
    """Whether a device (its ``project`` and ``gateway`` columns) is within the customer's control.

    Callers also filter by ``controllable_projects``; this narrows a control share limited to
    buildings to the devices whose gateway stands in one of them (the owner reaches every device).
    """
    building = (
        select(Gateway.building_sysno)
        .where(Gateway.sysno == gateway)
        .correlate_except(Gateway)
        .scalar_subquery()
    )
    limited = select(ProjectShareBuilding.share_sysno).where(
        ProjectShareBuilding.share_sysno == ProjectShare.sysno
    )
    listed = select(ProjectShareBuilding.share_sysno).where(
        ProjectShareBuilding.share_sysno == ProjectShare.sysno,
        ProjectShareBuilding.building_sysno == building,
    )
    by_share = (
        select(ProjectShare.sysno)
        .where(
            ProjectShare.grantee_sysno == customer_sysno,
            ProjectShare.project_sysno == project,
            ProjectShare.permission == CONTROL,
            share_in_force(),
            or_(~limited.exists(), listed.exists()),
        )
        .exists()
    )
    return or_(project.in_(owned_projects(customer_sysno)), by_share)


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


def project_viewers(project_sysnos: list[int]) -> CompoundSelect[int, int]:
    """Query of ``(project_sysno, customer_sysno)``: who may see each of these projects (for notices)."""
    return (
        select(Project.sysno, Project.customer_sysno)
        .where(Project.sysno.in_(project_sysnos))
        .union_all(
            select(ProjectShare.project_sysno, ProjectShare.grantee_sysno).where(
                ProjectShare.project_sysno.in_(project_sysnos), share_in_force()
            )
        )
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


async def get_owned_project(*, session: AsyncSession, customer: Customer, sysno: int) -> Project:
    """A project the customer owns (only owners edit or delete it)."""
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
