"""The OpenAPI document tells the whole envelope contract: every error answer and its status, on every call.

FastAPI documents only the success model of a route and a 422 that this API never sends. The
answers the routes really give are written in here once, for every operation, so that no route
has to list them: a business error is HTTP 200 with a non-200 ``statusCode`` (the login rule among
them), malformed input is HTTP 400, and an oversized body HTTP 413, all with ``data: null``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from starlette.responses import HTMLResponse

from powerportal.core.envelope import LOGIN_EXPIRED

ERROR_ENVELOPE = "ErrorEnvelope"
ERROR_REF = {"$ref": f"#/components/schemas/{ERROR_ENVELOPE}"}
# FastAPI's validation-error answer and its schemas; this API answers those errors with a 400 envelope.
FASTAPI_VALIDATION = ("422", "HTTPValidationError", "ValidationError")
BODY_METHODS = frozenset({"post", "put", "patch", "delete"})

ENVELOPE_RULES = f"""所有接口都返回信封 `{{statusCode, message, data}}`。

- **成功**：HTTP 200，`statusCode` 200，`data` 为结果。
- **业务错误**：HTTP 200，`statusCode` 为 400（规则不允许或输入有误）、401（未登录或登录已失效）、
  403（当前版本或账号无此权限）、404（不存在或无权访问，两者有意不加区分）、409（重复）、
  429（尝试过于频繁）、501（尚未开放）等，`message` 为可直接展示的中文说明，`data` 为 null。
- **登录（401 在信封里）**：需要登录的接口在请求头 `SYSTOKEN` 缺失、无效、过期或已注销时，返回 HTTP 200、
  `statusCode` 401、`message` 为“{LOGIN_EXPIRED}”。客户端据此清除登录并回到登录页。
  HTTP 状态不用 401，是产品规格的约定：客户端只读信封里的 `statusCode`。
- **协议层错误**保留真实的 HTTP 状态，信封相同、`data` 为 null：请求体不是合法 JSON、字段类型或取值不合法
  400（`message` 指出字段，如“参数 mobile 格式不正确”）；接口不存在 404；请求方法不支持 405（带 `Allow` 头）；
  请求体超过上限 413。
"""

OK_DESCRIPTION = (
    "HTTP 200：`statusCode` 200 为成功，`data` 如下；其他 `statusCode` 为业务错误，`data` 为 null。"
)
LOGIN_NOTE = f"未登录或登录失效：`statusCode` 401，`message` 为“{LOGIN_EXPIRED}”。"

ERROR_SCHEMA: dict[str, Any] = {
    "title": ERROR_ENVELOPE,
    "description": "失败的回答：非 200 的 statusCode，可直接展示的中文 message，data 为 null。",
    "type": "object",
    "properties": {
        "statusCode": {"type": "integer", "not": {"const": 200}, "title": "Statuscode"},
        "message": {"type": "string", "minLength": 1, "title": "Message"},
        "data": {"type": "null", "title": "Data"},
    },
    "required": ["statusCode", "message", "data"],
}


FILE_DESCRIPTION = (
    "HTTP 200：成功时为文件；出错时为 JSON 信封（`statusCode` 非 200，`message` 说明原因，`data` 为 null）。"
)


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


ERROR_RESPONSES: dict[str, dict[str, Any]] = {
    "MalformedInput": _error_response(
        "请求体不是合法的 JSON，或字段缺失、类型或取值不合法；"
        "`message` 指出字段（如“参数 mobile 格式不正确”）。"
    ),
    "NotFound": _error_response("接口不存在（`message`“接口不存在”）。"),
    "MethodNotAllowed": _error_response("请求方法不支持；`Allow` 头列出该路径支持的方法。"),
    "PayloadTooLarge": _error_response(
        "请求体超过上限（`message` 如“请求体过大（上限 1024 KB）”），请求未被处理。"
    ),
}


def describe_envelopes(document: dict[str, Any]) -> dict[str, Any]:
    """Write the error envelopes and their statuses into every operation of a FastAPI document."""
    document["info"]["description"] = ENVELOPE_RULES
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in FASTAPI_VALIDATION[1:]:
        schemas.pop(name, None)
    schemas[ERROR_ENVELOPE] = ERROR_SCHEMA
    components.setdefault("responses", {}).update(ERROR_RESPONSES)
    for scheme in components.get("securitySchemes", {}).values():
        scheme["description"] = f"登录接口返回的 token。{LOGIN_NOTE}（HTTP 状态仍为 200。）"
    for item in document.get("paths", {}).values():
        for method, operation in item.items():
            _describe_operation(method, operation)
    return document


def _describe_operation(method: str, operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation["responses"]
    success = responses["200"]
    content = success["content"].get("application/json")
    login = LOGIN_NOTE if operation.get("security") else ""
    if content is None or "schema" not in content:  # a file (an export): errors come as the envelope
        for kind in success["content"].values():
            kind["schema"] = {"type": "string", "format": "binary"}
        success["content"]["application/json"] = {"schema": ERROR_REF}
        success["description"] = FILE_DESCRIPTION + login
    else:
        answers = content["schema"].get("anyOf", [content["schema"]])
        content["schema"] = {"anyOf": [*answers, ERROR_REF]}
        success["description"] = OK_DESCRIPTION + login
    if responses.pop(FASTAPI_VALIDATION[0], None) is not None or operation.get("requestBody"):
        responses["400"] = {"$ref": "#/components/responses/MalformedInput"}
    if method in BODY_METHODS:
        responses["413"] = {"$ref": "#/components/responses/PayloadTooLarge"}


def install_openapi(app: FastAPI, docs_url: str) -> None:
    """Make ``app.openapi()`` answer the document with the envelopes written in, and serve its browser.

    The browser (Swagger UI) comes with the web app (``web/dist/api-docs/``, built by ``make web``: an
    intranet has no CDN) and starts with one inline script; its page gets a content security policy
    of its own that allows exactly those (the script by its hash).
    """
    generate: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe_envelopes(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    assert app.openapi_url is not None  # noqa: S101 - the document is always served
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url,
        title=f"{app.title} - 接口文档",
        swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
        swagger_favicon_url="/favicon.ico",
    )
    headers = {"Content-Security-Policy": docs_policy(bytes(page.body).decode())}

    @app.get(docs_url, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page.body, headers=headers)


# Where the web app's build leaves Swagger UI's files (web/vite.config.ts).
DOCS_ASSETS = "/api-docs"


def docs_policy(html: str) -> str:
    """The content security policy of the document browser's page: its own files and inline scripts only."""
    digests = (
        base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        for script in re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    )
    hashes = " ".join(f"'sha256-{digest}'" for digest in digests)
    return (
        f"default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'"
    )
