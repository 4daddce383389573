"""Customer notices: written for alarms and offline records, polled, listed and marked read.

Counts come from ``customer_notice_counter`` (kept in the same transaction as every insert and
read), so the badge and ``totalCount`` cost one tiny read however many notices a customer has.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import and_, bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.alarms.models import Alarm, CustomerNotice, NoticeCounter
from powerportal.alarms.schemas import NoticePoll, NoticeQuery
from powerportal.core.context import AppContext
from powerportal.core.database import upsert_insert
from powerportal.core.envelope import NotFound
from powerportal.core.list_export import Column, export_list, filters_shown
from powerportal.core.listing import Listing, OneOf, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.gateways.models import Gateway
from powerportal.logs.models import OfflineLog
from powerportal.projects.access import project_viewers

ALARM = 2
OFFLINE = 3
REPORT = 4  # a scheduled report made or failed; its source is the report centre's job
BILLING = 5  # an electricity account's balance reached its warning level; its source is the account
SHARE = 6  # a project shared or offered to the customer; its source is the share or the transfer
NOTICE_TYPES = {ALARM: "告警", OFFLINE: "离线", REPORT: "报表", BILLING: "电费", SHARE: "共享"}


@dataclass(frozen=True, slots=True)
class NewNotice:
    """A notice about one alarm or offline record, to go to everyone who may see where it happened."""

    project_sysno: int
    notice_type: int
    device_id: str | None
    detail: str
    source_sysno: int
    gateway_sysno: int | None = None  # a sharee limited to buildings hears of its buildings' gateways only


Place = tuple[int, int | None]  # a project, and the gateway in it a notice is about (None: the project)


async def viewers(*, session: AsyncSession, places: Iterable[Place]) -> dict[Place, list[int]]:
    """The customers who may see each place: a whole project, or one gateway of it."""
    wanted = set(places)
    found: dict[Place, list[int]] = {}
    if not wanted:
        return found
    gateways = sorted({gateway for _project, gateway in wanted if gateway is not None})
    building_of: dict[int, int | None] = {}
    if gateways:
        rows = await session.execute(
            select(Gateway.sysno, Gateway.building_sysno).where(Gateway.sysno.in_(gateways))
        )
        building_of.update((gateway, building) for gateway, building in rows)
    whole: dict[int, list[int]] = defaultdict(list)
    limited: dict[tuple[int, int], set[int]] = defaultdict(set)
    for project, customer, building in await session.execute(
        project_viewers(sorted({project for project, _gateway in wanted}))
    ):
        if building is None:
            whole[project].append(customer)
        else:
            limited[(project, customer)].add(building)
    for project, gateway in wanted:
        building = building_of.get(gateway) if gateway is not None else None
        partial = [c for (p, c), held in limited.items() if p == project and building in held]
        found[(project, gateway)] = whole[project] + sorted(partial)
    return found


async def send(
    *, session: AsyncSession, notices: Sequence[NewNotice], audience: dict[int, list[int]] | None = None
) -> int:
    """Write each notice for every customer who may see where it happened; return the rows written.

    ``audience`` names the customers per project instead (a notice to one account).
    """
    if not notices:
        return 0
    if audience is None:
        heard = await viewers(session=session, places=[(n.project_sysno, n.gateway_sysno) for n in notices])
    else:
        heard = {(n.project_sysno, n.gateway_sysno): audience.get(n.project_sysno, []) for n in notices}
    now = utcnow()
    rows: list[dict[str, Any]] = []
    counts: Counter[tuple[int, int]] = Counter()
    for notice in notices:
        for customer in heard[(notice.project_sysno, notice.gateway_sysno)]:
            rows.append(
                {
                    "customer_sysno": customer,
                    "notice_type": notice.notice_type,
                    "project_sysno": notice.project_sysno,
                    "device_id": notice.device_id,
                    "notice_detail": notice.detail[:500],
                    "source_sysno": notice.source_sysno,
                    "is_read": 0,
                    "is_push": 0,
                    "create_time": now,
                }
            )
            counts[(customer, notice.notice_type)] += 1
    if not rows:
        return 0
    await session.execute(insert(CustomerNotice), rows)
    await bump_counters(session=session, counts=counts, unread=True)
    return len(rows)


async def bump_counters(*, session: AsyncSession, counts: Counter[tuple[int, int]], unread: bool) -> None:
    """Add ``counts`` of new notices per (customer, type) to the counters."""
    insert = await upsert_insert(session)
    for (customer, notice_type), n in sorted(counts.items()):
        values = {
            "customer_sysno": customer,
            "notice_type": notice_type,
            "total": n,
            "unread": n if unread else 0,
        }
        stmt: Any = insert(NoticeCounter).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["customer_sysno", "notice_type"],
            set_={
                "total": NoticeCounter.total + n,
                "unread": NoticeCounter.unread + (n if unread else 0),
            },
        )
        await session.execute(stmt)


async def unread_count(*, session: AsyncSession, customer_sysno: int) -> int:
    """How many notices the customer has not read."""
    value = await session.scalar(
        select(func.coalesce(func.sum(NoticeCounter.unread), 0)).where(
            NoticeCounter.customer_sysno == customer_sysno
        )
    )
    return int(value or 0)


async def poll(*, session: AsyncSession, customer: Customer) -> NoticePoll:
    """The unread count, and the newest notice not pushed before (each notice is pushed once)."""
    pushed = (
        await session.execute(
            update(CustomerNotice)
            .where(CustomerNotice.customer_sysno == customer.sysno, CustomerNotice.is_push == 0)
            .values(is_push=1)
            .returning(
                CustomerNotice.sysno,
                CustomerNotice.notice_type,
                CustomerNotice.notice_detail,
                CustomerNotice.source_sysno,
            )
        )
    ).all()
    count = await unread_count(session=session, customer_sysno=customer.sysno)
    if not pushed:
        return NoticePoll(unread_count=count, is_push=0)
    # An alarm outranks an offline record of the same poll, then the newest wins.
    newest = max(pushed, key=lambda r: (r.notice_type == ALARM, r.sysno))
    return NoticePoll(
        unread_count=count,
        is_push=1,
        notice_type=newest.notice_type,
        notice_detail=newest.notice_detail,
        sysno=newest.sysno,
        source_sysno=newest.source_sysno,
    )


# The notice's project too: a record of another project never names this notice's device.
_ALARM = and_(
    CustomerNotice.notice_type == ALARM,
    Alarm.sysno == CustomerNotice.source_sysno,
    Alarm.project_sysno == CustomerNotice.project_sysno,
)
_OFFLINE = and_(
    CustomerNotice.notice_type == OFFLINE,
    OfflineLog.sysno == CustomerNotice.source_sysno,
    OfflineLog.project_sysno == CustomerNotice.project_sysno,
)
NOTICES = Listing(
    # The alarm or offline record a notice is about names its device and gateway (a source deleted
    # since leaves both null, a gateway moved to another project since its name; the notice stays).
    select(
        CustomerNotice.sysno,
        CustomerNotice.device_id,
        func.coalesce(Alarm.target_name, OfflineLog.target_name),
        Gateway.name,
        CustomerNotice.notice_detail,
        CustomerNotice.create_time,
        CustomerNotice.is_read,
        CustomerNotice.notice_type,
        CustomerNotice.source_sysno,
    )
    .outerjoin(Alarm, _ALARM)
    .outerjoin(OfflineLog, _OFFLINE)
    .outerjoin(
        Gateway,
        and_(
            Gateway.sysno == func.coalesce(Alarm.gateway_sysno, OfflineLog.gateway_sysno),
            Gateway.project_sysno == CustomerNotice.project_sysno,
        ),
    ),
    filters={
        "customer": lambda p: CustomerNotice.customer_sysno == p,
        "types": OneOf(CustomerNotice.notice_type),
        "is_read": lambda p: CustomerNotice.is_read == p,
    },
    orders={"create_time": CustomerNotice.create_time},
    default_order="create_time",
    tie=CustomerNotice.sysno,
)
_COUNTERS = select(NoticeCounter.notice_type, NoticeCounter.total, NoticeCounter.unread).where(
    NoticeCounter.customer_sysno == bindparam("customer")
)


async def _count(*, ctx: AppContext, customer_sysno: int, query: NoticeQuery) -> int:
    """How many notices the filters keep, from the customer's counters."""
    types = set(query.custmoer_notice_type or ())
    total = 0
    for notice_type, all_rows, unread in await ctx.reads.all(_COUNTERS, {"customer": customer_sysno}):
        if types and notice_type not in types:
            continue
        if query.is_read is None:
            total += all_rows
        elif query.is_read == 0:
            total += unread
        else:
            total += all_rows - unread
    return total


