"""The data dashboard's figures, read for a customer in one go, and its kiosk links.

Every figure comes from the same rows as the screen it summarises: equipment counts as the project
list counts them, alarms from ``alarm``, energy from the energy domain's project roll-ups less the
总进线 (as 能耗统计 counts a project), so the large screen and the energy screen agree. All reads go
through ``core/reads`` with statements built once; a customer of 20 projects and 2,000 devices is
read in a few milliseconds (``bench/dashboard_bench.py``).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, func, or_, select, tuple_, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import BindParameter

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm
from powerportal.alarms.rules import BY_CODE, LEVEL_LABELS, Level
from powerportal.brands.service import Brand
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import Listing
from powerportal.core.schemas import PageData
from powerportal.core.security import new_token, token_digest
from powerportal.core.timeutil import CUSTOMER_TZ, to_display, utcnow
from powerportal.dashboard.models import KioskLink
from powerportal.dashboard.schemas import THEMES, KioskLinkCreate, KioskLinkQuery
from powerportal.devices.models import Device
from powerportal.energy import counting
from powerportal.energy.models import (
    DAY,
    DEVICE,
    MONTH,
    PERIOD_LABELS,
    PROJECT,
    QUARTER,
    EnergyInterval,
    EnergyRollup,
    IncomingMain,
)
from powerportal.energy.service import fen, mains_of, wh
from powerportal.energy.tariffs import zone
from powerportal.load_ident.models import LoadEvent
from powerportal.logs import recording as logs
from powerportal.projects.access import in_view, limited_projects, sees, visible_projects
from powerportal.projects.models import Project
from powerportal.projects.service import EQUIPMENT_COUNTS

LATEST_ALARMS = 20
TOP_CONSUMERS = 10
POWER_HOURS = 24
MAX_ACTIVE_LINKS = 20

_CUSTOMER: BindParameter[int] = bindparam("customer")
_TZ: BindParameter[str] = bindparam("tz")
_VISIBLE = visible_projects(_CUSTOMER)
# The visible projects keeping one clock (a customer's days and months are each project's own).
_VISIBLE_IN_ZONE = select(Project.sysno).where(Project.sysno.in_(_VISIBLE), Project.timezone == _TZ)
# Of those, the projects seen whole (their roll-ups count) and those seen in part (a share limited to
# buildings: their devices' roll-ups count).
_LIMITED = limited_projects(_CUSTOMER)
_WHOLE = _VISIBLE.where(Project.sysno.not_in(_LIMITED))
_WHOLE_IN_ZONE = _VISIBLE_IN_ZONE.where(Project.sysno.not_in(_LIMITED))
_PART_IN_ZONE = _VISIBLE_IN_ZONE.where(Project.sysno.in_(_LIMITED))


def _alarm_seen() -> ColumnElement[bool]:
    return sees(_CUSTOMER, project=Alarm.project_sysno, gateway=Alarm.gateway_sysno)


_PROJECTS = (
    select(
        Project.sysno, Project.name, Project.longitude, Project.latitude, Project.timezone, *EQUIPMENT_COUNTS
    )
    .where(Project.sysno.in_(_VISIBLE))
    .order_by(Project.sysno)
)
_OPEN = Alarm.end_time.is_(None)
_BEGUN_TODAY = Alarm.start_time >= bindparam("today")
# Per project and level: alarms still open and alarms begun today.
_ALARM_COUNTS = (
    select(
        Alarm.project_sysno,
        Alarm.level,
        func.sum(case((_OPEN, 1), else_=0)),
        func.sum(case((_BEGUN_TODAY, 1), else_=0)),
    )
    .where(_alarm_seen(), or_(_OPEN, _BEGUN_TODAY))
    .group_by(Alarm.project_sysno, Alarm.level)
)
_LATEST_ALARMS = (
    select(
        Alarm.sysno,
        Project.name,
        Alarm.target_name,
        Alarm.device_id,
        Alarm.alarm_type,
        Alarm.level,
        Alarm.start_time,
        Alarm.end_time,
    )
    .join(Project, Project.sysno == Alarm.project_sysno)
    .where(_alarm_seen())
    .order_by(Alarm.start_time.desc(), Alarm.sysno.desc())
    .limit(LATEST_ALARMS)
)

# Forbidden appliances switched on today, as 负荷识别's statistics count violations.
_LOAD_SEEN = sees(_CUSTOMER, project=LoadEvent.project_sysno, building=LoadEvent.building_sysno)
_VIOLATIONS = select(func.count()).where(
    _LOAD_SEEN,
    LoadEvent.event_time >= bindparam("today"),
    LoadEvent.code == "appliance_on",
    LoadEvent.forbidden == 1,
)
_ANY_LOAD_EVENT = select(LoadEvent.sysno).where(_LOAD_SEEN).limit(1)

_KWH = [getattr(EnergyRollup, f"kwh_{i}") for i in range(5)]
_COST = [getattr(EnergyRollup, f"cost_{i}") for i in range(5)]
_SUMS = [func.coalesce(func.sum(c), 0) for c in (*_KWH, *_COST)]
_TODAY: BindParameter[datetime] = bindparam("today")
_YEAR: BindParameter[datetime] = bindparam("year")
_YEAR_END: BindParameter[datetime] = bindparam("year_end")
# Today (its day roll-up) and the year's months, of the projects (or the devices) of one clock: two
# index-bounded reads in one statement (an OR of the two would read every roll-up of the projects).
_TODAY_SPAN = (EnergyRollup.grain == DAY, EnergyRollup.start == _TODAY)
_YEAR_SPAN = (EnergyRollup.grain == MONTH, EnergyRollup.start >= _YEAR, EnergyRollup.start < _YEAR_END)


def _spans_of(projects: Any, *owner: ColumnElement[bool]) -> Any:
    """The owner's sums of today and of each month of the year in these projects, by grain and start."""
    reads = [
        select(EnergyRollup.grain, EnergyRollup.start, *_SUMS)
        .where(*owner, EnergyRollup.project_sysno.in_(projects), *span)
        .group_by(EnergyRollup.grain, EnergyRollup.start)
        for span in (_TODAY_SPAN, _YEAR_SPAN)
    ]
    return union_all(*reads)


