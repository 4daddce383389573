"""Shared schema bases and paging."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar, cast, get_args

from fastapi import Query
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ValidationInfo,
    field_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from powerportal.core import text

T = TypeVar("T")
# A JSON schema (or part of one) as a field's ``json_schema_extra`` receives it.
JsonDict = dict[str, Any]

MAX_PAGE_SIZE = 200
# Ids are positive and at most 2**53 - 1: the largest integer a browser (and every JSON Schema validator
# that reads numbers as doubles) holds exactly, so the document's bound means the same everywhere; a
# signed 64-bit column holds them with room to spare. Larger ones are input errors.
MAX_SYSNO = 2**53 - 1
Sysno = Annotated[int, Field(ge=1, le=MAX_SYSNO)]


def _decimal_digits(value: object) -> object:
    """A query string's id in plain decimal digits: ``int`` also reads ``1_8``, ``+18`` and `` 18``."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise PydanticCustomError("int_parsing", "Input should be a valid integer")
    return value


SysnoParam = Annotated[int, Query(ge=1, le=MAX_SYSNO), BeforeValidator(_decimal_digits)]
# A time filter as customers type it: ``YYYY-MM-DD`` or ``YYYY-MM-DD HH:mm:ss`` in their own time.
# Patterns spell digits [0-9]: ``\d`` is any Unicode digit to Python and Rust, an ASCII one to JSON Schema.
DATE_OR_TIME = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2})?$"
DisplayTime = Field(default=None, max_length=19, pattern=DATE_OR_TIME)

# Chinese phone numbers as people type them. A mobile number: 11 digits, 13x to 19x. A landline: its
# area code (0 and 2 or 3 digits), a dash or none, the 7 or 8 digit number, an extension after a dash;
# or a 400 / 800 service number. Checked by a validator, so that the message says what is expected.
MOBILE_PATTERN = r"^1[3-9][0-9]{9}$"
MOBILE_RULE = "应为 11 位手机号码"
PHONE_PATTERN = r"^(1[3-9][0-9]{9}|0[0-9]{2,3}-?[1-9][0-9]{6,7}(-[0-9]{1,6})?|[48]00-?[0-9]{3}-?[0-9]{4})$"
PHONE_RULE = "应为 11 位手机号码或带区号的座机号码（如 0755-12345678）"


def _mobile(value: str) -> str:
    if re.fullmatch(MOBILE_PATTERN, value) is None:
        raise ValueError(MOBILE_RULE)
    return value


def _phone(value: str) -> str:
    if value and re.fullmatch(PHONE_PATTERN, value) is None:
        raise ValueError(PHONE_RULE)
    return value


Mobile = Annotated[
    str,
    Field(max_length=11, json_schema_extra={"minLength": 11, "pattern": MOBILE_PATTERN}),
    AfterValidator(_mobile),
]
# A phone number a person may leave empty (a project's contact phone).
Phone = Annotated[
    str, Field(max_length=20, json_schema_extra={"pattern": f"^$|{PHONE_PATTERN}"}), AfterValidator(_phone)
]

# Text follows core/text's one rule: no control or bidi character, and in a one-line field (every
# field but these) no line break or tab either (PostgreSQL refuses NUL; none belongs in a name).
MULTILINE_FIELDS = frozenset({"remark", "content", "description", "detail", "note", "template"})
# What ``str.strip`` removes, written out (the control characters among it are refused anyway), so
# that every regular expression engine reads the documented patterns alike.
SPACE = r"\t\n\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


# Passwords are kept exactly as typed, outer spaces included (login compares what is typed there):
# checked by the text rule and stored NFC like any text, but never stripped.
PASSWORD_FIELDS = frozenset({"password", "old_password", "new_password"})


def text_pattern(*, one_line: bool, filled: bool) -> str:
    """The text rule as the OpenAPI document states it for request text.

    ``filled``: at least one character that is not a space (a required value, minLength >= 1).
    """
    refused = text.CONTROLS + (text.LINE_BREAKS if one_line else "")
    if not filled:
        return f"^[^{refused}]*$"
    return f"^[^{refused}]*[^{refused}{SPACE}][^{refused}]*$"


