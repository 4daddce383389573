"""Schemathesis against the application: every documented operation answers as the document says.

This runs schemathesis's own engine (what ``schemathesis run`` runs: the examples, coverage, fuzzing
and stateful phases with the default checks) in-process against the ASGI application, logged in as
a customer who owns a project, a building, a gateway and a device (all with sysno 1, which the
coverage phase tries). Any failed check fails the test and prints schemathesis's reproduction.

The configuration is the repository's ``schemathesis.toml`` (the CLI reads it too), where each
deliberate choice stands with its reason: the body-401 rule switches off ``ignored_auth`` and
``missing_required_header`` (``login_refused_in_body`` below does their work on the envelope), and
``LoginOut`` is left out because it would end the run's own login. This test adds a budget of
examples and three checks of its own.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from schemathesis import engine
from schemathesis.checks import CheckContext
from schemathesis.config import SchemathesisConfig
from schemathesis.core.transport import Response
from schemathesis.engine import events
from schemathesis.generation.case import Case
from schemathesis.python import asgi

from powerportal.app import create_app
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.downloads import MEDIA
from powerportal.core.envelope import LOGIN_EXPIRED
from powerportal.models import Base
from tests.conftest import make_customer, make_settings, stamped
from tests.factories import make_building, make_device, make_gateway, make_project

MOBILE = "13900000001"
PASSWORD = "secret123"
LOGIN_OUT = "/api/CustomerCenter/LoginOut"
# Enough examples per operation to reach every documented branch of the input (the coverage phase
# adds its boundary cases on top), few enough for a run of about a minute per database on 2 cores.
MAX_EXAMPLES = 25

CONFIG_FILE = Path(__file__).resolve().parents[2] / "schemathesis.toml"


def _config() -> SchemathesisConfig:
    config = SchemathesisConfig.from_path(CONFIG_FILE)
    config.projects.default.generation.update(max_examples=MAX_EXAMPLES)
    return config


@dataclass
class Probe:
    """What the custom checks need to know of the run (reset for each database)."""

    secured: set[str] = field(default_factory=set)
    probed: set[str] = field(default_factory=set)
    sqlite_file: str | None = None


PROBE = Probe()


def _is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@schemathesis.check
def envelope_with_a_chinese_message(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """Every answer, documented status or not, is the envelope; a refusal says why in Chinese."""
    media = next((v[0] for k, v in response.headers.items() if k.lower() == "content-type" and v), "")
    if response.status_code == 200 and media.startswith(tuple(MEDIA.values())):
        return None  # a file, as the export's operation documents
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"statusCode", "message", "data"}, body
    if body["statusCode"] != 200:
        assert _is_chinese(body["message"]), body
        assert body["data"] is None or case.operation.path == "/api/CustomerControl/SendCommand", body
    return None


@schemathesis.check
def login_refused_in_body(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """A secured operation refuses a missing or wrong SYSTOKEN: HTTP 200, statusCode 401, the spec message."""
    label = f"{case.method.upper()} {case.operation.path}"
    if label not in PROBE.secured or label in PROBE.probed:
        return None
    PROBE.probed.add(label)
    for token in ("", "x" * 43):
        refused = case.call(headers={"SYSTOKEN": token})
        assert refused.status_code == 200, (label, token, refused.status_code)
        assert refused.json() == {"statusCode": 401, "message": LOGIN_EXPIRED, "data": None}, label
    return None


@schemathesis.check
def malformed_input_changes_nothing(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """Malformed input (HTTP 400) adds and removes no row anywhere (checked on SQLite).

    Rows are counted rather than commits, and the ``command`` table is left out: an earlier group
    switch goes on writing its commands in the background after its answer. (A switch started by
    malformed input would still show in ``control_run`` and ``operation_log``.)
    """
    if PROBE.sqlite_file is None or response.status_code != 400:
        return None
    before = _row_counts()
    repeated = case.call()
    assert repeated.status_code == 400, repeated.text
    assert _row_counts() == before, f"{case.method} {case.operation.path} changed the rows"
    return None


_watch: sqlite3.Connection | None = None


def _row_counts() -> dict[str, int]:
    """The number of rows of every table."""
    assert _watch is not None
    return {
        table.name: int(_watch.execute(f'SELECT count(*) FROM "{table.name}"').fetchone()[0])
        for table in Base.metadata.sorted_tables
        if table.name != "command"
    }


async def _seed(settings: Settings) -> None:
    """The customer owns a project with a building, a gateway and a device, so that sysno 1 exists."""
    ctx = AppContext.build(settings)
    try:
        seeding: Any = _Seeding(ctx)
        customer = await make_customer(seeding, mobile=MOBILE, password=PASSWORD)
        project = await make_project(seeding, customer)
        building = await make_building(seeding, project)
        gateway = await make_gateway(seeding, project, building, online=True)
        await make_device(seeding, gateway, project, online=1, switch_state=1)
    finally:
        await ctx.close()


@dataclass
class _Seeding:
    """The factories' view of a harness: they only need its context."""

    ctx: AppContext


def _failures(stream: Iterator[events.EngineEvent]) -> list[str]:
    """Schemathesis's reports of every failed check and every error of the run."""
    found: list[str] = []
    for event in stream:
        if isinstance(event, events.ScenarioFinished):
            for checks in event.recorder.checks.values():
                for check in checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        found.append(
                            f"{event.recorder.label} [{check.name}] {failure.title}\n{failure.message}\n"
                            f"{check.failure_info.code_sample}"
                        )
        elif isinstance(event, events.NonFatalError):
            found.append(f"{event.label}: {event.info.format()}")
        elif isinstance(event, events.FatalError):
            found.append(f"fatal: {event.exception!r}")
    return found


@pytest.fixture
def running_app(database_url: str) -> Iterator[Any]:
    """The application on a seeded database, its lifespan run by schemathesis's ASGI client."""
    global _watch
    settings = make_settings(database_url)
    asyncio.run(_seed(settings))
    app = create_app(settings)
    PROBE.secured = {
        f"{method.upper()} {path}"
        for path, item in app.openapi()["paths"].items()
        for method, operation in item.items()
        if operation.get("security")
    }
    PROBE.probed = set()
    PROBE.sqlite_file = database_url.split("///", 1)[1] if database_url.startswith("sqlite") else None
    # The checks run on the engine's worker threads; the connection only reads a counter.
    _watch = sqlite3.connect(PROBE.sqlite_file, check_same_thread=False) if PROBE.sqlite_file else None
    try:
        yield app
    finally:
        asgi.shutdown_lifespans()
        if _watch is not None:
            _watch.close()
            _watch = None


def test_every_operation_keeps_the_contract(running_app: Any) -> None:
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", running_app, config=_config())
    with asgi.get_client(running_app) as client:
        login = client.post(
            "/api/CustomerCenter/LoginByPass", json={"mobile": MOBILE, "password": stamped(PASSWORD)}
        ).json()
    assert login["statusCode"] == 200, login
    schema.config.update(headers={"SYSTOKEN": login["data"]["token"]})
    tested = {f"{op.ok().method.upper()} {op.ok().path}" for op in schema.get_all_operations()}
    assert len(tested) >= 90 and f"POST {LOGIN_OUT}" not in tested

    failures = _failures(engine.from_schema(schema).execute())

    assert not failures, f"{len(failures)} failed checks:\n\n" + "\n\n".join(failures)
    assert PROBE.probed == PROBE.secured - {f"POST {LOGIN_OUT}"}
