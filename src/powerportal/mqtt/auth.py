"""Who a gateway is on the broker, and what it may do there: logins, client ids, the ACL, revocations."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Protocol

from powerportal.mqtt import thingsboard
from powerportal.mqtt.codec import SN_PATTERN, TOPIC_ROOT, UP_CHANNELS

# A verified login is trusted this long (reconnect storms must not cost an argon2 each); any change of
# the gateway's credentials ends the trust at once through ``Authority.revoke``.
AUTH_CACHE_SECONDS = 300.0
AUTH_CACHE_LIMIT = 100_000
# How many logins are checked against the database at the same time (argon2 is the costly part).
AUTH_CONCURRENCY = 4
# A revocation is remembered this long, which outlasts any login check that started before it.
REVOCATION_MEMORY_SECONDS = 600.0
DELETED = sys.maxsize
MAX_CLIENT_ID = 128


@dataclass(frozen=True, slots=True)
class GatewayRef:
    """One registration of a gateway: its row and the generation of its credentials and project.

    A serial number alone does not say which gateway it is: a deleted gateway's number can be registered
    again by another customer. The row id (never reused) and the generation (raised by every secret
    reset and move) do.
    """

    sysno: int
    generation: int
    sn: str


class GatewayLookup(Protocol):
    """Checks a serial number and secret against the database: the gateway, or None."""

    async def __call__(self, sn: str, secret: str) -> GatewayRef | None:
        """The gateway whose secret this is."""
        ...


class Authority:
    """Logins of gateways, with a cache that a revocation empties at once."""

    def __init__(self, lookup: GatewayLookup) -> None:
        self.lookup = lookup
        self._verified: dict[tuple[str, bytes], tuple[GatewayRef, float]] = {}
        # gateway sysno → (lowest generation still valid, when this was learnt)
        self._revoked: dict[int, tuple[int, float]] = {}
        self._checks = asyncio.Semaphore(AUTH_CONCURRENCY)

    async def authenticate(self, username: str | None, password: bytes | None) -> GatewayRef | None:
        """The gateway this username and password log in, or None."""
        if not username or password is None or not SN_PATTERN.match(username):
            return None
        try:
            secret = password.decode()
        except UnicodeDecodeError:
            return None
        cached = self.cached(username, password)
        if cached is not None:
            return cached
        async with self._checks:
            ref = await self.lookup(username, secret)
        # A reset or delete may have been learnt while the database was asked: the answer is then stale.
        if ref is None or not self.current(ref):
            return None
        if len(self._verified) >= AUTH_CACHE_LIMIT:
            self._verified.clear()
        self._verified[_cache_key(username, password)] = (ref, time.monotonic() + AUTH_CACHE_SECONDS)
        return ref

    def cached(self, username: str | None, password: bytes | None) -> GatewayRef | None:
        """The gateway of a login verified lately and not revoked since (no database, no argon2), or None."""
        if not username or password is None:
            return None
        found = self._verified.get(_cache_key(username, password))
        if found is None or found[1] <= time.monotonic() or not self.current(found[0]):
            return None
        return found[0]

    def current(self, ref: GatewayRef) -> bool:
        """Whether no revocation since covers this registration."""
        revoked = self._revoked.get(ref.sysno)
        return revoked is None or ref.generation >= revoked[0]

    def revoke(self, sysno: int, valid_from: int) -> None:
        """Registrations of this gateway older than generation ``valid_from`` (``DELETED``: all) end now."""
        now = time.monotonic()
        held = self._revoked.get(sysno)
        self._revoked[sysno] = (max(valid_from, held[0]) if held else valid_from, now)
        for key in [k for k, (ref, _) in self._verified.items() if ref.sysno == sysno]:
            del self._verified[key]
        if len(self._revoked) > 1000:
            cutoff = now - REVOCATION_MEMORY_SECONDS
            self._revoked = {k: v for k, v in self._revoked.items() if v[1] >= cutoff}


def _cache_key(username: str, password: bytes) -> tuple[str, bytes]:
    return username, hashlib.sha256(password).digest()


def client_id_allowed(sn: str, client_id: str) -> bool:
    """A gateway's client id is its serial number, or starts with it and a hyphen."""
    return len(client_id) <= MAX_CLIENT_ID and (client_id == sn or client_id.startswith(sn + "-"))


def longer_serials(sn: str, client_id: str) -> list[str]:
    """The serial numbers longer than ``sn`` whose gateway ``client_id`` would name as well.

    Serial numbers hold hyphens: ``GW-0001`` is the client id of gateway ``GW-0001``, and also
    ``GW`` and a hyphen and anything. Where client ids are global (an external broker), such an id
    is refused to ``GW`` when ``GW-0001`` is registered: it would take that gateway's session over.
    """
    cut = [i for i, char in enumerate(client_id) if char == "-" and i > len(sn)]
    found = [client_id[:i] for i in cut] + ([client_id] if client_id != sn else [])
    return [serial for serial in found if SN_PATTERN.match(serial)]


def new_client_id(sn: str) -> str:
    """A client id for a gateway that asked the broker to assign one."""
    return f"{sn}-{secrets.token_hex(6)}"


def may_publish(sn: str, topic: str) -> bool:
    """A gateway publishes only on its own up-link channels (or under its ThingsBoard mount point)."""
    prefix = f"{TOPIC_ROOT}/{sn}/"
    return (topic.startswith(prefix) and topic[len(prefix) :] in UP_CHANNELS) or thingsboard.owned(sn, topic)


def may_subscribe(sn: str, topic_filter: str) -> bool:
    """A gateway subscribes only under its own prefix (a serial number holds no wildcard)."""
    return (
        topic_filter.startswith(f"{TOPIC_ROOT}/{sn}/") or thingsboard.owned(sn, topic_filter)
    ) and valid_filter(topic_filter)


def retainable(sn: str, topic: str) -> bool:
    """Only a gateway's status is kept as a retained message."""
    return topic == f"{TOPIC_ROOT}/{sn}/status"


def valid_filter(topic_filter: str) -> bool:
    """``+`` stands for a whole level, ``#`` only for the last."""
    levels = topic_filter.split("/")
    for i, level in enumerate(levels):
        if "#" in level and (level != "#" or i != len(levels) - 1):
            return False
        if "+" in level and level != "+":
            return False
    return True


def matches(topic_filter: str, topic: str) -> bool:
    """Whether a topic filter matches a topic name."""
    filter_levels = topic_filter.split("/")
    topic_levels = topic.split("/")
    for i, level in enumerate(filter_levels):
        if level == "#":
            return True
        if i >= len(topic_levels) or (level != "+" and level != topic_levels[i]):
            return False
    return len(filter_levels) == len(topic_levels)
