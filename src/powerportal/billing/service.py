"""Electricity accounts: opening, settings, recharges, adjustments, manual power, lists and exports.

Accounts belong to devices of projects the customer owns; only the owner manages them. Money moves
only through ``ledger.post``; every move is reviewed at once (``power.review``) in its transaction.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts.models import Customer
from powerportal.billing import bills, charging, ledger, power
from powerportal.billing.models import (
    ACCOUNT_STATES,
    ADJUSTMENT,
    CHARGE_TYPES,
    ENTRY_KINDS,
    OPEN,
    POSTPAY,
    POWER_STATES,
    RECHARGE,
    BillingAccount,
    BillingRule,
    LedgerEntry,
    PowerAction,
)
from powerportal.billing.schemas import (
    METHODS,
    AccountCreate,
    AccountFields,
    AccountQuery,
    AccountUpdate,
    AdjustCreate,
    LedgerQuery,
    PowerCommand,
    RechargeCreate,
    RuleRead,
    RuleWrite,
)
from powerportal.control.commands import Commander, Origin, load_targets, person
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError, NotFound
from powerportal.core.list_export import Column, during, export_list, filters_shown
from powerportal.core.listing import During, Keyword, Listing, Row
from powerportal.core.schemas import PageData
from powerportal.core.timeutil import to_display, utcnow
from powerportal.devices.models import Device
from powerportal.energy.models import DAY, DEVICE, EnergyRollup
from powerportal.gateways.models import Gateway
from powerportal.logs import recording as logs
from powerportal.projects.access import get_owned, owned_projects, sees
from powerportal.projects.models import Project


async def owned_account(
    session: AsyncSession, customer: Customer, sysno: int, *, lock: bool = False
) -> BillingAccount:
    """An account of a project the customer owns (locked when asked), or a not-found error."""
    return (await owned_accounts(session, customer, [sysno], lock=lock))[0]


async def owned_accounts(
    session: AsyncSession, customer: Customer, sysnos: list[int], *, lock: bool = False
) -> list[BillingAccount]:
    """Accounts of projects the customer owns, in ``sysno`` order, or a not-found error if one is not.

    Locked (when asked) in one statement in ``sysno`` order, so two batches naming the same accounts
    in different orders take turns: locked one by one as named, each held what the other waited for.
    """
    where = (
        BillingAccount.sysno.in_(sorted(set(sysnos))),
        BillingAccount.project_sysno.in_(owned_projects(customer.sysno)),
    )
    if lock:
        found = await ledger.hold(session, *where)
    else:
        read = select(BillingAccount).where(*where).order_by(BillingAccount.sysno)
        found = list(await session.scalars(read))
    if len(found) != len(set(sysnos)):
        raise NotFound("电费账户")
    return found


def _settings(account: BillingAccount, body: AccountFields) -> None:
    account.holder_name = body.holder_name
    account.holder_mobile = body.holder_mobile
    account.notify_holder = body.notify_holder
    account.charge_type = body.charge_type
    account.flat_price_e4 = round(body.flat_price * 10_000) if body.flat_price is not None else None
    account.warn_fen = ledger.fen_of_yuan(body.warn_balance)
    account.cutoff_fen = ledger.fen_of_yuan(body.cutoff_balance)
    account.overdraft_fen = ledger.fen_of_yuan(body.overdraft_limit)
    account.keep_power = body.keep_power
    account.remark = body.remark


async def create_account(
    *, session: AsyncSession, customer: Customer, body: AccountCreate, ip: str | None
) -> dict[str, Any]:
    """Open an account for a device; its consumption is charged from now on."""
    device = await get_owned(
        session=session, customer=customer, model=Device, sysno=body.device_sysno, what="设备"
    )
    taken = await session.scalar(
        select(BillingAccount.sysno).where(
            BillingAccount.device_sysno == device.sysno, BillingAccount.state == OPEN
        )
    )
    if taken is not None:
        raise ApiError("该设备已有电费账户", 409)
    now = utcnow()
    zone = (await charging.zones(session, [device.project_sysno]))[device.project_sysno]
    account = BillingAccount(
        customer_sysno=customer.sysno,
        project_sysno=device.project_sysno,
        device_sysno=device.sysno,
        state=OPEN,
        balance_fen=0,
        charged_fen=0,
        charged_kwh=0.0,
        # its use begins with the quarter-hour it opens in (``opened_*``): nothing is priced yet
        base_kwh=0.0,
        base_cost=0.0,
        base_fen=0,
        base_charged_kwh=0.0,
        create_time=now,
        **charging.opening(now, zone),
    )
    _settings(account, body)
    session.add(account)
    try:
        await session.flush()
    except IntegrityError as exc:  # another request opened one for the device meanwhile, or deleted it
        await session.rollback()
        if await session.scalar(select(Device.sysno).where(Device.sysno == body.device_sysno)) is None:
            raise NotFound("设备") from exc
        raise ApiError("该设备已有电费账户", 409) from exc
    opening = ledger.fen_of_yuan(body.opening_balance)
    if opening:
        ledger.post(
            session,
            account,
            kind=RECHARGE,
            amount_fen=opening,
            operator=person(customer),
            method=body.method,
            remark="开户充值",
        )
        account.last_recharge_time = utcnow()
    await charging.review(session, account)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"开户：{body.holder_name}（{device.name}），{CHARGE_TYPES[body.charge_type]}，"
        f"开户金额 {body.opening_balance:.2f} 元",
        ip=ip,
    )
    await session.commit()
    return await get_account(session=session, customer=customer, sysno=account.sysno)


async def update_account(
    *, session: AsyncSession, customer: Customer, body: AccountUpdate, ip: str | None
) -> dict[str, Any]:
    """Change an account's settings; a new price applies from now on (what was used keeps the old one)."""
    account = await owned_account(session, customer, body.sysno, lock=True)
    if account.state != OPEN:
        raise ApiError("账户已销户，不能修改")
    if body.charge_type != account.charge_type and (account.charge_type == 1) != (body.charge_type == 1):
        raise ApiError("预付费与后付费之间不能直接转换，请销户后重新开户")
    price = round(body.flat_price * 10_000) if body.flat_price is not None else None
    if price != account.flat_price_e4:
        # prepaid: charged at the old price now; post-paid: at it in the next bill or at closing
        await charging.charge(session, device_sysnos=[account.device_sysno])
        charging.rebase(account, (await charging.used(session, [account]))[account.sysno])
    _settings(account, body)
    await charging.review(session, account)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"修改电费账户：{account.holder_name}",
        ip=ip,
    )
    await session.commit()
    return await get_account(session=session, customer=customer, sysno=account.sysno)


