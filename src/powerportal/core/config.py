"""Settings read from the environment (prefix ``POWERPORTAL_``)."""

from __future__ import annotations

import secrets
from functools import cached_property
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Where the server keeps its files unless told otherwise (POWERPORTAL_DATA_DIR): the SQLite database,
# the generated secret, report files, the embedded broker's address for local tools, the demo's secrets.
DATA_DIR = Path("data")
# The PDF exports' Chinese font, as `make install` fetches it (npm package @expo-google-fonts/noto-sans-sc).
PDF_FONT_DIR = (
    Path(__file__).resolve().parents[3] / "vendor/fonts/node_modules/@expo-google-fonts/noto-sans-sc"
)


class Settings(BaseSettings):
    """Every knob of the server, with the embedded defaults a fresh machine needs."""

    model_config = SettingsConfigDict(env_prefix="POWERPORTAL_", extra="ignore")

    data_dir: Path = DATA_DIR
    # Defaults under data_dir (see _under_data_dir): data_dir/powerportal.db.
    database_url: str = f"sqlite+aiosqlite:///{DATA_DIR / 'powerportal.db'}"
    secret_key: str = ""
    brand: int = Field(default=0, ge=0, le=7)
    brand_hosts: dict[str, int] = Field(default_factory=dict)
    web_dist: Path = Path("web/dist")
    # A folder holding NotoSansSC_400Regular.ttf and NotoSansSC_700Bold.ttf (or the npm package's).
    pdf_font_dir: Path = PDF_FONT_DIR
    seed_demo: bool = False
    redis_url: str = ""

    # Sessions: a token dies after this much idleness, and after this long regardless.
    token_idle_seconds: int = 12 * 3600
    token_absolute_seconds: int = 7 * 24 * 3600
    token_cache_seconds: float = 5.0
    # How long another process's list counts may lag behind (this process's are always fresh).
    count_cache_seconds: float = 2.0
    # PostgreSQL connections of the hot-read pool (core/reads.py), besides the engine's 20 (+20 overflow).
    read_pool_size: int = Field(default=25, ge=1, le=200)
    password_hash_profile: Literal["default", "fast"] = "default"  # noqa: S105
    login_max_failures_per_account: int = 5
    login_max_failures_per_ip: int = 30
    login_failure_window_seconds: int = 15 * 60

    sms_provider: Literal["outbox", "aliyun", "tencent"] = "outbox"
    sms_code_ttl_seconds: int = 300
    sms_resend_seconds: int = 60
    sms_max_attempts: int = 5
    sms_per_number_per_day: int = 20
    sms_per_ip_per_hour: int = 30
    sms_sign_name: str = ""
    sms_template_code: str = ""
    sms_access_key_id: str = ""
    sms_access_key_secret: str = ""
    sms_sdk_app_id: str = ""
    sms_region: str = "ap-guangzhou"

    login_link_max_age_ms: int = 60000
    max_body_bytes: int = 1024 * 1024
    # The proxies in front of the app (addresses or networks, comma-separated): X-Forwarded-For is read
    # only from them, and the caller is its rightmost entry that is not one of them. Empty: not read.
    trusted_proxies: str = ""

    # MQTT: an external broker by URL (mqtt://user:pass@host:port), else the embedded one.
    mqtt_url: str = ""
    embedded_broker: bool = True
    mqtt_bind: str = "127.0.0.1"
    mqtt_port: int = 1883
    # The embedded broker also serves MQTT over TLS on this port when a certificate and key are set.
    mqtt_tls_port: int = Field(default=8883, ge=0, le=65535)
    mqtt_tls_cert: str = ""
    mqtt_tls_key: str = ""
    # The embedded broker's limits (docs/gateway-protocol.md, "Limits"); each refusal is counted.
    mqtt_max_message_bytes: int = Field(default=256 * 1024, ge=1024, le=16 * 1024 * 1024)
    mqtt_max_inflight: int = Field(default=20, ge=1, le=65535)
    mqtt_max_queued: int = Field(default=1000, ge=0, le=1_000_000)
    mqtt_max_unacknowledged: int = Field(default=100, ge=1, le=65535)
    mqtt_connections_per_gateway: int = Field(default=4, ge=1, le=1000)
    mqtt_session_expiry_seconds: int = Field(default=24 * 3600, ge=0)
    # What one gateway may send (bursts of 10× messages, 8× bytes); beyond it, it is read slower.
    mqtt_gateway_messages_per_second: float = Field(default=200, gt=0)
    mqtt_gateway_bytes_per_second: float = Field(default=2 * 1024 * 1024, gt=0)
    mqtt_gateway_connects_per_minute: float = Field(default=60, gt=0)
    # Logins from one address that need the password check: a burst, then this many a second.
    mqtt_slow_logins_per_second: float = Field(default=1.0, gt=0)
    mqtt_slow_logins_burst: float = Field(default=20.0, ge=1)
    # Connections not logged in yet, from one address and in all; beyond them a connection is closed at once.
    mqtt_logins_waiting_per_address: int = Field(default=64, ge=1, le=1_000_000)
    mqtt_logins_waiting: int = Field(default=1024, ge=1, le=1_000_000)
    max_devices_per_gateway: int = Field(default=1024, ge=1, le=100_000)
    # Raw readings older than this are deleted daily (energy roll-ups are kept for good); 0 keeps all.
    reading_retention_days: int = Field(default=400, ge=0)
    # How often each process reads gateways' credential changes (secret reset, move, delete).
    revocation_poll_seconds: float = Field(default=0.25, gt=0, le=1)
    # On an external broker each ingest process keeps a persistent session under its own client id
    # (default: powerportal-ingest-<host name>; set one per process when several run on one host).
    mqtt_client_id: str = Field(default="", max_length=128)
    mqtt_ingest_session_seconds: int = Field(default=24 * 3600, ge=0)
    # Ingest workers share the subscription on an external broker ("" subscribes plainly).
    mqtt_shared_group: str = "powerportal"
    # EMQX's HTTP authenticator and authorizer call /api/BrokerAuth/* with this shared secret in the
    # X-Broker-Secret header (docs/deployment.md); empty: those routes refuse every call.
    broker_auth_secret: str = Field(default="", max_length=256)
    # Mosquitto's dynamic security plugin, as its admin (mqtt://admin:pass@host:1883): the platform keeps
    # one client and role per gateway there (docs/deployment.md); empty: not used.
    mosquitto_dynsec_url: str = ""
    mosquitto_dynsec_timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    ingest: bool = True
    ingest_batch_size: int = Field(default=2000, ge=1)
    # Off trades the last fraction of a second of readings on a PostgreSQL crash for fewer disk flushes.
    ingest_durable_commit: bool = True
    ingest_batch_ms: int = Field(default=200, ge=1)
    # A gateway that sends nothing for this long is offline; a device silent this long too.
    gateway_offline_seconds: float = Field(default=180, gt=0)
    device_offline_seconds: float = Field(default=300, gt=0)
    # Alarm rules on the ingest: a value must stay beyond a threshold this long to open an alarm (and
    # back inside it, less the hysteresis fraction of the threshold, this long to close it).
    alarms: bool = True
    alarm_hysteresis: float = Field(default=0.03, ge=0, le=0.5)
    alarm_min_seconds: float = Field(default=10, ge=0, le=3600)
    # Demo mode feeds the demo gateways from an in-process simulator every this many seconds.
    demo_simulator: bool = True
    simulator_interval_seconds: float = Field(default=5, gt=0)
    # Days of consumption history written for the demo breakers on a fresh install (0: none).
    demo_history_days: int = Field(default=400, ge=0, le=731)
    # Remote control: how long a command waits for the gateway's answer; the timed-task scheduler.
    command_timeout_seconds: float = Field(default=10, gt=0, le=120)
    scheduler: bool = True
    scheduler_tick_seconds: float = Field(default=5, gt=0)
    # A timed occurrence missed while no scheduler ran is still run this long after its time, else skipped.
    scheduler_grace_seconds: float = Field(default=300, ge=0)
    # The report centre: background report files, kept this many days; a job that runs longer fails.
    reports: bool = True
    report_dir: Path = DATA_DIR / "reports"  # default: data_dir/reports
    report_keep_days: int = Field(default=7, ge=1, le=365)
    report_tick_seconds: float = Field(default=2, gt=0)
    report_job_timeout_seconds: float = Field(default=600, gt=0)
    # A worker beats every this many seconds; a running job silent 4 beats lost its process.
    report_heartbeat_seconds: float = Field(default=10, gt=0)
    # A scheduled report is made this long after its period ends (late readings have arrived).
    report_schedule_delay_minutes: int = Field(default=60, ge=0, le=24 * 60)
    # Scheduled reports go out by e-mail through this SMTP server (none: only the notice).
    smtp_host: str = ""
    smtp_port: int = Field(default=25, ge=1, le=65535)
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = "powerportal@localhost"
    smtp_security: Literal["none", "starttls", "ssl"] = "none"
    smtp_timeout_seconds: float = Field(default=30, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _under_data_dir(cls, values: Any) -> Any:
        """The database and the report files default to places under ``data_dir``."""
        if not isinstance(values, dict):
            return values
        data_dir = Path(values.get("data_dir") or DATA_DIR)
        values = dict(values)
        values.setdefault("database_url", f"sqlite+aiosqlite:///{data_dir / 'powerportal.db'}")
        values.setdefault("report_dir", data_dir / "reports")
        return values

    @property
    def broker_file(self) -> Path:
        """Where a serving process tells local tools (``powerportal simulate``) which port its broker took."""
        return self.data_dir / "mqtt-broker.json"

    @property
    def demo_gateways_file(self) -> Path:
        """The demo gateways' serial numbers and secrets, for the simulator."""
        return self.data_dir / "demo-gateways.json"

    @cached_property
    def effective_secret_key(self) -> str:
        """The configured secret, or one generated once and kept under ``data_dir``."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret.key"
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key)
        path.chmod(0o600)
        return key

    @cached_property
    def trusted_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        """``trusted_proxies`` parsed."""
        return tuple(
            ip_network(part.strip(), strict=False) for part in self.trusted_proxies.split(",") if part.strip()
        )

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is SQLite."""
        return self.database_url.startswith("sqlite")
