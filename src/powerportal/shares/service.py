"""Shares (共享): an owner invites another account to see, or see and control, a project.

An invitation waits ``INVITE_DAYS`` for an answer; the invitee accepts or declines; the owner
revokes at any time, the sharee leaves. Who may see what is decided in ``projects/access.py`` from
these rows; this module only writes them, tells the invitee and lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.alarms import notices
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.logs import recording as logs
from powerportal.projects import access
from powerportal.projects.models import Building, Project
from powerportal.shares.models import CONTROL, VIEW, ProjectShare, ProjectShareBuilding
from powerportal.shares.schemas import ShareCreate, ShareQuery

INVITE_DAYS = 7
PERMISSION_NAMES = {VIEW: "仅查看", CONTROL: "查看和控制"}
STATE_NAMES = {
    "pending": "待接受",
    "accepted": "已生效",
    "declined": "已拒绝",
    "revoked": "已撤销",
    "left": "已退出",
    "ended": "已结束",
    "expired": "已过期",
}

_NOW = func.current_timestamp()
# What a share is now: its status, or expired when time ran out on the invitation or the share.
SHARE_STATE = case(
    (
        (ProjectShare.status == "pending") & (ProjectShare.invite_expire_time <= _NOW),
        "expired",
    ),
    (
        (ProjectShare.status == "accepted")
        & ProjectShare.expire_time.is_not(None)
        & (ProjectShare.expire_time <= _NOW),
        "expired",
    ),
    else_=ProjectShare.status,
)

_Owner = aliased(Customer, name="share_owner")
_Grantee = aliased(Customer, name="share_grantee")


def person(customer: Customer) -> str:
    """How an account is named in logs and notices."""
    return f"{customer.name}（{customer.mobile}）"


def _expiry(day: str | None, zone: str) -> datetime | None:
    """The end of the last day of access (midnight after it, in the project's zone), or None."""
    if day is None:
        return None
    try:
        last = date.fromisoformat(day)
    except ValueError as exc:
        raise ApiError("到期日期不正确") from exc
    tz = ZoneInfo(zone)
    if last < utcnow().astimezone(tz).date():
        raise ApiError("到期日期不能早于今天")
    return datetime(last.year, last.month, last.day, tzinfo=tz) + timedelta(days=1)


async def _check_buildings(
    session: AsyncSession, project_sysno: int, buildings: Sequence[int] | None
) -> None:
    if not buildings:
        return
    found = await session.scalar(
        select(func.count()).where(
            Building.sysno.in_(list(buildings)), Building.project_sysno == project_sysno
        )
    )
    if found != len(buildings):
        raise ApiError("所选楼栋不属于该项目")


async def invite(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, body: ShareCreate, ip: str
) -> dict[str, Any]:
    """Invite the account with ``body.mobile`` to the caller's project; it is told by a notice."""
    project = await access.get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    grantee = await accounts.get_by_mobile(session=session, mobile=body.mobile)
    if grantee is None:
        raise ApiError("该手机号尚未注册账号")
    if grantee.sysno == customer.sysno:
        raise ApiError("不能共享给自己")
    now = utcnow()
    open_share = await session.scalar(
        select(ProjectShare.sysno).where(
            ProjectShare.project_sysno == project.sysno,
            ProjectShare.grantee_sysno == grantee.sysno,
            SHARE_STATE.in_(("pending", "accepted")),
        )
    )
    if open_share is not None:
        raise ApiError("已向该账号共享此项目，如需修改请先撤销")
    await _check_buildings(session, project.sysno, body.building_sysnos)
    share = ProjectShare(
        project_sysno=project.sysno,
        sharer_sysno=customer.sysno,
        grantee_sysno=grantee.sysno,
        project_name=project.name,
        permission=body.permission,
        building_sysnos=body.building_sysnos,
        expire_time=_expiry(body.expire_date, project.timezone),
        status="pending",
        invite_expire_time=now + timedelta(days=INVITE_DAYS),
        remark=body.remark,
        create_time=now,
    )
    session.add(share)
    await session.flush()
    for building in body.building_sysnos or ():
        session.add(ProjectShareBuilding(share_sysno=share.sysno, building_sysno=building))
    what = PERMISSION_NAMES[body.permission]
    await tell(
        session,
        project.sysno,
        grantee.sysno,
        f"{person(customer)} 邀请您共享项目「{project.name}」（{what}），"
        f"请在 {INVITE_DAYS} 天内到共享管理接受",
        share.sysno,
    )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.SHARE,
        detail=f"共享项目「{project.name}」给 {person(grantee)}（{what}）",
        ip=ip,
    )
    return await get_share(ctx=ctx, session=session, customer=customer, sysno=share.sysno)


