"""Tariff plans (电价): a customer's plans, their dated versions, and which plan each project uses.

Costs are written with the quarters, at the price in force at that instant; a version can only be
added or withdrawn before it begins, so no change here alters a cost already counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import ForIds, Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.energy.models import ProjectTariff, TariffPlan, TariffVersion
from powerportal.energy.schemas import (
    PlanAdd,
    PlanQuery,
    PlanUpdate,
    ProjectTariffWrite,
    VersionAdd,
    VersionWrite,
)
from powerportal.energy.tariffs import check_version
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned_project, owned_projects
from powerportal.projects.models import Project

PLANS = Listing(
    select(
        TariffPlan.sysno, TariffPlan.name, TariffPlan.remark, TariffPlan.is_default, TariffPlan.create_time
    ),
    filters={
        "customer": lambda p: TariffPlan.customer_sysno == p,
        "sysno": lambda p: TariffPlan.sysno == p,
        "name": Keyword(TariffPlan.name),
    },
    orders={"create_time": TariffPlan.create_time, "name": TariffPlan.name},
    default_order="create_time",
    tie=TariffPlan.sysno,
)
MAX_PLANS = 50


def today() -> date:
    """The customer's date today."""
    return utcnow().astimezone(CUSTOMER_TZ).date()


_VERSIONS = ForIds(
    lambda ids: (
        select(
            TariffVersion.plan_sysno,
            TariffVersion.sysno,
            TariffVersion.effective_date,
            TariffVersion.prices,
            TariffVersion.seasons,
            TariffVersion.holidays,
        )
        .where(TariffVersion.plan_sysno.in_(ids))
        .order_by(TariffVersion.effective_date.desc())
    )
)
_PROJECTS = ForIds(
    lambda ids: (
        select(ProjectTariff.plan_sysno, Project.name)
        .join(Project, Project.sysno == ProjectTariff.project_sysno)
        .where(ProjectTariff.plan_sysno.in_(ids))
        .order_by(Project.sysno)
    )
)


