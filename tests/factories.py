"""Row factories for projects, buildings, gateways, devices, readings and logs."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from powerportal.alarms.models import Alarm
from powerportal.core.timeutil import utcnow
from powerportal.devices.models import Device
from powerportal.gateways import service as gateways
from powerportal.logs.models import OfflineLog, StatusLog
from powerportal.projects.models import Building, Project
from powerportal.telemetry.models import Reading
from tests.conftest import Harness, login, make_customer

_serial = itertools.count(1)


@dataclass
class Account:
    """A customer and its login token."""

    sysno: int
    token: str
    mobile: str


async def make_account(h: Harness, mobile: str = "13900000001") -> Account:
    """A customer, logged in."""
    sysno = await make_customer(h, mobile=mobile)
    return Account(sysno=sysno, token=await login(h, mobile=mobile), mobile=mobile)


async def make_project(h: Harness, customer_sysno: int, name: str | None = None, **fields: Any) -> int:
    """A project of the customer."""
    async with h.ctx.sessions() as session:
        project = Project(customer_sysno=customer_sysno, name=name or f"项目{next(_serial)}", **fields)
        session.add(project)
        await session.commit()
        return project.sysno


async def make_building(h: Harness, project_sysno: int, name: str | None = None) -> int:
    """A building of a project."""
    async with h.ctx.sessions() as session:
        building = Building(project_sysno=project_sysno, name=name or f"楼栋{next(_serial)}")
        session.add(building)
        await session.commit()
        return building.sysno


async def make_gateway(
    h: Harness,
    project_sysno: int,
    building_sysno: int | None = None,
    sn: str | None = None,
    name: str | None = None,
    online: bool = False,
    last_seen: datetime | None = None,
) -> int:
    """A registered gateway (through the real service)."""
    number = next(_serial)
    async with h.ctx.sessions() as session:
        gateway, _secret = await gateways.create_gateway(
            session=session,
            ctx=h.ctx,
            project_sysno=project_sysno,
            building_sysno=building_sysno,
            sn=sn or f"GW{number:06d}",
            name=name or f"网关{number}",
        )
        gateway.online = online
        gateway.last_seen = last_seen
        await session.commit()
        return gateway.sysno


async def make_device(
    h: Harness,
    gateway_sysno: int,
    project_sysno: int,
    device_id: str | None = None,
    name: str | None = None,
    **fields: Any,
) -> int:
    """A device announced by a gateway."""
    number = next(_serial)
    async with h.ctx.sessions() as session:
        device = Device(
            gateway_sysno=gateway_sysno,
            project_sysno=project_sysno,
            device_id=device_id or f"D{number}",
            name=name or f"断路器{number}",
            **fields,
        )
        session.add(device)
        await session.commit()
        return device.sysno


async def make_readings(
    h: Harness, device_sysno: int, count: int, step: timedelta, end: datetime | None = None, **values: float
) -> None:
    """``count`` readings ending at ``end`` (now by default), ``step`` apart, value + index each."""
    end = end or utcnow()
    async with h.ctx.sessions() as session:
        for i in range(count):
            session.add(
                Reading(
                    device_sysno=device_sysno,
                    ts=end - step * (count - 1 - i),
                    **{key: value + i for key, value in values.items()},
                )
            )
        await session.commit()


async def make_offline_log(
    h: Harness,
    project_sysno: int,
    gateway_sysno: int,
    device_sysno: int | None = None,
    target_name: str = "网关离线",
    offline_time: datetime | None = None,
    online_time: datetime | None = None,
    reason: str = "silence",
) -> int:
    """A spell offline."""
    offline_time = offline_time or utcnow() - timedelta(hours=2)
    duration = int((online_time - offline_time).total_seconds()) if online_time else None
    async with h.ctx.sessions() as session:
        row = OfflineLog(
            project_sysno=project_sysno,
            gateway_sysno=gateway_sysno,
            device_sysno=device_sysno,
            target_name=target_name,
            reason=reason,
            offline_time=offline_time,
            online_time=online_time,
            duration_seconds=duration,
        )
        session.add(row)
        await session.commit()
        return row.sysno


async def make_status_log(
    h: Harness,
    project_sysno: int,
    gateway_sysno: int,
    status_type: str = "offline",
    device_sysno: int | None = None,
    target_name: str = "目标",
    detail: str = "状态变化",
    create_time: datetime | None = None,
) -> int:
    """A state change."""
    async with h.ctx.sessions() as session:
        row = StatusLog(
            project_sysno=project_sysno,
            gateway_sysno=gateway_sysno,
            device_sysno=device_sysno,
            target_name=target_name,
            status_type=status_type,
            detail=detail,
            create_time=create_time or utcnow(),
        )
        session.add(row)
        await session.commit()
        return row.sysno


async def make_alarm(
    h: Harness,
    project_sysno: int,
    gateway_sysno: int,
    device_sysno: int,
    detail: str,
    target_name: str | None = None,
) -> int:
    """An open over-current alarm of the device, as the engine raises it (five minutes ago)."""
    async with h.ctx.sessions() as session:
        alarm = Alarm(
            project_sysno=project_sysno,
            gateway_sysno=gateway_sysno,
            device_sysno=device_sysno,
            device_id="1",
            target_name=target_name or detail,
            alarm_type="over_current",
            level=3,
            source="rule",
            detail=detail,
            start_time=utcnow() - timedelta(minutes=5),
        )
        session.add(alarm)
        await session.commit()
        return alarm.sysno
