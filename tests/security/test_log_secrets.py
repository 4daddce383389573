"""No token, password, code, link or secret reaches the log, whatever the log level."""

from __future__ import annotations

import logging

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from tests.conftest import Harness, latest_code, login, make_customer, stamped
from tests.factories import make_project

CC = "/api/CustomerCenter"
GW = "/api/CustomerGateway"


async def test_secrets_never_reach_the_log(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets: list[str] = [harness.ctx.settings.secret_key]
    with caplog.at_level(logging.DEBUG):  # every logger, every level, the SQL engine's included
        await make_customer(harness, password="secret123", is_brand_admin=True)
        token = await login(harness)
        secrets += [token, stamped("secret123"), "secret123"]

        await harness.post(f"{CC}/SendRegisterSms", {"mobile": "13900000003"})
        code = await latest_code(harness, "13900000003")
        registered = await harness.post(
            f"{CC}/Register",
            {"mobile": "13900000003", "validate_code": code, "password": "newpass1", "name": "王五"},
        )
        assert registered["statusCode"] == 200
        secrets += [code, "newpass1", registered["data"]["token"]]

        wrong = await harness.post(
            f"{CC}/LoginByPass", {"mobile": "13900000001", "password": stamped("nope12")}
        )
        assert wrong["statusCode"] == 400
        refused = await harness.post(f"{CC}/MyInfo", token="not-a-token-" + "x" * 30)
        assert refused["statusCode"] == 401
        secrets.append("nope12")

        link = await harness.post(f"{CC}/CreateLoginLink", {"mobile": "13900000003"}, token=token)
        used = await harness.post(f"{CC}/LoginByLink", {"param": link["data"]["param"]})
        assert used["statusCode"] == 200
        secrets += [link["data"]["param"], used["data"]["token"]]

        project = await make_project(harness, 1)
        added = await harness.post(
            f"{GW}/AddGateway", {"sn": "LOG-0001", "name": "网关", "project_sysno": project}, token=token
        )
        reset = await harness.post(f"{GW}/ResetGatewaySecret", {"sysno": added["data"]["sysno"]}, token=token)
        secrets += [added["data"]["secret"], reset["data"]["secret"]]

        # An unexpected failure is logged with its traceback: the statement's parameters stay out of it.
        async def failing_commit(self: AsyncSession) -> None:
            raise RuntimeError("disk full")

        monkeypatch.setattr(AsyncSession, "commit", failing_commit)
        transport = httpx.ASGITransport(app=harness.app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            failed = await client.put(
                f"{CC}/UpdateCustomer", json={"name": "新名字"}, headers={"SYSTOKEN": token}
            )
        assert failed.status_code == 500
        monkeypatch.undo()

    logged = "\n".join(f"{record.getMessage()}\n{caplog.handler.format(record)}" for record in caplog.records)
    assert "unhandled error on PUT" in logged  # the log was captured at all
    leaked = [secret for secret in secrets if secret and secret in logged]
    assert not leaked, leaked


async def test_sql_errors_do_not_show_their_parameters(harness: Harness) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError, StatementError

    async with harness.ctx.sessions() as session:
        with pytest.raises((DBAPIError, StatementError)) as raised:
            await session.execute(
                text("SELECT no_such_column FROM customer WHERE mobile = :m"), {"m": "s3cr3t-value"}
            )
    assert "s3cr3t-value" not in str(raised.value)
