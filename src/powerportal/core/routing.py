"""Routers, request dispatch and the lean request handler.

FastAPI (0.165) keeps an included router nested and walks every included router, route by route,
on each request: a call to a late router spent more time being routed (~0.2 ms) than answered.
Every domain router here carries its full prefix, tags and dependencies on its routes, so
``add_routers`` puts those routes on the application itself, and ``PathIndex`` sends a request for
a fixed path straight to its route. Paths with parameters and everything the index does not know
still go through FastAPI's own router, so the answer is the same either way. (Routes added this
way do not see ``app.dependency_overrides``; the application uses none.)

FastAPI then spends ~60 µs of a call resolving dependencies in its general way (fresh response
object, four parameter sources per dependency, cache keys). ``LeanRoute`` serves the common
simple case directly; see its notes.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, cast, get_type_hints

import orjson
from fastapi import APIRouter, FastAPI, HTTPException
from fastapi.dependencies.models import Dependant
from fastapi.params import Depends
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette._utils import get_route_path
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from powerportal.core.envelope import EnvelopeResponse
from powerportal.core.middleware import header, replay_body

# The releases whose internals this module reads (``APIRoute._embed_body_fields``, ``Dependant``'s
# fields, ``starlette._utils.get_route_path``, ``Router.middleware_stack``); pyproject.toml pins them,
# and tests/core/test_routing.py fails when another release is installed.
WRITTEN_FOR = {"fastapi": "0.165.", "starlette": "1.10."}
REQUEST = -1  # an argument taken from the request itself rather than from an earlier dependency
Arguments = tuple[tuple[str, int], ...]
# A dependency, where its arguments come from, and whether the request is its one positional argument.
Step = tuple[Callable[..., Any], Arguments, bool]


class LeanRoute(APIRoute):
    """A route that answers simple calls without FastAPI's general request machinery.

    A route qualifies when its endpoint is a coroutine returning a ``Response``, and it and each of
    its dependencies take nothing but the request, earlier such dependencies (plain coroutines,
    no ``yield``) and, for the endpoint, one JSON body model. Such a call validates a JSON object
    body with the model's own validator, runs the dependencies in order and awaits the endpoint.
    Whatever else a request brings (no JSON content type, an empty or malformed body, a body the
    model refuses, dependency overrides) is replayed to FastAPI's own handler before any dependency
    runs, so a call answers the same either way, only sooner.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)
        plan = _plan(self)
        if plan is not None:
            self.app = _lean_app(self, self.app, *plan)


def _plan(route: APIRoute) -> tuple[tuple[Step, ...], Arguments] | None:
    """The dependency calls in order and the endpoint's arguments, or None when the route is not simple."""
    dependant = route.dependant
    if not inspect.iscoroutinefunction(dependant.call) or len(dependant.body_params) > 1:
        return None
    if dependant.body_params and (route._embed_body_fields or not _is_model(dependant.body_params[0])):
        return None
    try:
        returns = get_type_hints(dependant.call).get("return")
    except (NameError, TypeError):
        return None
    if not (isinstance(returns, type) and issubclass(returns, Response)):
        return None
    steps: list[Step] = []
    arguments = _arguments(dependant, steps, {}, top=True)
    return (tuple(steps), arguments) if arguments is not None else None


def _is_model(field: Any) -> bool:
    annotation = field.field_info.annotation
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _arguments(
    dependant: Dependant,
    steps: list[Step],
    seen: dict[Any, int],
    *,
    top: bool,
) -> Arguments | None:
    """Where each argument of ``dependant`` comes from, appending the dependencies it needs to ``steps``."""
    if (
        dependant.path_params
        or dependant.query_params
        or dependant.header_params
        or dependant.cookie_params
        or (dependant.body_params and not top)
        or dependant.http_connection_param_name
        or dependant.websocket_param_name
        or dependant.response_param_name
        or dependant.background_tasks_param_name
        or dependant.security_scopes_param_name
    ):
        return None
    arguments: list[tuple[str, int]] = []
    for sub in dependant.dependencies:
        call = sub.call
        if call is None or not _is_coroutine(call):
            return None
        if sub.use_cache and call in seen:
            index = seen[call]
        else:
            needs = _arguments(sub, steps, seen, top=False)
            if needs is None:
                return None
            steps.append((call, needs, _takes_only(call, needs)))
            index = len(steps) - 1
            if sub.use_cache:
                seen[call] = index
        if sub.name is not None:
            arguments.append((sub.name, index))
    if dependant.request_param_name:
        arguments.append((dependant.request_param_name, REQUEST))
    return tuple(arguments)


def _takes_only(call: Callable[..., Any], needs: Arguments) -> bool:
    """Whether the call's one parameter is the request, so that it can be handed over by position."""
    if len(needs) != 1 or needs[0][1] != REQUEST:
        return False
    parameters = list(inspect.signature(call).parameters.values())
    return (
        len(parameters) == 1
        and parameters[0].name == needs[0][0]
        and parameters[0].kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    )


