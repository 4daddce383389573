"""Starts and stops the MQTT side of a server: embedded broker, platform link, ingest, silence checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

from powerportal.core.config import DATA_DIR
from powerportal.core.context import AppContext
from powerportal.core.tasks import stop_tasks
from powerportal.mqtt.broker import PLATFORM_USERNAME, Authority, EmbeddedBroker
from powerportal.mqtt.rpc import RpcClient
from powerportal.mqtt.transport import BrokerAddress, PlatformLink, subscription
from powerportal.telemetry import service
from powerportal.telemetry.ingest import Ingest

log = logging.getLogger("powerportal.telemetry")

# Where a serving process tells local tools (``powerportal simulate``) which port its broker took.
BROKER_FILE = DATA_DIR / "mqtt-broker.json"


@dataclass
class TelemetryRuntime:
    """The running MQTT side of one process."""

    ingest: Ingest
    link: PlatformLink
    rpc: RpcClient
    # Where gateways connect (the embedded broker's port, or the external broker).
    gateway_address: BrokerAddress
    broker: EmbeddedBroker | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def stop(self) -> None:
        """Stop the tasks, then the broker."""
        await stop_tasks(self.tasks)
        if self.broker is not None:
            await self.broker.stop()


async def start(ctx: AppContext, *, connect_timeout: float = 10.0) -> TelemetryRuntime:
    """Start broker (unless external), ingest and the platform link, as the settings say."""
    settings = ctx.settings
    broker: EmbeddedBroker | None = None
    shared = ""
    if settings.mqtt_url:
        address = BrokerAddress.from_url(settings.mqtt_url)
        gateway_address = BrokerAddress(host=address.host, port=address.port)
        shared = settings.mqtt_shared_group
    else:
        if not settings.embedded_broker:
            raise RuntimeError("POWERPORTAL_EMBEDDED_BROKER=0 needs POWERPORTAL_MQTT_URL")

        async def verify(sn: str, secret: str) -> bool:
            async with ctx.sessions() as session:
                return await service.verify_gateway_secret(
                    session=session, passwords=ctx.passwords, sn=sn, secret=secret
                )

        authority = Authority(verify_gateway=verify)
        broker = EmbeddedBroker(authority=authority, host=settings.mqtt_bind, port=settings.mqtt_port)
        port = await broker.start()
        local = "127.0.0.1" if settings.mqtt_bind in ("0.0.0.0", "") else settings.mqtt_bind  # noqa: S104
        address = BrokerAddress(
            host=local, port=port, username=PLATFORM_USERNAME, password=authority.platform_password
        )
        gateway_address = BrokerAddress(host=local, port=port)
    ingest = Ingest(sessions=ctx.sessions, settings=settings)
    # From the in-process broker, QoS 0 over loopback: amqtt drops a QoS 1 delivery whose PUBACK takes
    # over 5 s, which a saturated ingest can exceed. An external broker queues, so QoS 1 there.
    link = PlatformLink(
        address, subscribe=subscription(shared) if settings.ingest else None, qos=0 if broker else 1
    )
    rpc = RpcClient(link.publish)
    ingest.on_rpc_response = rpc.resolve
    runtime = TelemetryRuntime(
        ingest=ingest, link=link, rpc=rpc, gateway_address=gateway_address, broker=broker
    )
    runtime.tasks.append(asyncio.create_task(link.run(ingest.submit), name="mqtt-link"))
    if settings.ingest:
        runtime.tasks.append(asyncio.create_task(ingest.run(), name="ingest-writer"))
        runtime.tasks.append(asyncio.create_task(_silence_loop(ingest), name="ingest-silence"))
    try:
        async with asyncio.timeout(connect_timeout):
            await link.connected.wait()
    except TimeoutError:
        log.warning("MQTT broker %s not reachable yet; the ingest keeps trying", address)
    return runtime


async def _silence_loop(ingest: Ingest) -> None:
    settings = ingest.settings
    period = min(settings.gateway_offline_seconds, settings.device_offline_seconds) / 4
    period = min(max(period, 0.2), 10.0)
    while True:
        await asyncio.sleep(period)
        await ingest.check_silence()


def announce(runtime: TelemetryRuntime, path: Path | None = None) -> None:
    """Say where gateways connect; for the embedded broker, also leave it in ``data/mqtt-broker.json``."""
    address = runtime.gateway_address
    if runtime.broker is None:
        sys.stdout.write(f"MQTT: 外部消息服务器 {address}\n")
        return
    if runtime.broker.port != runtime.broker.requested_port:
        sys.stdout.write(
            f"MQTT: 端口 {runtime.broker.requested_port} 已被占用，"
            f"内置消息服务器改用端口 {runtime.broker.port}\n"
        )
    sys.stdout.write(f"MQTT: 内置消息服务器 {address}（网关用户名为序列号，密码为网关密钥）\n")
    sys.stdout.flush()
    path = path or BROKER_FILE
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"host": address.host, "port": address.port}))


def announced_address(path: Path | None = None) -> BrokerAddress | None:
    """The embedded broker a local server announced, if any."""
    path = path or BROKER_FILE
    try:
        data = json.loads(path.read_text())
        return BrokerAddress(host=str(data["host"]), port=int(data["port"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
