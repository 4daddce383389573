"""Ingest health for operators: what the MQTT side received, wrote and refused."""

from __future__ import annotations

from typing import Any

from powerportal.api.deps import CurrentCustomer, CurrentRuntime, Session
from powerportal.core.envelope import ApiError, Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router
from powerportal.gateways.refusals import refusal_totals

router = api_router("/api/system", "系统")

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
