"""Gateways' accounts on an external Mosquitto (dynamic security plugin), kept in step with registrations.

The platform knows a gateway's secret in plain text only when it issues it (registration, reset), so
the plugin's client is written then, inside the same request, as its last step before the commit: if
Mosquitto cannot be reached the change is refused and rolled back, and the owner is told to try again.
At start the platform resynchronises: clients of gateways no longer registered are removed, gateways
without a client are reported in the log (a secret reset creates one), the rest are kept as they are
(the plugin holds its own salted hash of their secret). docs/deployment.md describes the setup.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from sqlalchemy import select

from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.envelope import ApiError
from powerportal.gateways.models import Gateway
from powerportal.mqtt import dynsec
from powerportal.mqtt.dynsec import Dynsec, DynsecError

log = logging.getLogger("powerportal.gateways.broker")

UNREACHABLE = "消息服务器暂时无法更新网关账号，本次操作未生效，请稍后重试"
RESYNC_RETRY_SECONDS = 10.0


def plugin(settings: Settings) -> Dynsec | None:
    """The dynamic security plugin, when one is configured."""
    return Dynsec.from_url(settings.mosquitto_dynsec_url, timeout=settings.mosquitto_dynsec_timeout_seconds)


async def _apply(settings: Settings, commands: list[dynsec.Command]) -> None:
    found = plugin(settings)
    if found is None:
        return
    try:
        await found.check(commands)
    except DynsecError as exc:
        log.warning("gateway account not changed on Mosquitto: %s", exc)
        raise ApiError(UNREACHABLE, status_code=503) from exc


async def issued(*, settings: Settings, sn: str, secret: str, name: str = "") -> None:
    """A gateway got a secret (registration or reset): its client now has exactly this one."""
    await _apply(settings, dynsec.put_gateway(sn, secret, name))


async def moved(*, settings: Settings, sn: str) -> None:
    """A gateway moved to another project: its logins end, as on the embedded broker."""
    await _apply(settings, dynsec.end_logins(sn))


async def deleted(*, settings: Settings, sn: str) -> None:
    """A gateway was deleted: its client and role go, and its logins end."""
    await _apply(settings, dynsec.remove_gateway(sn))


UPGRADE_BATCH = 400


@dataclass
class Resync:
    """What a resynchronisation found."""

    kept: int = 0
    removed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


async def resync(ctx: AppContext) -> Resync | None:
    """Make the plugin's gateway clients match the registered gateways (None: no plugin configured)."""
    found = plugin(ctx.settings)
    if found is None:
        return None
    async with ctx.sessions() as session:
        registered = set(await session.scalars(select(Gateway.sn)))
    clients = await found.gateway_clients()
    result = Resync(kept=len(registered & clients.keys()))
    result.removed = sorted(clients.keys() - registered)
    result.missing = sorted(registered - clients.keys())
    commands = [c for sn in result.removed for c in dynsec.remove_gateway(sn)]
    # Roles made before ThingsBoard gateways were accepted gain their ACLs (no change for the others),
    # a few hundred commands a message (the plugin saves its file after each change).
    upgrades = [c for sn in sorted(registered & clients.keys()) for c in dynsec.upgrade_role(sn)]
    for start in range(0, len(upgrades), UPGRADE_BATCH):
        await found.check(upgrades[start : start + UPGRADE_BATCH])
    if commands:
        await found.check(commands)
    if result.removed:
        log.info(
            "Mosquitto: removed the clients of %d deleted gateway(s): %s",
            len(result.removed),
            result.removed[:50],
        )
    if result.missing:
        log.warning(
            "Mosquitto: %d registered gateway(s) have no client and cannot log in until their secret is"
            " reset (重置密钥): %s",
            len(result.missing),
            result.missing[:50],
        )
    return result


async def resync_until_done(ctx: AppContext) -> None:
    """Resynchronise once, trying again while Mosquitto or the database is away."""
    while True:
        try:
            await resync(ctx)
            return
        except Exception:  # noqa: BLE001 (any failure is retried; the log says what it was)
            log.warning("could not resynchronise gateway accounts on Mosquitto", exc_info=True)
        await asyncio.sleep(RESYNC_RETRY_SECONDS)
