"""Paths no file system takes answer like any unknown path, never 500 (the SPA fallback and brand assets)."""

from __future__ import annotations

from tests.conftest import Harness

LONG = "a" * 300  # longer than a file name may be (ENAMETOOLONG)


async def test_a_name_too_long_or_holding_a_nul_byte_is_no_file(harness: Harness) -> None:
    for path in (f"/{LONG}", f"/user-manage/{LONG}", "/x%00y", f"/{LONG}/x%00y"):
        response = await harness.client.get(path)
        assert response.status_code == 200, (path, response.text[:200])  # the app's page (or its placeholder)
    for name in (LONG, "x%00y", "logo.svg%00.png"):
        response = await harness.client.get(f"/api/brand/assets/{name}")
        envelope = response.json()
        assert response.status_code < 500 and envelope["statusCode"] == 404, (name, envelope)
        assert "资源" in envelope["message"]
