"""Gateways: registration by serial number, secrets, moves and the gateway list."""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display
from powerportal.devices import service as devices
from powerportal.devices.models import Device
from powerportal.gateways import broker_accounts
from powerportal.gateways.models import Gateway, GatewayRevocation
from powerportal.gateways.schemas import (
    GatewayCreate,
    GatewayMove,
    GatewayQuery,
    GatewaySecret,
    GatewayUpdate,
)
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned_project, owned_projects, sees, visible_project_name
from powerportal.projects.models import Building, Project

SECRET_BYTES = 18
DUPLICATE_SN = "序列号 {sn} 已被注册，请核对网关铭牌上的序列号"


def new_secret() -> str:
    """A fresh gateway secret (its MQTT password)."""
    return secrets.token_urlsafe(SECRET_BYTES)


async def sn_taken(*, session: AsyncSession, sn: str, exclude_sysno: int | None = None) -> bool:
    """Whether another gateway already uses this serial number, in any case (``gw-1`` is ``GW-1``'s)."""
    query = select(Gateway.sysno).where(func.lower(Gateway.sn) == sn.lower())
    if exclude_sysno is not None:
        query = query.where(Gateway.sysno != exclude_sysno)
    return (await session.scalar(query.limit(1))) is not None


async def check_building(*, session: AsyncSession, project_sysno: int, building_sysno: int | None) -> None:
    """The building, when given, must belong to the project."""
    if building_sysno is None:
        return
    found = await session.scalar(
        select(Building.sysno).where(
            Building.sysno == building_sysno, Building.project_sysno == project_sysno
        )
    )
    if found is None:
        raise NotFound("楼栋")


async def create_gateway(
    *,
    session: AsyncSession,
    ctx: AppContext,
    project_sysno: int,
    sn: str,
    name: str,
    building_sysno: int | None = None,
    secret: str | None = None,
) -> tuple[Gateway, str]:
    """Register a gateway under a project (access already checked); returns it and its plain secret."""
    if await sn_taken(session=session, sn=sn):
        raise ApiError(DUPLICATE_SN.format(sn=sn), status_code=409)
    await check_building(session=session, project_sysno=project_sysno, building_sysno=building_sysno)
    plain = secret or new_secret()
    gateway = Gateway(
        project_sysno=project_sysno,
        building_sysno=building_sysno,
        sn=sn,
        name=name,
        secret_hash=await ctx.passwords.hash(plain),
        online=False,
    )
    session.add(gateway)
    try:
        # No savepoint: on SQLite, releasing a transaction's first savepoint commits it, and a later
        # refusal of the same request (Mosquitto unreachable) must still roll the registration back.
        await session.flush()
    except IntegrityError as exc:
        # Another registration of the same serial number won the race (the request's writes all go).
        raise ApiError(DUPLICATE_SN.format(sn=sn), status_code=409) from exc
    return gateway, plain


_DEVICES = select(func.count()).where(Device.gateway_sysno == Gateway.sysno).correlate(Gateway)
GATEWAYS = Listing(
    select(
        Gateway.sysno,
        Gateway.sn,
        Gateway.name,
        Gateway.project_sysno,
        Project.name,
        Gateway.building_sysno,
        Building.name,
        Gateway.online,
        Gateway.last_seen,
        Gateway.firmware,
        Gateway.remark,
        _DEVICES.scalar_subquery(),
        _DEVICES.where(Device.online != 0).scalar_subquery(),
        Gateway.create_time,
    )
    .join(Project, Project.sysno == Gateway.project_sysno)
    .outerjoin(Building, Building.sysno == Gateway.building_sysno),
    filters={
        "customer": lambda p: sees(p, project=Gateway.project_sysno, gateway=Gateway.sysno),
        "sysno": lambda p: Gateway.sysno == p,
        "project": lambda p: Gateway.project_sysno == p,
        "building": lambda p: Gateway.building_sysno == p,
        "online": lambda p: Gateway.online == p,
        "name": Keyword(Gateway.name),
        "sn": Keyword(Gateway.sn),
    },
    orders={
        "sysno": Gateway.sysno,
        "name": Gateway.name,
        "sn": Gateway.sn,
        "create_time": Gateway.create_time,
        "last_seen": Gateway.last_seen,
        "online": Gateway.online,
    },
    default_order="create_time",
    tie=Gateway.sysno,
)


