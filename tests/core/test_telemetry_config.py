"""FastAPI's OpenTelemetry is on only where the environment configures OpenTelemetry."""

from __future__ import annotations

import os

import pytest

from powerportal.app import create_app, telemetry_config
from powerportal.core.config import Settings


def test_off_without_otel_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith(("OTEL_", "FASTAPI_OTEL_"))]:
        monkeypatch.delenv(name)
    assert telemetry_config() == {"tracing": False, "metrics": False, "logs": False}
    app = create_app(Settings(database_url="sqlite+aiosqlite://"))
    assert not app._native_telemetry.enabled()


@pytest.mark.parametrize(
    "name", ["OTEL_SERVICE_NAME", "OTEL_EXPORTER_OTLP_ENDPOINT", "FASTAPI_OTEL_AUTO_CONFIGURE"]
)
def test_fastapi_defaults_with_otel_variables(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(name, "x")
    assert telemetry_config() is None
