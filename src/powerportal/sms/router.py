"""SMS alarm notification routes, for brands with the SmsConfig flag."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query

from powerportal.core.deps import CurrentBrand, CurrentCustomer, Session
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import MAX_SYSNO, Page
from powerportal.sms import notification as service
from powerportal.sms.schemas import (
    NotificationRead,
    NotificationUpdate,
    NotificationWrite,
    RechargeConfirm,
    RechargeCreate,
    RechargeQuery,
    RechargeRead,
    SmsAccountRead,
    TemplatePreview,
    TemplatePreviewQuery,
    TemplateRead,
    TemplateUpdate,
    UsageQuery,
    UsageRead,
)


async def sms_config_on(brand: CurrentBrand) -> None:
    """Refuse every call where the brand has no SMS configuration."""
    if not brand.flags.SmsConfig:
        raise ApiError("当前版本未开放短信配置", status_code=403)


router = api_router("/api/CustomerSms", "短信通知", dependencies=[Depends(sms_config_on)])


@router.post("/GetNotificationList", response_model=Envelope[list[NotificationRead]])
async def get_notification_list(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Who gets which alarm texts."""
    return ok(await service.list_rules(session=session, customer=customer))


@router.post("/AddNotification", response_model=Envelope[NotificationRead])
async def add_notification(
    body: NotificationWrite, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Add a notification rule."""
    return ok(await service.add_rule(session=session, customer=customer, body=body), message="保存成功")


@router.put("/UpdateNotification", response_model=Envelope[NotificationRead])
async def update_notification(
    body: NotificationUpdate, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Replace a notification rule."""
    return ok(await service.update_rule(session=session, customer=customer, body=body), message="保存成功")


@router.delete("/DeleteNotification", response_model=Envelope[None])
async def delete_notification(
    sysno: Annotated[int, Query(ge=1, le=MAX_SYSNO)], customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Delete a notification rule."""
    await service.delete_rule(session=session, customer=customer, sysno=sysno)
    return ok(None, message="删除成功")


@router.get("/GetTemplateList", response_model=Envelope[list[TemplateRead]])
async def get_template_list(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """The message templates with their variables."""
    return ok(await service.list_templates(session=session, customer=customer))


@router.put("/UpdateTemplate", response_model=Envelope[TemplateRead])
async def update_template(
    body: TemplateUpdate, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Change a template's wording (empty restores the built-in one)."""
    template = await service.update_template(
        session=session, customer=customer, key=body.template_key, content=body.content
    )
    return ok(template, message="保存成功")


@router.post("/PreviewTemplate", response_model=Envelope[TemplatePreview])
async def preview_template(
    body: TemplatePreviewQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """A template rendered with example values."""
    return ok(
        await service.preview_template(
            session=session, customer=customer, key=body.template_key, content=body.content
        )
    )


@router.get("/GetSmsAccount", response_model=Envelope[SmsAccountRead])
async def get_sms_account(customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Balance and use of alarm texts."""
    return ok(await service.account(session=session, customer=customer))


@router.post("/GetUsageList", response_model=Envelope[Page[UsageRead]])
async def get_usage_list(query: UsageQuery, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Alarm texts sent or refused."""
    return ok(await service.list_usage(session=session, customer=customer, query=query))


@router.post("/GetRechargeList", response_model=Envelope[Page[RechargeRead]])
async def get_recharge_list(
    query: RechargeQuery, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Recharge orders."""
    return ok(await service.list_recharges(session=session, customer=customer, query=query))


@router.post("/AddRecharge", response_model=Envelope[RechargeRead])
async def add_recharge(body: RechargeCreate, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """Order more texts (a brand administrator confirms the order)."""
    return ok(
        await service.add_recharge(session=session, customer=customer, body=body),
        message="订单已提交，等待确认",
    )


@router.post("/ConfirmRecharge", response_model=Envelope[RechargeRead])
async def confirm_recharge(
    body: RechargeConfirm, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Credit or refuse an order (brand administrators)."""
    order = await service.confirm_recharge(
        session=session, admin=customer, sysno=body.sysno, approve=body.approve
    )
    return ok(order, message="已到账" if body.approve else "已拒绝")