def _gateway(row: Row) -> dict[str, Any]:
    """One gateway in the shape of ``GatewayRead``."""
    (
        sysno,
        sn,
        name,
        project_sysno,
        project_name,
        building_sysno,
        building_name,
        online,
        last_seen,
        firmware,
        remark,
        device_count,
        online_count,
        create_time,
    ) = row
    return {
        "sysno": sysno,
        "sn": sn,
        "name": name,
        "project_sysno": project_sysno,
        "project_name": project_name,
        "building_sysno": building_sysno,
        "building_name": building_name,
        "online": int(online),
        "last_seen": to_display(last_seen),
        "firmware": firmware,
        "remark": remark,
        "device_count": int(device_count),
        "online_device_count": int(online_count),
        "create_time": to_display(create_time),
    }


def _gateway_values(customer: Customer, query: GatewayQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "building": query.building_sysno,
        "online": None if query.online is None else bool(query.online),
        "name": query.name,
        "sn": query.sn,
    }


async def list_gateways(*, ctx: AppContext, customer: Customer, query: GatewayQuery) -> PageData:
    """One page of the gateways in projects the customer may see."""
    return await GATEWAYS.page(ctx, query=query, values=_gateway_values(customer, query), render=_gateway)


ONLINE_NAMES = {0: "离线", 1: "在线"}
GATEWAY_COLUMNS = (
    Column("网关名称", "name", 20),
    Column("序列号", "sn", 18),
    Column("所属项目", "project_name", 18),
    Column("所属建筑", "building_name", 14),
    Column("在线状态", lambda g: ONLINE_NAMES[1 if g["online"] else 0], 10),
    Column("最后通信", lambda g: g["last_seen"] or "从未上报", 20),
    Column("在线设备", lambda g: f"{g['online_device_count']}/{g['device_count']}", 10),
    Column("固件版本", "firmware", 12),
    Column("备注", "remark", 24),
    Column("注册时间", "create_time", 20),
)


async def export_gateways(*, ctx: AppContext, customer: Customer, query: GatewayQuery) -> tuple[Path, str]:
    """Every gateway the list's filters keep, as a workbook: its path and file name."""
    filters = filters_shown(
        ("项目", await visible_project_name(ctx, customer=customer, sysno=query.project_sysno)),
        ("建筑编号", query.building_sysno),
        ("在线状态", ONLINE_NAMES.get(query.online) if query.online is not None else None),
        ("网关名称", query.name),
        ("序列号", query.sn),
    )
    return await export_list(
        ctx,
        name="网关列表",
        listing=GATEWAYS,
        query=query,
        values=_gateway_values(customer, query),
        columns=GATEWAY_COLUMNS,
        filters=filters,
        render=_gateway,
    )


async def get_gateway(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One gateway the customer may see (read in the caller's session)."""
    row = await GATEWAYS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("网关")
    return _gateway(row)


async def get_owned_gateway(*, session: AsyncSession, customer: Customer, sysno: int) -> Gateway:
    """A gateway in a project the customer owns, to change (only owners change gateways).

    Its devices and then its row are locked first, in the order deletion takes them, so a rename, a
    move, a new secret and a deletion of one gateway run one after another, each finding the gateway
    as the one before left it, or gone (not found), never a stale row.
    """
    owned = owned_projects(customer.sysno)
    await devices.hold(session, Device.gateway_sysno == sysno, Device.project_sysno.in_(owned))
    gateway = await session.scalar(
        select(Gateway).where(Gateway.sysno == sysno, Gateway.project_sysno.in_(owned)).with_for_update()
    )
    if gateway is None:
        raise NotFound("网关")
    return gateway


async def register_gateway(
    *, session: AsyncSession, ctx: AppContext, customer: Customer, body: GatewayCreate, ip: str | None
) -> dict[str, Any]:
    """Register a gateway in an owned project; the answer carries its secret, shown once."""
    project = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno, hold=True)
    gateway, secret = await create_gateway(
        session=session,
        ctx=ctx,
        project_sysno=project.sysno,
        sn=body.sn,
        name=body.name,
        building_sysno=body.building_sysno,
    )
    gateway.remark = body.remark or None
    await broker_accounts.issued(settings=ctx.settings, sn=gateway.sn, secret=secret, name=gateway.name)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GATEWAY,
        detail=f"注册网关：{gateway.name}（{gateway.sn}），项目：{project.name}",
        ip=ip,
    )
    read = await get_gateway(session=session, customer=customer, sysno=gateway.sysno)
    return {**read, "secret": secret, "mqtt_username": gateway.sn}


async def update_gateway(
    *, session: AsyncSession, customer: Customer, body: GatewayUpdate, ip: str | None
) -> dict[str, Any]:
    """Rename, annotate or re-house a gateway within its project."""
    gateway = await get_owned_gateway(session=session, customer=customer, sysno=body.sysno)
    gateway.name = body.name
    if "remark" in body.model_fields_set:
        gateway.remark = body.remark or None
    if "building_sysno" in body.model_fields_set:
        await check_building(
            session=session, project_sysno=gateway.project_sysno, building_sysno=body.building_sysno
        )
        gateway.building_sysno = body.building_sysno
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GATEWAY,
        detail=f"修改网关：{gateway.name}（{gateway.sn}）",
        ip=ip,
    )
    return await get_gateway(session=session, customer=customer, sysno=gateway.sysno)


