"""Project transfer (项目转移): an owner hands a project to another account, which accepts in time.

The sender confirms with its password (and an SMS code where the brand has ``SmsCode``); the
recipient has ``TRANSFER_HOURS`` to accept. Acceptance moves the project in one transaction: the
project row changes owner, so its buildings, gateways, devices, thresholds, readings, alarms, command
and status logs (all hanging on the project) go with it; the sender's timed tasks and groups that act
on this project alone, its electricity accounts with their ledgers, bills and orders, and its price
plan (copied, so the sender's other projects keep theirs) move too. The sender's operation log stays
the sender's.
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

from sqlalchemy import case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.billing import ledger
from powerportal.billing.models import Bill, BillingAccount, BusinessOrder, LedgerEntry
from powerportal.brands.service import Brand
from powerportal.control.groups import hold_controls
from powerportal.control.models import DeviceGroup, DeviceGroupMember, TimedTask, TimedTaskDevice
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.listing import Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.energy.models import ProjectTariff, TariffPlan, TariffVersion
from powerportal.logs import recording as logs
from powerportal.projects import access
from powerportal.projects.models import Project
from powerportal.shares.models import ProjectShare, ProjectTransfer
from powerportal.shares.schemas import TransferCreate, TransferQuery
from powerportal.shares.service import SHARE_STATE, person, tell
from powerportal.sms import service as sms

TRANSFER_HOURS = 72
SMS_PURPOSE = "transfer_project"
STATE_NAMES = {
    "pending": "待接收",
    "accepted": "已转移",
    "declined": "已拒绝",
    "cancelled": "已取消",
    "expired": "已过期",
}

TRANSFER_STATE = case(
    (
        (ProjectTransfer.status == "pending") & (ProjectTransfer.expire_time <= func.current_timestamp()),
        "expired",
    ),
    else_=ProjectTransfer.status,
)

_From = aliased(Customer, name="transfer_from")
_To = aliased(Customer, name="transfer_to")
TOO_MANY_PASSWORDS = "密码错误次数过多，请 {minutes} 分钟后再试"


async def send_code(
    *, ctx: AppContext, session: AsyncSession, brand: Brand, customer: Customer, mobile: str, ip: str
) -> None:
    """Send the code confirming a transfer to the caller's own number."""
    accounts.require_sms_brand(brand)
    if mobile != customer.mobile:
        raise ApiError("手机号与当前账号不一致")
    await sms.send_code(ctx=ctx, session=session, mobile=mobile, purpose=SMS_PURPOSE, ip=ip)


async def offer(
    *, ctx: AppContext, session: AsyncSession, brand: Brand, customer: Customer, body: TransferCreate, ip: str
) -> dict[str, Any]:
    """Offer the caller's project to the account with ``body.mobile``, confirmed by password (and code)."""
    project = await access.get_owned_project(session=session, customer=customer, sysno=body.project_sysno)
    if brand.flags.SmsCode and not body.validate_code:
        raise ApiError("请输入验证码")
    recipient = await accounts.get_by_mobile(session=session, mobile=body.mobile)
    if recipient is None:
        raise ApiError("该手机号尚未注册账号")
    if recipient.sysno == customer.sysno:
        raise ApiError("不能转移给自己")
    if not await accounts.own_password(
        ctx, customer=customer, password=body.password, ip=ip, refused=TOO_MANY_PASSWORDS
    ):
        logs.record(
            session=session,
            customer_sysno=customer.sysno,
            operate_type=logs.OperateType.PROJECT,
            detail=f"转移项目「{project.name}」失败：密码错误",
            ip=ip,
            success=False,
        )
        await session.commit()
        raise ApiError("密码错误")
    pending = await session.scalar(
        select(ProjectTransfer.sysno).where(
            ProjectTransfer.project_sysno == project.sysno, TRANSFER_STATE == "pending"
        )
    )
    if pending is not None:
        raise ApiError("该项目已有待接收的转移，请先取消")
    if brand.flags.SmsCode and body.validate_code:
        await sms.check_code(
            ctx=ctx, session=session, mobile=customer.mobile, purpose=SMS_PURPOSE, code=body.validate_code
        )
    now = utcnow()
    transfer = ProjectTransfer(
        project_sysno=project.sysno,
        project_name=project.name,
        from_sysno=customer.sysno,
        to_sysno=recipient.sysno,
        keep_shares=body.keep_shares,
        status="pending",
        expire_time=now + timedelta(hours=TRANSFER_HOURS),
        remark=body.remark,
        create_time=now,
    )
    session.add(transfer)
    await session.flush()
    await tell(
        session,
        project.sysno,
        recipient.sysno,
        f"{person(customer)} 要将项目「{project.name}」转移给您，请在 {TRANSFER_HOURS} 小时内到共享管理接收",
        transfer.sysno,
    )
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"发起项目「{project.name}」转移给 {person(recipient)}"
        + ("（保留共享）" if body.keep_shares else "（结束共享）"),
        ip=ip,
    )
    return await get_transfer(session=session, customer=customer, sysno=transfer.sysno)