async def tell(session: AsyncSession, project_sysno: int, customer_sysno: int, text: str, ref: int) -> None:
    """A 共享 notice about a project to one account (an invitation, a transfer offered)."""
    await notices.send(
        session=session,
        notices=[notices.NewNotice(project_sysno, notices.SHARE, None, text, ref)],
        audience={project_sysno: [customer_sysno]},
    )


async def _received(session: AsyncSession, customer: Customer, sysno: int) -> ProjectShare:
    share = await session.scalar(
        select(ProjectShare).where(ProjectShare.sysno == sysno, ProjectShare.grantee_sysno == customer.sysno)
    )
    if share is None:
        raise NotFound("共享")
    return share


async def _state(session: AsyncSession, sysno: int) -> str:
    state = str(await session.scalar(select(SHARE_STATE).where(ProjectShare.sysno == sysno)))
    return state


async def _project_name(session: AsyncSession, project_sysno: int) -> tuple[str, int]:
    row = (
        await session.execute(
            select(Project.name, Project.customer_sysno).where(Project.sysno == project_sysno)
        )
    ).one()
    return row[0], row[1]


async def respond(*, session: AsyncSession, customer: Customer, sysno: int, accept: bool, ip: str) -> None:
    """Accept or decline an invitation to the caller (a pending one, within its days)."""
    share = await _received(session, customer, sysno)
    state = await _state(session, share.sysno)
    if state == "expired" and share.status == "pending":
        raise ApiError("邀请已过期，请联系项目所有者重新共享")
    if state != "pending":
        raise ApiError(f"该共享{STATE_NAMES[state]}，无法{'接受' if accept else '拒绝'}")
    share.status = "accepted" if accept else "declined"
    share.respond_time = utcnow()
    name, owner = await _project_name(session, share.project_sysno)
    share.project_name = name
    verb = "接受" if accept else "拒绝"
    for who in dict.fromkeys((customer.sysno, owner)):
        logs.record(
            session=session,
            customer_sysno=who,
            operate_type=logs.OperateType.SHARE,
            detail=f"{person(customer)} {verb}了项目「{name}」的共享",
            ip=ip,
        )


async def revoke(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """The owner ends a share (pending or in force) at once."""
    share = await session.scalar(
        select(ProjectShare).where(
            ProjectShare.sysno == sysno, ProjectShare.project_sysno.in_(access.owned_projects(customer.sysno))
        )
    )
    if share is None:
        raise NotFound("共享")
    state = await _state(session, share.sysno)
    if state not in ("pending", "accepted"):
        raise ApiError(f"该共享{STATE_NAMES[state]}，无需撤销")
    share.status = "revoked"
    share.end_time = utcnow()
    name, _owner = await _project_name(session, share.project_sysno)
    share.project_name = name
    grantee = await session.get(Customer, share.grantee_sysno)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.SHARE,
        detail=f"撤销项目「{name}」对 {person(grantee) if grantee else share.grantee_sysno} 的共享",
        ip=ip,
    )


