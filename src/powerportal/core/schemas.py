"""Shared schema bases and paging."""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from powerportal.core import text

T = TypeVar("T")

MAX_PAGE_SIZE = 200
# Ids are positive and fit a signed 64-bit column with room to spare; larger ones are input errors.
MAX_SYSNO = 2**62
Sysno = Annotated[int, Field(ge=1, le=MAX_SYSNO)]
SysnoParam = Annotated[int, Query(ge=1, le=MAX_SYSNO)]
# A time filter as customers type it: ``YYYY-MM-DD`` or ``YYYY-MM-DD HH:mm:ss`` in their own time.
DisplayTime = Field(default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$")

# Fields whose text may span lines (the rest are one line: a name holds no line break or tab).
MULTILINE_FIELDS = frozenset({"remark", "content", "description", "detail", "note", "template"})


class Schema(BaseModel):
    """Base for every request and response body: strips whitespace, reads ORM objects.

    Text follows ``core/text``: a control or bidi character (a line break, in a one-line field) is
    refused with "参数 <field> 包含非法字符"; text is stored NFC.
    """

    model_config = ConfigDict(from_attributes=True, str_strip_whitespace=True, populate_by_name=True)

    @field_validator("*", mode="after")
    @classmethod
    def _text_rule(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str):
            if text.refused(value, one_line=info.field_name not in MULTILINE_FIELDS):
                raise ValueError("包含非法字符")
            return text.normalised(value)
        return value


class Reply(Schema):
    """Base for an answer built from stored rows: text breaking the rule is shown cleaned, never refused."""

    @field_validator("*", mode="after")
    @classmethod
    def _text_rule(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str) and text.refused(value, one_line=False):
            return text.clean(value, one_line=info.field_name not in MULTILINE_FIELDS)
        return value


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