def _is_coroutine(call: Callable[..., Any]) -> bool:
    method = call if inspect.isfunction(call) else getattr(call, "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(method)


def _lean_app(
    route: APIRoute,
    standard: ASGIApp,
    steps: tuple[Step, ...],
    arguments: Arguments,
) -> ASGIApp:
    endpoint = route.dependant.call
    assert endpoint is not None  # noqa: S101 - _plan checked it
    body_field = route.dependant.body_params[0] if route.dependant.body_params else None
    body_model = cast("type[BaseModel]", body_field.field_info.annotation) if body_field else BaseModel
    overrides = route.dependency_overrides_provider

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if overrides is not None and getattr(overrides, "dependency_overrides", None):
            await standard(scope, receive, send)
            return
        body: BaseModel | None = None
        if body_field is not None:
            raw = await _read_body(receive)
            receive = replay_body(raw, receive)
            body = _accepted(raw, scope, body_model)
            if body is None:  # anything unusual: FastAPI's own handler parses, validates and words it
                await standard(scope, receive, send)
                return
        request = Request(scope, receive, send)
        results: list[Any] = []
        for call, needs, alone in steps:
            if alone:
                results.append(await call(request))
            else:
                results.append(
                    await call(**{name: request if i == REQUEST else results[i] for name, i in needs})
                )
        values = {name: request if i == REQUEST else results[i] for name, i in arguments}
        if body_field is not None:
            values[body_field.name] = body
        response = await endpoint(**values)
        await response(scope, receive, send)

    return app


def _accepted(raw: bytes, scope: Scope, model: type[BaseModel]) -> BaseModel | None:
    """The body as the model when it is a JSON object the model accepts as it stands, else None.

    orjson reads integers beyond 64 bits as floats where the standard parser keeps them exact, so a
    body holding such a number is left to FastAPI, as is every body the model refuses (FastAPI
    words the errors).
    """
    if not raw or _media_type(scope) != b"application/json":
        return None
    try:
        body = orjson.loads(raw)
    except ValueError:
        return None
    if type(body) is not dict or _has_huge_number(body):
        return None
    try:
        validated: BaseModel = model.__pydantic_validator__.validate_python(body)  # model_validate
    except ValidationError:
        return None
    return validated


def _has_huge_number(value: Any) -> bool:
    """Whether the parsed JSON holds a float as large as 2**63 (orjson's reading of a huge integer).

    Walked with a stack, not by recursion: a body nested a few hundred levels deep (orjson reads up
    to 1,024) ran out of Python's stack and answered 500.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is float:
            if abs(item) >= 2**63:
                return True
        elif kind is dict:
            pending.extend(item.values())
        elif kind is list:
            pending.extend(item)
    return False


async def _read_body(receive: Receive) -> bytes:
    """The whole request body (an unreadable one answers 400, as FastAPI answers it)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise HTTPException(status_code=400, detail="There was an error parsing the body")
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _media_type(scope: Scope) -> bytes:
    """The request's content type without parameters, lower-cased."""
    return (header(scope, b"content-type") or b"").split(b";", 1)[0].strip().lower()


def api_router(prefix: str, tag: str, dependencies: Sequence[Depends] | None = None) -> APIRouter:
    """A domain router: every route under ``prefix``, documented under ``tag``, answering the envelope."""
    return APIRouter(
        prefix=prefix,
        tags=[tag],
        dependencies=dependencies,
        default_response_class=EnvelopeResponse,
        route_class=LeanRoute,
    )


def add_routers(app: FastAPI, *routers: APIRouter) -> None:
    """Put the routers' routes on the application itself (their paths already hold the prefix)."""
    for router in routers:
        app.router.routes.extend(router.routes)


class PathIndex:
    """Dispatch a request for a fixed path straight to its route, falling back to the router."""

    def __init__(self, app: FastAPI) -> None:
        self._router = app.router
        self._by_path = self._index(app.router.routes)

    @staticmethod
    def _index(routes: Sequence[BaseRoute]) -> dict[str, tuple[APIRoute, ...]]:
        """Fixed-path API routes by path, leaving out any an earlier route with parameters could take."""
        by_path: defaultdict[str, list[APIRoute]] = defaultdict(list)
        patterned: list[BaseRoute] = []
        for route in routes:
            if not isinstance(route, APIRoute) or route.param_convertors:
                patterned.append(route)
                continue
            probe: Scope = {"type": "http", "path": route.path, "root_path": "", "method": "GET"}
            if not any(earlier.matches(probe)[0] != Match.NONE for earlier in patterned):
                by_path[route.path].append(route)
        return {path: tuple(found) for path, found in by_path.items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request or lifespan event."""
        if scope["type"] == "http":
            for route in self._by_path.get(get_route_path(scope), ()):
                match, child_scope = route.matches(scope)
                if match == Match.FULL:
                    scope.setdefault("router", self._router)
                    scope.update(child_scope)
                    await route.handle(scope, receive, send)
                    return
        await self._router.app(scope, receive, send)


def install_path_index(app: FastAPI) -> None:
    """Route through a ``PathIndex`` of the routes the application has now."""
    app.router.middleware_stack = PathIndex(app)
