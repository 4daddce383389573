"""Scheduled reports: a report's filters, sent every day, week or month for the period just ended.

Periods are the project's local calendar (the zone its energy is counted in): the day before, the
week Monday to Sunday, the month before. A subscription reports the periods that end after it was
made, each once, ``report_schedule_delay_minutes`` after the period's end (late readings are in).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import case, delete, func, null, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.brands.service import Brand
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.projects.access import shared_projects
from powerportal.projects.models import Project
from powerportal.reports.centre import job_title, report_query
from powerportal.reports.exports import KINDS
from powerportal.reports.models import ReportSubscription
from powerportal.reports.schemas import SubscriptionQuery, SubscriptionSave

MAX_SUBSCRIPTIONS = 50
FREQUENCY_NAMES = {"day": "每日", "week": "每周", "month": "每月"}
# Set for each period; a subscription's stored query has none of them.
PERIOD_FIELDS = ("view", "date", "end_date")


def period_of(frequency: str, local: date) -> tuple[str, date, date]:
    """The last whole period before the local day ``local``: its key, first and last day."""
    if frequency == "day":
        day = local - timedelta(days=1)
        return day.isoformat(), day, day
    if frequency == "week":
        monday = local - timedelta(days=local.weekday() + 7)
        year, week, _ = monday.isocalendar()
        return f"{year}-W{week:02d}", monday, monday + timedelta(days=6)
    first = (local.replace(day=1) - timedelta(days=1)).replace(day=1)
    return first.strftime("%Y-%m"), first, local.replace(day=1) - timedelta(days=1)


def due_period(
    frequency: str, zone: str, now: datetime, delay: timedelta
) -> tuple[str, datetime, dict[str, Any]]:
    """The period to report at ``now``: its key, its end (UTC) and its query fields."""
    tz = ZoneInfo(zone)
    key, first, last = period_of(frequency, (now - delay).astimezone(tz).date())
    end = datetime(last.year, last.month, last.day, tzinfo=tz) + timedelta(days=1)
    if frequency == "day":
        fields = {"view": "day", "date": first.isoformat(), "end_date": None}
    elif frequency == "week":
        fields = {"view": "range", "date": first.isoformat(), "end_date": last.isoformat()}
    else:
        fields = {"view": "month", "date": first.isoformat(), "end_date": None}
    return key, end, fields


def _check(kind: str, query: dict[str, Any]) -> Any:
    today = utcnow().date().isoformat()
    return report_query(kind, {**query, "view": "day", "date": today, "end_date": None})


async def save(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, brand: Brand, body: SubscriptionSave
) -> dict[str, Any]:
    """Create or replace a scheduled report of the caller's."""
    found = None if body.sysno is None else await _own(session, customer, body.sysno)
    query = _check(body.kind, {k: v for k, v in body.query.items() if k not in PERIOD_FIELDS})
    await job_title(ctx, session, customer, body.kind, query)
    stored = {k: v for k, v in query.model_dump(mode="json").items() if k not in PERIOD_FIELDS}
    if found is None:
        count = await session.scalar(
            select(func.count())
            .select_from(ReportSubscription)
            .where(ReportSubscription.customer_sysno == customer.sysno)
        )
        if (count or 0) >= MAX_SUBSCRIPTIONS:
            raise ApiError(f"最多 {MAX_SUBSCRIPTIONS} 个定时报表")
        found = ReportSubscription(customer_sysno=customer.sysno)
        session.add(found)
    found.project_sysno = query.project_sysno
    found.name = body.name
    found.kind = body.kind
    found.format = query.format
    found.frequency = body.frequency
    found.query = stored
    found.emails = body.emails
    found.enabled = body.enabled
    found.brand = brand.type
    found.update_time = utcnow()
    await session.flush()
    row = await SUBSCRIPTIONS.first(
        session=session, values={"customer": customer.sysno, "sysno": found.sysno}
    )
    assert row is not None  # noqa: S101 - written above
    return subscription_row(row)


async def _own(session: AsyncSession, customer: Customer, sysno: int) -> ReportSubscription:
    found = await session.scalar(
        select(ReportSubscription).where(
            ReportSubscription.sysno == sysno, ReportSubscription.customer_sysno == customer.sysno
        )
    )
    if found is None:
        raise NotFound("定时报表")
    return found


async def remove(*, session: AsyncSession, customer: Customer, sysno: int) -> None:
    """Delete a scheduled report of the caller's (the files it made stay in the report centre)."""
    found = await _own(session, customer, sysno)
    await session.execute(delete(ReportSubscription).where(ReportSubscription.sysno == found.sysno))


LOST_PROJECT = "已无权访问的项目"
# The subscriber still sees the subscription's project: it owns it, or a share of it is in force. A
# project it lost (deleted, transferred, its share ended) is neither named nor reported on.
SEEN = or_(
    Project.customer_sysno == ReportSubscription.customer_sysno,
    ReportSubscription.project_sysno.in_(shared_projects(ReportSubscription.customer_sysno)),
)
# The project's name while the subscriber sees it, else null.
SEEN_NAME = case((SEEN, Project.name), else_=null())

_COLUMNS = (
    ReportSubscription.sysno,
    ReportSubscription.name,
    ReportSubscription.kind,
    ReportSubscription.frequency,
    ReportSubscription.format,
    ReportSubscription.project_sysno,
    SEEN_NAME,
    ReportSubscription.query,
    ReportSubscription.emails,
    ReportSubscription.enabled,
    ReportSubscription.last_period,
    ReportSubscription.create_time,
    ReportSubscription.update_time,
)

SUBSCRIPTIONS = Listing(
    select(*_COLUMNS).join(Project, Project.sysno == ReportSubscription.project_sysno),
    filters={
        "customer": lambda p: ReportSubscription.customer_sysno == p,
        "sysno": lambda p: ReportSubscription.sysno == p,
        "kind": lambda p: ReportSubscription.kind == p,
    },
    orders={"create_time": ReportSubscription.sysno, "name": ReportSubscription.name},
    default_order="create_time",
    tie=ReportSubscription.sysno,
)


def subscription_row(row: Row) -> dict[str, Any]:
    """One subscription in the shape of ``SubscriptionRead``."""
    (
        sysno,
        name,
        kind,
        frequency,
        fmt,
        project,
        project_name,
        query,
        emails,
        enabled,
        last,
        created,
        updated,
    ) = row
    return {
        "sysno": sysno,
        "name": name,
        "kind": kind,
        "kind_name": KINDS[kind].name if kind in KINDS else kind,
        "frequency": frequency,
        "frequency_name": FREQUENCY_NAMES.get(frequency, frequency),
        "format": fmt,
        "project_sysno": project,
        "project_name": project_name,
        "query": query,
        "emails": emails,
        "enabled": enabled,
        "last_period": last,
        "create_time": to_display(created),
        "update_time": to_display(updated),
    }


async def list_subscriptions(*, ctx: AppContext, customer: Customer, query: SubscriptionQuery) -> PageData:
    """The caller's scheduled reports, newest first."""
    return await SUBSCRIPTIONS.page(
        ctx, query=query, values={"customer": customer.sysno, "kind": query.kind}, render=subscription_row
    )
