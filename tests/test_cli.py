"""The command line and the real server process, over real HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import stamped


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        POWERPORTAL_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}",
        POWERPORTAL_SECRET_KEY="cli-test-secret",
        POWERPORTAL_PASSWORD_HASH_PROFILE="fast",
        **extra,
    )
    return env


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603
        [sys.executable, "-m", "powerportal", *args],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )


def test_create_customer_login_link_and_outbox(tmp_path: Path) -> None:
    created = _cli(
        tmp_path, "create-customer", "--mobile", "13700000001", "--password", "pass1234", "--name", "甲"
    )
    assert created.returncode == 0, created.stderr
    assert "已创建账号 13700000001" in created.stdout
    assert _cli(tmp_path, "create-customer", "--mobile", "13700000001", "--password", "x").returncode == 1
    link = _cli(tmp_path, "login-link", "--mobile", "13700000001")
    assert link.returncode == 0 and "/auth-redirect?param=" in link.stdout
    assert _cli(tmp_path, "login-link", "--mobile", "13700000002").returncode == 1
    assert _cli(tmp_path, "sms-outbox", "--mobile", "13700000001").returncode == 1


def test_serve_prints_address_and_demo_login_and_answers(tmp_path: Path) -> None:
    port = _free_port()
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><div id=root>app</div>")
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "powerportal", "serve", "--port", str(port)],
        env=_env(tmp_path, POWERPORTAL_SEED_DEMO="1", POWERPORTAL_WEB_DIST=str(dist)),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        else:
            raise AssertionError("server did not start")
        body = httpx.post(
            f"{base}/api/CustomerCenter/LoginByPass",
            json={"mobile": "13800000000", "password": stamped("demo123456")},
        ).json()
        assert body["statusCode"] == 200
        page = httpx.get(f"{base}/user-manage/setting/operate-list")
        assert page.status_code == 200 and "id=root" in page.text
        assert httpx.get(f"{base}/api/nothing-here").json()["statusCode"] == 404
    finally:
        process.send_signal(signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
    assert f"http://127.0.0.1:{port}/" in output
    assert "演示账号: 13800000000  密码: demo123456" in output
