"""The availability report (在线率报表): each gateway's and device's offline spells and online rate.

A spell counts for the period in which it began (the offline log's time filter), so the counts are
``GetOfflineLogList`` totals. Time offline is the part of every spell within the period: a spell
that began before it counts from the period's start, one still open counts until now, and the period
ends now while it runs. A target is watched from the period's start or its registration, whichever is
later; its online rate is the share of that time it was not offline. A device's spells include those
it spent offline with its gateway (所属网关离线). The database sums the spells per target.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select

from powerportal.accounts.models import Customer
from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.core.database import earlier_of, later_of, seconds_between, utc_hour
from powerportal.core.timeutil import to_display
from powerportal.devices.models import Device
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog
from powerportal.logs.service import OFFLINE_REASONS
from powerportal.projects.models import Building
from powerportal.reports import detail, scope
from powerportal.reports.document import (
    Built,
    Chart,
    Column,
    Document,
    Progress,
    Series,
    Table,
    duration_text,
)
from powerportal.reports.schemas import AvailabilityReportQuery
from powerportal.reports.scope import (
    BUILDING_OF_GATEWAY,
    HI,
    LO,
    NO_BUILDING,
    NOW,
    PROJECT,
    UNTIL,
    Scope,
    in_building,
    rate,
)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The chart of the lowest rates shows this many targets.
LOWEST = 10
KIND_NAMES = {"gateway": "网关", "device": "设备"}

_GATEWAYS = (
    select(
        Gateway.sysno,
        Gateway.name,
        Gateway.sn,
        Building.name,
        Gateway.online,
        Gateway.create_time,
    )
    .outerjoin(Building, Building.sysno == Gateway.building_sysno)
    .where(Gateway.project_sysno == PROJECT, in_building(Gateway.sysno))
    .order_by(Gateway.name, Gateway.sysno)
)
_DEVICES = (
    select(
        Device.sysno,
        Device.name,
        Device.device_id,
        Device.gateway_sysno,
        Gateway.name,
        Gateway.sn,
        Building.name,
        Device.online,
        Device.create_time,
    )
    .join(Gateway, Gateway.sysno == Device.gateway_sysno)
    .outerjoin(Building, Building.sysno == Gateway.building_sysno)
    .where(Device.project_sysno == PROJECT, in_building(Device.gateway_sysno))
    # Addresses in their natural order (2 before 10), then any of the same length as text.
    .order_by(
        Gateway.name, Device.gateway_sysno, func.length(Device.device_id), Device.device_id, Device.sysno
    )
)

# Spells that began in the period, or began before it and had not ended by its start.
_OVERLAPPING = (
    OfflineLog.project_sysno == PROJECT,
    OfflineLog.offline_time < HI,
    or_(OfflineLog.offline_time >= LO, OfflineLog.online_time.is_(None), OfflineLog.online_time > LO),
    in_building(OfflineLog.gateway_sysno),
)
_BEGAN = and_(OfflineLog.offline_time >= LO, OfflineLog.offline_time < HI)
_OVERLAP = seconds_between(
    later_of(OfflineLog.offline_time, LO), earlier_of(func.coalesce(OfflineLog.online_time, NOW), UNTIL)
)
_CLIPPED = case((_OVERLAP > 0, _OVERLAP), else_=0.0)
_SPELLS = (
    select(
        OfflineLog.gateway_sysno,
        OfflineLog.device_sysno,
        func.max(OfflineLog.target_name),
        func.sum(case((_BEGAN, 1), else_=0)),
        func.sum(_CLIPPED),
        func.max(_CLIPPED),
        func.max(OfflineLog.offline_time),
    )
    .where(*_OVERLAPPING)
    .group_by(OfflineLog.gateway_sysno, OfflineLog.device_sysno)
)
_COUNT = select(func.count()).select_from(OfflineLog).where(*_OVERLAPPING)
_HOUR = utc_hour(OfflineLog.offline_time)
_IS_DEVICE = case((OfflineLog.device_sysno.is_(None), 0), else_=1)
_BY_HOUR = select(_HOUR, _IS_DEVICE, func.count()).where(*_OVERLAPPING, _BEGAN).group_by(_HOUR, _IS_DEVICE)
_DETAIL = (
    select(
        OfflineLog.sysno,
        OfflineLog.offline_time,
        OfflineLog.online_time,
        OfflineLog.device_sysno,
        OfflineLog.target_name,
        Gateway.sn,
        Building.name,
        OfflineLog.reason,
        _CLIPPED,
    )
    .join(Gateway, Gateway.sysno == OfflineLog.gateway_sysno)
    .outerjoin(Building, BUILDING_OF_GATEWAY)
    .where(*_OVERLAPPING, detail.after(OfflineLog.offline_time, OfflineLog.sysno))
    .order_by(OfflineLog.offline_time, OfflineLog.sysno)
    .limit(detail.CHUNK)
)


def _seconds(value: float | None) -> int:
    return max(0, int(round(value or 0)))


def _observed(where: Scope, registered: datetime | None) -> int:
    """How long a target was watched within the period: from its registration, if later, until now."""
    since = max(where.lo, registered) if registered else where.lo
    return _seconds((where.until - since).total_seconds())


def _row(
    kind: str, gateway: int, device: int | None, names: tuple[str, str | None, str, str, str | None]
) -> dict[str, Any]:
    name, device_id, gateway_sn, gateway_name, building = names
    return {
        "key": f"{kind}-{device if device is not None else gateway}",
        "kind": kind,
        "gateway_sysno": gateway,
        "device_sysno": device,
        "name": name,
        "device_id": device_id,
        "gateway_sn": gateway_sn,
        "gateway_name": gateway_name,
        "building_name": building,
        "online": 1,
        "observed_seconds": 0,
        "offline_count": 0,
        "offline_seconds": 0,
        "longest_seconds": 0,
        "online_rate": None,
        "last_offline_time": None,
    }


def _sum_rate(rows: list[dict[str, Any]]) -> float | None:
    """The online rate of many: their time online over their time watched."""
    watched = sum(r["observed_seconds"] for r in rows)
    return rate(watched - sum(r["offline_seconds"] for r in rows), watched)


async def _report(
    ctx: AppContext, customer: Customer, query: AvailabilityReportQuery
) -> tuple[Scope, dict[str, Any]]:
    where = await scope.resolve(ctx, customer, query)
    params = where.params
    gateways: dict[tuple[int, int | None], dict[str, Any]] = {}
    gateway_names: dict[int, tuple[str, str, str | None]] = {}
    for sysno, name, sn, building, online, registered in await ctx.reads.all(_GATEWAYS, params, inline=False):
        row = _row("gateway", sysno, None, (name, None, sn, name, building))
        row["online"] = int(bool(online))
        row["observed_seconds"] = _observed(where, registered)
        gateways[sysno, None] = row
        gateway_names[sysno] = (sn, name, building)
    devices: dict[tuple[int, int | None], dict[str, Any]] = {}
    for (
        sysno,
        name,
        device_id,
        gateway,
        gateway_name,
        sn,
        building,
        state,
        registered,
    ) in await ctx.reads.all(_DEVICES, params, inline=False):
        row = _row("device", gateway, sysno, (name, device_id, sn, gateway_name, building))
        row["online"] = int(state != 0)
        row["observed_seconds"] = _observed(where, registered)
        devices[gateway, sysno] = row
    counted = {"gateway": 0, "device": 0}
    offline = {"gateway": 0.0, "device": 0.0}
    for gateway, device, name, began, seconds, longest, last in await ctx.reads.all(
        _SPELLS, params, inline=False
    ):
        kind = "gateway" if device is None else "device"
        counted[kind] += int(began or 0)
        offline[kind] += seconds or 0
        rows = gateways if device is None else devices
        if (gateway, device) not in rows:  # moved to another project since: listed as its log names it
            of_gateway = gateway_names.get(gateway, ("", "", None))
            rows[gateway, device] = _row(kind, gateway, device, (name, None, *of_gateway))
            rows[gateway, device]["observed_seconds"] = _observed(where, None)
        row = rows[gateway, device]
        row["offline_count"] = int(began or 0)
        row["offline_seconds"] = min(_seconds(seconds), row["observed_seconds"])
        row["longest_seconds"] = min(_seconds(longest), row["observed_seconds"])
        row["last_offline_time"] = to_display(last)
    for row in (*gateways.values(), *devices.values()):
        watched = row["observed_seconds"]
        row["online_rate"] = rate(watched - row["offline_seconds"], watched)
    hours = await ctx.reads.all(_BY_HOUR, params, inline=False)
    buckets = where.per_bucket(hours, 2)
    gateway_rows, device_rows = list(gateways.values()), list(devices.values())
    return where, where.header() | {
        "gateway_count": len(gateway_rows),
        "device_count": len(device_rows),
        "gateway_rate": _sum_rate(gateway_rows),
        "device_rate": _sum_rate(device_rows),
        "gateway_offline_count": counted["gateway"],
        "device_offline_count": counted["device"],
        "gateway_offline_seconds": _seconds(offline["gateway"]),
        "device_offline_seconds": _seconds(offline["device"]),
        "gateways_offline_now": sum(1 for r in gateway_rows if not r["online"]),
        "devices_offline_now": sum(1 for r in device_rows if not r["online"]),
        "points": [
            {"label": label, "start": begins, "gateway": n[0], "device": n[1]}
            for (_lo, _hi, label, begins), n in zip(where.buckets, buckets, strict=True)
        ],
        "gateways": gateway_rows,
        "devices": device_rows,
    }


async def availability_report(
    *, ctx: AppContext, customer: Customer, query: AvailabilityReportQuery
) -> dict[str, Any]:
    """The availability report as the 报表统计 screen shows it."""
    return (await _report(ctx, customer, query))[1]


# -- the document -------------------------------------------------------------------------------

_TARGET_COLUMNS = [
    Column("名称", width=24),
    Column("地址", width=10),
    Column("网关编号", width=16),
    Column("建筑", width=14),
    Column("当前状态", width=10),
    Column("离线次数", "int", 10),
    Column("离线时长", "duration", 14),
    Column("最长一次", "duration", 14),
    Column("在线率(%)", "percent", 12),
    Column("最近离线", width=20),
]
_GATEWAY_COLUMNS = [c for c in _TARGET_COLUMNS if c.title != "地址"]
_DETAIL_COLUMNS = [
    Column("类型", width=8),
    Column("名称", width=24),
    Column("网关编号", width=16),
    Column("建筑", width=14),
    Column("离线时间", width=20),
    Column("恢复时间", width=20),
    Column("原因", width=14),
    Column("本期离线时长", "duration", 14),
]


def _target_row(r: dict[str, Any]) -> list[Any]:
    """A target's row under ``_TARGET_COLUMNS`` (a gateway's without the 地址, which it has none of)."""
    return [
        r["name"],
        *([r["device_id"]] if r["kind"] == "device" else []),
        r["gateway_sn"],
        r["building_name"] or NO_BUILDING,
        "在线" if r["online"] else "离线",
        r["offline_count"],
        r["offline_seconds"],
        r["longest_seconds"],
        r["online_rate"],
        r["last_offline_time"],
    ]


def _detail_row(found: Sequence[Any]) -> list[Any]:
    _sysno, began, ended, device, name, gateway_sn, building, reason, seconds = found
    return [
        KIND_NAMES["gateway" if device is None else "device"],
        name,
        gateway_sn,
        building or NO_BUILDING,
        to_display(began),
        to_display(ended) or "未恢复",
        OFFLINE_REASONS.get(reason, reason),
        _seconds(seconds),
    ]


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}%"


def _document(where: Scope, report: dict[str, Any]) -> Document:
    points = report["points"]
    rated = [r for r in (*report["gateways"], *report["devices"]) if r["online_rate"] is not None]
    lowest = sorted((r for r in rated if r["online_rate"] < 100), key=lambda r: (r["online_rate"], r["name"]))
    lowest = lowest[:LOWEST]
    charts = [
        Chart(
            "离线次数趋势",
            "bar",
            [p["label"] for p in points],
            [
                Series("网关", [p["gateway"] for p in points]),
                Series("设备", [p["device"] for p in points]),
            ],
            "次",
        )
    ]
    if lowest:  # none when every target was online throughout
        charts.append(
            Chart(
                "在线率最低",
                "bar",
                [r["name"] for r in lowest],
                [Series("在线率", [r["online_rate"] for r in lowest])],
                "%",
            )
        )
    return Document(
        name="在线率报表",
        project_name=where.project_name,
        filters=where.filters(),
        summary=[
            ("网关数", report["gateway_count"]),
            ("网关在线率", _percent(report["gateway_rate"])),
            ("网关离线次数", report["gateway_offline_count"]),
            ("网关离线时长", duration_text(report["gateway_offline_seconds"]) or "—"),
            ("设备数", report["device_count"]),
            ("设备在线率", _percent(report["device_rate"])),
            ("设备离线次数", report["device_offline_count"]),
            ("设备离线时长", duration_text(report["device_offline_seconds"]) or "—"),
            (
                "当前离线",
                f"网关 {report['gateways_offline_now']} 台，设备 {report['devices_offline_now']} 台",
            ),
        ],
        tables=[
            Table("网关在线率", _GATEWAY_COLUMNS, [_target_row(r) for r in report["gateways"]]),
            Table("设备在线率", _TARGET_COLUMNS, [_target_row(r) for r in report["devices"]]),
        ],
        charts=charts,
        stem=where.stem("在线率报表"),
    )


async def build_availability(ctx: AppContext, customer: Customer, query: AvailabilityReportQuery) -> Built:
    """The report as a document, and its 离线明细 sheet (every spell within the period) for a workbook."""
    where, report = await _report(ctx, customer, query)
    spells = await ctx.reads.scalar(_COUNT, where.params, inline=False)

    async def more(book: xlsx.Workbook, progress: Progress) -> None:
        await detail.write(
            ctx,
            book,
            progress,
            name="离线明细",
            columns=_DETAIL_COLUMNS,
            statement=_DETAIL,
            params=where.params,
            total=int(spells or 0),
            since=EPOCH,  # spells that began before the period and lasted into it come first
            key=lambda found: (found[1], found[0]),
            row=_detail_row,
        )

    return Built(_document(where, report), more)
