"""Database work of the ingest: bulk readings, device state, and the offline and status logs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core.database import SQLITE_STAMP
from powerportal.core.security import PasswordHashing
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway, GatewayRevocation
from powerportal.logs.models import OfflineLog, StatusLog
from powerportal.mqtt.auth import GatewayRef
from powerportal.telemetry.keys import COLUMN_KEYS

READING_COLUMNS: tuple[str, ...] = ("device_sysno", "ts", *COLUMN_KEYS, "extra")
ReadingRow = tuple[Any, ...]

# Readings reach PostgreSQL by COPY into a per-connection staging table, then one INSERT … ON CONFLICT.
_PG_STAGE = "CREATE TEMP TABLE IF NOT EXISTS reading_stage (LIKE reading) ON COMMIT DELETE ROWS"
_PG_FROM_STAGE = "INSERT INTO reading SELECT * FROM reading_stage ON CONFLICT DO NOTHING"
_SQLITE_INSERT = "INSERT INTO reading ({cols}) VALUES ({marks}) ON CONFLICT DO NOTHING".format(  # noqa: S608
    cols=", ".join(f'"{c}"' for c in READING_COLUMNS), marks=", ".join("?" for _ in READING_COLUMNS)
)


def reading_row(
    *, device_sysno: int, ts: datetime, values: dict[str, float], extra: dict[str, Any]
) -> ReadingRow:
    """One ``reading`` row in ``READING_COLUMNS`` order."""
    return (device_sysno, ts, *map(values.get, COLUMN_KEYS), extra or None)


async def insert_readings(*, session: AsyncSession, rows: Sequence[ReadingRow], durable: bool = True) -> int:
    """Insert readings, skipping any (device, instant) already stored; return how many were new.

    ``durable=False`` lets PostgreSQL acknowledge the batch before its WAL reaches disk (a server
    crash may then lose the last fraction of a second of readings, alarms and logs with them).
    """
    if not rows:
        return 0
    conn = await session.connection()
    if conn.dialect.name == "postgresql":
        # Also opens asyncpg's lazy transaction, so the COPY below belongs to the batch's transaction.
        await conn.execute(text(f"SET LOCAL synchronous_commit TO {'ON' if durable else 'OFF'}"))
        raw = await conn.get_raw_connection()
        driver: Any = raw.driver_connection
        if not raw.info.get("reading_stage"):
            await driver.execute(_PG_STAGE)
            raw.info["reading_stage"] = True
        records = [(*row[:-1], orjson.dumps(row[-1]).decode() if row[-1] else None) for row in rows]
        await driver.copy_records_to_table("reading_stage", records=records, columns=READING_COLUMNS)
        status: str = await driver.execute(_PG_FROM_STAGE)
        return int(status.rsplit(" ", 1)[-1])
    stamps: dict[datetime, str] = {}
    sqlite_rows = []
    for row in rows:
        stamp = stamps.get(row[1])
        if stamp is None:
            stamp = stamps[row[1]] = row[1].astimezone(UTC).strftime(SQLITE_STAMP)
        extra = row[-1]
        sqlite_rows.append((row[0], stamp, *row[2:-1], orjson.dumps(extra).decode() if extra else None))
    result = await conn.exec_driver_sql(_SQLITE_INSERT, sqlite_rows)
    return int(result.rowcount)


@dataclass
class DeviceUpdate:
    """What a batch changes on one device row."""

    sysno: int
    latest: dict[str, Any] | None
    last_report_time: datetime | None
    online: int
    switch_state: int | None


async def save_devices(*, session: AsyncSession, updates: Sequence[DeviceUpdate]) -> None:
    """Write the latest values, report time, online flag and switch state of devices (by primary key)."""
    if not updates:
        return
    await session.execute(
        update(Device),
        [
            {
                "sysno": u.sysno,
                "latest": u.latest,
                "last_report_time": u.last_report_time,
                "online": u.online,
                "switch_state": u.switch_state,
            }
            for u in updates
        ],
    )


async def save_gateways_seen(*, session: AsyncSession, seen: dict[int, datetime]) -> None:
    """Record when gateways were last heard from."""
    if seen:
        await session.execute(
            update(Gateway), [{"sysno": sysno, "last_seen": at} for sysno, at in seen.items()]
        )


async def set_gateway_online(
    *, session: AsyncSession, gateway_sysno: int, online: bool, firmware: str | None = None
) -> None:
    """Flip a gateway's online flag (and note its firmware when it says)."""
    values: dict[str, Any] = {"online": online}
    if firmware:
        values["firmware"] = firmware
    await session.execute(update(Gateway).where(Gateway.sysno == gateway_sysno).values(**values))


async def load_gateway(*, session: AsyncSession, sn: str) -> tuple[Gateway, list[Device]] | None:
    """A gateway by serial number, with its devices."""
    gateway = await session.scalar(select(Gateway).where(Gateway.sn == sn))
    if gateway is None:
        return None
    devices = (await session.scalars(select(Device).where(Device.gateway_sysno == gateway.sysno))).all()
    return gateway, list(devices)