async def leave(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """The sharee gives up a share in force."""
    share = await _received(session, customer, sysno)
    state = await _state(session, share.sysno)
    if state != "accepted":
        raise ApiError(f"该共享{STATE_NAMES[state]}，无需退出")
    share.status = "left"
    share.end_time = utcnow()
    name, owner = await _project_name(session, share.project_sysno)
    share.project_name = name
    for who in dict.fromkeys((customer.sysno, owner)):
        logs.record(
            session=session,
            customer_sysno=who,
            operate_type=logs.OperateType.SHARE,
            detail=f"{person(customer)} 退出了项目「{name}」的共享",
            ip=ip,
        )


# A share in force shows the project's name now; one that ended, the name when it ended.
_IN_FORCE = or_(SHARE_STATE == "pending", SHARE_STATE == "accepted")  # no IN list: the lists are prepared
_NAME_SHOWN = case((_IN_FORCE, Project.name), else_=ProjectShare.project_name)
_COLUMNS = (
    ProjectShare.sysno,
    ProjectShare.project_sysno,
    _NAME_SHOWN,
    ProjectShare.sharer_sysno,
    _Owner.name,
    _Owner.mobile,
    ProjectShare.grantee_sysno,
    _Grantee.name,
    _Grantee.mobile,
    ProjectShare.permission,
    ProjectShare.building_sysnos,
    ProjectShare.expire_time,
    SHARE_STATE,
    ProjectShare.invite_expire_time,
    ProjectShare.remark,
    ProjectShare.create_time,
    ProjectShare.respond_time,
    ProjectShare.end_time,
)

SHARES = Listing(
    select(*_COLUMNS)
    .join(Project, Project.sysno == ProjectShare.project_sysno)
    .join(_Owner, _Owner.sysno == ProjectShare.sharer_sysno)
    .join(_Grantee, _Grantee.sysno == ProjectShare.grantee_sysno),
    filters={
        "customer": lambda p: or_(ProjectShare.sharer_sysno == p, ProjectShare.grantee_sysno == p),
        "given_by": lambda p: ProjectShare.sharer_sysno == p,
        "received_by": lambda p: ProjectShare.grantee_sysno == p,
        "sysno": lambda p: ProjectShare.sysno == p,
        "state": lambda p: SHARE_STATE == p,
        "project": lambda p: ProjectShare.project_sysno == p,
        "permission": lambda p: ProjectShare.permission == p,
        "keyword": Keyword(_NAME_SHOWN, _Owner.name, _Owner.mobile, _Grantee.name, _Grantee.mobile),
    },
    orders={"create_time": ProjectShare.sysno},
    default_order="create_time",
    tie=ProjectShare.sysno,
)


def _renderer(customer_sysno: int, buildings: dict[int, str]) -> Any:
    def render(row: Row) -> dict[str, Any]:
        (
            sysno,
            project,
            project_name,
            owner,
            owner_name,
            owner_mobile,
            grantee,
            grantee_name,
            grantee_mobile,
            permission,
            building_sysnos,
            expire,
            state,
            invite_expire,
            remark,
            created,
            responded,
            ended,
        ) = row
        return {
            "sysno": sysno,
            "direction": "given" if owner == customer_sysno else "received",
            "project_sysno": project,
            "project_name": project_name,
            "owner_name": owner_name,
            "owner_mobile": owner_mobile,
            "grantee_sysno": grantee,
            "grantee_name": grantee_name,
            "grantee_mobile": grantee_mobile,
            "permission": permission,
            "permission_name": PERMISSION_NAMES.get(permission, str(permission)),
            "building_sysnos": building_sysnos,
            "building_names": [buildings[b] for b in building_sysnos or () if b in buildings],
            "expire_time": to_display(expire),
            "state": state,
            "state_name": STATE_NAMES.get(state, state),
            "invite_expire_time": to_display(invite_expire),
            "remark": remark,
            "create_time": to_display(created),
            "respond_time": to_display(responded),
            "end_time": to_display(ended),
        }

    return render


async def _building_names(ctx: AppContext, rows: Sequence[Row]) -> dict[int, str]:
    wanted = sorted({b for row in rows for b in row[10] or ()})
    if not wanted:
        return {}
    async with ctx.sessions() as session:
        found = await session.execute(select(Building.sysno, Building.name).where(Building.sysno.in_(wanted)))
        return {int(sysno): str(name) for sysno, name in found.tuples()}


def _values(customer: Customer, query: ShareQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno if query.direction is None else None,
        "given_by": customer.sysno if query.direction == "given" else None,
        "received_by": customer.sysno if query.direction == "received" else None,
        "state": query.state,
        "project": query.project_sysno,
        "permission": query.permission,
        "keyword": query.keyword or None,
    }


async def list_shares(*, ctx: AppContext, customer: Customer, query: ShareQuery) -> PageData:
    """Shares the caller gave (of the projects it owns) and received, newest first."""

    async def render_page(rows: Sequence[Row]) -> list[dict[str, Any]]:
        render = _renderer(customer.sysno, await _building_names(ctx, rows))
        return [render(row) for row in rows]

    return await SHARES.page(ctx, query=query, values=_values(customer, query), render_page=render_page)


async def get_share(
    *, ctx: AppContext, session: AsyncSession, customer: Customer, sysno: int
) -> dict[str, Any]:
    """One share of the caller's (given or received)."""
    row = await SHARES.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("共享")
    found = await session.execute(
        select(Building.sysno, Building.name).where(Building.sysno.in_(list(row[10] or ())))
    )
    render = _renderer(customer.sysno, {int(sysno): str(name) for sysno, name in found.tuples()})
    shown: dict[str, Any] = render(row)
    return shown