async def _mine(session: AsyncSession, sysno: int, **who: int) -> ProjectTransfer:
    ((column, value),) = who.items()
    transfer = await session.scalar(
        select(ProjectTransfer).where(
            ProjectTransfer.sysno == sysno, getattr(ProjectTransfer, column) == value
        )
    )
    if transfer is None:
        raise NotFound("项目转移")
    return transfer


async def _pending(session: AsyncSession, transfer: ProjectTransfer, verb: str) -> None:
    state = str(await session.scalar(select(TRANSFER_STATE).where(ProjectTransfer.sysno == transfer.sysno)))
    if state != "pending":
        raise ApiError(f"该转移{STATE_NAMES[state]}，无法{verb}")


async def accept(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """The recipient takes the project: everything moves in the caller's one transaction."""
    transfer = await _mine(session, sysno, to_sysno=customer.sysno)
    await _pending(session, transfer, "接收")
    # Both customers' groups and tasks change hands: their own changes wait (as theirs take these
    # first too), so a group added meanwhile cannot take the name a moved group is given.
    sender_row = await session.get(Customer, transfer.from_sysno)
    for party in sorted(filter(None, (sender_row, customer)), key=lambda c: c.sysno):
        await hold_controls(session, party)
    project = await session.scalar(
        select(Project).where(Project.sysno == transfer.project_sysno).with_for_update()
    )
    if project is None or project.customer_sysno != transfer.from_sysno:
        raise ApiError("该项目已不属于转出方，无法接收")
    sender = transfer.from_sysno
    now = utcnow()
    project.customer_sysno = customer.sysno
    project.update_time = now
    await _move_controls(session, project.sysno, sender, customer.sysno)
    await _move_billing(session, project.sysno, customer.sysno)
    await _move_tariff(session, project.sysno, sender, customer.sysno)
    ending = [ProjectShare.grantee_sysno == customer.sysno]
    if not transfer.keep_shares:
        ending.append(ProjectShare.grantee_sysno != customer.sysno)
    # Pending or in force now: one past its expiry stays the sender's record, expired.
    open_shares = (
        ProjectShare.project_sysno == project.sysno,
        SHARE_STATE.in_(("pending", "accepted")),
    )
    await session.execute(
        update(ProjectShare)
        .where(*open_shares, or_(*ending))
        .values(status="ended", end_time=now, project_name=project.name)
    )
    # The shares that go on are the new owner's to manage; the sender keeps its records of the others.
    await session.execute(update(ProjectShare).where(*open_shares).values(sharer_sysno=customer.sysno))
    await session.execute(
        update(ProjectTransfer)
        .where(
            ProjectTransfer.project_sysno == project.sysno,
            ProjectTransfer.status == "pending",
            ProjectTransfer.sysno != transfer.sysno,
        )
        .values(status="cancelled", respond_time=now)
    )
    transfer.status = "accepted"
    transfer.respond_time = now
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"接收 {person(sender_row) if sender_row else sender} 转移的项目「{project.name}」",
        ip=ip,
    )
    logs.record(
        session=session,
        customer_sysno=sender,
        operate_type=logs.OperateType.PROJECT,
        detail=f"项目「{project.name}」已由 {person(customer)} 接收",
        ip=ip,
    )


