"""The embedded MQTT broker (amqtt): gateways log in with serial and secret, each kept to its prefix."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from amqtt.broker import Broker
from amqtt.contexts import Action, BaseContext
from amqtt.errors import BrokerError
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session

from powerportal.mqtt.codec import SN_PATTERN, TOPIC_ROOT

log = logging.getLogger("powerportal.mqtt.broker")

PLATFORM_USERNAME = "powerportal-platform"
PORT_ATTEMPTS = 20
# A verified (sn, secret) pair is trusted this long, so reconnect storms do not cost an argon2 each.
AUTH_CACHE_SECONDS = 300.0


class GatewayVerifier(Protocol):
    """Checks a gateway's serial number and secret (against the database)."""

    async def __call__(self, sn: str, secret: str) -> bool:
        """Whether the secret is the gateway's."""
        ...


@dataclass
class Authority:
    """Who may connect: the platform's own client, and registered gateways with their secret."""

    verify_gateway: GatewayVerifier
    platform_password: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    refused: int = 0
    _verified: dict[str, tuple[bytes, float]] = field(default_factory=dict)

    async def authenticate(self, username: str | None, password: str | None) -> bool:
        """Whether this username and password may connect."""
        if not username or password is None:
            self.refused += 1
            return False
        if username == PLATFORM_USERNAME:
            ok = secrets.compare_digest(password.encode(), self.platform_password.encode())
        else:
            ok = bool(SN_PATTERN.match(username)) and await self._gateway(username, password)
        if not ok:
            self.refused += 1
        return ok

    async def _gateway(self, sn: str, secret: str) -> bool:
        digest = hashlib.sha256(secret.encode()).digest()
        cached = self._verified.get(sn)
        if cached and cached[1] > time.monotonic() and secrets.compare_digest(cached[0], digest):
            return True
        if not await self.verify_gateway(sn, secret):
            return False
        self._verified[sn] = (digest, time.monotonic() + AUTH_CACHE_SECONDS)
        return True

    def forget(self, sn: str) -> None:
        """Drop a cached login (secret reset, gateway deleted)."""
        self._verified.pop(sn, None)


def allowed(username: str | None, topic: str | None) -> bool:
    """The ACL: the platform everywhere, a gateway only under ``gateways/{its sn}/``."""
    if not username or not topic:
        return False
    if username == PLATFORM_USERNAME:
        return True
    return topic.startswith(f"{TOPIC_ROOT}/{username}/")


class GatewayAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
    """amqtt plugin delegating logins to an ``Authority``."""

    @dataclass
    class Config:
        """The authority to ask."""

        authority: Any = None

    def __init__(self, context: BaseContext) -> None:
        super().__init__(context)
        self.authority: Authority = self.config.authority

    async def authenticate(self, *, session: Session) -> bool | None:
        """Accept the platform client and gateways with their own secret."""
        return await self.authority.authenticate(session.username, session.password)


class GatewayTopicPlugin(BaseTopicPlugin):  # type: ignore[misc]
    """amqtt plugin keeping each gateway under its own topic prefix."""

    @dataclass
    class Config:
        """No options: the rule is fixed by the protocol."""

    async def topic_filtering(
        self, *, session: Session | None = None, topic: str | None = None, action: Action | None = None
    ) -> bool | None:
        """Apply the ACL to publish, subscribe and delivery alike."""
        return allowed(session.username if session else None, topic)


class _Broker(Broker):  # type: ignore[misc]
    """amqtt's broker, minus its habit of sending retained messages of other clients' subscriptions.

    amqtt 0.12 replays, to every client that connects, the retained messages matching *any* filter
    subscribed on the broker (the platform's ``gateways/+/#`` included), bypassing the ACL; a gateway
    would then read every other gateway's status. Only the session's own subscriptions count here.
    """

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Session
    ) -> None:
        topic_filter = subscription[0]
        subscribers = self._subscriptions.get(topic_filter, [])
        if any(subscriber.client_id == session.client_id for subscriber, _qos in subscribers):
            await super()._publish_retained_messages_for_subscription(subscription, session)


class EmbeddedBroker:
    """An in-process broker on the first free port from the one asked for."""

    def __init__(self, *, authority: Authority, host: str = "127.0.0.1", port: int = 1883) -> None:
        self.authority = authority
        self.host = host
        self.requested_port = port
        self.port = port
        self._broker: Broker | None = None

    async def start(self) -> int:
        """Listen, moving to the next port while one is taken; return the port used."""
        # amqtt and its state machine log every connection at INFO; keep them to warnings.
        for noisy in ("amqtt", "transitions"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        for port in range(self.requested_port, self.requested_port + PORT_ATTEMPTS):
            if not _port_free(self.host, port):
                log.warning("MQTT port %s:%d is taken; trying %d", self.host, port, port + 1)
                continue
            broker = _Broker(self._config(port))
            try:
                await broker.start()
            except BrokerError as exc:
                log.warning("MQTT broker could not listen on %s:%d (%s)", self.host, port, exc)
                continue
            self._broker, self.port = broker, port
            log.info("embedded MQTT broker listening on %s:%d", self.host, port)
            return port
        raise OSError(f"no free MQTT port in {self.requested_port}-{self.requested_port + PORT_ATTEMPTS - 1}")

    def _config(self, port: int) -> dict[str, Any]:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{port}", "max_connections": 0}},
            "timeout_disconnect_delay": 2,
            "plugins": {
                f"{__name__}.GatewayAuthPlugin": {"authority": self.authority},
                f"{__name__}.GatewayTopicPlugin": {},
            },
        }

    async def stop(self) -> None:
        """Close every connection and the listener."""
        if self._broker is not None:
            broker, self._broker = self._broker, None
            try:
                await asyncio.wait_for(broker.shutdown(), 10)
            except (TimeoutError, BrokerError):
                log.warning("embedded MQTT broker did not shut down cleanly", exc_info=True)


def _port_free(host: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