async def recharge(
    *, session: AsyncSession, customer: Customer, body: RechargeCreate, ip: str | None
) -> dict[str, Any]:
    """Pay the same sum into each account named; power returns where the balance is enough again."""
    accounts = await owned_accounts(session, customer, body.account_sysnos, lock=True)
    closed = [a.holder_name for a in accounts if a.state != OPEN]
    if closed:
        raise ApiError(f"账户已销户，不能充值：{'、'.join(closed[:5])}")
    fen = ledger.fen_of_yuan(body.amount)
    restores = 0
    for account in accounts:
        ledger.post(
            session,
            account,
            kind=RECHARGE,
            amount_fen=fen,
            operator=person(customer),
            method=body.method,
            remark=body.remark,
        )
        account.last_recharge_time = utcnow()
        if account.charge_type == POSTPAY:
            await bills.settle(session, account)
        restores += (await charging.review(session, account)).action == power.SWITCH_ON
    names = "、".join(a.holder_name for a in accounts[:5]) + ("等" if len(accounts) > 5 else "")
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"充值：{names} 共 {len(accounts)} 户，每户 {body.amount:.2f} 元（{METHODS[body.method]}）",
        ip=ip,
    )
    await session.commit()
    return {"count": len(accounts), "restores": restores}


async def adjust(
    *, session: AsyncSession, customer: Customer, body: AdjustCreate, ip: str | None
) -> dict[str, Any]:
    """Correct an account's balance with a reason."""
    account = await owned_account(session, customer, body.account_sysno, lock=True)
    if account.state != OPEN:
        raise ApiError("账户已销户，不能调整")
    fen = ledger.fen_of_yuan(body.amount)
    if fen == 0:
        raise ApiError("调整金额不能为 0")
    ledger.post(
        session, account, kind=ADJUSTMENT, amount_fen=fen, operator=person(customer), remark=body.remark
    )
    await charging.review(session, account)
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"余额调整：{account.holder_name} {body.amount:.2f} 元，{body.remark}",
        ip=ip,
    )
    await session.commit()
    return await get_account(session=session, customer=customer, sysno=account.sysno)