_PROJECT_ENERGY = _spans_of(
    _WHOLE_IN_ZONE, EnergyRollup.scope == PROJECT, EnergyRollup.owner_sysno.in_(_WHOLE_IN_ZONE)
)


def _main_of(projects: Any, device: Any, project: Any) -> ColumnElement[bool]:
    """Whether the row's device was a 总进线 of the row's project (one of these; as 能耗统计 counts it).

    A device counts as a main only in the projects it was a main of: one of them may have it as a load
    now, or have had it as one before.
    """
    mains = mains_of(projects).subquery()
    # The device alone as well: the database then reads the few mains' rows by their key.
    return and_(
        device.in_(select(mains.c.device)),
        tuple_(device, project).in_(select(mains.c.device, mains.c.project)),
    )


# The 总进线 of the projects seen whole: a reference, left out of every project figure.
_HAS_MAINS = select(func.count()).select_from(mains_of(_WHOLE).subquery())
_MAINS_ENERGY = _spans_of(
    _WHOLE_IN_ZONE,
    EnergyRollup.scope == DEVICE,
    _main_of(_WHOLE_IN_ZONE, EnergyRollup.owner_sysno, EnergyRollup.project_sysno),
)
# The devices in view of the projects seen in part, less their 总进线.
_DEVICE_SEEN = in_view(_CUSTOMER, project=Device.project_sysno, gateway=Device.gateway_sysno)
# With the project each is in: a device's figures count in its project now, never those of a project it
# left (a gateway moved into a shared building of another project brings none of its past along).
_PART_DEVICES = select(Device.sysno, Device.project_sysno).where(
    Device.project_sysno.in_(_LIMITED), _DEVICE_SEEN, Device.sysno.not_in(select(IncomingMain.device_sysno))
)
# Read within those projects alone: most customers have none, and the read then costs nothing.
_PART_ENERGY = _spans_of(
    _PART_IN_ZONE,
    EnergyRollup.scope == DEVICE,
    tuple_(EnergyRollup.owner_sysno, EnergyRollup.project_sysno).in_(_PART_DEVICES),
)
_SINCE: BindParameter[datetime] = bindparam("since")
_ALL_KWH = sum(_KWH[1:], _KWH[0])
_PROJECT_QUARTERS = (
    select(EnergyRollup.start, func.sum(_ALL_KWH))
    .where(
        EnergyRollup.scope == PROJECT,
        EnergyRollup.grain == QUARTER,
        EnergyRollup.owner_sysno.in_(_WHOLE),
        EnergyRollup.project_sysno.in_(_WHOLE),
        EnergyRollup.start >= _SINCE,
    )
    .group_by(EnergyRollup.start)
)


