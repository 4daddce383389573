"""The FastAPI application: routes, error envelope, web client, and the background roles."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.staticfiles import StaticFiles

from powerportal import __version__, demo, demo_activity, demo_history
from powerportal.accounts.router import router as accounts_router
from powerportal.alarms.router import notice_router, texting_router
from powerportal.alarms.router import router as alarms_router
from powerportal.billing import demo as billing_demo
from powerportal.billing.router import router as billing_router
from powerportal.brands.router import router as brands_router
from powerportal.control.router import routers as control_routers
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.envelope import Envelope, EnvelopeResponse, install_error_handlers, ok
from powerportal.core.headers import SecurityHeaders
from powerportal.core.middleware import BodySizeLimit, SingleQueryValues
from powerportal.core.migrate import upgrade
from powerportal.core.openapi import install_openapi
from powerportal.core.routing import LeanRoute, add_routers, install_path_index
from powerportal.dashboard.router import routers as dashboard_routers
from powerportal.devices.router import router as devices_router
from powerportal.energy.router import router as energy_router
from powerportal.gateways.router import router as gateways_router
from powerportal.load_ident.router import routers as load_ident_routers
from powerportal.logs.router import offline_router, status_router
from powerportal.logs.router import router as logs_router
from powerportal.projects.router import router as projects_router
from powerportal.reports.router import router as reports_router
from powerportal.runtime import Runtime
from powerportal.shares.router import routers as shares_routers
from powerportal.simulator import Simulator
from powerportal.sms.router import router as sms_router
from powerportal.telemetry import runtime as telemetry_runtime
from powerportal.telemetry.router import broker_router
from powerportal.telemetry.router import router as telemetry_router

log = logging.getLogger("powerportal")

CATCH_ALL_PATHS = ("/api/{rest:path}", "/{path:path}")

WEB_NOT_BUILT = """<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>PowerPortal</title>
<body style="font-family:sans-serif;padding:40px"><h2>网页客户端尚未构建</h2>
<p>请运行 <code>make run</code>（或 <code>make web</code>）构建 web/dist 后刷新本页。接口文档见
<a href="/api/docs">/api/docs</a>。</p></body></html>"""


def create_app(
    settings: Settings | None = None, *, migrate: bool = True, background: bool = False
) -> FastAPI:
    """Build the application; ``background`` also runs the MQTT side (broker, ingest, demo simulator)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = AppContext.build(settings)
        app.state.ctx = ctx
        if migrate:
            await upgrade(ctx.engine)
        credentials: list[tuple[str, str]] = []
        if settings.seed_demo:
            customer = await demo.seed(ctx)
            credentials = await demo.seed_sites(ctx, customer)
            await demo_activity.seed(ctx, customer, demo.demo_fleet(credentials))
            await billing_demo.seed(ctx, customer)
        runtime = await Runtime.start(ctx, background=background)
        app.state.runtime = runtime
        feeding: asyncio.Task[Simulator] | None = None
        if runtime.telemetry is not None:
            telemetry_runtime.announce(runtime.telemetry)
            if credentials and settings.demo_simulator:
                # In the background: a fresh install's year of history takes a while to write.
                feeding = asyncio.create_task(
                    demo_history.feed(
                        ctx,
                        credentials,
                        runtime.telemetry.gateway_address,
                        interval=settings.simulator_interval_seconds,
                        days=settings.demo_history_days,
                    )
                )
        try:
            yield
        finally:
            if feeding is not None:
                feeding.cancel()
                simulator = await asyncio.gather(feeding, return_exceptions=True)
                if isinstance(simulator[0], Simulator):
                    await simulator[0].stop()
            await runtime.stop()
            await ctx.close()

    app = FastAPI(
        title="PowerPortal API",
        version=__version__,
        openapi_url="/api/openapi.json",
        docs_url=None,  # served by install_openapi, with a content security policy of its own
        redoc_url=None,
        lifespan=lifespan,
        default_response_class=EnvelopeResponse,
        telemetry=telemetry_config(),
    )
    app.router.route_class = LeanRoute
    install_error_handlers(app)
    install_openapi(app, docs_url="/api/docs")
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SingleQueryValues)
    app.add_middleware(SecurityHeaders)  # added last, so it is outermost and sees the 413 answers too

    @app.get("/api/health", response_model=Envelope[dict[str, str]], tags=["系统"])
    async def health() -> EnvelopeResponse:
        """Liveness probe."""
        return ok({"status": "ok"})

    add_routers(
        app,
        brands_router,
        accounts_router,
        telemetry_router,
        broker_router,
        logs_router,
        offline_router,
        status_router,
        projects_router,
        gateways_router,
        devices_router,
        energy_router,
        billing_router,
        reports_router,
        alarms_router,
        notice_router,
        texting_router,
        sms_router,
        *control_routers,
        *load_ident_routers,
        *shares_routers,
        *dashboard_routers,
    )

    @app.api_route("/api/{rest:path}", methods=["POST", "PUT", "DELETE", "PATCH"], include_in_schema=False)
    async def unknown_api(rest: str) -> Response:
        raise _unknown_api(app, "/api/" + rest)

    _mount_web(app, settings.web_dist)
    install_path_index(app)
    return app


def telemetry_config() -> TelemetryConfig | None:
    """FastAPI's own OpenTelemetry, on where the environment configures OpenTelemetry (``OTEL_*``).

    Otherwise every request would ask OpenTelemetry's three global providers whether one was set
    since (~5 µs a call, each a look-up in ``os.environ``) only to find none.
    """
    if any(name.startswith(("OTEL_", "FASTAPI_OTEL_")) for name in os.environ):
        return None  # FastAPI's defaults
    return {"tracing": False, "metrics": False, "logs": False}


def _mount_web(app: FastAPI, dist: Path) -> None:
    """Serve the built React app, with client-side routes falling back to ``index.html``."""
    index = dist / "index.html"
    assets = dist / "assets"
    if assets.is_dir():
        app.mount("/assets", StaticFiles(directory=assets), name="assets")

    @app.get("/{path:path}", include_in_schema=False)
    async def spa(path: str) -> Response:
        if path.startswith("api/"):
            raise _unknown_api(app, "/" + path)
        candidate = _file_within(dist, path) if path else None
        if candidate is not None:
            return FileResponse(candidate)
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(WEB_NOT_BUILT)


def _file_within(root: Path, path: str) -> Path | None:
    """The file ``path`` names under ``root``, or None: outside it, absent, or no name a file system takes.

    A name too long for the file system or holding a NUL byte raised from ``resolve`` and answered 500.
    """
    try:
        candidate = (root / path).resolve()
        return candidate if candidate.is_file() and root.resolve() in candidate.parents else None
    except (OSError, ValueError):
        return None


def _unknown_api(app: FastAPI, path: str) -> StarletteHTTPException:
    """405 naming the allowed methods when the path exists for another method, else 404."""
    scope = {"type": "http", "path": path, "root_path": "", "method": "OPTIONS"}
    allowed: set[str] = set()
    for route in app.router.routes:
        if getattr(route, "path", None) not in CATCH_ALL_PATHS and route.matches(scope)[0] != Match.NONE:
            allowed.update(getattr(route, "methods", None) or ())
    if not allowed:
        return StarletteHTTPException(404)
    return StarletteHTTPException(405, headers={"Allow": ", ".join(sorted(allowed))})
