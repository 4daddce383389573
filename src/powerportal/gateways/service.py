"""Gateways: registration by serial number, secrets, moves and the gateway list."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.gateways.models import Gateway
from powerportal.projects.models import Building

SECRET_BYTES = 18


def new_secret() -> str:
    """A fresh gateway secret (its MQTT password)."""
    return secrets.token_urlsafe(SECRET_BYTES)


async def sn_taken(*, session: AsyncSession, sn: str, exclude_sysno: int | None = None) -> bool:
    """Whether another gateway already uses this serial number."""
    query = select(Gateway.sysno).where(Gateway.sn == sn)
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
        raise ApiError(f"序列号 {sn} 已被注册，请核对网关铭牌上的序列号", status_code=409)
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
    await session.flush()
    return gateway, plain