def _device_quarters(projects: Any, devices: ColumnElement[bool]) -> Any:
    return (
        select(EnergyInterval.start, func.sum(EnergyInterval.kwh))
        .where(EnergyInterval.project_sysno.in_(projects), devices, EnergyInterval.start >= _SINCE)
        .group_by(EnergyInterval.start)
    )


_MAINS_QUARTERS = _device_quarters(
    _WHOLE, _main_of(_WHOLE, EnergyInterval.device_sysno, EnergyInterval.project_sysno)
)
_PART_QUARTERS = _device_quarters(
    _LIMITED, tuple_(EnergyInterval.device_sysno, EnergyInterval.project_sysno).in_(_PART_DEVICES)
)
# Today's top devices of one clock: the database sums, orders and cuts, and names only the ten kept;
# the 总进线 do not rank.
_DEVICE_KWH = sum(_KWH[1:], _KWH[0])
_DEVICE_COST = sum(_COST[1:], _COST[0])
_KEPT = (
    select(
        EnergyRollup.owner_sysno.label("device"),
        EnergyRollup.project_sysno.label("project"),
        _DEVICE_KWH.label("kwh"),
        _DEVICE_COST.label("cost"),
    )
    .where(
        EnergyRollup.project_sysno.in_(_VISIBLE_IN_ZONE),
        EnergyRollup.scope == DEVICE,
        EnergyRollup.grain == DAY,
        EnergyRollup.start == _TODAY,
        ~_main_of(_VISIBLE_IN_ZONE, EnergyRollup.owner_sysno, EnergyRollup.project_sysno),
        in_view(_CUSTOMER, project=EnergyRollup.project_sysno, device=EnergyRollup.owner_sysno),
    )
    .order_by(_DEVICE_KWH.desc(), EnergyRollup.owner_sysno)
    .limit(TOP_CONSUMERS)
    .subquery()
)
_TOP = (
    select(_KEPT.c.device, Device.name, Project.name, _KEPT.c.kwh, _KEPT.c.cost)
    .join(Project, Project.sysno == _KEPT.c.project)
    .outerjoin(Device, and_(Device.sysno == _KEPT.c.device, Device.project_sysno == _KEPT.c.project))
    .order_by(_KEPT.c.kwh.desc(), _KEPT.c.device)
)

Sums = tuple[float, ...]
NOTHING: Sums = (0.0,) * 10


def _plus(a: Sums, b: Sequence[Any], sign: int = 1) -> Sums:
    return tuple(x + sign * float(y or 0) for x, y in zip(a, b, strict=True))


def _figure(sums: Sums) -> dict[str, Any]:
    kwh, cost = sums[:5], sums[5:]
    return {
        "kwh": [wh(v) for v in kwh],
        "cost": [fen(v) for v in cost],
        "total_kwh": wh(sum(kwh)),
        "total_cost": fen(sum(cost)),
    }


def _local_midnight(now: datetime, tz: Any) -> datetime:
    local = now.astimezone(tz)
    return datetime(local.year, local.month, local.day, tzinfo=tz).astimezone(UTC)


def _spans(now: datetime, tz: Any) -> dict[str, datetime]:
    """Today's, this month's and this year's starts (UTC) and the year's end, on a project's clock."""
    local = now.astimezone(tz)
    return {
        "today": _local_midnight(now, tz),
        "month": datetime(local.year, local.month, 1, tzinfo=tz).astimezone(UTC),
        "year": datetime(local.year, 1, 1, tzinfo=tz).astimezone(UTC),
        "year_end": datetime(local.year + 1, 1, 1, tzinfo=tz).astimezone(UTC),
    }