async def _only_in_project(
    session: AsyncSession, owner_column: Any, link: Any, link_owner: Any, owner: int, project: int
) -> list[int]:
    """The sender's tasks or groups acting on devices of this project and of no other."""
    rows = await session.execute(
        select(owner_column, func.min(Device.project_sysno), func.max(Device.project_sysno))
        .join(link, link_owner == owner_column)
        .join(Device, Device.sysno == link.device_sysno)
        .where(owner_column.in_(select(owner_column).where(owner_column.table.c.customer_sysno == owner)))
        .group_by(owner_column)
    )
    return [sysno for sysno, low, high in rows if low == high == project]


async def _move_controls(session: AsyncSession, project: int, sender: int, recipient: int) -> None:
    tasks = await _only_in_project(
        session, TimedTask.sysno, TimedTaskDevice, TimedTaskDevice.task_sysno, sender, project
    )
    if tasks:
        await session.execute(
            update(TimedTask).where(TimedTask.sysno.in_(tasks)).values(customer_sysno=recipient)
        )
    groups = await _only_in_project(
        session, DeviceGroup.sysno, DeviceGroupMember, DeviceGroupMember.group_sysno, sender, project
    )
    if groups:
        taken = set(
            await session.scalars(select(DeviceGroup.name).where(DeviceGroup.customer_sysno == recipient))
        )
        for group in await session.scalars(select(DeviceGroup).where(DeviceGroup.sysno.in_(groups))):
            group.name = _free_name(group.name, taken)
            taken.add(group.name)
            group.customer_sysno = recipient


GROUP_NAME_LENGTH = 64  # DeviceGroup.name's column


