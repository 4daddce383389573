"""The eight brand variants, read once from ``brands.json``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

ASSETS_DIR = Path(__file__).parent / "assets"


class BrandFlags(BaseModel):
    """Feature switches of a variant (spellings from the spec)."""

    model_config = ConfigDict(frozen=True)

    adminAuth: bool  # noqa: N815
    alarmDetail: bool  # noqa: N815
    loadWaveform: bool  # noqa: N815
    eletricList: bool  # noqa: N815
    productModal: bool  # noqa: N815
    map: bool
    SmsCode: bool  # noqa: N815
    SmsConfig: bool  # noqa: N815


class Brand(BaseModel):
    """One white-label variant."""

    model_config = ConfigDict(frozen=True)

    type: int
    product_name: str
    title: str
    login_title: str
    footer: str
    theme_color: str
    flags: BrandFlags


class BrandRead(Brand):
    """What ``GET /api/brand`` answers."""

    logo: str
    favicon: str


@cache
def all_brands() -> tuple[Brand, ...]:
    """Every variant, indexed by its type."""
    raw = json.loads((Path(__file__).parent / "brands.json").read_text(encoding="utf-8"))
    brands = tuple(Brand.model_validate(item) for item in raw)
    assert [b.type for b in brands] == list(range(8)), "brands.json must list variants 0..7 in order"  # noqa: S101
    return brands


def variant_for(*, default: int, host: str | None, host_map: dict[str, int]) -> int:
    """The number of the variant a request is served under: by host name when mapped, else the default."""
    return host_map.get((host or "").split(":")[0].lower(), default)


def brand_for(*, default: int, host: str | None, host_map: dict[str, int]) -> Brand:
    """The variant a request is served under: by host name when mapped, else the default."""
    return all_brands()[variant_for(default=default, host=host, host_map=host_map)]


def describe(brand: Brand) -> BrandRead:
    """The public description the browser needs."""
    logo = f"/api/brand/assets/logo-{brand.type}.svg"
    return BrandRead(**brand.model_dump(), logo=logo, favicon=logo)
