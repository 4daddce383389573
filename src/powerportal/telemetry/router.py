"""Ingest health for operators: what the MQTT side received, wrote and refused."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response

from powerportal.api.deps import CurrentCustomer, CurrentRuntime, Gate, Session
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.openapi import ERROR_REF
from powerportal.core.routing import api_router
from powerportal.gateways.refusals import refusal_totals
from powerportal.telemetry.broker_auth import (
    SECRET_HEADER,
    AuthenticationRequest,
    AuthorizationRequest,
    BrokerVerdict,
)

router = api_router("/api/system", "系统")
# EMQX calls these (docs/deployment.md); they answer EMQX's shape, not the envelope, and refuse a
# caller without the shared secret with HTTP 401 (which EMQX reads as "ignore", then denies).
broker_router = api_router("/api/BrokerAuth", "消息服务器认证")
BROKER_DOC: dict[str, Any] = {
    "response_model": BrokerVerdict,
    "responses": {
        401: {
            "description": "未启用，或共享密钥不正确",
            "content": {"application/json": {"schema": ERROR_REF}},
        }
    },
    "openapi_extra": {
        "parameters": [
            {"name": SECRET_HEADER, "in": "header", "required": True, "schema": {"type": "string"}}
        ]
    },
}


def _verdict(verdict: BrokerVerdict) -> Response:
    return Response(orjson.dumps(verdict.model_dump(exclude_none=True)), media_type="application/json")


@broker_router.post("/Authenticate", **BROKER_DOC)
async def authenticate(body: AuthenticationRequest, gate: Gate) -> Response:
    """EMQX's HTTP authenticator: whether a serial number (username), secret and client id log in."""
    return _verdict(await gate.authenticate(body))


@broker_router.post("/Authorize", **BROKER_DOC)
async def authorize(body: AuthorizationRequest, gate: Gate) -> Response:
    """EMQX's HTTP authorizer: whether a client may publish, or subscribe, to a topic."""
    return _verdict(await gate.authorize(body))


OPERATORS_ONLY = "仅平台运维人员（品牌管理员）可查看接入统计"


@router.get("/IngestStats", response_model=Envelope[dict[str, Any]])
async def ingest_stats(
    process: CurrentRuntime, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Platform-wide counters of this process's broker and ingest (operators only: brand administrators)."""
    if not customer.is_brand_admin:
        raise ApiError(OPERATORS_ONLY, status_code=403)
    runtime = process.telemetry
    if runtime is None:
        return ok({"running": False})
    broker = runtime.broker
    return ok(
        {
            "running": True,
            "broker": str(runtime.gateway_address),
            "embedded": broker is not None,
            "connected": runtime.link.connected.is_set(),
            "devicesInMemory": len(runtime.ingest.latest),
            **runtime.ingest.stats.as_dict(),
            "brokerStats": broker.stats.as_dict() if broker is not None else None,
            # Refusals by reason over all gateways and processes since the gateways were registered.
            "refusalsStored": await refusal_totals(session=session),
        }
    )
