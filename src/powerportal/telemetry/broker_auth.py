"""Verdicts for an external EMQX: who may log in, and what a client may publish and subscribe to.

EMQX 5's HTTP authenticator and HTTP authorizer ask, in their documented request and answer shapes
(docs/deployment.md).

A gateway logs in with its serial number and secret, as on the embedded broker, under a client id of its
own; its ACL is the embedded broker's (``mqtt/auth.py``). The platform's own ingest client logs in with
the user of ``POWERPORTAL_MQTT_URL`` and is a superuser. A verified secret is cached (argon2 costs tens
of milliseconds and EMQX asks on every connect) until the gateway's credentials change: every process
answering EMQX follows the revocations that secret resets, moves and deletes write.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from powerportal.core.context import AppContext
from powerportal.core.tasks import stop_tasks
from powerportal.gateways import service as gateways
from powerportal.gateways.models import Gateway
from powerportal.mqtt.auth import (
    DELETED,
    Authority,
    GatewayRef,
    client_id_allowed,
    longer_serials,
    may_publish,
    may_subscribe,
)
from powerportal.mqtt.auth import retainable as may_retain
from powerportal.mqtt.codec import SN_PATTERN
from powerportal.mqtt.transport import BrokerAddress
from powerportal.telemetry import service as telemetry

log = logging.getLogger("powerportal.telemetry.broker_auth")

SECRET_HEADER = "X-Broker-Secret"  # noqa: S105 (a header name)
Result = Literal["allow", "deny", "ignore"]


class BrokerRequest(BaseModel):
    """What EMQX sends; a plain model, not ``Schema``: a password is compared byte for byte, never cleaned."""

    model_config = ConfigDict(extra="ignore")

    username: str | None = Field(default=None, max_length=256)
    clientid: str | None = Field(default=None, max_length=256)


class AuthenticationRequest(BrokerRequest):
    """EMQX's HTTP authenticator's request body (``${username}``, ``${password}``, ``${clientid}``)."""

    password: str | None = Field(default=None, max_length=1024)


class AuthorizationRequest(BrokerRequest):
    """EMQX's HTTP authorizer's request body (``${topic}``, ``${action}``, optionally ``${retain}``)."""

    topic: str = Field(max_length=65535)
    action: str = Field(max_length=32)
    retain: bool | str | None = None
    # ``${client_attrs.registration}``: the registration the client logged in as ("sysno.generation").
    registration: str | None = Field(default=None, max_length=64)
    # ``${mountpoint}``: the listener's prefix (``tb/{sn}/`` for ThingsBoard gateways). EMQX asks about the
    # topic before it is mounted, so the decision is taken on the mounted one.
    mountpoint: str | None = Field(default=None, max_length=200)


class BrokerVerdict(BaseModel):
    """EMQX's answer shape: ``result`` allow / deny / ignore, and whether the client is a superuser."""

    result: Result
    is_superuser: bool = False
    # EMQX 5.7+ keeps these with the connection; the authorizer's request carries them back.
    client_attrs: dict[str, str] | None = None


ALLOW = BrokerVerdict(result="allow")
DENY = BrokerVerdict(result="deny")
SUPERUSER = BrokerVerdict(result="allow", is_superuser=True)


