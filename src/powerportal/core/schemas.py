"""Shared schema bases and paging."""

from __future__ import annotations

import re
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field, field_validator

T = TypeVar("T")

MAX_PAGE_SIZE = 200
# Ids are positive and fit a signed 64-bit column with room to spare; larger ones are input errors.
MAX_SYSNO = 2**62
Sysno = Annotated[int, Field(ge=1, le=MAX_SYSNO)]
SysnoParam = Annotated[int, Query(ge=1, le=MAX_SYSNO)]
# A time filter as customers type it: ``YYYY-MM-DD`` or ``YYYY-MM-DD HH:mm:ss`` in their own time.
DisplayTime = Field(default=None, max_length=19, pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$")

# Text fields take no control characters (PostgreSQL refuses NUL; none belongs in a name or remark).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class Schema(BaseModel):
    """Base for every request and response body: strips whitespace, reads ORM objects."""

    model_config = ConfigDict(from_attributes=True, str_strip_whitespace=True, populate_by_name=True)

    @field_validator("*", mode="after")
    @classmethod
    def _no_control_characters(cls, value: Any) -> Any:
        if isinstance(value, str) and CONTROL_CHARACTERS.search(value):
            raise ValueError("包含非法字符")
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