async def deleted_before(*, session: AsyncSession, sn: str) -> datetime | None:
    """When the serial number's last former registration was deleted; None: it had none."""
    return await session.scalar(
        select(func.max(GatewayRevocation.create_time)).where(
            GatewayRevocation.sn == sn, GatewayRevocation.valid_from.is_(None)
        )
    )


async def gateway_generations(*, session: AsyncSession, sysnos: Sequence[int]) -> dict[int, int]:
    """Gateway sysno → generation, for the gateways that still exist."""
    rows = await session.execute(select(Gateway.sysno, Gateway.generation).where(Gateway.sysno.in_(sysnos)))
    return dict(rows.tuples().all())


async def device_identities(*, session: AsyncSession, sysnos: Sequence[int]) -> dict[int, tuple[int, str]]:
    """Device sysno → (gateway sysno, device id), for the devices that still exist."""
    rows = await session.execute(
        select(Device.sysno, Device.gateway_sysno, Device.device_id).where(Device.sysno.in_(sysnos))
    )
    return {sysno: (gateway_sysno, device_id) for sysno, gateway_sysno, device_id in rows}


async def create_device(
    *,
    session: AsyncSession,
    gateway_sysno: int,
    project_sysno: int,
    device_id: str,
    name: str,
    kind: str,
    phases: int,
    model: str | None,
) -> Device:
    """Register a device a gateway announced."""
    device = Device(
        gateway_sysno=gateway_sysno,
        project_sysno=project_sysno,
        device_id=device_id,
        name=name,
        kind=kind,
        phases=phases,
        model=model,
        online=0,
    )
    session.add(device)
    await session.flush()
    return device


async def update_device_identity(
    *, session: AsyncSession, device_sysno: int, kind: str, phases: int, model: str | None
) -> None:
    """Correct what kind of device it is when the gateway says otherwise."""
    await session.execute(
        update(Device).where(Device.sysno == device_sysno).values(kind=kind, phases=phases, model=model)
    )


async def silent_candidates(
    *, session: AsyncSession, gateway_cutoff: datetime, device_cutoff: datetime
) -> list[str]:
    """Serial numbers of gateways that look online in the database but have been silent too long."""
    gateways = select(Gateway.sn).where(
        Gateway.online.is_(True), (Gateway.last_seen < gateway_cutoff) | Gateway.last_seen.is_(None)
    )
    devices = (
        select(Gateway.sn)
        .join(Device, Device.gateway_sysno == Gateway.sysno)
        .where(
            Device.online != 0,
            (Device.last_report_time < device_cutoff) | Device.last_report_time.is_(None),
        )
    )
    return list(set((await session.scalars(gateways)).all()) | set((await session.scalars(devices)).all()))


def open_offline(
    *,
    session: AsyncSession,
    project_sysno: int,
    gateway_sysno: int,
    device_sysno: int | None,
    target_name: str,
    reason: str,
    at: datetime,
) -> OfflineLog:
    """Start an offline spell."""
    spell = OfflineLog(
        project_sysno=project_sysno,
        gateway_sysno=gateway_sysno,
        device_sysno=device_sysno,
        target_name=target_name,
        reason=reason,
        offline_time=at,
    )
    session.add(spell)
    return spell


async def close_offline(
    *, session: AsyncSession, gateway_sysno: int, device_sysno: int | None, at: datetime
) -> None:
    """End the open offline spell of a gateway or device, with its duration."""
    query = select(OfflineLog).where(
        OfflineLog.gateway_sysno == gateway_sysno,
        OfflineLog.device_sysno.is_(None)
        if device_sysno is None
        else OfflineLog.device_sysno == device_sysno,
        OfflineLog.online_time.is_(None),
    )
    for spell in (await session.scalars(query.order_by(OfflineLog.offline_time.desc()))).all():
        spell.online_time = at
        spell.duration_seconds = max(0, int((at - spell.offline_time).total_seconds()))


def status_log(
    *,
    session: AsyncSession,
    project_sysno: int,
    gateway_sysno: int,
    device_sysno: int | None,
    target_name: str,
    status_type: str,
    detail: str,
    at: datetime,
) -> None:
    """Record a state change."""
    session.add(
        StatusLog(
            project_sysno=project_sysno,
            gateway_sysno=gateway_sysno,
            device_sysno=device_sysno,
            target_name=target_name,
            status_type=status_type,
            detail=detail,
            create_time=at,
        )
    )


async def verify_gateway_secret(
    *, session: AsyncSession, passwords: PasswordHashing, sn: str, secret: str
) -> GatewayRef | None:
    """The registration whose secret this is (as slow for unknown gateways as for known ones), or None."""
    row = (
        await session.execute(
            select(Gateway.sysno, Gateway.generation, Gateway.secret_hash).where(Gateway.sn == sn)
        )
    ).first()
    if row is None:
        await passwords.burn(secret)
        return None
    sysno, generation, secret_hash = row
    return (
        GatewayRef(sysno=sysno, generation=generation, sn=sn)
        if await passwords.verify(secret_hash, secret)
        else None
    )