def _notice(row: Row) -> dict[str, Any]:
    """One notice in the shape of ``NoticeRead``."""
    sysno, device_id, device_name, gateway_name, detail, create_time, is_read, notice_type, source_sysno = row
    return {
        "sysno": sysno,
        "device_id": device_id,
        "device_name": device_name,
        "gateway_name": gateway_name,
        "notice_detail": detail,
        "create_time": to_display(create_time),
        "is_read": is_read or 0,
        "notice_type": notice_type,
        "source_sysno": source_sysno,
    }


def _notice_values(customer: Customer, query: NoticeQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "types": sorted(set(query.custmoer_notice_type)) if query.custmoer_notice_type else None,
        "is_read": query.is_read,
    }


async def list_notices(*, ctx: AppContext, customer: Customer, query: NoticeQuery) -> PageData:
    """One page of the customer's notices, newest first unless asked otherwise."""
    return await NOTICES.page(
        ctx,
        query=query,
        values=_notice_values(customer, query),
        render=_notice,
        count=lambda: _count(ctx=ctx, customer_sysno=customer.sysno, query=query),
    )


READ_NAMES = {0: "未读", 1: "已读"}
NOTICE_COLUMNS = (
    Column("消息类型", lambda n: NOTICE_TYPES.get(n["notice_type"], "其他"), 10),
    Column("设备", "device_name", 20),
    Column("网关", "gateway_name", 20),
    Column("设备编号", "device_id", 10),
    Column("消息内容", "notice_detail", 60),
    Column("消息时间", "create_time", 20),
    Column("状态", lambda n: READ_NAMES[1 if n["is_read"] else 0], 8),
)


