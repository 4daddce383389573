"""Writes today's alarms and offline spells for the first demo gateway's project (browser tests, reports).

Run in the server's working directory with its environment, once the demo gateway's devices were
announced: it reads the gateway's serial number from ``data/demo-gateways.json`` and writes, within
the last hour of today (local time), three alarms of its devices (one processed, one still active)
and offline spells of the gateway and two devices (one still open); the project's gateways and devices
are dated from yesterday. Prints the project's name.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

from sqlalchemy import select, update

from powerportal import models  # noqa: F401 - every table, for the foreign keys
from powerportal.alarms.models import Alarm
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog
from powerportal.projects.models import Project


async def main() -> None:
    """Write the rows, then print the project's name."""
    sn = json.loads(Settings().demo_gateways_file.read_text())[0]["sn"]
    ctx = AppContext.build(Settings())
    try:
        async with ctx.sessions() as session:
            gateway = await session.scalar(select(Gateway).where(Gateway.sn == sn))
            assert gateway is not None, sn  # noqa: S101
            project = await session.get(Project, gateway.project_sysno)
            assert project is not None  # noqa: S101
            devices = (
                await session.scalars(
                    select(Device)
                    .where(Device.gateway_sysno == gateway.sysno)
                    .order_by(Device.sysno)
                    .limit(2)
                )
            ).all()
            assert len(devices) == 2, "the demo gateway's devices are not announced yet"  # noqa: S101
            now = utcnow().replace(microsecond=0)
            midnight = now.astimezone(CUSTOMER_TZ).replace(hour=0, minute=0, second=0)
            # Within today, however early it is: the hour before now, or the minutes since midnight.
            step = min(timedelta(minutes=10), (now - midnight) / 8)
            first, second = devices
            # The demo's gateways and breakers were registered a moment ago: say they were there since
            # yesterday, as a site with this history would have been (a spell before a registration
            # would count for nothing).
            since = now - timedelta(days=1)
            for model in (Gateway, Device):
                await session.execute(
                    update(model).where(model.project_sysno == project.sysno).values(create_time=since)
                )
            for n, (device, kind, level, ended, processed) in enumerate(
                (
                    (first, "over_current", 3, True, True),
                    (first, "leakage", 3, True, False),
                    (second, "over_voltage", 2, False, False),
                )
            ):
                start = now - step * (6 - n)
                session.add(
                    Alarm(
                        project_sysno=project.sysno,
                        gateway_sysno=gateway.sysno,
                        device_sysno=device.sysno,
                        device_id=device.device_id,
                        target_name=device.name,
                        alarm_type=kind,
                        level=level,
                        source="rule",
                        detail=f"浏览器测试的{kind}告警",
                        start_time=start,
                        end_time=start + step / 2 if ended else None,
                        process_state=int(processed),
                        process_time=start + step if processed else None,
                        process_remark="已检修" if processed else None,
                    )
                )
            spells = (
                (None, gateway.name, 5, 4),
                (first.sysno, first.name, 5, 4),
                (second.sysno, second.name, 3, None),
            )
            for device_sysno, name, back, ends in spells:
                offline = now - step * back
                online = now - step * ends if ends is not None else None
                session.add(
                    OfflineLog(
                        project_sysno=project.sysno,
                        gateway_sysno=gateway.sysno,
                        device_sysno=device_sysno,
                        target_name=name,
                        reason="silence" if device_sysno is None else "gateway_offline",
                        offline_time=offline,
                        online_time=online,
                        duration_seconds=int((online - offline).total_seconds()) if online else None,
                    )
                )
            await session.commit()
            print(json.dumps({"project": project.name}, ensure_ascii=False))  # noqa: T201
    finally:
        await ctx.close()


if __name__ == "__main__":
    asyncio.run(main())
