"""The OpenAPI document states the error answers of every operation, as core/openapi.py writes them in."""

from __future__ import annotations

from typing import Any

from powerportal.core.envelope import LOGIN_EXPIRED
from powerportal.core.schemas import text_pattern
from tests.conftest import Harness

ERROR = {"$ref": "#/components/schemas/ErrorEnvelope"}


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in document["paths"].items() for method, op in item.items()]


async def test_every_operation_documents_its_error_envelopes(harness: Harness) -> None:
    document = (await harness.client.get("/api/openapi.json")).json()
    assert len(operations(document)) > 90
    for method, path, operation in operations(document):
        responses = operation["responses"]
        assert "422" not in responses, path
        content = responses["200"]["content"]
        if set(content) != {"application/json"}:  # a file (an export): an error is the envelope
            assert content["application/json"]["schema"] == ERROR, path
        else:
            success = content["application/json"]["schema"]["anyOf"]
            assert success[-1] == ERROR and len(success) >= 2, path
        if operation.get("requestBody") or operation.get("parameters"):
            assert responses["400"] == {"$ref": "#/components/responses/MalformedInput"}, path
        if method != "get":
            assert responses["413"] == {"$ref": "#/components/responses/PayloadTooLarge"}, path
        if operation.get("security"):
            assert LOGIN_EXPIRED in responses["200"]["description"], path
    components = document["components"]
    assert {"HTTPValidationError", "ValidationError"}.isdisjoint(components["schemas"])
    assert {"MalformedInput", "NotFound", "MethodNotAllowed", "PayloadTooLarge"} <= set(
        components["responses"]
    )
    assert "401" in components["securitySchemes"]["SYSTOKEN"]["description"]
    assert "401" in document["info"]["description"] and "405" in document["info"]["description"]


async def test_success_envelopes_are_told_apart_by_their_constant_status(harness: Harness) -> None:
    schemas = (await harness.client.get("/api/openapi.json")).json()["components"]["schemas"]
    envelopes = [name for name in schemas if name.startswith("Envelope_")]
    assert envelopes
    for name in envelopes:
        assert schemas[name]["properties"]["statusCode"]["const"] == 200, name
        assert set(schemas[name]["required"]) == {"statusCode", "message", "data"}, name
    error = schemas["ErrorEnvelope"]
    assert error["properties"]["statusCode"]["not"] == {"const": 200}
    assert error["properties"]["data"] == {"type": "null", "title": "Data"}


async def test_request_text_rules_are_in_the_document(harness: Harness) -> None:
    schemas = (await harness.client.get("/api/openapi.json")).json()["components"]["schemas"]
    name = schemas["ProjectCreate"]["properties"]["name"]
    assert name["minLength"] == 1 and name["pattern"] == text_pattern(one_line=True, filled=True)
    remark = schemas["ProjectCreate"]["properties"]["remark"]["anyOf"][0]
    assert remark["pattern"] == text_pattern(one_line=False, filled=False)
    ids = schemas["ProcessAlarm"]["properties"]["sysno"]["items"]
    assert ids == {"type": "integer", "minimum": 1, "maximum": 2**53 - 1}


JSON_LEAVES = (int, float, str, bool, type(None))


def _leaves_are_json(annotation: Any, seen: set[type]) -> list[str]:
    """The parts of a request field's type that strict validation would refuse as JSON gives them."""
    from typing import Annotated, Literal, get_args, get_origin

    from pydantic import BaseModel

    origin = get_origin(annotation)
    if origin is Annotated:
        return _leaves_are_json(get_args(annotation)[0], seen)
    if origin is Literal or annotation in JSON_LEAVES or annotation is Any:
        return []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in seen:
            return []
        seen.add(annotation)
        return [
            bad
            for field in annotation.model_fields.values()
            if not any(
                getattr(rule, "strict", None) is False for rule in field.metadata
            )  # Field(strict=False)
            for bad in _leaves_are_json(field.annotation, seen)
        ]
    if origin is not None or get_args(annotation):
        return [bad for arg in get_args(annotation) for bad in _leaves_are_json(arg, seen)]
    return [repr(annotation)]


async def test_request_bodies_use_only_types_json_can_carry(harness: Harness) -> None:
    """Request fields have types strict validation takes from JSON as it comes.

    Requests are validated strictly (core/schemas.py): a date, datetime, Enum or Decimal field would
    refuse the string JSON sends for it. Such a field takes text (with a pattern) or
    ``Field(strict=False)``.
    """
    from fastapi.routing import APIRoute

    seen: set[type] = set()
    bad = [
        (route.path, found)
        for route in harness.app.routes
        if isinstance(route, APIRoute)
        for param in route.dependant.body_params
        for found in _leaves_are_json(param.field_info.annotation, seen)
    ]
    assert seen and not bad, bad