async def _energy(
    ctx: AppContext, customer: Customer, zones: set[str], now: datetime, mains: bool
) -> tuple[dict[str, Sums], list[tuple[Any, ...]]]:
    """Today's, the month's and the year's sums and today's top devices, over the projects' clocks."""
    out = {"today": NOTHING, "month": NOTHING, "year": NOTHING}
    top: list[tuple[Any, ...]] = []
    for tz_name in sorted(zones):
        spans = _spans(now, zone(tz_name))
        at = {"customer": customer.sysno, "tz": tz_name, **spans}
        statements: list[tuple[Any, int]] = [(_PROJECT_ENERGY, 1), (_PART_ENERGY, 1)]
        statements += [(_MAINS_ENERGY, -1)] if mains else []
        *sums_read, top_read = await asyncio.gather(
            *(ctx.reads.all(statement, at) for statement, _ in statements), ctx.reads.all(_TOP, at)
        )
        for (_, sign), rows in zip(statements, sums_read, strict=True):
            for grain, start, *sums in rows:
                if grain == DAY:
                    out["today"] = _plus(out["today"], sums, sign)
                else:
                    out["year"] = _plus(out["year"], sums, sign)
                    if start == spans["month"]:
                        out["month"] = _plus(out["month"], sums, sign)
        top.extend(top_read)
    top.sort(key=lambda row: (-float(row[3] or 0), row[0]))
    return out, top[:TOP_CONSUMERS]


async def _power(ctx: AppContext, customer: Customer, now: datetime, mains: bool) -> list[dict[str, Any]]:
    """The last 24 hours' total power, one point per finished quarter-hour: its kWh × 4 (average kW).

    The running quarter is left out: its readings are still arriving, and its average would dip.
    """
    current = counting.quarter_of(now)
    since = current - timedelta(hours=POWER_HOURS)
    at = {"customer": customer.sysno, "since": since}
    used: dict[datetime, float] = defaultdict(float)
    for statement in (_PROJECT_QUARTERS, _PART_QUARTERS):
        for start, kwh in await ctx.reads.all(statement, at):
            used[start] += float(kwh or 0)
    if mains:
        for start, kwh in await ctx.reads.all(_MAINS_QUARTERS, at):
            used[start] -= float(kwh or 0)
    hours = counting.QUARTER.total_seconds() / 3600
    points = []
    at_quarter = since
    while at_quarter < current:
        points.append(
            {
                "time": at_quarter.astimezone(CUSTOMER_TZ).strftime("%H:%M"),
                "start": to_display(at_quarter),
                "kw": round(max(used.get(at_quarter, 0.0), 0.0) / hours, 3),
            }
        )
        at_quarter += counting.QUARTER
    return points


def _state(gateways: int, gateways_online: int, devices: int, devices_online: int, alarms: int) -> str:
    if alarms:
        return "alarm"
    if gateways_online < gateways or devices_online < devices:
        return "offline"
    return "normal" if gateways or devices else "empty"


def _by_level(counts: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {"level": int(level), "label": label, "count": counts.get(int(level), 0)}
        for level, label in LEVEL_LABELS.items()
    ]


def screen(customer: Customer, brand: Brand) -> dict[str, Any]:
    """The screen's title (the profile's screen_title, else the brand's), theme (serial_no) and map flag."""
    theme = (customer.serial_no or "").strip()
    return {
        "title": (customer.screen_title or "").strip() or f"{brand.product_name}数据大屏",
        "theme": theme if theme in THEMES else "brand",
        "map": brand.flags.map,
        "brand_color": brand.theme_color,
    }