async def move_gateway(
    *, session: AsyncSession, ctx: AppContext, customer: Customer, body: GatewayMove, ip: str | None
) -> dict[str, Any]:
    """Move a gateway to another owned project (or building); its devices follow."""
    gateway = await get_owned_gateway(session=session, customer=customer, sysno=body.sysno)
    target = await get_owned_project(session=session, customer=customer, sysno=body.project_sysno, hold=True)
    await check_building(session=session, project_sysno=target.sysno, building_sysno=body.building_sysno)
    if target.sysno != gateway.project_sysno:
        revoke(session=session, gateway=gateway)
        await broker_accounts.moved(settings=ctx.settings, sn=gateway.sn)
    gateway.project_sysno = target.sysno
    gateway.building_sysno = body.building_sysno
    await session.execute(
        update(Device).where(Device.gateway_sysno == gateway.sysno).values(project_sysno=target.sysno)
    )
    await session.flush()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GATEWAY,
        detail=f"移动网关：{gateway.name}（{gateway.sn}）到项目：{target.name}",
        ip=ip,
    )
    return await get_gateway(session=session, customer=customer, sysno=gateway.sysno)


async def reset_secret(
    *, session: AsyncSession, ctx: AppContext, customer: Customer, sysno: int, ip: str | None
) -> GatewaySecret:
    """Issue a new secret for a gateway (the old one stops working); shown once."""
    gateway = await get_owned_gateway(session=session, customer=customer, sysno=sysno)
    secret = new_secret()
    gateway.secret_hash = await ctx.passwords.hash(secret)
    revoke(session=session, gateway=gateway)
    await broker_accounts.issued(settings=ctx.settings, sn=gateway.sn, secret=secret, name=gateway.name)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GATEWAY,
        detail=f"重置网关密钥：{gateway.name}（{gateway.sn}）",
        ip=ip,
    )
    return GatewaySecret(sysno=gateway.sysno, sn=gateway.sn, mqtt_username=gateway.sn, secret=secret)


async def delete_gateway(
    *, session: AsyncSession, ctx: AppContext, customer: Customer, sysno: int, ip: str | None
) -> list[int]:
    """Delete a gateway with its devices, their readings and its logs; returns the devices' sysnos.

    Refused while one of its devices has an open electricity account (its money would go with it).
    """
    gateway = await get_owned_gateway(session=session, customer=customer, sysno=sysno)
    device_sysnos = await devices.hold(session, Device.gateway_sysno == gateway.sysno)
    billed = await devices.open_accounts(session, device_sysnos)
    if billed:
        raise ApiError(f"该网关下有 {billed} 个电费账户未销户，请先在电费管理中销户")
    await session.execute(delete(Device).where(Device.gateway_sysno == gateway.sysno))
    await session.delete(gateway)
    revoke(session=session, gateway=gateway, deleted=True)
    await session.flush()  # the delete holds (no row refers to the gateway) before Mosquitto forgets it
    await broker_accounts.deleted(settings=ctx.settings, sn=gateway.sn)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.GATEWAY,
        detail=f"删除网关：{gateway.name}（{gateway.sn}）",
        ip=ip,
    )
    return device_sysnos


def revoke(*, session: AsyncSession, gateway: Gateway, deleted: bool = False) -> None:
    """End the gateway's sessions everywhere once this transaction commits (new generation, or gone)."""
    if not deleted:
        gateway.generation += 1
    session.add(
        GatewayRevocation(
            gateway_sysno=gateway.sysno, sn=gateway.sn, valid_from=None if deleted else gateway.generation
        )
    )


async def revocations_after(
    *, session: AsyncSession, after: int | None
) -> tuple[int, list[GatewayRevocation]]:
    """Revocations written since id ``after`` (None: none yet, just the newest id), and the newest id."""
    if after is None:
        newest = await session.scalar(select(func.max(GatewayRevocation.sysno)))
        return newest or 0, []
    rows = list(
        await session.scalars(
            select(GatewayRevocation).where(GatewayRevocation.sysno > after).order_by(GatewayRevocation.sysno)
        )
    )
    return (rows[-1].sysno if rows else after), rows


async def prune_revocations(*, session: AsyncSession, before: datetime) -> None:
    """Forget revocations every process has long read, but for deletions (``deleted_before``)."""
    await session.execute(
        delete(GatewayRevocation).where(
            GatewayRevocation.create_time < before, GatewayRevocation.valid_from.is_not(None)
        )
    )
