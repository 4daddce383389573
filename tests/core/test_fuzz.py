"""Property test: any body, sent to any route of the OpenAPI document, answers an envelope and never a 500."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Harness, login, make_customer

EXAMPLES_PER_ROUTE = 12

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["13900000001", "", "0", "null", "2024-01-01 00:00:00", "\x00", "' OR 1=1 --"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def _operations(document: dict[str, Any]) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path, body property names, query parameter names) of every documented call."""
    schemas = document.get("components", {}).get("schemas", {})
    operations = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            props: list[str] = []
            ref = (
                operation.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("schema", {})
                .get("$ref")
            )
            if ref:
                props = list(schemas[ref.split("/")[-1]].get("properties", {}))
            query = [p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"]
            operations.append((method.upper(), path, props, query))
    return operations


@st.composite
def requests(draw: st.DrawFn, operation: tuple[str, str, list[str], list[str]]) -> dict[str, Any]:
    method, path, props, query = operation
    if props and draw(st.booleans()):
        body: Any = draw(st.fixed_dictionaries({}, optional=dict.fromkeys(props, json_values)))
    else:
        body = draw(json_values)
    params = draw(st.fixed_dictionaries({}, optional={name: st.text(max_size=12) for name in query}))
    return {"method": method, "path": path, "body": body, "params": params, "auth": draw(st.booleans())}


async def test_fuzzed_bodies_never_break_a_route(harness: Harness) -> None:
    document = (await harness.client.get("/api/openapi.json")).json()
    operations = _operations(document)
    assert len(operations) >= 20
    await make_customer(harness)
    token = await login(harness)

    drawn: list[dict[str, Any]] = []
    for operation in operations:

        @settings(
            max_examples=EXAMPLES_PER_ROUTE,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(request=requests(operation))
        def collect(request: dict[str, Any]) -> None:
            drawn.append(request)

        collect()
    assert {r["path"] for r in drawn} == {op[1] for op in operations}
    for request in drawn:
        headers = {"SYSTOKEN": token} if request["auth"] else {}
        kwargs: dict[str, Any] = {"headers": headers, "params": request["params"]}
        if request["method"] != "GET":
            kwargs["json"] = request["body"]
        response = await harness.client.request(request["method"], request["path"], **kwargs)
        assert response.status_code < 500, (request, response.text)
        envelope = response.json()
        assert set(envelope) == {"statusCode", "message", "data"}, envelope
        assert envelope["statusCode"] != 500, (request, envelope)
        if envelope["statusCode"] != 200:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in envelope["message"]), envelope


async def test_deeply_nested_bodies_answer_in_chinese_on_every_route(harness: Harness) -> None:
    """A body nested hundreds of levels deep (orjson reads 1,024) is refused or ignored, never a 500.

    The check for huge integers walked it by recursion: 400 levels, 818 bytes, ran out of stack.
    """
    document = (await harness.client.get("/api/openapi.json")).json()
    posts = [path for method, path, _props, _query in _operations(document) if method == "POST"]
    await make_customer(harness)
    token = await login(harness)
    for depth in (400, 1000, 1100):
        raw = '{"token": "x", "a": ' + "[" * depth + "]" * depth + "}"
        for path in posts:
            response = await harness.client.post(
                path, content=raw, headers={"SYSTOKEN": token, "Content-Type": "application/json"}
            )
            assert response.status_code < 500, (depth, path, response.text[:200])
            envelope = response.json()
            assert envelope["statusCode"] != 500, (depth, path, envelope)
            if envelope["statusCode"] != 200:
                assert any("\u4e00" <= ch <= "\u9fff" for ch in envelope["message"]), (path, envelope)
