"""Electricity billing routes (电费管理), for brands with the ``eletricList`` flag."""

from __future__ import annotations

from fastapi import Depends
from fastapi.responses import StreamingResponse

from powerportal.api.deps import (
    BillingWake,
    ClientIp,
    CommanderDep,
    Ctx,
    CurrentCustomer,
    Session,
    eletric_list_on,
)
from powerportal.billing import bills, orders, service
from powerportal.billing.models import ACCOUNT_STATES, BUSINESS_TYPES, CHARGE_TYPES, ENTRY_KINDS, POWER_STATES
from powerportal.billing.schemas import (
    METHODS,
    AccountCreate,
    AccountDetail,
    AccountQuery,
    AccountRead,
    AccountUpdate,
    AdjustCreate,
    BillQuery,
    BillRead,
    LedgerQuery,
    LedgerRead,
    OrderCreate,
    OrderQuery,
    OrderRead,
    OrderReview,
    PowerCommand,
    RechargeCreate,
    RuleRead,
    RuleWrite,
)
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam

router = api_router("/api/CustomerElectricity", "电费管理", dependencies=[Depends(eletric_list_on)])


@router.get("/GetBillingOptions", response_model=Envelope[dict[str, list[dict[str, int | str]]]])
async def get_billing_options(customer: CurrentCustomer) -> EnvelopeResponse:
    """The code tables the screens show (charge types, states, methods, business types)."""
    del customer

    def table(items: dict[int, str] | dict[str, str]) -> list[dict[str, int | str]]:
        return [{"value": k, "label": v} for k, v in items.items()]

    return ok(
        {
            "charge_type": table(CHARGE_TYPES),
            "state": table(ACCOUNT_STATES),
            "power": table(POWER_STATES),
            "entry_kind": table(ENTRY_KINDS),
            "method": table(METHODS),
            "business_type": table(BUSINESS_TYPES),
            "bill_status": table(bills.BILL_STATUS),
        }
    )


@router.post("/GetAccountList", response_model=Envelope[Page[AccountRead]])
async def get_account_list(query: AccountQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Electricity accounts with their balance and power state."""
    return ok(await service.list_accounts(ctx=ctx, customer=customer, query=query))


@router.post("/ExportAccountList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_account_list(query: AccountQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every account the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_accounts(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="accounts")


@router.get("/GetAccountDetail", response_model=Envelope[AccountDetail])
async def get_account_detail(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One account, its power actions and its daily use of the last 30 days."""
    return ok(await service.account_detail(session=session, customer=customer, sysno=sysno))


@router.post("/AddAccount", response_model=Envelope[AccountRead])
async def add_account(
    body: AccountCreate, customer: CurrentCustomer, session: Session, ip: ClientIp, wake: BillingWake
) -> EnvelopeResponse:
    """Open an account for a device (its consumption is charged from now on)."""
    found = await service.create_account(session=session, customer=customer, body=body, ip=ip)
    wake()
    return ok(found, message="开户成功")


@router.post("/UpdateAccount", response_model=Envelope[AccountRead])
async def update_account(
    body: AccountUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp, wake: BillingWake
) -> EnvelopeResponse:
    """Change an account's settings."""
    found = await service.update_account(session=session, customer=customer, body=body, ip=ip)
    wake()
    return ok(found, message="保存成功")


@router.post("/Recharge", response_model=Envelope[dict[str, int]])
async def recharge(
    body: RechargeCreate, customer: CurrentCustomer, session: Session, ip: ClientIp, wake: BillingWake
) -> EnvelopeResponse:
    """Pay into one or several accounts; power returns within a minute where the balance allows."""
    done = await service.recharge(session=session, customer=customer, body=body, ip=ip)
    wake()
    restored = f"，{done['restores']} 户将恢复供电" if done["restores"] else ""
    return ok(done, message=f"已为 {done['count']} 户充值{restored}")


@router.post("/AdjustBalance", response_model=Envelope[AccountRead])
async def adjust_balance(
    body: AdjustCreate, customer: CurrentCustomer, session: Session, ip: ClientIp, wake: BillingWake
) -> EnvelopeResponse:
    """Correct an account's balance, with the reason."""
    found = await service.adjust(session=session, customer=customer, body=body, ip=ip)
    wake()
    return ok(found, message="余额已调整")


@router.post("/SwitchAccounts", response_model=Envelope[dict[str, int]])
async def switch_accounts(
    body: PowerCommand, commander: CommanderDep, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Cut or restore the accounts' breakers by hand (batch cut/restore)."""
    done = await service.switch(commander=commander, session=session, customer=customer, body=body, ip=ip)
    word = "断电" if body.action == "switch_off" else "复电"
    return ok(done, message=f"{word}：成功 {done['succeeded']} 户，失败 {done['failed']} 户")


@router.post("/GetLedgerList", response_model=Envelope[Page[LedgerRead]])
async def get_ledger_list(query: LedgerQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Ledger entries: one account's, or with ``kind`` 1 the recharge records."""
    return ok(await service.list_ledger(ctx=ctx, customer=customer, query=query))


@router.post("/ExportLedgerList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_ledger_list(query: LedgerQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every entry the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await service.export_ledger(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="ledger")


@router.post("/GetBillList", response_model=Envelope[Page[BillRead]])
async def get_bill_list(query: BillQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Monthly bills of post-paid accounts."""
    return ok(await bills.list_bills(ctx=ctx, customer=customer, query=query))


@router.post("/ExportBillList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_bill_list(query: BillQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every bill the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await bills.export_bills(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="bills")


@router.post("/GetOrderList", response_model=Envelope[Page[OrderRead]])
async def get_order_list(query: OrderQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Business orders."""
    return ok(await orders.list_orders(ctx=ctx, customer=customer, query=query))


@router.post("/ExportOrderList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_order_list(query: OrderQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every order the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await orders.export_orders(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="orders")


@router.post("/AddOrder", response_model=Envelope[OrderRead])
async def add_order(
    body: OrderCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Open a business order; it is carried out when passed."""
    return ok(
        await orders.create_order(session=session, customer=customer, body=body, ip=ip),
        message="业务单已提交",
    )


@router.post("/ReviewOrder", response_model=Envelope[OrderRead])
async def review_order(
    body: OrderReview, customer: CurrentCustomer, session: Session, ip: ClientIp, wake: BillingWake
) -> EnvelopeResponse:
    """Pass (and carry out) or refuse a business order."""
    found = await orders.review_order(session=session, customer=customer, body=body, ip=ip)
    wake()
    return ok(found, message="已通过并办理" if body.approve else "已驳回")


@router.get("/GetCutoffRule", response_model=Envelope[RuleRead])
async def get_cutoff_rule(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """When the customer's accounts may not be cut."""
    return ok(await service.get_rule(session=session, customer=customer))


@router.post("/SaveCutoffRule", response_model=Envelope[RuleRead])
async def save_cutoff_rule(
    body: RuleWrite, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Set the quiet times for cut-offs (a nightly window, weekends, holidays)."""
    return ok(
        await service.save_rule(session=session, customer=customer, body=body, ip=ip), message="保存成功"
    )