class Schema(BaseModel):
    """Base for every request and response body: the wire's types as the document states them.

    Requests are validated strictly, so ``true`` or ``"5"`` is no integer and ``1`` no boolean;
    JSON has one number type, so ``68.0`` is the integer 68, as JSON Schema says. Text is checked
    by core/text's rule ("参数 <field> 包含非法字符"), stripped *after* its length was checked, so
    that ``maxLength`` and ``minLength`` in the document hold for what the caller sends, and stored
    NFC; a required text that is only spaces is refused. Passwords are not stripped
    (``PASSWORD_FIELDS``). Responses are never validated (rows go to the wire as they are); answers
    built from stored rows through a model use ``Reply``. A request
    field of a type JSON has no literal for (date, datetime, Enum, Decimal) would refuse the string
    it arrives as: give it ``Field(strict=False)`` (tests/core/test_openapi.py looks for such fields).
    """

    model_config = ConfigDict(from_attributes=True, populate_by_name=True, strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def _whole_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if type(value) is bool and not _takes_bool(cls, info.field_name):
            raise ValueError("应为整数")  # a Literal[0, 1] would take False for 0 even when strict
        return _whole_numbers(value)

    @field_validator("*", mode="after")
    @classmethod
    def _clean_text(cls, value: Any, info: ValidationInfo) -> Any:
        one_line = info.field_name not in MULTILINE_FIELDS
        if isinstance(value, str):
            return _clean(
                value,
                filled=_required_text(cls, info.field_name),
                one_line=one_line,
                strip=info.field_name not in PASSWORD_FIELDS,
            )
        if isinstance(value, list):  # items are checked, not stripped: their own patterns say their form
            if any(isinstance(item, str) and text.refused(item, one_line=True) for item in value):
                raise ValueError("包含非法字符")
        return value

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The model's schema, with the text rules written into request text fields."""
        schema = handler(core_schema)
        if handler.mode == "validation":
            for name, field in handler.resolve_ref_schema(schema).get("properties", {}).items():
                _document_text(field, one_line=name not in MULTILINE_FIELDS)
        return schema


class Reply(Schema):
    """Base for an answer built from stored rows: text breaking the rule is shown cleaned, never refused."""

    @field_validator("*", mode="after")
    @classmethod
    def _clean_text(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str) and text.refused(value, one_line=False):
            return text.clean(value, one_line=info.field_name not in MULTILINE_FIELDS)
        return value


def list_rules(item_rules: JsonDict, *, unique: bool = False) -> Callable[[JsonDict], None]:
    """A field's ``json_schema_extra`` documenting what its validator demands of a list and its items."""

    def extra(schema: JsonDict) -> None:
        for option in [schema, *cast("list[JsonDict]", schema.get("anyOf", []))]:
            if option.get("type") == "array":
                cast("JsonDict", option["items"]).update(item_rules)
                if unique:
                    option["uniqueItems"] = True

    return extra


# The items of a list of ids, as its validator checks them.
SYSNO_ITEMS: JsonDict = {"minimum": 1, "maximum": MAX_SYSNO}


def _takes_bool(model: type[BaseModel], name: str | None) -> bool:
    """Whether ``bool`` appears in the field's type."""
    field = model.model_fields.get(name or "")
    return field is None or _mentions_bool(field.annotation)


def _mentions_bool(annotation: Any) -> bool:
    return annotation is bool or annotation is Any or any(_mentions_bool(a) for a in get_args(annotation))


def _whole_numbers(value: Any) -> Any:
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is list:
        return [_whole_numbers(item) for item in value]
    if type(value) is dict:
        return {key: _whole_numbers(item) for key, item in value.items()}
    return value


def _clean(value: str, *, filled: bool, one_line: bool, strip: bool = True) -> str:
    if text.refused(value, one_line=one_line):
        raise ValueError("包含非法字符")
    if filled and not value.strip():
        raise ValueError("不能为空")
    return text.normalised(value.strip() if strip else value)


def _required_text(model: type[BaseModel], name: str | None) -> bool:
    """Whether the field demands at least one character."""
    field = model.model_fields.get(name or "")
    return field is not None and any(getattr(rule, "min_length", 0) >= 1 for rule in field.metadata)


def _document_text(schema: dict[str, Any], *, one_line: bool) -> None:
    """Give a string schema (or the strings of a union or an array) the pattern of the text rules."""
    for option in schema.get("anyOf", ()):
        _document_text(option, one_line=one_line)
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        _document_text(schema["items"], one_line=True)
    if schema.get("type") == "string" and not {"pattern", "enum", "const", "format"} & schema.keys():
        schema["pattern"] = text_pattern(one_line=one_line, filled=schema.get("minLength", 0) >= 1)


class PageQuery(Schema):
    """Paging and ordering, as every list call takes them."""

    pageIndex: int = Field(default=1, ge=1, le=1_000_000)  # noqa: N815
    pageSize: int = Field(default=10, ge=1, le=MAX_PAGE_SIZE)  # noqa: N815
    orderBy: str | None = Field(default=None, max_length=64)  # noqa: N815
    sort: Literal["asc", "desc", "ascend", "descend", "ASC", "DESC"] | None = None

    @property
    def offset(self) -> int:
        """Rows to skip."""
        return (self.pageIndex - 1) * self.pageSize

    @property
    def descending(self) -> bool:
        """Whether the caller asked for descending order (the default)."""
        return self.sort is None or self.sort.lower().startswith("desc")

    def ordered(self, *columns: Any) -> list[Any]:
        """The columns in the direction the caller asked for, ready for ``order_by``."""
        return in_direction(self.descending, *columns)


def in_direction(descending: bool, *columns: Any) -> list[Any]:
    """The columns all descending or all ascending, ready for ``order_by``."""
    return [c.desc() if descending else c.asc() for c in columns]


class Page(Schema, Generic[T]):
    """A page of rows and the total count (the documented shape of every list)."""

    dataSource: list[T]  # noqa: N815
    totalCount: int  # noqa: N815


class PageData(TypedDict):
    """A page as ``core/listing`` serves it: rows already in the wire shape its ``Page[XRead]`` documents."""

    dataSource: list[dict[str, Any]]
    totalCount: int
