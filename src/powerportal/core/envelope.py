"""The response envelope ``{statusCode, message, data}`` and the errors that fill it."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, TypeVar, get_args

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response

from powerportal.core.headers import API_HEADERS
from powerportal.core.labels import FIELD_LABELS
from powerportal.core.text import clean_json

log = logging.getLogger(__name__)

T = TypeVar("T")

LOGIN_EXPIRED = "您的登录已经失效,请重新登录..."


class Envelope(BaseModel, Generic[T]):
    """A successful answer (documentation: routes build the body with ``ok``).

    ``statusCode`` is the constant 200, so a generated client tells it apart from the error
    envelope that every operation may also answer (``core/openapi.py``); all three keys are
    always sent, so the document marks them required.
    """

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    statusCode: Literal[200] = Field(default=200, description="200 on success")  # noqa: N815
    message: str = "操作成功"
    data: T


class Outcome(BaseModel, Generic[T]):
    """An answer whose ``data`` comes with a non-200 ``statusCode`` (a command the gateway refused)."""

    statusCode: int  # noqa: N815
    message: str
    data: T


class EnvelopeResponse(JSONResponse):
    """JSON response serialised with orjson (a JSONResponse, so OpenAPI documents the reply model)."""

    def render(self, content: Any) -> bytes:
        """Serialise the body (text breaking the rule of ``core/text``, if any was stored, shown cleaned)."""
        return clean_json(orjson.dumps(content, default=_to_json, option=orjson.OPT_NON_STR_KEYS))


def _to_json(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    raise TypeError(f"cannot serialise {type(value).__name__}")


class ApiError(Exception):
    """A business error: HTTP 200 with a non-200 ``statusCode`` and a Chinese message."""

    def __init__(self, message: str, status_code: int = 400, http_status: int = 200) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.http_status = http_status


class NotFound(ApiError):
    """The id does not exist, or the caller may not see it (the two look the same)."""

    def __init__(self, what: str = "记录") -> None:
        super().__init__(f"{what}不存在或无权访问", status_code=404)


class Unauthorized(ApiError):
    """Missing, expired or revoked login."""

    def __init__(self) -> None:
        super().__init__(LOGIN_EXPIRED, status_code=401)


def ok(data: Any = None, message: str = "操作成功") -> EnvelopeResponse:
    """Wrap a successful answer (the route's ``response_model`` documents its shape)."""
    return EnvelopeResponse({"statusCode": 200, "message": message, "data": data})


def envelope_response(status_code: int, message: str, http_status: int = 200) -> EnvelopeResponse:
    """An error envelope as a response."""
    return EnvelopeResponse(
        {"statusCode": status_code, "message": message, "data": None}, status_code=http_status
    )


_TYPE_MESSAGES = {
    "missing": "不能为空",
    "string_type": "应为文字",
    "int_type": "应为整数",
    "int_parsing": "应为整数",
    "int_from_float": "应为整数",
    "float_type": "应为数字",
    "float_parsing": "应为数字",
    "bool_type": "应为是或否",
    "bool_parsing": "应为是或否",
    "list_type": "应为列表",
    "dict_type": "应为对象",
    "model_type": "应为对象",
    "model_attributes_type": "应为对象",
    "string_too_short": "过短",
    "string_too_long": "过长",
    "too_long": "项数过多",
    "too_short": "项数过少",
    "greater_than_equal": "过小",
    "greater_than": "过小",
    "less_than_equal": "过大",
    "less_than": "过大",
    "string_pattern_mismatch": "格式不正确",
    "literal_error": "取值不在允许范围内",
    "enum": "取值不在允许范围内",
    "datetime_parsing": "时间格式不正确",
    "datetime_from_date_parsing": "时间格式不正确",
    "value_error": "格式不正确",
    "extra_forbidden": "是未知字段",
    "int_overflow": "超出范围",
    "finite_number": "应为有限数字",
}

# Where a request value came from: not part of the field's name.
_SOURCES = ("body", "query", "path", "header")


def _limit(kind: str, ctx: dict[str, Any], given: Any) -> str:
    """What a length or range error adds: the limit, and for text how much was sent."""
    if kind == "string_too_long" and "max_length" in ctx:
        sent = f"，当前 {len(given)} 个" if isinstance(given, str) else ""
        return f"，最多 {ctx['max_length']} 个字符{sent}"
    if kind == "string_too_short" and "min_length" in ctx:
        return f"，至少 {ctx['min_length']} 个字符"
    if kind == "too_long" and "max_length" in ctx:
        return f"，最多 {ctx['max_length']} 项"
    if kind == "too_short" and "min_length" in ctx:
        return f"，至少 {ctx['min_length']} 项"
    for key, word in (("ge", "不能小于"), ("gt", "应大于"), ("le", "不能大于"), ("lt", "应小于")):
        bound = ctx.get(key)
        if isinstance(bound, int | float):
            return f"，{word} {int(bound) if float(bound).is_integer() else bound}"
    return ""


def _field(model: Any, name: str) -> Any:
    """The pydantic field ``name`` (or the field with that alias) of a model class, if it is one."""
    fields = getattr(model, "model_fields", None)
    if not isinstance(fields, dict):
        return None
    found = fields.get(name)
    if found is None:
        found = next((f for f in fields.values() if f.alias == name), None)
    return found


def _inner_model(annotation: Any) -> Any:
    """The model class inside an annotation (``X | None``, ``list[X]``), if any."""
    if isinstance(getattr(annotation, "model_fields", None), dict):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def field_label(loc: Sequence[Any], model: Any = None, labels: Mapping[str, str] = FIELD_LABELS) -> str:
    """How a person calls the field at ``loc``: its ``Field(title=...)``, else ``labels``, else its path.

    ``model`` is the request body's model, walked along ``loc`` to the field; a list position adds
    "第 n 项" (1-based). A field with no Chinese name is shown by its path: "字段 detail.delta_power".
    """
    names = [str(p) for p in loc if not isinstance(p, int)]
    if not names:
        return ""
    label, current = None, model
    for name in names:
        field = _field(current, name)
        label = (getattr(field, "title", None) if field is not None else None) or labels.get(name)
        current = _inner_model(field.annotation) if field is not None else None
    if label is None:
        label = f"字段 {'.'.join(names)} "
    last = loc[-1]
    return f"{label}第 {last + 1} 项" if isinstance(last, int) else label


def describe_validation_error(
    errors: list[Any], model: Any = None, labels: Mapping[str, str] = FIELD_LABELS
) -> str:
    """Turn pydantic errors into one Chinese sentence a person can act on, naming the field as forms do."""
    if not errors:
        return "请求参数有误"
    first = errors[0]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return "请求体不是合法的 JSON"
    loc = list(first.get("loc", ()))
    source = loc[0] if loc and loc[0] in _SOURCES else None
    if source is not None:  # where it came from, not a field
        loc = loc[1:]
    label = field_label(loc, model if source == "body" else None, labels)
    reason = _TYPE_MESSAGES.get(kind, "取值不合法")
    ctx = first.get("ctx") or {}
    msg = str(first.get("msg", ""))
    if kind == "value_error" and msg.startswith("Value error, "):
        custom = msg.removeprefix("Value error, ")
        if any("\u4e00" <= ch <= "\u9fff" for ch in custom):
            return f"{label}{custom}".strip()
    if not label:
        if kind in ("model_type", "model_attributes_type", "dict_type"):
            return "请求体应为 JSON 对象"
        return f"请求参数{reason}"
    if kind == "missing" or (kind == "string_too_short" and ctx.get("min_length") == 1):
        return f"请填写{label}".strip()
    return f"{label}{reason}{_limit(kind, ctx, first.get('input'))}"


_HTTP_MESSAGES = {
    404: "接口不存在",
    405: "不支持该请求方法",
    413: "请求体过大",
    415: "不支持的请求格式",
}


def _body_model(request: Request) -> Any:
    """The model of the matched route's JSON body, if it has one."""
    dependant = getattr(request.scope.get("route"), "dependant", None)
    params = getattr(dependant, "body_params", None) or []
    return params[0].field_info.annotation if len(params) == 1 else None


def install_error_handlers(app: FastAPI) -> None:
    """Make every failure answer the envelope with a Chinese message, never a stack trace."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> Response:
        return envelope_response(exc.status_code, exc.message, exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        message = describe_validation_error(list(exc.errors()), _body_model(request))
        return envelope_response(400, message, 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        message = _HTTP_MESSAGES.get(exc.status_code, "请求有误")
        response = envelope_response(exc.status_code, message, exc.status_code)
        response.headers.update(exc.headers or {})  # a 405 names the allowed methods in ``Allow``
        return response

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        response = envelope_response(500, "服务器内部错误，请稍后再试", 500)
        # Answered by Starlette's outermost error layer, outside the middleware: add the headers here.
        response.raw_headers.extend(API_HEADERS)
        return response
