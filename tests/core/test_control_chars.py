"""Text with control characters is refused before it reaches the database."""

from __future__ import annotations

import httpx

from tests.conftest import Harness, login, make_customer


async def test_nul_in_a_name_is_refused_and_nothing_changes(harness: Harness) -> None:
    await make_customer(harness)
    token = await login(harness)
    refused = await harness.put("/api/CustomerCenter/UpdateCustomer", {"name": "a\x00b"}, token=token)
    assert refused == {"statusCode": 400, "message": "姓名包含非法字符", "data": None}
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=token))["data"]["name"] == "测试用户"


async def test_a_failed_commit_is_never_reported_as_success(harness: Harness, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy.ext.asyncio import AsyncSession

    await make_customer(harness)
    token = await login(harness)

    async def broken_commit(self: AsyncSession) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(AsyncSession, "commit", broken_commit)
    transport = httpx.ASGITransport(app=harness.app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.put(
            "/api/CustomerCenter/UpdateCustomer", json={"name": "新名字"}, headers={"SYSTOKEN": token}
        )
    assert response.json() == {"statusCode": 500, "message": "服务器内部错误，请稍后再试", "data": None}
    monkeypatch.undo()
    assert (await harness.post("/api/CustomerCenter/MyInfo", token=token))["data"]["name"] == "测试用户"