async def export_notices(*, ctx: AppContext, customer: Customer, query: NoticeQuery) -> tuple[Path, str]:
    """Every notice of the customer's the filters keep, as a workbook: its path and file name."""
    types = sorted(set(query.custmoer_notice_type or ()))
    filters = filters_shown(
        ("消息类型", "、".join(NOTICE_TYPES.get(t, str(t)) for t in types) or None),
        ("状态", READ_NAMES.get(query.is_read) if query.is_read is not None else None),
    )
    return await export_list(
        ctx,
        name="系统消息",
        listing=NOTICES,
        query=query,
        values=_notice_values(customer, query),
        columns=NOTICE_COLUMNS,
        filters=filters,
        render=_notice,
    )


async def mark_read(*, session: AsyncSession, customer: Customer, sysnos: Sequence[int]) -> int:
    """Mark the customer's notices read; any id that is not theirs changes nothing at all."""
    wanted = sorted(set(sysnos))
    owned = (
        await session.execute(
            select(CustomerNotice.sysno, CustomerNotice.notice_type, CustomerNotice.is_read).where(
                CustomerNotice.sysno.in_(wanted), CustomerNotice.customer_sysno == customer.sysno
            )
        )
    ).all()
    if len(owned) != len(wanted):
        raise NotFound("消息")
    return await _mark(
        session=session, customer_sysno=customer.sysno, sysnos=[r.sysno for r in owned if not r.is_read]
    )


async def mark_read_for_sources(
    *, session: AsyncSession, customer_sysno: int, notice_type: int, source_sysnos: Sequence[int]
) -> int:
    """Mark read the customer's unread notices about these alarms or offline records."""
    if not source_sysnos:
        return 0
    ids = (
        await session.scalars(
            select(CustomerNotice.sysno).where(
                CustomerNotice.customer_sysno == customer_sysno,
                CustomerNotice.notice_type == notice_type,
                CustomerNotice.source_sysno.in_(sorted(set(source_sysnos))),
                CustomerNotice.is_read == 0,
            )
        )
    ).all()
    return await _mark(session=session, customer_sysno=customer_sysno, sysnos=list(ids))


async def _mark(*, session: AsyncSession, customer_sysno: int, sysnos: list[int]) -> int:
    if not sysnos:
        return 0
    changed = (
        await session.execute(
            update(CustomerNotice)
            .where(
                CustomerNotice.sysno.in_(sysnos),
                CustomerNotice.customer_sysno == customer_sysno,
                CustomerNotice.is_read == 0,
            )
            .values(is_read=1, read_time=utcnow())
            .returning(CustomerNotice.notice_type)
        )
    ).all()
    per_type = Counter(r.notice_type for r in changed)
    # In key order, as bump_counters locks them, so that two transactions cannot deadlock.
    for notice_type, n in sorted(per_type.items()):
        await session.execute(
            update(NoticeCounter)
            .where(NoticeCounter.customer_sysno == customer_sysno, NoticeCounter.notice_type == notice_type)
            .values(unread=NoticeCounter.unread - n)
        )
    return len(changed)
