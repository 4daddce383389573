"""POWERPORTAL_DATA_DIR moves every file the server keeps of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from powerportal.core.config import Settings


def test_the_data_folder_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "var" / "powerportal"
    monkeypatch.setenv("POWERPORTAL_DATA_DIR", str(folder))
    monkeypatch.delenv("POWERPORTAL_DATABASE_URL", raising=False)
    monkeypatch.delenv("POWERPORTAL_REPORT_DIR", raising=False)
    monkeypatch.delenv("POWERPORTAL_SECRET_KEY", raising=False)
    settings = Settings()
    assert settings.database_url == f"sqlite+aiosqlite:///{folder}/powerportal.db"
    assert settings.report_dir == folder / "reports"
    assert settings.broker_file == folder / "mqtt-broker.json"
    assert settings.demo_gateways_file == folder / "demo-gateways.json"
    key = settings.effective_secret_key
    assert (folder / "secret.key").read_text() == key and len(key) > 40


def test_explicit_paths_win_over_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POWERPORTAL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("POWERPORTAL_DATABASE_URL", "postgresql+asyncpg://u@db/pp")
    monkeypatch.setenv("POWERPORTAL_REPORT_DIR", "/srv/reports")
    settings = Settings()
    assert settings.database_url == "postgresql+asyncpg://u@db/pp"
    assert settings.report_dir == Path("/srv/reports")


def test_the_default_is_data_in_the_working_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATA_DIR", "DATABASE_URL", "REPORT_DIR"):
        monkeypatch.delenv(f"POWERPORTAL_{name}", raising=False)
    settings = Settings()
    assert settings.data_dir == Path("data")
    assert settings.database_url == "sqlite+aiosqlite:///data/powerportal.db"
    assert settings.report_dir == Path("data/reports")
