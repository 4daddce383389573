"""A lean route answers every request exactly as FastAPI's own handler does."""

from __future__ import annotations

from typing import Annotated, Any

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.routing import APIRoute
from pydantic import Field

from powerportal.core.envelope import EnvelopeResponse, Unauthorized, install_error_handlers, ok
from powerportal.core.routing import LeanRoute, _plan
from powerportal.core.schemas import Schema

calls: list[str] = []


class Body(Schema):
    name: str = Field(max_length=5)
    count: int = Field(default=1, ge=1)


async def need_ctx(request: Request) -> str:
    return "ctx"


async def need_token(request: Request) -> str:
    calls.append("token")
    if request.headers.get("SYSTOKEN") != "good":
        raise Unauthorized()
    return "good"


async def caller(token: Annotated[str, Depends(need_token)], ctx: Annotated[str, Depends(need_ctx)]) -> str:
    return f"{token}+{ctx}"


def build(route_class: type[APIRoute]) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)
    router = APIRouter(route_class=route_class, default_response_class=EnvelopeResponse)

    @router.post("/echo")
    async def echo(
        body: Body,
        who: Annotated[str, Depends(caller)],
        token: Annotated[str, Depends(need_token)],
        request: Request,
    ) -> EnvelopeResponse:
        return ok({"body": body.model_dump(), "who": who, "token": token, "path": request.url.path})

    @router.get("/plain")
    async def plain(token: Annotated[str, Depends(need_token)]) -> EnvelopeResponse:
        return ok(token)

    app.router.routes.extend(router.routes)
    return app


JSON = {"content-type": "application/json"}
CASES: list[tuple[str, str, dict[str, str], bytes]] = [
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b'{"name": "abc", "count": 2}'),
    (
        "POST",
        "/echo",
        {"content-type": "application/json; charset=utf-8", "SYSTOKEN": "good"},
        b'{"name": "a"}',
    ),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b'{"name": "toolong"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b'{"name": 5, "count": "x"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b'{"name": "a\\u0001"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b"{not json"),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b""),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b"null"),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b"[1, 2]"),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "good"}, b'{"name": NaN}'),
    ("POST", "/echo", {"content-type": "text/plain", "SYSTOKEN": "good"}, b'{"name": "abc"}'),
    ("POST", "/echo", {"SYSTOKEN": "good"}, b'{"name": "abc"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "bad"}, b'{"name": "abc"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "bad"}, b'{"name": "toolong"}'),
    ("POST", "/echo", {**JSON, "SYSTOKEN": "bad"}, b"{not json"),
    ("GET", "/plain", {"SYSTOKEN": "good"}, b""),
    ("GET", "/plain?extra=1", {}, b""),
    ("POST", "/plain", {"SYSTOKEN": "good"}, b""),
]


async def answer(app: FastAPI, method: str, path: str, headers: dict[str, str], body: bytes) -> Any:
    calls.clear()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.request(method, path, headers=headers, content=body)
    return response.status_code, response.json(), list(calls)


def test_the_sample_routes_take_the_lean_path() -> None:
    routes = [r for r in build(LeanRoute).router.routes if isinstance(r, LeanRoute)]
    assert len(routes) == 2 and all(_plan(r) is not None for r in routes)


@pytest.mark.parametrize(("method", "path", "headers", "body"), CASES)
async def test_lean_and_standard_answers_are_identical(
    method: str, path: str, headers: dict[str, str], body: bytes
) -> None:
    lean = await answer(build(LeanRoute), method, path, headers, body)
    standard = await answer(build(APIRoute), method, path, headers, body)
    assert lean == standard
    assert lean[2].count("token") <= 1, "a dependency used twice runs once"


def test_routes_with_more_than_the_request_keep_fastapis_handler() -> None:
    app = FastAPI()
    router = APIRouter(route_class=LeanRoute)

    @router.get("/query")
    async def with_query(page: int = 1) -> EnvelopeResponse:
        return ok(page)

    @router.get("/untyped")
    async def untyped() -> dict[str, int]:
        return {"a": 1}

    async def generated() -> Any:
        yield 1

    @router.get("/generator")
    async def with_generator(value: Annotated[int, Depends(generated)]) -> EnvelopeResponse:
        return ok(value)

    app.router.routes.extend(router.routes)
    assert [_plan(r) for r in router.routes if isinstance(r, LeanRoute)] == [None, None, None]
