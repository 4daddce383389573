"""The energy report: the 能耗统计 figures by device, building or project, and their Excel export.

The report reads nothing of its own: its rows are ``energy.service.device_figures`` (the path of
the 能耗统计 table), its totals, 同比 and 环比 the chart's (``energy.service.chart``), so that the
report and the screen agree to the Wh and the fen. The export adds a 明细 sheet, one row per member
and hour, day or month, read a few devices at a time and written as it is read (``core/xlsx``).
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from powerportal.accounts.models import Customer
from powerportal.core import xlsx
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError
from powerportal.energy import service as energy
from powerportal.energy.models import DAY, MONTH, QUARTER
from powerportal.energy.service import NOTHING, DeviceFigures, Sums, sum_all
from powerportal.reports.document import Built, Chart, Column, Document, Progress, Series, Table
from powerportal.reports.schemas import EnergyReportQuery

GROUP_LABELS = {"device": "按设备", "building": "按建筑", "project": "按项目"}
DETAIL_LABELS = {"hour": "按小时", "day": "按日", "month": "按月"}
VIEW_LABELS = {"day": "日", "month": "月", "year": "年", "range": "自定义"}
# The 明细 reads about this many stored rows at a time (a few devices' quarters or days).
CHUNK_ROWS = 100_000
MAX_HOURLY_DAYS = 31
NO_BUILDING = "未分配建筑"


@dataclass(slots=True)
class Member:
    """A row of the report: a device, a building (its branches) or the project, and its sums."""

    key: str
    sysno: int
    name: str
    building_name: str | None
    incoming_main: bool
    readings: tuple[float | None, float | None]
    sums: Sums
    devices: list[int]  # whose series make its 明细 (none: the project's own)


def _members(figures: DeviceFigures, group: str, project_name: str, project_sums: Sums) -> list[Member]:
    if group == "project":
        sysno = figures.scope.project.sysno
        return [Member(f"project-{sysno}", sysno, project_name, None, False, (None, None), project_sums, [])]
    mains = set(figures.scope.mains)
    devices = []
    for device in figures.devices:
        found = energy.member(figures, device)
        devices.append(
            Member(
                f"device-{device}",
                device,
                found.name,
                found.building_name,
                found.main,
                figures.readings.get(device, (None, None)),
                figures.sums.get(device, NOTHING),
                [device],
            )
        )
    if group == "device":
        return devices
    # A building counts its branches; its 总进线 measures them again (a reference, as in 能耗统计).
    buildings: dict[int, list[Member]] = defaultdict(list)
    names: dict[int, str] = {}
    for row in devices:
        if row.sysno in mains or row.incoming_main:
            continue
        found = energy.member(figures, row.sysno)
        key = found.building or 0
        buildings[key].append(row)
        names[key] = found.building_name or NO_BUILDING
    return [
        Member(
            f"building-{key}",
            key,
            names[key],
            None,
            False,
            (None, None),
            sum_all(r.sums for r in rows),
            [d for r in rows for d in r.devices],
        )
        for key, rows in sorted(buildings.items(), key=lambda item: (item[0] == 0, names[item[0]], item[0]))
    ]


@dataclass
class Report:
    """What the screen shows and the export writes."""

    figures: DeviceFigures
    chart: dict[str, Any]
    project_name: str
    members: list[Member]


async def _report(ctx: AppContext, customer: Customer, query: EnergyReportQuery) -> Report:
    figures = await energy.device_figures(ctx=ctx, customer=customer, query=query)
    chart = await energy.chart(ctx=ctx, customer=customer, query=query)
    name = figures.scope.project.name
    project_sums = (
        tuple(chart["total"]["kwh"])
        + tuple(chart["total"]["cost"])
        + tuple(int(any(p[flag] for p in chart["points"])) for flag in ("estimated", "reset", "implausible"))
    )
    return Report(figures, chart, name, _members(figures, query.group, name, project_sums))


def _row(member: Member) -> dict[str, Any]:
    row = energy.shown(member.sums)
    row["key"] = member.key
    row["sysno"] = member.sysno
    row["name"] = member.name
    row["building_name"] = member.building_name
    row["incoming_main"] = member.incoming_main
    row["start_reading"], row["end_reading"] = member.readings
    return row


async def energy_report(*, ctx: AppContext, customer: Customer, query: EnergyReportQuery) -> dict[str, Any]:
    """The report as the 报表统计 screen shows it."""
    report = await _report(ctx, customer, query)
    chart = report.chart
    return {
        "project_name": report.project_name,
        "group": query.group,
        **{k: chart[k] for k in ("view", "start", "end", "partial", "priced", "periods", "points")},
        **{k: chart[k] for k in ("total_kwh", "total_cost", "total", "yoy", "mom")},
        "rows": [_row(m) for m in report.members],
    }


# -- the 明细 -----------------------------------------------------------------------------------


def _detail_of(query: EnergyReportQuery, figures: DeviceFigures) -> str:
    detail = query.detail or {"day": "hour", "year": "month"}.get(query.view, "day")
    days = (figures.period.end.replace(tzinfo=None) - figures.period.start.replace(tzinfo=None)).days
    if detail == "hour" and days > MAX_HOURLY_DAYS:
        raise ApiError(f"按小时明细最多 {MAX_HOURLY_DAYS} 天，请缩小范围或改用按日明细")
    return detail


def _buckets(figures: DeviceFigures, detail: str) -> tuple[list[datetime], list[str]]:
    """The 明细's buckets: their UTC starts and their local labels."""
    period = figures.period
    tz = period.start.tzinfo
    starts: list[datetime] = []
    labels: list[str] = []
    at = period.start
    while at < period.end:
        if detail == "hour":
            nxt = (at.astimezone(UTC) + timedelta(hours=1)).astimezone(tz)
            label = at.strftime("%Y-%m-%d %H:00")
        elif detail == "day":
            nxt = datetime(at.year, at.month, at.day, tzinfo=tz) + timedelta(days=1)
            nxt = datetime(nxt.year, nxt.month, nxt.day, tzinfo=tz)
            label = at.strftime("%Y-%m-%d")
        else:
            index = at.year * 12 + at.month  # the next month
            nxt = datetime(index // 12, index % 12 + 1, 1, tzinfo=tz)
            label = at.strftime("%Y-%m")
        starts.append(at.astimezone(UTC))
        labels.append(label)
        at = min(nxt, period.end)
    return starts, labels


_GRAIN = {"hour": QUARTER, "day": DAY, "month": MONTH}  # the project's own roll-ups


def _add(into: list[list[float]], series: Sequence[tuple[datetime, Sums]], starts: list[datetime]) -> None:
    """Add entries by start to the buckets ``into`` (each to the bucket holding its start)."""
    for start, sums in series:
        index = bisect_right(starts, start) - 1
        if index < 0:
            continue
        total = into[index]
        for i, v in enumerate(sums):
            if v:
                total[i] += v


def _empty(starts: list[datetime]) -> list[list[float]]:
    return [[0.0] * len(NOTHING) for _ in starts]


def _periods_used(sums: Sums) -> list[int]:
    """The tariff periods with any kWh (all in 平 when none has: an unpriced project counts there)."""
    return [i for i in range(5) if sums[i]] or [2]


# -- the workbook -------------------------------------------------------------------------------


def _percent(change: float | None) -> str:
    return "—" if change is None else f"{change:+.2f}%"


def _flags(sums: Sums) -> str:
    return "、".join(name for name, n in zip(("估算", "清零", "异常"), sums[10:13], strict=True) if n) or ""


def _scope_text(report: Report, query: EnergyReportQuery) -> str:
    if query.building_sysno is not None:
        named = (
            {m.building_name for m in report.members if m.building_name} if query.group == "device" else set()
        )
        return "建筑 " + ("、".join(sorted(named)) or str(query.building_sysno))
    if query.device_sysnos:
        return f"选定的 {len(query.device_sysnos)} 台设备"
    return "全部设备"


def _days(start: str, end: str) -> str:
    """A span of displayed times (the end exclusive) as its first and last day."""
    first = start[:10]
    last = (datetime.fromisoformat(end) - timedelta(microseconds=1)).strftime("%Y-%m-%d")
    return first if first == last else f"{first} 至 {last}"


def _comparison(change: dict[str, Any]) -> str:
    return f"{_percent(change['kwh_change'])}（{_days(change['start'], change['end'])}）"


def _document(report: Report, query: EnergyReportQuery, used: list[int], stem: str) -> Document:
    """The report's figures as a document: the title block, the rows and the chart's kWh."""
    chart = report.chart
    periods = chart["periods"]
    devices = query.group == "device"
    columns = [Column("名称", width=28)]
    if devices:
        columns += [
            Column("建筑", width=16),
            Column("起始读数", "reading", 14),
            Column("结束读数", "reading", 14),
        ]
    columns += [Column(f"{periods[i]}(kWh)", "kwh", 12) for i in used]
    columns += [Column("电量(kWh)", "kwh", 14), Column("电费(元)", "money", 14), Column("标记", width=12)]
    rows = []
    for member in report.members:
        figures = energy.shown(member.sums)
        values: list[Any] = [member.name + ("（总进线）" if member.incoming_main else "")]
        if devices:
            values += [member.building_name or NO_BUILDING, *member.readings]
        values += [figures["kwh"][i] for i in used]
        values += [figures["total_kwh"], figures["total_cost"], _flags(member.sums)]
        rows.append(values)
    points = chart["points"]
    return Document(
        name="能耗报表",
        project_name=report.project_name,
        filters=[
            ("项目", report.project_name),
            ("范围", _scope_text(report, query)),
            ("周期", f"{VIEW_LABELS[query.view]}：{_days(chart['start'], chart['end'])}"),
            ("统计对象", GROUP_LABELS[query.group]),
            ("电价", "已按项目电价方案计费" if chart["priced"] else "项目未设置电价方案，电费为 0"),
        ],
        summary=[
            ("总电量(kWh)", chart["total_kwh"]),
            ("总电费(元)", chart["total_cost"]),
            ("同比", _comparison(chart["yoy"])),
            ("环比", _comparison(chart["mom"])),
        ],
        tables=[Table(f"能耗{GROUP_LABELS[query.group]}", columns, rows)],
        charts=[
            Chart(
                "用电量",
                "bar",
                [p["label"] for p in points],
                [Series(periods[i], [p["kwh"][i] for p in points]) for i in used],
                "kWh",
            )
        ],
        stem=stem,
    )


async def _detail(
    ctx: AppContext,
    book: xlsx.Workbook,
    report: Report,
    detail: str,
    used: list[int],
    periods: list[str],
    progress: Progress,
) -> None:
    figures = report.figures
    starts, labels = _buckets(figures, detail)
    grain = _GRAIN[detail]
    header = ["名称", "时间", *[f"{periods[i]}(kWh)" for i in used], "电量(kWh)", "电费(元)"]
    styles = [0, 0] + [xlsx.AMOUNT] * (len(used) + 2)
    if len(report.members) * len(starts) + 1 > xlsx.MAX_ROWS:
        raise ApiError("明细行数超过 Excel 上限（1,048,576 行），请缩小范围或改用更粗的明细粒度")

    def write(sheet: xlsx.Sheet, members: list[tuple[str, list[list[float]]]]) -> None:
        for name, buckets in members:
            for label, sums in zip(labels, buckets, strict=True):
                kwh = sums[:5]
                values: list[Any] = [name, label, *[energy.wh(kwh[i]) for i in used]]
                values += [energy.wh(sum(kwh)), energy.fen(sum(sums[5:10]))]
                sheet.row(values, styles)

    stored_per_device = len(starts) * (4 if grain == QUARTER else 1)
    with book.sheet("明细", widths=[28, 18] + [12] * len(used) + [14, 14], frozen=1, filtered=True) as sheet:
        sheet.row(header, xlsx.HEADER)
        if report.members and not report.members[0].devices:  # the project: its own roll-ups
            buckets = _empty(starts)
            _add(buckets, list((await energy.scope_series(ctx, figures, grain)).items()), starts)
            await asyncio.to_thread(write, sheet, [(report.members[0].name, buckets)])
            return
        # A few devices at a time across members (one read for many devices); a member is written
        # once its last device is read (a building's devices are added up as they come).
        devices = [(member, device) for member in report.members for device in member.devices]
        step = max(1, CHUNK_ROWS // max(stored_per_device, 1))
        adding = _empty(starts)
        for i in range(0, len(devices), step):
            chunk = devices[i : i + step]
            found = await energy.device_series(ctx, figures, [d for _, d in chunk], detail)
            done: list[tuple[str, list[list[float]]]] = []
            for j, (member, device) in enumerate(chunk):
                _add(adding, found[device], starts)
                if i + j + 1 == len(devices) or devices[i + j + 1][0] is not member:
                    done.append((member.name, adding))
                    adding = _empty(starts)
            await asyncio.to_thread(write, sheet, done)
            await progress((i + len(chunk)) / len(devices))


async def build_energy(ctx: AppContext, customer: Customer, query: EnergyReportQuery) -> Built:
    """The report as a document, and its 明细 sheet for a workbook."""
    report = await _report(ctx, customer, query)
    detail = _detail_of(query, report.figures)
    total = sum_all([m.sums for m in report.members]) if report.members else NOTHING
    used = _periods_used(total)
    span = _days(report.chart["start"], report.chart["end"]).replace(" ", "")
    document = _document(
        report, query, used, f"能耗报表_{report.project_name}_{span}_{DETAIL_LABELS[detail]}"
    )

    async def more(book: xlsx.Workbook, progress: Progress) -> None:
        await _detail(ctx, book, report, detail, used, report.chart["periods"], progress)

    return Built(document, more)
