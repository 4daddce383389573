"""The MQTT tests run on the same sites as the telemetry tests (embedded broker and Mosquitto)."""

from tests.telemetry.conftest import broker_kind, site  # noqa: F401  (fixtures)