async def switch(
    *, commander: Commander, session: AsyncSession, customer: Customer, body: PowerCommand, ip: str | None
) -> dict[str, Any]:
    """Cut or restore accounts' breakers by hand, through the command path (billing will not undo it)."""
    accounts = await owned_accounts(session, customer, body.account_sysnos)
    targets = await load_targets(
        session=session, customer=customer, device_sysnos=[a.device_sysno for a in accounts]
    )
    await session.commit()
    outcomes = await commander.execute(
        targets=targets,
        action=body.action,
        params=None,
        origin=Origin(customer.sysno, "manual", person(customer)),
    )
    good = sum(1 for o in outcomes if o.status == "succeeded")
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail=f"批量{'断电' if body.action == 'switch_off' else '复电'}：{len(targets)} 户，成功 {good} 户",
        ip=ip,
        success=good == len(targets),
    )
    await session.commit()
    return {"count": len(targets), "succeeded": good, "failed": len(targets) - good}


# -- reading -------------------------------------------------------------------------------------

_ACCOUNT_COLUMNS = (
    BillingAccount.sysno,
    BillingAccount.project_sysno,
    Project.name,
    BillingAccount.device_sysno,
    Device.name,
    Device.device_id,
    Gateway.sn,
    BillingAccount.holder_name,
    BillingAccount.holder_mobile,
    BillingAccount.notify_holder,
    BillingAccount.charge_type,
    BillingAccount.flat_price_e4,
    BillingAccount.warn_fen,
    BillingAccount.cutoff_fen,
    BillingAccount.overdraft_fen,
    BillingAccount.keep_power,
    BillingAccount.state,
    BillingAccount.balance_fen,
    BillingAccount.charged_kwh,
    BillingAccount.power,
    Device.switch_state,
    BillingAccount.last_recharge_time,
    BillingAccount.remark,
    BillingAccount.create_time,
)
_ACCOUNT_BASE = (
    select(*_ACCOUNT_COLUMNS)
    .join(Project, Project.sysno == BillingAccount.project_sysno)
    .join(Device, Device.sysno == BillingAccount.device_sysno)
    .join(Gateway, Gateway.sysno == Device.gateway_sysno)
)
ACCOUNTS = Listing(
    _ACCOUNT_BASE,
    filters={
        "customer": lambda p: sees(
            p, project=BillingAccount.project_sysno, device=BillingAccount.device_sysno
        ),
        "project": lambda p: BillingAccount.project_sysno == p,
        "keyword": Keyword(BillingAccount.holder_name, BillingAccount.holder_mobile, Device.name),
        "charge_type": lambda p: BillingAccount.charge_type == p,
        "state": lambda p: BillingAccount.state == p,
        "power": lambda p: BillingAccount.power == p,
        "low": lambda p: and_(BillingAccount.balance_fen <= BillingAccount.warn_fen, p),
    },
    orders={
        "create_time": BillingAccount.sysno,
        "balance": BillingAccount.balance_fen,
        "holder_name": BillingAccount.holder_name,
    },
    default_order="create_time",
    tie=BillingAccount.sysno,
)


def _account(row: Row) -> dict[str, Any]:
    (
        sysno,
        project,
        project_name,
        device,
        device_name,
        device_id,
        sn,
        holder,
        mobile,
        notify,
        charge_type,
        price,
        warn,
        cutoff,
        overdraft,
        keep,
        state,
        balance,
        kwh,
        power_state,
        switch,
        recharged,
        remark,
        created,
    ) = row
    return {
        "sysno": sysno,
        "project_sysno": project,
        "project_name": project_name,
        "device_sysno": device,
        "device_name": device_name,
        "device_id": device_id,
        "gateway_sn": sn,
        "holder_name": holder,
        "holder_mobile": mobile,
        "notify_holder": bool(notify),
        "charge_type": charge_type,
        "charge_type_name": CHARGE_TYPES.get(charge_type, str(charge_type)),
        "flat_price": price / 10_000 if price is not None else None,
        "warn_balance": ledger.yuan(warn),
        "cutoff_balance": ledger.yuan(cutoff),
        "overdraft_limit": ledger.yuan(overdraft),
        "keep_power": bool(keep),
        "state": state,
        "state_name": ACCOUNT_STATES.get(state, str(state)),
        "balance": ledger.yuan(balance),
        "charged_kwh": round(kwh or 0.0, 3),
        "power": power_state,
        "power_name": POWER_STATES.get(power_state, power_state),
        # the breaker as last reported: off by hand (or a trip) while billing supplies it shows here
        "switch_state": switch,
        "low": state == OPEN and charge_type != POSTPAY and balance <= warn,
        "last_recharge_time": to_display(recharged),
        "remark": remark,
        "create_time": to_display(created),
    }


