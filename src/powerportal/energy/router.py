"""Energy routes under ``/api/CustomerEnergy``: statistics, meter changes, incoming mains and tariff plans."""

from __future__ import annotations

from powerportal.api.deps import ClientIp, Ctx, CurrentCustomer, Session
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam
from powerportal.energy import plans, service
from powerportal.energy.schemas import (
    EnergyChart,
    EnergyScope,
    EnergyTable,
    IncomingMainWrite,
    MeterChangeRead,
    MeterChangeWrite,
    PlanAdd,
    PlanQuery,
    PlanRead,
    PlanUpdate,
    ProjectTariffRead,
    ProjectTariffWrite,
    QuarterQuery,
    QuarterRead,
    RankingQuery,
    RankingRow,
    VersionAdd,
)

router = api_router("/api/CustomerEnergy", "能耗")


@router.post("/GetEnergyChart", response_model=Envelope[EnergyChart])
async def get_energy_chart(query: EnergyScope, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Consumption and cost by quarter, hour, day or month, with 同比 and 环比."""
    return ok(await service.chart(ctx=ctx, customer=customer, query=query))


@router.post("/GetEnergyRanking", response_model=Envelope[list[RankingRow]])
async def get_energy_ranking(query: RankingQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The devices or buildings that used most over the period."""
    return ok(await service.ranking(ctx=ctx, customer=customer, query=query))


@router.post("/GetEnergyTable", response_model=Envelope[EnergyTable])
async def get_energy_table(query: EnergyScope, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Each device's start and end reading, consumption and cost; buildings' 公摊/损耗."""
    return ok(await service.table(ctx=ctx, customer=customer, query=query))


@router.post("/GetDeviceQuarters", response_model=Envelope[list[QuarterRead]])
async def get_device_quarters(query: QuarterQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """One device's 96 quarter-hours of a day, with their flags."""
    return ok(await service.device_quarters(ctx=ctx, customer=customer, query=query))


@router.put("/SetIncomingMain", response_model=Envelope[None])
async def set_incoming_main(
    body: IncomingMainWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Mark a device as its building's incoming main (总进线), or unmark it."""
    await service.set_incoming_main(session=session, customer=customer, body=body, ip=ip)
    return ok(None, "设置成功")


@router.get("/GetMeterChangeList", response_model=Envelope[list[MeterChangeRead]])
async def get_meter_change_list(
    device_sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """A device's recorded meter changes, newest first."""
    return ok(await service.meter_changes(session=session, customer=customer, device_sysno=device_sysno))


@router.post("/AddMeterChange", response_model=Envelope[MeterChangeRead])
async def add_meter_change(
    body: MeterChangeWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Record a replaced meter; the consumption around it is counted again, totals stay continuous."""
    return ok(
        await service.add_meter_change(session=session, customer=customer, body=body, ip=ip), "添加成功"
    )


@router.delete("/DeleteMeterChange", response_model=Envelope[None])
async def delete_meter_change(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Remove a meter change recorded by mistake; the consumption around it is counted again."""
    await service.delete_meter_change(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")


@router.post("/GetTariffPlanList", response_model=Envelope[Page[PlanRead]])
async def get_tariff_plan_list(query: PlanQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The customer's tariff plans with their versions."""
    return ok(await plans.list_plans(ctx=ctx, customer=customer, query=query))


@router.get("/GetTariffPlan", response_model=Envelope[PlanRead])
async def get_tariff_plan(sysno: SysnoParam, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """One plan with its versions."""
    return ok(await plans.get_plan(session=session, customer=customer, sysno=sysno))


@router.post("/AddTariffPlan", response_model=Envelope[PlanRead])
async def add_tariff_plan(
    body: PlanAdd, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """A new plan with its first version."""
    return ok(await plans.add_plan(session=session, customer=customer, body=body, ip=ip), "添加成功")


@router.put("/UpdateTariffPlan", response_model=Envelope[PlanRead])
async def update_tariff_plan(
    body: PlanUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Rename a plan or make it the default."""
    return ok(await plans.update_plan(session=session, customer=customer, body=body, ip=ip), "修改成功")


@router.delete("/DeleteTariffPlan", response_model=Envelope[None])
async def delete_tariff_plan(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a plan (its projects fall back to the default plan; past costs stay)."""
    await plans.delete_plan(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")


@router.post("/AddTariffVersion", response_model=Envelope[PlanRead])
async def add_tariff_version(
    body: VersionAdd, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """New prices from a future date (past costs never change)."""
    return ok(await plans.add_version(session=session, customer=customer, body=body, ip=ip), "添加成功")


@router.delete("/DeleteTariffVersion", response_model=Envelope[PlanRead])
async def delete_tariff_version(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Withdraw a version that has not begun."""
    return ok(await plans.delete_version(session=session, customer=customer, sysno=sysno, ip=ip), "删除成功")


@router.get("/GetProjectTariffList", response_model=Envelope[list[ProjectTariffRead]])
async def get_project_tariff_list(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """The customer's own projects and the plan each uses."""
    return ok(await plans.project_tariffs(session=session, customer=customer))


@router.put("/SetProjectTariff", response_model=Envelope[list[ProjectTariffRead]])
async def set_project_tariff(
    body: ProjectTariffWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """The plan a project's costs use from now on."""
    await plans.set_project_tariff(session=session, customer=customer, body=body, ip=ip)
    return ok(await plans.project_tariffs(session=session, customer=customer), "设置成功")
