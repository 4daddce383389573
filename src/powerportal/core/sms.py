"""The SMS channel every domain sends through: the outbox (default), Aliyun or Tencent Cloud."""

from __future__ import annotations

import json
import logging
from typing import Protocol

from starlette.concurrency import run_in_threadpool

from powerportal.core.config import Settings

log = logging.getLogger("powerportal.sms")


class SmsSendError(Exception):
    """The provider refused or failed to send."""


class SmsProvider(Protocol):
    """Sends one text message."""

    name: str

    async def send(self, *, mobile: str, content: str, params: dict[str, str]) -> None:
        """Send ``content`` (rendered from the template ``params``) to ``mobile``."""


class OutboxProvider:
    """Sends nothing: the message lands in the outbox table, where a demo user can read it.

    The log says only that it is there: a message may hold a verification code, and logs travel
    further than the database.
    """

    name = "outbox"

    async def send(self, *, mobile: str, content: str, params: dict[str, str]) -> None:
        """Note the message in the log, without its text."""
        log.info(
            "SMS to %s (%d characters) is in the outbox", mobile[:3] + "****" + mobile[-4:], len(content)
        )


class AliyunProvider:
    """Aliyun Dysms through its official SDK."""

    name = "aliyun"

    def __init__(self, settings: Settings) -> None:
        from alibabacloud_dysmsapi20170525.client import Client
        from alibabacloud_tea_openapi import models as open_api_models

        config = open_api_models.Config(
            access_key_id=settings.sms_access_key_id,
            access_key_secret=settings.sms_access_key_secret,
            endpoint="dysmsapi.aliyuncs.com",
        )
        self._client = Client(config)
        self._sign_name = settings.sms_sign_name
        self._template = settings.sms_template_code

    async def send(self, *, mobile: str, content: str, params: dict[str, str]) -> None:
        """Send through Aliyun."""
        from alibabacloud_dysmsapi20170525 import models as dysms

        request = dysms.SendSmsRequest(
            phone_numbers=mobile,
            sign_name=self._sign_name,
            template_code=self._template,
            template_param=json.dumps(params, ensure_ascii=False),
        )
        response = await self._client.send_sms_async(request)
        if response.body.code != "OK":
            raise SmsSendError(f"{response.body.code}: {response.body.message}")


class TencentProvider:
    """Tencent Cloud SMS through its official SDK."""

    name = "tencent"

    def __init__(self, settings: Settings) -> None:
        from tencentcloud.common import credential
        from tencentcloud.sms.v20210111 import sms_client

        cred = credential.Credential(settings.sms_access_key_id, settings.sms_access_key_secret)
        self._client = sms_client.SmsClient(cred, settings.sms_region)
        self._settings = settings

    async def send(self, *, mobile: str, content: str, params: dict[str, str]) -> None:
        """Send through Tencent Cloud."""
        from tencentcloud.sms.v20210111 import models

        request = models.SendSmsRequest()
        request.SmsSdkAppId = self._settings.sms_sdk_app_id
        request.SignName = self._settings.sms_sign_name
        request.TemplateId = self._settings.sms_template_code
        request.TemplateParamSet = list(params.values())
        request.PhoneNumberSet = [f"+86{mobile}"]
        response = await run_in_threadpool(self._client.SendSms, request)
        status = response.SendStatusSet[0]
        if status.Code != "Ok":
            raise SmsSendError(f"{status.Code}: {status.Message}")


def create_provider(settings: Settings) -> SmsProvider:
    """The provider the settings select."""
    if settings.sms_provider == "aliyun":
        return AliyunProvider(settings)
    if settings.sms_provider == "tencent":
        return TencentProvider(settings)
    return OutboxProvider()
