"""Ingest health for operators: what the MQTT side received, wrote and refused."""

from __future__ import annotations

from typing import Any

from powerportal.api.deps import CurrentCustomer, CurrentRuntime
from powerportal.core.envelope import Envelope, EnvelopeResponse, ok
from powerportal.core.routing import api_router

router = api_router("/api/system", "系统")


@router.get("/IngestStats", response_model=Envelope[dict[str, Any]])
async def ingest_stats(process: CurrentRuntime, _customer: CurrentCustomer) -> EnvelopeResponse:
    """Counters of the ingest in this process (messages, readings written, refused messages by reason)."""
    runtime = process.telemetry
    if runtime is None:
        return ok({"running": False})
    return ok(
        {
            "running": True,
            "broker": str(runtime.gateway_address),
            "embedded": runtime.broker is not None,
            "connected": runtime.link.connected.is_set(),
            "devicesInMemory": len(runtime.ingest.latest),
            **runtime.ingest.stats.as_dict(),
        }
    )
