"""Shared fixtures: every test runs on SQLite and, when it is reachable, on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from powerportal.app import create_app
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.database import create_engine
from powerportal.core.migrate import upgrade
from powerportal.models import Base
from powerportal.runtime import Runtime

PG_URL = os.environ.get("POWERPORTAL_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"


def _pg_reachable() -> bool:
    async def probe() -> bool:
        try:
            conn = await asyncpg.connect(PG_URL.replace("+asyncpg", ""), timeout=3)
        except (OSError, asyncpg.PostgresError):
            return False
        await conn.close()
        return True

    return asyncio.run(probe())


PG_UP = _pg_reachable()


def require_service(up: bool, name: str) -> None:
    """Skip a test whose server is down, but fail it in CI where every service must be up."""
    if up:
        return
    if IN_CI:
        pytest.fail(f"{name} is not reachable and CI=true: CI must run these tests")
    pytest.skip(f"{name} is not reachable")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies."""
    path = tmp_path_factory.mktemp("template") / "template.db"

    async def build() -> None:
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        await upgrade(engine)
        await engine.dispose()

    asyncio.run(build())
    return path


@pytest.fixture(scope="session")
def pg_migrated() -> Iterator[str]:
    """A PostgreSQL database of this test session's own (so parallel runs never collide), migrated once."""
    yield from migrated_pg(f"pp_test_{os.getpid()}")


def migrated_pg(name: str) -> Iterator[str]:
    """Create and migrate the PostgreSQL database ``name``, yield its URL, then drop it."""
    require_service(PG_UP, "PostgreSQL")
    admin_dsn = PG_URL.replace("+asyncpg", "")

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(admin_dsn, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def build(url: str) -> None:
        await admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin(f'CREATE DATABASE "{name}"')
        engine = create_engine(url)
        await upgrade(engine)
        await engine.dispose()

    url = PG_URL.rsplit("/", 1)[0] + f"/{name}"
    asyncio.run(build(url))
    yield url
    asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database for one test."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        target = tmp_path / "test.db"
        shutil.copy(template, target)
        yield f"sqlite+aiosqlite:///{target}"
        return
    url: str = request.getfixturevalue("pg_migrated")

    async def truncate() -> None:
        engine = create_engine(url)
        names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
        async with engine.begin() as conn:
            await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        await engine.dispose()

    asyncio.run(truncate())
    yield url


def make_settings(database_url: str, **overrides: Any) -> Settings:
    """Settings for a test: fast hashing, a fixed secret."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "secret_key": "test-secret-key-for-powerportal",
        "password_hash_profile": "fast",
        "web_dist": Path("/nonexistent"),
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class Harness:
    """A running app, its context, its runtime and an HTTP client on it."""

    app: FastAPI
    ctx: AppContext
    client: httpx.AsyncClient

    @property
    def runtime(self) -> Runtime:
        """The app's running parts (MQTT side, command sender, scheduler)."""
        runtime: Runtime = self.app.state.runtime
        return runtime

    async def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """Send a request and return the envelope."""
        headers = kwargs.pop("headers", {})
        if token:
            headers["SYSTOKEN"] = token
        response = await self.client.request(method, path, headers=headers, **kwargs)
        assert response.status_code < 500, response.text
        body: dict[str, Any] = response.json()
        assert set(body) == {"statusCode", "message", "data"}, body
        return body

    async def post(self, path: str, json: Any = None, token: str | None = None) -> dict[str, Any]:
        """POST JSON."""
        return await self.call("POST", path, token=token, json=json if json is not None else {})

    async def put(self, path: str, json: Any, token: str | None = None) -> dict[str, Any]:
        """PUT JSON."""
        return await self.call("PUT", path, token=token, json=json)


async def start_harness(settings: Settings) -> AsyncIterator[Harness]:
    """Run the app's lifespan and hand out a client."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield Harness(app=app, ctx=app.state.ctx, client=client)


@pytest.fixture
async def harness(database_url: str) -> AsyncIterator[Harness]:
    """The app on a fresh database, brand 0."""
    async for h in start_harness(make_settings(database_url)):
        yield h


def stamped(password: str, at_ms: int | None = None) -> str:
    """Encode a password the way the login form does."""
    stamp = str(at_ms if at_ms is not None else int(time.time() * 1000))
    return f"{stamp}{password}{stamp}"


async def make_customer(
    h: Harness, mobile: str = "13900000001", password: str = "secret123", **fields: Any
) -> int:
    """Insert a customer and return its sysno."""
    from powerportal.accounts import service as accounts

    async with h.ctx.sessions() as session:
        customer = await accounts.create_customer(
            session=session,
            ctx=h.ctx,
            mobile=mobile,
            password=password,
            name=fields.pop("name", "测试用户"),
            is_brand_admin=fields.pop("is_brand_admin", False),
        )
        for key, value in fields.items():
            setattr(customer, key, value)
        await session.commit()
        return customer.sysno


async def login(h: Harness, mobile: str = "13900000001", password: str = "secret123") -> str:
    """Log in by password and return the token."""
    body = await h.post("/api/CustomerCenter/LoginByPass", {"mobile": mobile, "password": stamped(password)})
    assert body["statusCode"] == 200, body
    token: str = body["data"]["token"]
    return token


async def latest_code(h: Harness, mobile: str) -> str:
    """Read the code of the latest SMS to a number from the outbox."""
    from powerportal.sms import service as sms

    async with h.ctx.sessions() as session:
        message = await sms.peek_code(ctx=h.ctx, session=session, mobile=mobile)
    assert message is not None
    found = re.search(r"验证码为 (\d{6})", message.content)
    assert found, message.content
    return found.group(1)