class BrokerGate:
    """Answers EMQX for one process: the login cache, the platform's own login and the revocation follower."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        settings = ctx.settings
        self.secret = settings.broker_auth_secret.encode()
        platform = BrokerAddress.from_url(settings.mqtt_url) if settings.mqtt_url else None
        self.platform_user = platform.username if platform is not None else None
        self.platform_password = (platform.password or "").encode() if platform is not None else b""

        async def lookup(sn: str, secret: str) -> GatewayRef | None:
            async with ctx.sessions() as session:
                return await telemetry.verify_gateway_secret(
                    session=session, passwords=ctx.passwords, sn=sn, secret=secret
                )

        self.authority = Authority(lookup)
        # Gateway sysno → its serial number and current generation (None: deleted), read once from the
        # database, then kept by the revocation follower.
        self._current: dict[int, tuple[str, int] | None] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Follow credential changes written by any process."""
        self._tasks.append(asyncio.create_task(self._follow(), name="broker-auth-revocations"))

    async def stop(self) -> None:
        """Stop following."""
        await stop_tasks(self._tasks)

    def admits(self, presented: str | None) -> bool:
        """Whether the caller presented the shared secret (compared in constant time)."""
        return bool(self.secret) and hmac.compare_digest((presented or "").encode(), self.secret)

    async def authenticate(self, request: AuthenticationRequest) -> BrokerVerdict:
        """Whether this username, password and client id may log in."""
        username, password = request.username or "", (request.password or "").encode()
        if self.platform_user and username == self.platform_user:
            return SUPERUSER if hmac.compare_digest(password, self.platform_password) else DENY
        ref = await self.authority.authenticate(username, password)
        client_id = request.clientid or ""
        if ref is None or not client_id_allowed(ref.sn, client_id):
            return DENY
        claimed = longer_serials(ref.sn, client_id)
        if claimed:
            async with self.ctx.sessions() as session:
                if await session.scalar(select(Gateway.sysno).where(Gateway.sn.in_(claimed)).limit(1)):
                    return DENY  # another gateway's client id: EMQX would hand it that gateway's session
        return BrokerVerdict(result="allow", client_attrs={"registration": f"{ref.sysno}.{ref.generation}"})

    async def authorize(self, request: AuthorizationRequest) -> BrokerVerdict:
        """Whether this client may publish, or subscribe, to this topic."""
        username = request.username or ""
        if self.platform_user and username == self.platform_user:
            return ALLOW
        if not SN_PATTERN.match(username) or not client_id_allowed(username, request.clientid or ""):
            return DENY
        # Absent, empty or an unfilled placeholder: an EMQX before 5.7 (no client attributes); topics only.
        registration = request.registration or ""
        if (
            registration
            and not registration.startswith("${")
            and not await self._still_current(username, registration)
        ):
            return DENY  # its secret was reset, or it moved or was deleted, since it logged in
        mountpoint = request.mountpoint or ""
        topic = request.topic if mountpoint.startswith("${") else mountpoint + request.topic
        if request.action == "publish":
            retained = request.retain is True or request.retain == "true"
            allowed = may_publish(username, topic) and (not retained or may_retain(username, topic))
        elif request.action == "subscribe":
            allowed = may_subscribe(username, topic)
        else:
            allowed = False
        return ALLOW if allowed else DENY

    async def _still_current(self, sn: str, registration: str) -> bool:
        """Whether the registration a connection logged in as is still this gateway's."""
        sysno_text, _, generation_text = registration.partition(".")
        if not (sysno_text.isdigit() and generation_text.isdigit()):
            return False
        sysno, generation = int(sysno_text), int(generation_text)
        if sysno not in self._current:
            async with self.ctx.sessions() as session:
                row = (
                    await session.execute(
                        select(Gateway.sn, Gateway.generation).where(Gateway.sysno == sysno)
                    )
                ).first()
            # A revocation learnt meanwhile is newer than this read: it stays.
            self._current.setdefault(sysno, (row[0], row[1]) if row is not None else None)
        current = self._current[sysno]
        return current is not None and current == (sn, generation)

    async def _follow(self) -> None:
        after: int | None = None
        while True:
            try:
                async with self.ctx.sessions() as session:
                    after, rows = await gateways.revocations_after(session=session, after=after)
                for row in rows:
                    self.authority.revoke(
                        row.gateway_sysno, DELETED if row.valid_from is None else row.valid_from
                    )
                    if row.gateway_sysno in self._current:
                        self._current[row.gateway_sysno] = (
                            None if row.valid_from is None else (row.sn, row.valid_from)
                        )
            except Exception:  # noqa: BLE001 (the database may be away a while; keep following once back)
                log.warning("could not read gateway revocations", exc_info=True)
            await asyncio.sleep(self.ctx.settings.revocation_poll_seconds)
