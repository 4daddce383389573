"""A tariff version is answered in the shape it was written in, and the document says so."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness
from tests.factories import make_account

E = "/api/CustomerEnergy"
SUMMER = "3" * 16 + "2" * 4 + "1" * 2 + "0" * 2 + "2" * 4 + "1" * 10 + "2" * 10
OTHER = "3" * 16 + "2" * 32
VERSION = {
    "effective_date": "2024-01-01",
    "prices": {"sharp": 1.3, "peak": 1.1, "flat": 0.7, "valley": 0.3},
    "seasons": [
        {"name": "夏季", "months": [7, 8, 9], "slots": SUMMER},
        {"name": "其他", "months": [1, 2, 3, 4, 5, 6, 10, 11, 12], "slots": OTHER},
    ],
    "holidays": {"dates": ["2027-02-06"], "slots": "2" * 48},
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


async def test_versions_are_read_as_written_and_documented(harness: Harness) -> None:
    h = harness
    account = await make_account(h, "13900000031")
    added = await h.post(f"{E}/AddTariffPlan", {"name": "分时", "version": VERSION}, account.token)
    assert added["statusCode"] == 200, added
    got = await h.call("GET", f"{E}/GetTariffPlan", account.token, params={"sysno": added["data"]["sysno"]})
    version: dict[str, Any] = got["data"]["versions"][0]
    assert version["prices"] == {**VERSION["prices"], "deep": None}
    assert version["seasons"] == VERSION["seasons"]
    assert version["holidays"] == VERSION["holidays"]

    schemas = (await h.client.get("/api/openapi.json")).json()["components"]["schemas"]
    read = schemas["VersionRead"]["properties"]
    assert read["prices"] == ref("PricesRead")
    assert read["seasons"]["items"] == ref("SeasonRead")
    assert read["holidays"]["anyOf"][0] == ref("HolidaysRead")
    assert set(schemas["PricesRead"]["required"]) == {"sharp", "peak", "flat", "valley", "deep"}
    assert set(schemas["SeasonRead"]["required"]) == {"name", "months", "slots"}