def _account_values(customer: Customer, query: AccountQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "project": query.project_sysno,
        "keyword": query.keyword or None,
        "charge_type": query.charge_type,
        "state": query.state,
        "power": query.power,
        "low": True if query.low else None,
    }


async def list_accounts(*, ctx: AppContext, customer: Customer, query: AccountQuery) -> PageData:
    """The accounts of the projects the customer sees."""
    return await ACCOUNTS.page(ctx, query=query, values=_account_values(customer, query), render=_account)


ACCOUNT_EXPORT = (
    Column("项目", "project_name", 18),
    Column("设备", "device_name", 16),
    Column("户主", "holder_name", 12),
    Column("手机号", "holder_mobile", 14),
    Column("计费方式", "charge_type_name", 14),
    Column("余额（元）", "balance", 12, "number"),
    Column("已用电量（kWh）", "charged_kwh", 14, "number"),
    Column("供电状态", "power_name", 10),
    Column("账户状态", "state_name", 10),
    Column("最近充值", "last_recharge_time", 20),
)


async def export_accounts(*, ctx: AppContext, customer: Customer, query: AccountQuery) -> tuple[Path, str]:
    """Every account the filters keep, as a workbook."""
    return await export_list(
        ctx,
        name="电费账户",
        listing=ACCOUNTS,
        query=query,
        values=_account_values(customer, query),
        columns=ACCOUNT_EXPORT,
        filters=filters_shown(
            ("关键字", query.keyword), ("计费方式", CHARGE_TYPES.get(query.charge_type or 0))
        ),
        render=_account,
    )