def _free_name(name: str, taken: set[str]) -> str:
    """The group's name, or the first of it with （转入）, （转入2）… (cut to fit) the recipient has not."""
    if name not in taken:
        return name
    for n in itertools.count(1):
        suffix = "（转入）" if n == 1 else f"（转入{n}）"
        candidate = name[: GROUP_NAME_LENGTH - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    raise AssertionError("unreachable")  # pragma: no cover


async def _move_billing(session: AsyncSession, project: int, recipient: int) -> None:
    # The accounts first and in order, as every billing writer takes them, then the rows hanging off
    # them: a recharge holding an account while it adds a ledger entry never waits on this in reverse.
    await ledger.hold(session, BillingAccount.project_sysno == project)
    accounts_of_project = select(BillingAccount.sysno).where(BillingAccount.project_sysno == project)
    for model in (LedgerEntry, Bill, BusinessOrder):
        await session.execute(
            update(model).where(model.account_sysno.in_(accounts_of_project)).values(customer_sysno=recipient)
        )
    await session.execute(
        update(BillingAccount).where(BillingAccount.project_sysno == project).values(customer_sysno=recipient)
    )


async def _move_tariff(session: AsyncSession, project: int, sender: int, recipient: int) -> None:
    """The project keeps its prices: its plan (or the sender's default it used) is copied to the recipient."""
    assigned = await session.get(ProjectTariff, project)
    plan_sysno = (
        assigned.plan_sysno
        if assigned
        else await session.scalar(
            select(TariffPlan.sysno).where(TariffPlan.customer_sysno == sender, TariffPlan.is_default)
        )
    )
    if plan_sysno is None:
        return
    plan = await session.get(TariffPlan, plan_sysno)
    if plan is None or plan.customer_sysno != sender:
        return
    copy = TariffPlan(customer_sysno=recipient, name=plan.name[:64], is_default=False, remark=plan.remark)
    session.add(copy)
    await session.flush()
    for version in await session.scalars(select(TariffVersion).where(TariffVersion.plan_sysno == plan.sysno)):
        session.add(
            TariffVersion(
                plan_sysno=copy.sysno,
                effective_date=version.effective_date,
                prices=version.prices,
                seasons=version.seasons,
                holidays=version.holidays,
            )
        )
    if assigned:
        assigned.plan_sysno = copy.sysno
    else:
        session.add(ProjectTariff(project_sysno=project, plan_sysno=copy.sysno))


async def decline(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """The recipient refuses the project."""
    transfer = await _mine(session, sysno, to_sysno=customer.sysno)
    await _pending(session, transfer, "拒绝")
    transfer.status = "declined"
    transfer.respond_time = utcnow()
    for who in (customer.sysno, transfer.from_sysno):
        logs.record(
            session=session,
            customer_sysno=who,
            operate_type=logs.OperateType.PROJECT,
            detail=f"{person(customer)} 拒绝接收项目「{transfer.project_name}」",
            ip=ip,
        )


async def cancel(*, session: AsyncSession, customer: Customer, sysno: int, ip: str) -> None:
    """The sender withdraws an offer not yet accepted."""
    transfer = await _mine(session, sysno, from_sysno=customer.sysno)
    await _pending(session, transfer, "取消")
    transfer.status = "cancelled"
    transfer.respond_time = utcnow()
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.PROJECT,
        detail=f"取消项目「{transfer.project_name}」的转移",
        ip=ip,
    )


_COLUMNS = (
    ProjectTransfer.sysno,
    ProjectTransfer.project_sysno,
    ProjectTransfer.project_name,
    ProjectTransfer.from_sysno,
    _From.name,
    _From.mobile,
    _To.name,
    _To.mobile,
    ProjectTransfer.keep_shares,
    TRANSFER_STATE,
    ProjectTransfer.expire_time,
    ProjectTransfer.remark,
    ProjectTransfer.create_time,
    ProjectTransfer.respond_time,
)

TRANSFERS = Listing(
    select(*_COLUMNS)
    .join(_From, _From.sysno == ProjectTransfer.from_sysno)
    .join(_To, _To.sysno == ProjectTransfer.to_sysno),
    filters={
        "customer": lambda p: or_(ProjectTransfer.from_sysno == p, ProjectTransfer.to_sysno == p),
        "out": lambda p: ProjectTransfer.from_sysno == p,
        "in": lambda p: ProjectTransfer.to_sysno == p,
        "sysno": lambda p: ProjectTransfer.sysno == p,
        "state": lambda p: TRANSFER_STATE == p,
        "keyword": Keyword(ProjectTransfer.project_name, _From.name, _From.mobile, _To.name, _To.mobile),
    },
    orders={"create_time": ProjectTransfer.sysno},
    default_order="create_time",
    tie=ProjectTransfer.sysno,
)


def _renderer(customer_sysno: int) -> Any:
    def render(row: Row) -> dict[str, Any]:
        (
            sysno,
            project,
            name,
            sender,
            from_name,
            from_mobile,
            to_name,
            to_mobile,
            keep,
            state,
            expire,
            remark,
            created,
            responded,
        ) = row
        return {
            "sysno": sysno,
            "direction": "out" if sender == customer_sysno else "in",
            "project_sysno": project,
            "project_name": name,
            "from_name": from_name,
            "from_mobile": from_mobile,
            "to_name": to_name,
            "to_mobile": to_mobile,
            "keep_shares": bool(keep),
            "state": state,
            "state_name": STATE_NAMES.get(state, state),
            "expire_time": to_display(expire),
            "remark": remark,
            "create_time": to_display(created),
            "respond_time": to_display(responded),
        }

    return render


async def list_transfers(*, ctx: AppContext, customer: Customer, query: TransferQuery) -> PageData:
    """Transfers the caller offered and was offered, newest first."""
    values = {
        "customer": customer.sysno if query.direction is None else None,
        "out": customer.sysno if query.direction == "out" else None,
        "in": customer.sysno if query.direction == "in" else None,
        "state": query.state,
        "keyword": query.keyword or None,
    }
    return await TRANSFERS.page(ctx, query=query, values=values, render=_renderer(customer.sysno))


async def get_transfer(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One transfer of the caller's (offered or received)."""
    row = await TRANSFERS.first(session=session, values={"customer": customer.sysno, "sysno": sysno})
    if row is None:
        raise NotFound("项目转移")
    result: dict[str, Any] = _renderer(customer.sysno)(row)
    return result
