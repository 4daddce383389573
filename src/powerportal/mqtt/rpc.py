"""Commands to gateways: publish ``rpc/request`` and wait for the ``rpc/response`` with the same id."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from powerportal.core.ratelog import LogBudget
from powerportal.mqtt import codec, thingsboard

log = logging.getLogger("powerportal.mqtt.rpc")
budget = LogBudget(log)

Publish = Callable[[str, bytes], Awaitable[None]]


class RpcClient:
    """Matches gateway answers to the requests waiting for them."""

    def __init__(self, publish: Publish) -> None:
        self._publish = publish
        self._pending: dict[tuple[str, str], asyncio.Future[codec.RpcResponse]] = {}
        self.timeouts = 0
        # Answers that match no waiting request (late, made up, or to another's): counted, logged sparingly.
        self.unmatched = 0

    async def call(
        self,
        *,
        sn: str,
        device_id: str,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float = 10.0,
    ) -> codec.RpcResponse:
        """Send a request and return the gateway's answer; ``TimeoutError`` when none comes in time."""
        # 16 hex digits below 2**53: a ThingsBoard gateway gets the same id as a number it keeps exactly.
        request_id = format(secrets.randbits(53), "016x")
        topic, payload = codec.encode_rpc_request(
            sn=sn, request_id=request_id, device_id=device_id, method=method, params=params
        )
        # The platform does not know which API a gateway speaks: it says it both ways (only one is heard).
        tb_topic, tb_payload = thingsboard.encode_rpc_request(
            sn=sn, request_id=request_id, device_id=device_id, method=method, params=params
        )
        future: asyncio.Future[codec.RpcResponse] = asyncio.get_running_loop().create_future()
        self._pending[(sn, request_id)] = future
        try:
            await self._publish(topic, payload)
            try:
                await self._publish(tb_topic, tb_payload)
            except Exception as exc:  # e.g. a broker account without tb/#: our own gateways still get theirs
                budget.warning("tb_publish", "rpc %s: ThingsBoard form not published: %s", request_id, exc)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.timeouts += 1
            log.warning(
                "rpc %s %s on %s/%s timed out after %.0fs", request_id, method, sn, device_id, timeout
            )
            raise
        finally:
            self._pending.pop((sn, request_id), None)

    def resolve(self, sn: str, response: codec.RpcResponse) -> None:
        """Hand an answer to its waiting request (late or unknown answers are logged and dropped)."""
        future = self._pending.get((sn, response.id))
        if future is None or future.done():
            self.unmatched += 1
            budget.warning("unmatched", "rpc response %s from %s matches no waiting request", response.id, sn)
            return
        future.set_result(response)
