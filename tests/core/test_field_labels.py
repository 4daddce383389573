"""Refused input names its field as the form does, in Chinese, and no text is taken without a limit."""

from __future__ import annotations

import typing
from typing import Any

from fastapi.routing import APIRoute
from pydantic import BaseModel

from powerportal.app import create_app
from powerportal.core.envelope import describe_validation_error, field_label
from powerportal.core.labels import FIELD_LABELS
from powerportal.projects.schemas import ProjectCreate
from tests.conftest import make_settings

MACHINE_CALLS = ("/api/BrokerAuth/",)


def _request_models() -> tuple[set[type[BaseModel]], set[str]]:
    """Every model a person's call reads from a request body, and every query parameter's name."""
    app = create_app(make_settings("sqlite+aiosqlite:///:memory:"), migrate=False)
    models: set[type[BaseModel]] = set()
    queries: set[str] = set()

    def walk(annotation: Any) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in models:
                models.add(annotation)
                for field in annotation.model_fields.values():
                    walk(field.annotation)
        for arg in typing.get_args(annotation):
            walk(arg)

    for route in app.routes:
        # EMQX's authenticator and authorizer call /api/BrokerAuth: a machine, never shown a message.
        if isinstance(route, APIRoute) and not route.path.startswith(MACHINE_CALLS):
            for param in route.dependant.body_params:
                walk(param.field_info.annotation)
            queries.update(param.name for param in route.dependant.query_params)
    return models, queries


def _texts(annotation: Any) -> bool:
    """Whether free text can reach the field (a string, a list of them; dicts are checked apart)."""
    if typing.get_origin(annotation) is dict:
        return False
    return annotation is str or any(_texts(a) for a in typing.get_args(annotation))


def _bounded(field: Any) -> bool:
    """A length limit or an anchored pattern, on the field or on the text type inside it."""
    rules = [*field.metadata]
    if any(getattr(rule, "max_length", None) or getattr(rule, "pattern", None) for rule in rules):
        return True
    return "MaxLen(" in str(field.annotation) or "Literal" in str(field.annotation)


def test_every_request_field_has_a_chinese_name() -> None:
    models, queries = _request_models()
    assert len(models) > 50
    unnamed = sorted(
        f"{model.__name__}.{name}"
        for model in models
        for name, field in model.model_fields.items()
        if not field.title and (field.alias or name) not in FIELD_LABELS
    )
    assert unnamed == []
    assert sorted(q for q in queries if q not in FIELD_LABELS) == []


def test_every_request_text_has_a_length_limit() -> None:
    """Over-long text is refused with its limit named, never cut to fit: every text field states one."""
    models, _ = _request_models()
    unlimited = sorted(
        f"{model.__name__}.{name}"
        for model in models
        for name, field in model.model_fields.items()
        if _texts(field.annotation) and not _bounded(field)
    )
    assert unlimited == []


def test_labels_follow_the_field_and_its_position() -> None:
    # A field's own title wins over the shared table; list positions count from 1.
    assert field_label(["name"], ProjectCreate) == "项目名称"
    assert field_label(["name"]) == "名称"
    assert field_label(["mobiles", 2]) == "接收手机号第 3 项"
    assert field_label(["detail", "delta_power"], labels={}) == "字段 detail.delta_power "
    too_long = {
        "type": "string_too_long",
        "loc": ("body", "remark"),
        "ctx": {"max_length": 500},
        "input": "x" * 600,
    }
    assert describe_validation_error([too_long]) == "备注过长，最多 500 个字符，当前 600 个"
    missing = {"type": "missing", "loc": ("body", "name"), "msg": "Field required"}
    assert describe_validation_error([missing], ProjectCreate) == "请填写项目名称"
    small = {"type": "greater_than_equal", "loc": ("query", "pageIndex"), "ctx": {"ge": 1}}
    assert describe_validation_error([small]) == "页码过小，不能小于 1"