async def _shape(source: AppContext | AsyncSession, rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Plans in the shape of ``PlanRead``: read in ``source`` when it is a session (it sees its writes)."""
    ids = [row[0] for row in rows]
    versions: dict[int, list[dict[str, Any]]] = defaultdict(list)
    projects: dict[int, list[str]] = defaultdict(list)
    if ids:
        now = today()
        for plan, sysno, effective, prices, seasons, holidays in await _VERSIONS.all(source, ids):
            versions[plan].append(
                {
                    "sysno": sysno,
                    "effective_date": effective.isoformat(),
                    "prices": prices,
                    "seasons": seasons,
                    "holidays": holidays,
                    "editable": effective > now,
                }
            )
        for plan, name in await _PROJECTS.all(source, ids):
            projects[plan].append(name)
    return [
        {
            "sysno": sysno,
            "name": name,
            "remark": remark,
            "is_default": bool(is_default),
            "create_time": to_display(created),
            "versions": versions[sysno],
            "projects": projects[sysno],
        }
        for sysno, name, remark, is_default, created in rows
    ]


async def list_plans(*, ctx: AppContext, customer: Customer, query: PlanQuery) -> PageData:
    """The customer's plans with their versions and projects."""
    return await PLANS.page(
        ctx,
        query=query,
        values={"customer": customer.sysno, "name": query.name},
        render_page=lambda rows: _shape(ctx, rows),
    )


async def get_plan(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One of the customer's plans."""
    row = await PLANS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("电价方案")
    return (await _shape(session, [row]))[0]


async def _owned_plan(session: AsyncSession, customer: Customer, sysno: int) -> TariffPlan:
    plan = await session.scalar(
        select(TariffPlan).where(TariffPlan.sysno == sysno, TariffPlan.customer_sysno == customer.sysno)
    )
    if plan is None:
        raise NotFound("电价方案")
    return plan


def _version(plan_sysno: int, body: VersionWrite) -> TariffVersion:
    prices = body.prices.model_dump()
    seasons = [s.model_dump() for s in body.seasons]
    holidays = body.holidays.model_dump() if body.holidays else None
    if holidays:
        try:
            holidays["dates"] = sorted({date.fromisoformat(d).isoformat() for d in holidays["dates"]})
        except ValueError as exc:
            raise ApiError("节假日日期无效") from exc
    problem = check_version(prices, seasons, holidays)
    if problem:
        raise ApiError(problem)
    try:
        effective = date.fromisoformat(body.effective_date)
    except ValueError as exc:
        raise ApiError("生效日期无效") from exc
    return TariffVersion(
        plan_sysno=plan_sysno, effective_date=effective, prices=prices, seasons=seasons, holidays=holidays
    )


async def _only_default(session: AsyncSession, customer: Customer, plan: TariffPlan) -> None:
    if plan.is_default:
        await session.execute(
            update(TariffPlan)
            .where(TariffPlan.customer_sysno == customer.sysno, TariffPlan.sysno != plan.sysno)
            .values(is_default=False)
        )


async def _unique_name(session: AsyncSession, customer: Customer, name: str, sysno: int = 0) -> None:
    clash = await session.scalar(
        select(TariffPlan.sysno).where(
            TariffPlan.customer_sysno == customer.sysno, TariffPlan.name == name, TariffPlan.sysno != sysno
        )
    )
    if clash is not None:
        raise ApiError("电价方案名称已存在", 409)


async def add_plan(
    *, session: AsyncSession, customer: Customer, body: PlanAdd, ip: str | None
) -> dict[str, Any]:
    """A new plan with its first version (which may begin on any date: nothing was priced by it yet)."""
    await _unique_name(session, customer, body.name)
    count = await session.scalar(select(func.count()).where(TariffPlan.customer_sysno == customer.sysno))
    if (count or 0) >= MAX_PLANS:
        raise ApiError(f"电价方案最多 {MAX_PLANS} 个")
    plan = TariffPlan(
        customer_sysno=customer.sysno, name=body.name, remark=body.remark, is_default=body.is_default
    )
    session.add(plan)
    await session.flush()
    session.add(_version(plan.sysno, body.version))
    await _only_default(session, customer, plan)
    _log(session, customer, f"新增电价方案：{plan.name}", ip)
    await session.commit()
    return await get_plan(session=session, customer=customer, sysno=plan.sysno)


async def update_plan(
    *, session: AsyncSession, customer: Customer, body: PlanUpdate, ip: str | None
) -> dict[str, Any]:
    """Rename a plan or make it the default."""
    plan = await _owned_plan(session, customer, body.sysno)
    await _unique_name(session, customer, body.name, plan.sysno)
    plan.name, plan.remark, plan.is_default = body.name, body.remark, body.is_default
    await _only_default(session, customer, plan)
    _log(session, customer, f"修改电价方案：{plan.name}", ip)
    await session.commit()
    return await get_plan(session=session, customer=customer, sysno=plan.sysno)


async def delete_plan(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """Delete a plan; its projects use the default plan from now on (costs counted stay)."""
    plan = await _owned_plan(session, customer, sysno)
    _log(session, customer, f"删除电价方案：{plan.name}", ip)
    await session.delete(plan)
    await session.commit()


async def add_version(
    *, session: AsyncSession, customer: Customer, body: VersionAdd, ip: str | None
) -> dict[str, Any]:
    """New prices of a plan from a date after today."""
    plan = await _owned_plan(session, customer, body.plan_sysno)
    version = _version(plan.sysno, body)
    if version.effective_date <= today():
        raise ApiError(f"新版本的生效日期应晚于今天（最早 {(today() + timedelta(days=1)).isoformat()}）")
    clash = await session.scalar(
        select(TariffVersion.sysno).where(
            TariffVersion.plan_sysno == plan.sysno, TariffVersion.effective_date == version.effective_date
        )
    )
    if clash is not None:
        raise ApiError("该日期已有版本", 409)
    session.add(version)
    _log(session, customer, f"电价方案 {plan.name} 新增版本：{body.effective_date} 起", ip)
    await session.commit()
    return await get_plan(session=session, customer=customer, sysno=plan.sysno)


async def delete_version(
    *, session: AsyncSession, customer: Customer, sysno: int, ip: str | None
) -> dict[str, Any]:
    """Withdraw a version that has not begun."""
    version = await session.get(TariffVersion, sysno)
    if version is None:
        raise NotFound("电价版本")
    plan = await _owned_plan(session, customer, version.plan_sysno)
    if version.effective_date <= today():
        raise ApiError("已生效的版本不能删除（已计的电费不会改变）")
    await session.delete(version)
    _log(session, customer, f"电价方案 {plan.name} 删除版本：{version.effective_date.isoformat()} 起", ip)
    await session.commit()
    return await get_plan(session=session, customer=customer, sysno=plan.sysno)


async def project_tariffs(*, session: AsyncSession, customer: Customer) -> list[dict[str, Any]]:
    """The customer's own projects and their plans."""
    rows = await session.execute(
        select(Project.sysno, Project.name, TariffPlan.sysno, TariffPlan.name)
        .outerjoin(ProjectTariff, ProjectTariff.project_sysno == Project.sysno)
        .outerjoin(TariffPlan, TariffPlan.sysno == ProjectTariff.plan_sysno)
        .where(Project.sysno.in_(owned_projects(customer.sysno)))
        .order_by(Project.sysno)
    )
    return [
        {"project_sysno": p, "project_name": n, "plan_sysno": plan, "plan_name": plan_name}
        for p, n, plan, plan_name in rows
    ]


async def set_project_tariff(
    *, session: AsyncSession, customer: Customer, body: ProjectTariffWrite, ip: str | None
) -> None:
    """The plan a project uses (None: the default)."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    await session.execute(delete(ProjectTariff).where(ProjectTariff.project_sysno == project.sysno))
    name = "默认方案"
    if body.plan_sysno is not None:
        plan = await _owned_plan(session, customer, body.plan_sysno)
        session.add(ProjectTariff(project_sysno=project.sysno, plan_sysno=plan.sysno))
        name = plan.name
    _log(session, customer, f"项目 {project.name} 使用电价方案：{name}", ip)
    await session.commit()


def _log(session: AsyncSession, customer: Customer, detail: str, ip: str | None) -> None:
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=detail,
        ip=ip,
    )