async def dashboard(*, ctx: AppContext, customer: Customer, brand: Brand) -> dict[str, Any]:
    """Everything the large screen shows, for the projects the customer may see."""
    now = utcnow()
    at = {"customer": customer.sysno}
    today = _local_midnight(now, CUSTOMER_TZ)
    # Reads that need nothing of each other go out together (on PostgreSQL, over several connections).
    projects, alarm_counts, latest, has_mains, load_ident = await asyncio.gather(
        ctx.reads.all(_PROJECTS, at),
        ctx.reads.all(_ALARM_COUNTS, at | {"today": today}),
        ctx.reads.all(_LATEST_ALARMS, at),
        ctx.reads.scalar(_HAS_MAINS, at),
        _load_ident(ctx, at | {"today": today}),
    )
    open_by_project: dict[int, int] = defaultdict(int)
    open_by_level: dict[int, int] = defaultdict(int)
    today_by_level: dict[int, int] = defaultdict(int)
    for project, level, still_open, begun_today in alarm_counts:
        open_by_project[project] += int(still_open or 0)
        open_by_level[level] += int(still_open or 0)
        today_by_level[level] += int(begun_today or 0)
    points = []
    totals = [0, 0, 0, 0]
    zones = set()
    for sysno, name, longitude, latitude, tz_name, *counts in projects:
        zones.add(tz_name)
        totals = [t + int(c or 0) for t, c in zip(totals, counts, strict=True)]
        g_total, g_online, d_total, d_online = (int(c or 0) for c in counts)
        points.append(
            {
                "sysno": sysno,
                "name": name,
                "longitude": longitude,
                "latitude": latitude,
                "state": _state(g_total, g_online, d_total, d_online, open_by_project[sysno]),
                "gateway_count": g_total,
                "gateway_online_count": g_online,
                "device_count": d_total,
                "device_online_count": d_online,
                "open_alarm_count": open_by_project[sysno],
            }
        )
    mains = bool(has_mains)
    (energy, top), power = await asyncio.gather(
        _energy(ctx, customer, zones, now, mains), _power(ctx, customer, now, mains)
    )
    return {
        "screen": screen(customer, brand),
        "updated_at": to_display(now),
        "counts": {
            "project_count": len(projects),
            "gateway_count": totals[0],
            "gateway_online_count": totals[1],
            "device_count": totals[2],
            "device_online_count": totals[3],
        },
        "projects": points,
        "alarms": {
            "today_count": sum(today_by_level.values()),
            "today_by_level": _by_level(today_by_level),
            "open_count": sum(open_by_level.values()),
            "open_by_level": _by_level(open_by_level),
        },
        "latest_alarms": [_latest(row) for row in latest],
        "energy": {
            "periods": list(PERIOD_LABELS),
            **{span: _figure(energy.get(span, NOTHING)) for span in ("today", "month", "year")},
        },
        "power": power if projects else [],
        "top_consumers": [
            {
                "device_sysno": device,
                "name": name or f"已移除的设备 #{device}",
                "project_name": project,
                "kwh": wh(float(kwh or 0)),
                "cost": fen(float(cost or 0)),
            }
            for device, name, project, kwh, cost in top
        ],
        "load_ident": load_ident,
    }


_NO_LOAD_IDENT = {"available": False, "violations_today": 0}


async def _load_ident(ctx: AppContext, at: dict[str, Any]) -> dict[str, Any]:
    """Today's violations; not available while no project of the customer ever reported a load event."""
    violations = int(await ctx.reads.scalar(_VIOLATIONS, at) or 0)
    if violations == 0 and await ctx.reads.scalar(_ANY_LOAD_EVENT, at) is None:
        return dict(_NO_LOAD_IDENT)
    return {"available": True, "violations_today": violations}


_LEVELS = frozenset(int(level) for level in Level)


def _latest(row: tuple[Any, ...]) -> dict[str, Any]:
    sysno, project, target, device_id, alarm_type, level, start, end = row
    known = BY_CODE.get(alarm_type)
    level_value = Level(level) if level in _LEVELS else Level.HINT
    return {
        "sysno": sysno,
        "project_name": project,
        "target_name": target,
        "device_id": device_id,
        "type_label": known.label if known else alarm_type,
        "level": int(level_value),
        "level_name": LEVEL_LABELS[level_value],
        "start_time": to_display(start),
        "open": end is None,
    }


# -- kiosk links --------------------------------------------------------------------------------

KIOSK_REFUSED = "大屏链接无效、已撤销或已过期"
# Used-at is written at most this often per link (a wall display asks every 30 s).
LAST_USED_EVERY = timedelta(minutes=5)

LINKS = Listing(
    select(
        KioskLink.sysno,
        KioskLink.name,
        KioskLink.create_time,
        KioskLink.expire_time,
        KioskLink.revoke_time,
        KioskLink.last_used_time,
    ),
    filters={"customer": lambda p: KioskLink.customer_sysno == p},
    orders={"create_time": KioskLink.create_time, "expire_time": KioskLink.expire_time},
    default_order="create_time",
    tie=KioskLink.sysno,
)


