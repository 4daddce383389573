"""The one place that decides which projects a customer may see or control.

Every query for projects, gateways, devices, alarms, notices, energy, commands and logs filters
through ``visible_project_ids`` (or ``controllable_project_ids`` for commands); nothing is fetched
by id without it. Shares (a later issue) extend these functions and nothing else.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import NotFound
from powerportal.projects.models import Project


def visible_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects a customer may see (``customer_sysno``: a value or a bind parameter)."""
    return select(Project.sysno).where(Project.customer_sysno == customer_sysno)


def visible_project_ids(customer: Customer) -> Select[Any]:
    """Sub-query of the projects the customer may see."""
    return visible_projects(customer.sysno)


def controllable_projects(customer_sysno: Any) -> Select[Any]:
    """Sub-query of the projects whose devices a customer may switch (a value or a bind parameter)."""
    return select(Project.sysno).where(Project.customer_sysno == customer_sysno)


def controllable_project_ids(customer: Customer) -> Select[Any]:
    """Sub-query of the projects whose devices the customer may switch."""
    return controllable_projects(customer.sysno)


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


def project_viewers(project_sysnos: list[int]) -> Select[int, int]:
    """Query of ``(project_sysno, customer_sysno)``: who may see each of these projects (for notices)."""
    return select(Project.sysno, Project.customer_sysno).where(Project.sysno.in_(project_sysnos))


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
