"""The layers run one way: core at the bottom, the audit-log recorder above it, domains, then the wiring.

Read from the source's imports, so that the rule stays true as the code grows (docs/decisions.md,
"Layers").
"""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "powerportal"
DOMAINS = {
    "accounts",
    "alarms",
    "brands",
    "control",
    "devices",
    "gateways",
    "logs",
    "projects",
    "sms",
    "telemetry",
    "mqtt",
    "energy",
    "reports",
    "load_ident",
    "shares",
    "billing",
    "dashboard",
}
ABOVE_DOMAINS = {
    "api",
    "app",
    "runtime",
    "cli",
    "demo",
    "demo_activity",
    "demo_history",
    "simulator",
    "edge",
    "models",
    "__main__",
}


def imports_of(path: Path) -> set[str]:
    """Every ``powerportal.…`` module a file imports, at any depth of the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("powerportal"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("powerportal"))
    return found


def package_of(module: str) -> str:
    """``powerportal.alarms.service`` → ``alarms``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def modules(package: str) -> list[Path]:
    return sorted((SOURCE / package).rglob("*.py"))


def test_core_imports_no_domain() -> None:
    for path in modules("core"):
        outside = {m for m in imports_of(path) if package_of(m) not in ("core", "")}
        assert not outside, f"{path.relative_to(SOURCE)} imports {sorted(outside)}"


def test_the_audit_log_recorder_imports_only_core() -> None:
    for path in (SOURCE / "logs" / "recording.py", SOURCE / "logs" / "models.py"):
        allowed = {"core"}
        found = {m for m in imports_of(path) if m.startswith("powerportal.")}
        outside = {
            m for m in found if package_of(m) not in allowed and not m.startswith("powerportal.logs.models")
        }
        assert not outside, f"{path.relative_to(SOURCE)} imports {sorted(outside)}"


def test_sms_is_a_channel_that_knows_nothing_of_alarms() -> None:
    for path in modules("sms"):
        alarms = {m for m in imports_of(path) if package_of(m) == "alarms"}
        assert not alarms, f"{path.relative_to(SOURCE)} imports {sorted(alarms)}"


def test_alarms_use_sms_only_as_a_channel() -> None:
    for path in modules("alarms"):
        sms = {m for m in imports_of(path) if package_of(m) == "sms"}
        assert sms <= {"powerportal.sms", "powerportal.sms.billing"}, (
            f"{path.relative_to(SOURCE)} imports {sorted(sms)}"
        )


def test_no_domain_imports_the_wiring_above_it() -> None:
    for package in sorted(p.name for p in SOURCE.iterdir() if p.is_dir() and p.name in DOMAINS):
        for path in modules(package):
            if path.name == "router.py":
                continue  # routers are request wiring: they take their dependencies from api/deps.py
            above = {m for m in imports_of(path) if package_of(m) in ABOVE_DOMAINS}
            assert not above, f"{path.relative_to(SOURCE)} imports {sorted(above)}"


def test_every_package_is_placed_in_a_layer() -> None:
    packages = {p.name for p in SOURCE.iterdir() if p.is_dir() and not p.name.startswith("__")}
    files = {p.stem for p in SOURCE.glob("*.py")}
    unplaced = (packages | files) - DOMAINS - ABOVE_DOMAINS - {"core", "migrations", "__init__"}
    assert not unplaced, (
        f"say where {sorted(unplaced)} sit in the layers (tests/test_layers.py, docs/decisions.md)"
    )