def _link_row(row: Any, now: datetime) -> dict[str, Any]:
    sysno, name, created, expires, revoked, used = row
    state = "revoked" if revoked is not None else "expired" if expires <= now else "active"
    return {
        "sysno": sysno,
        "name": name,
        "create_time": to_display(created),
        "expire_time": to_display(expires),
        "revoke_time": to_display(revoked),
        "last_used_time": to_display(used),
        "state": state,
    }


async def list_links(*, ctx: AppContext, customer: Customer, query: KioskLinkQuery) -> PageData:
    """The customer's kiosk links, newest first, with their state."""
    now = utcnow()
    return await LINKS.page(
        ctx, query=query, values={"customer": customer.sysno}, render=lambda row: _link_row(row, now)
    )


async def create_link(
    *, session: AsyncSession, customer: Customer, body: KioskLinkCreate, ip: str | None
) -> dict[str, Any]:
    """A new kiosk link for the customer's screen; its token is answered this once and kept hashed."""
    now = utcnow()
    active = await session.scalar(
        select(func.count()).where(
            KioskLink.customer_sysno == customer.sysno,
            KioskLink.revoke_time.is_(None),
            KioskLink.expire_time > now,
        )
    )
    if (active or 0) >= MAX_ACTIVE_LINKS:
        raise ApiError(f"有效的大屏链接最多 {MAX_ACTIVE_LINKS} 个，请先撤销不用的链接")
    token = new_token()
    link = KioskLink(
        customer_sysno=customer.sysno,
        name=body.name,
        token_hash=token_digest(token),
        create_time=now,
        expire_time=now + timedelta(days=body.days),
    )
    session.add(link)
    await session.flush()
    _log(session, customer, f"生成大屏展示链接：{body.name}，有效 {body.days} 天", ip)
    row = (link.sysno, link.name, link.create_time, link.expire_time, None, None)
    return _link_row(row, now) | {"token": token}


def _log(session: AsyncSession, customer: Customer, detail: str, ip: str | None) -> None:
    """A kiosk link is a read-only share of the screen: its operations are logged as 共享."""
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.SHARE,
        detail=detail,
        ip=ip,
    )


async def revoke_link(*, session: AsyncSession, customer: Customer, sysno: int, ip: str | None) -> None:
    """End a kiosk link at once (revoking twice changes nothing)."""
    link = await session.scalar(
        select(KioskLink).where(KioskLink.sysno == sysno, KioskLink.customer_sysno == customer.sysno)
    )
    if link is None:
        raise NotFound("大屏链接")
    if link.revoke_time is None:
        link.revoke_time = utcnow()
        _log(session, customer, f"撤销大屏展示链接：{link.name}", ip)


async def revoke_all_links(*, session: AsyncSession, customer_sysno: int) -> None:
    """End every live kiosk link of the account (it moved to another holder, who never saw them)."""
    await session.execute(
        update(KioskLink)
        .where(KioskLink.customer_sysno == customer_sysno, KioskLink.revoke_time.is_(None))
        .values(revoke_time=utcnow())
    )


# A live link with what the screen needs of its customer: one indexed read per refresh, outside the
# session (a wall display asks every 30 s; the link is looked up each time, so revoking works at once).
_LIVE_LINK = (
    select(
        KioskLink.sysno, KioskLink.last_used_time, Customer.sysno, Customer.serial_no, Customer.screen_title
    )
    .join(Customer, Customer.sysno == KioskLink.customer_sysno)
    .where(
        KioskLink.token_hash == bindparam("digest"),
        KioskLink.revoke_time.is_(None),
        KioskLink.expire_time > bindparam("now"),
        Customer.is_active.is_(True),
    )
)


async def kiosk_customer(*, ctx: AppContext, token: str) -> Customer:
    """The customer (as the screen needs it) whose screen a live kiosk token shows, or a bare refusal."""
    now = utcnow()
    found = await ctx.reads.all(_LIVE_LINK, {"digest": token_digest(token), "now": now})
    if not found:
        raise ApiError(KIOSK_REFUSED, status_code=403)
    link, last_used, sysno, serial_no, screen_title = found[0]
    if last_used is None or now - last_used >= LAST_USED_EVERY:
        async with ctx.sessions() as session:
            await session.execute(update(KioskLink).where(KioskLink.sysno == link).values(last_used_time=now))
            await session.commit()
    return Customer(sysno=sysno, serial_no=serial_no, screen_title=screen_title, is_active=True)
