"""A private Mosquitto on a port of its own, started and stopped (by process id) by the test using it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import require_service


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Mosquitto:
    """A running private Mosquitto."""

    port: int
    config: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it listens."""
        program = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen(  # noqa: S603
            [program, "-c", str(self.config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"private Mosquitto did not listen on {self.port}")

    def kill(self) -> None:
        """Kill it (-9), as a crash or power cut would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(5)
            self.process = None

    def stop(self) -> None:
        """Stop it (its process, by id)."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
            self.process = None

    @property
    def url(self) -> str:
        """Its address for POWERPORTAL_MQTT_URL."""
        return f"mqtt://127.0.0.1:{self.port}"


@contextlib.contextmanager
def persistence_directory() -> Iterator[Path]:
    """A directory Mosquitto can write its persistence to.

    Started as root, Mosquitto runs as user mosquitto, who cannot enter pytest's temporary directories.
    """
    path = Path(tempfile.mkdtemp(prefix="pp-mosquitto-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def private_mosquitto(directory: Path, extra: str = "") -> Iterator[Mosquitto]:
    """Run a Mosquitto of the test's own (anonymous logins, no persistence) for the ``with`` block."""
    require_service(shutil.which("mosquitto") is not None, "the mosquitto program")
    port = free_port()
    config = directory / "mosquitto.conf"
    config.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n{extra}")
    broker = Mosquitto(port=port, config=config)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


DYNSEC_PLUGIN = Path("/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so")
DYNSEC_ADMIN = ("dynsec-admin", "dynsec-admin-password-0123")


@dataclass
class DynsecMosquitto:
    """A private Mosquitto whose logins and ACLs are its dynamic security plugin's."""

    broker: Mosquitto

    @property
    def admin_url(self) -> str:
        """POWERPORTAL_MOSQUITTO_DYNSEC_URL for it."""
        return f"mqtt://{DYNSEC_ADMIN[0]}:{DYNSEC_ADMIN[1]}@127.0.0.1:{self.broker.port}"

    def url(self, username: str, password: str) -> str:
        """POWERPORTAL_MQTT_URL for a client of the plugin."""
        return f"mqtt://{username}:{password}@127.0.0.1:{self.broker.port}"


@contextlib.contextmanager
def private_dynsec_mosquitto() -> Iterator[DynsecMosquitto]:
    """Run a Mosquitto of the test's own with the dynamic security plugin, initialised with an admin."""
    require_service(shutil.which("mosquitto") is not None, "the mosquitto program")
    ctrl = shutil.which("mosquitto_ctrl")
    require_service(ctrl is not None and DYNSEC_PLUGIN.exists(), "Mosquitto's dynamic security plugin")
    assert ctrl is not None
    with persistence_directory() as directory:
        yield from _dynsec_broker(ctrl, directory)


def _dynsec_broker(ctrl: str, directory: Path) -> Iterator[DynsecMosquitto]:
    state = directory / "dynamic-security.json"
    subprocess.run(  # noqa: S603
        [ctrl, "dynsec", "init", str(state), *DYNSEC_ADMIN], check=True, stdout=subprocess.DEVNULL
    )
    state.chmod(0o666)  # Mosquitto started as root saves it as user mosquitto
    port = free_port()
    config = directory / "mosquitto.conf"
    config.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous false\npersistence false\n"
        f"plugin {DYNSEC_PLUGIN}\nplugin_opt_config_file {state}\n"
    )
    broker = Mosquitto(port=port, config=config)
    broker.start()
    try:
        yield DynsecMosquitto(broker=broker)
    finally:
        broker.stop()
