"""The path index sends every request where FastAPI's own router would."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match

from powerportal.core.envelope import ok
from powerportal.core.routing import PathIndex
from tests.conftest import Harness


def first_match(routes: list[BaseRoute], path: str, method: str) -> BaseRoute | None:
    scope = {"type": "http", "path": path, "root_path": "", "method": method}
    for route in routes:
        if route.matches(scope)[0] == Match.FULL:
            return route
    return None


async def test_index_agrees_with_the_router_on_every_api_route(harness: Harness) -> None:
    routes = harness.app.router.routes
    index = PathIndex(harness.app)._by_path
    fixed = [
        r for r in routes if isinstance(r, APIRoute) and r.path.startswith("/api/") and not r.param_convertors
    ]
    assert len(fixed) > 90
    for route in fixed:
        for method in route.methods:
            chosen = first_match(routes, route.path, method)
            indexed = [r for r in index.get(route.path, ()) if method in r.methods]
            assert indexed[:1] == [chosen], (method, route.path)


async def test_answers_through_the_index_match_the_router(harness: Harness) -> None:
    assert (await harness.client.get("/api/health")).json()["data"] == {"status": "ok"}
    wrong_method = await harness.client.get("/api/CustomerCenter/MyInfo")
    assert wrong_method.status_code == 405 and wrong_method.json()["message"] == "不支持该请求方法"
    unknown = await harness.client.post("/api/CustomerCenter/NoSuchCall", json={})
    assert unknown.status_code == 404 and unknown.json()["message"] == "接口不存在"


def test_a_fixed_path_an_earlier_pattern_could_take_is_left_to_the_router() -> None:
    app = FastAPI()

    @app.get("/items/{name}")
    async def by_name(name: str) -> object:
        return ok(name)

    @app.get("/items/special")
    async def special() -> object:
        return ok("special")

    @app.get("/other")
    async def other() -> object:
        return ok("other")

    index = PathIndex(app)._by_path
    assert "/items/special" not in index, "FastAPI would send it to /items/{name}"
    assert [r.path for r in index["/other"]] == ["/other"]


def test_the_internals_it_reads_are_those_of_the_pinned_releases() -> None:
    import importlib.metadata

    from fastapi.dependencies.models import Dependant
    from starlette import _utils
    from starlette.routing import Router

    from powerportal.core.routing import WRITTEN_FOR

    for package, release in WRITTEN_FOR.items():
        installed = importlib.metadata.version(package)
        assert installed.startswith(release), (
            f"{package} {installed} is installed; core/routing.py was written for {release}x: "
            "check the internals it reads before moving the pin in pyproject.toml"
        )
    assert callable(_utils.get_route_path)
    assert "middleware_stack" in Router.__init__.__code__.co_names or hasattr(Router, "middleware_stack")
    fields = Dependant.__dataclass_fields__
    for name in (
        "path_params",
        "query_params",
        "header_params",
        "cookie_params",
        "body_params",
        "dependencies",
        "request_param_name",
        "http_connection_param_name",
        "websocket_param_name",
        "response_param_name",
        "background_tasks_param_name",
        "security_scopes_param_name",
        "use_cache",
        "call",
        "name",
    ):
        assert name in fields, name
    app = FastAPI()

    @app.post("/x")
    async def endpoint() -> None:
        return None

    route = next(r for r in app.routes if isinstance(r, APIRoute))
    assert isinstance(route._embed_body_fields, bool)