async def get_account(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """One account the customer sees."""
    found = (
        await session.execute(
            _ACCOUNT_BASE.where(
                BillingAccount.sysno == sysno,
                sees(
                    customer.sysno, project=BillingAccount.project_sysno, device=BillingAccount.device_sysno
                ),
            )
        )
    ).first()
    if found is None:
        raise NotFound("电费账户")
    return _account(found)


async def account_detail(*, session: AsyncSession, customer: Customer, sysno: int) -> dict[str, Any]:
    """An account, its latest power actions, its daily use of the last 30 days and its ledger's sum."""
    account = await get_account(session=session, customer=customer, sysno=sysno)
    actions = (
        await session.scalars(
            select(PowerAction)
            .where(PowerAction.account_sysno == sysno)
            .order_by(PowerAction.sysno.desc())
            .limit(20)
        )
    ).all()
    since = utcnow() - timedelta(days=31)
    days = (
        await session.scalars(
            select(EnergyRollup)
            .where(
                EnergyRollup.scope == DEVICE,
                EnergyRollup.grain == DAY,
                EnergyRollup.owner_sysno == account["device_sysno"],
                EnergyRollup.start >= since,
            )
            .order_by(EnergyRollup.start)
        )
    ).all()
    return {
        "account": account,
        "actions": [
            {
                "sysno": a.sysno,
                "action": a.action,
                "action_name": "断电" if a.action == power.SWITCH_OFF else "复电",
                "state": a.state,
                "state_name": power.ACTION_STATES.get(a.state, a.state),
                "due_time": to_display(a.due_time),
                "outcome": a.outcome,
                "command_sysno": a.command_sysno,
                "create_time": to_display(a.create_time),
            }
            for a in actions
        ],
        "days": [
            {
                "date": (to_display(d.start) or "")[:10],
                "kwh": round(sum(getattr(d, f"kwh_{i}") for i in range(5)), 3),
                "cost": round(sum(getattr(d, f"cost_{i}") for i in range(5)), 2),
            }
            for d in days
        ],
        "ledger_total": ledger.yuan(await ledger.ledger_sum(session, sysno)),
    }


LEDGER = Listing(
    select(
        LedgerEntry.sysno,
        LedgerEntry.account_sysno,
        BillingAccount.holder_name,
        Device.name,
        LedgerEntry.kind,
        LedgerEntry.amount_fen,
        LedgerEntry.balance_fen,
        LedgerEntry.kwh,
        LedgerEntry.method,
        LedgerEntry.operator,
        LedgerEntry.remark,
        LedgerEntry.create_time,
    )
    .join(BillingAccount, BillingAccount.sysno == LedgerEntry.account_sysno)
    .join(Device, Device.sysno == BillingAccount.device_sysno),
    filters={
        "customer": lambda p: sees(
            p, project=BillingAccount.project_sysno, device=BillingAccount.device_sysno
        ),
        "account": lambda p: LedgerEntry.account_sysno == p,
        "kind": lambda p: LedgerEntry.kind == p,
        "time": During(LedgerEntry.create_time),
    },
    orders={"create_time": LedgerEntry.sysno},
    default_order="create_time",
    tie=LedgerEntry.sysno,
)


def _entry(row: Row) -> dict[str, Any]:
    sysno, account, holder, device, kind, amount, balance, kwh, method, operator, remark, created = row
    return {
        "sysno": sysno,
        "account_sysno": account,
        "holder_name": holder,
        "device_name": device,
        "kind": kind,
        "kind_name": ENTRY_KINDS.get(kind, str(kind)),
        "amount": ledger.yuan(amount),
        "balance": ledger.yuan(balance),
        "kwh": round(kwh, 3) if kwh is not None else None,
        "method": method,
        "method_name": METHODS.get(method) if method else None,
        "operator": operator,
        "remark": remark,
        "create_time": to_display(created),
    }


def _ledger_values(customer: Customer, query: LedgerQuery) -> dict[str, Any]:
    return {
        "customer": customer.sysno,
        "account": query.account_sysno,
        "kind": query.kind,
        "time": (query.start_time, query.end_time),
    }


async def list_ledger(*, ctx: AppContext, customer: Customer, query: LedgerQuery) -> PageData:
    """Ledger entries, newest first (one account's, or every recharge with ``kind`` 1)."""
    return await LEDGER.page(ctx, query=query, values=_ledger_values(customer, query), render=_entry)


LEDGER_EXPORT = (
    Column("时间", "create_time", 20),
    Column("户主", "holder_name", 12),
    Column("设备", "device_name", 16),
    Column("类型", "kind_name", 10),
    Column("金额（元）", "amount", 12, "number"),
    Column("余额（元）", "balance", 12, "number"),
    Column("电量（kWh）", "kwh", 12, "number"),
    Column("方式", "method_name", 10),
    Column("操作人", "operator", 20),
    Column("备注", "remark", 24),
)


async def export_ledger(*, ctx: AppContext, customer: Customer, query: LedgerQuery) -> tuple[Path, str]:
    """Every entry the filters keep, as a workbook."""
    return await export_list(
        ctx,
        name="充值记录" if query.kind == RECHARGE else "账户流水",
        listing=LEDGER,
        query=query,
        values=_ledger_values(customer, query),
        columns=LEDGER_EXPORT,
        filters=filters_shown(
            ("类型", ENTRY_KINDS.get(query.kind or 0)), ("时间", during(query.start_time, query.end_time))
        ),
        render=_entry,
    )


async def get_rule(*, session: AsyncSession, customer: Customer) -> RuleRead:
    """The customer's quiet times for cut-offs."""
    rule = await session.get(BillingRule, customer.sysno)
    if rule is None:
        return RuleRead(quiet_start=None, quiet_end=None, quiet_weekends=False, holidays=[])
    return RuleRead(
        quiet_start=rule.quiet_start,
        quiet_end=rule.quiet_end,
        quiet_weekends=rule.quiet_weekends,
        holidays=list(rule.holidays or []),
    )


async def save_rule(
    *, session: AsyncSession, customer: Customer, body: RuleWrite, ip: str | None
) -> RuleRead:
    """Set the quiet times; cut-offs already waiting keep their time."""
    if bool(body.quiet_start) != bool(body.quiet_end):
        raise ApiError("禁止断电时段需同时填写开始和结束时间")
    rule = await session.get(BillingRule, customer.sysno)
    if rule is None:
        rule = BillingRule(customer_sysno=customer.sysno)
        session.add(rule)
    rule.quiet_start, rule.quiet_end = body.quiet_start, body.quiet_end
    rule.quiet_weekends = body.quiet_weekends
    rule.holidays = sorted(set(body.holidays))
    logs.record(
        session=session,
        customer_sysno=customer.sysno,
        operate_type=logs.OperateType.BILLING,
        detail="修改断电规则",
        ip=ip,
    )
    await session.commit()
    return await get_rule(session=session, customer=customer)
