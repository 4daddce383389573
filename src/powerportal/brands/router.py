"""Public brand description and assets."""

from __future__ import annotations

from fastapi.responses import FileResponse

from powerportal.api.deps import CurrentBrand
from powerportal.brands.service import ASSETS_DIR, BrandRead, describe
from powerportal.core.envelope import Envelope, EnvelopeResponse, NotFound, ok
from powerportal.core.routing import api_router

router = api_router("/api/brand", "品牌")


@router.get("", response_model=Envelope[BrandRead])
async def get_brand(brand: CurrentBrand) -> EnvelopeResponse:
    """Everything the browser needs to dress itself as this brand."""
    return ok(describe(brand))


@router.get("/assets/{name}", include_in_schema=False)
async def get_asset(name: str) -> FileResponse:
    """A logo or favicon file."""
    path = ASSETS_DIR / name
    try:
        found = "/" not in name and ".." not in name and path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, or holding a NUL byte
        found = False
    if not found:
        raise NotFound("资源")
    return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
