"""Security headers on every answer, and the methods a 405 allows."""

from __future__ import annotations

import re

import httpx
import pytest

from powerportal.core.headers import API_POLICY, WEB_POLICY
from tests.conftest import Harness


def assert_secured(response: httpx.Response, policy: str) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["content-security-policy"] == policy
    assert "frame-ancestors 'none'" in policy


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/health", 200),
        ("POST", "/api/CustomerCenter/MyInfo", 200),  # body statusCode 401
        ("POST", "/api/CustomerCenter/NoSuchCall", 404),
        ("GET", "/api/CustomerCenter/MyInfo", 405),
        ("POST", "/api/CustomerCenter/LoginByPass", 400),
        ("GET", "/api/openapi.json", 200),
    ],
)
async def test_api_answers_carry_the_api_policy(
    harness: Harness, method: str, path: str, status: int
) -> None:
    response = await harness.client.request(method, path, content=b"{" if status == 400 else None)
    assert response.status_code == status
    assert_secured(response, API_POLICY)


async def test_oversize_and_web_answers_are_secured(harness: Harness) -> None:
    oversize = await harness.client.post(
        "/api/CustomerCenter/LoginByPass",
        content=b"x" * (2 * 1024 * 1024),
        headers={"content-type": "application/json"},
    )
    assert oversize.status_code == 413
    assert_secured(oversize, API_POLICY)
    page = await harness.client.get("/login")
    assert page.status_code == 200
    assert_secured(page, WEB_POLICY)


async def test_the_document_browser_loads_only_its_own_files_and_script(harness: Harness) -> None:
    page = await harness.client.get("/api/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    # Nothing from another site: an intranet deployment has no internet.
    assert re.findall(r'(?:src|href)="(https?:[^"]*)"', page.text) == []
    assert 'src="/api-docs/swagger-ui-bundle.js"' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy and "http" not in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert "frame-ancestors 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"


async def test_a_405_names_the_allowed_methods(harness: Harness) -> None:
    wrong = await harness.client.get("/api/CustomerCenter/MyInfo")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
    assert wrong.json() == {"statusCode": 405, "message": "不支持该请求方法", "data": None}
    on_get_route = await harness.client.post("/api/health", json={})
    assert on_get_route.status_code == 405 and on_get_route.headers["allow"] == "GET"
    trace = await harness.client.request("TRACE", "/api/health")
    assert trace.status_code == 405 and trace.headers["allow"] == "GET"
