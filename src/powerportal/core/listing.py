"""The one mechanism every paged list uses.

A list declares its base statement (columns and joins), its filters, each a condition on a bind
parameter of its own name, and the columns it may be ordered by. A call names the values of the
filters it uses (``None`` leaves a filter out); the statements for that *shape* (which filters,
which order, which direction) are built once and kept, so a call costs a dictionary look-up and
the read itself. Pages and counts are read outside the ORM session by ``core/reads.Reader`` (an
index-bounded page of SQLite inline on the event loop, one that scans in aiosqlite's thread,
PostgreSQL through its read-only pool); counts are remembered by ``core/counting.CountCache`` until
a table they read is written. The same statements serve single-row reads inside a request's
session (``first``), for routes that read what they have just written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, select, true, union_all
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.selectable import Subquery

from powerportal.core.context import AppContext
from powerportal.core.counting import tables_of
from powerportal.core.filters import contains_pattern, keyword_filter, time_bounds
from powerportal.core.reads import AnySelect, Reader
from powerportal.core.schemas import MAX_PAGE_SIZE, PageData, PageQuery, in_direction

Row = Sequence[Any]
Condition = Callable[[BindParameter[Any]], ColumnElement[bool]]
# Shape of a call: the filters it uses (with the length of list values), the order key, the direction.
Shape = tuple[tuple[tuple[str, int], ...], str, bool]


@dataclass(frozen=True)
class Scan:
    """A filter no index bounds (a keyword anywhere in a text): SQLite reads its statements aside."""

    condition: Condition


@dataclass(frozen=True)
class OneOf:
    """A filter keeping rows whose column holds one of a list of values (built once per list length)."""

    column: Any


class Keyword:
    """A filter keeping rows where any of the columns contains the text (its wildcards taken literally)."""

    def __init__(self, *columns: Any) -> None:
        self.columns = columns


@dataclass(frozen=True)
class During:
    """A filter keeping rows whose time column lies within bounds as customers type them (``time_bounds``)."""

    column: Any


Filter = Condition | Scan | OneOf | Keyword | During
_SINCE, _UNTIL = 1, 2


@dataclass(frozen=True)
class PerProject:
    """Read a newest-first page project by project, through each project's (project, time) index.

    A log of many projects (alarms, commands, offline spells) is asked above all for its newest rows
    across every project a customer may see. No index serves that order across several projects,
    so the database would sort all of the customer's rows for every page. With this, each project
    gives at most the rows the page needs from its own index and only those are merged: on
    PostgreSQL in one statement, a LATERAL sub-query per visible project; on SQLite (no LATERAL)
    the projects are read first and the page is a UNION ALL of one ordered arm per project.
    ``projects`` gives the projects of the ``customer`` filter's value; ``orders`` are the orders an
    index beginning with the project serves. Each arm keeps the ``customer`` condition too: it may
    narrow a project to part of its rows (a share limited to buildings). Deep pages, other orders, a
    single project and (on SQLite) very many projects take the plain statement.
    """

    column: Any
    projects: Callable[[Any], Select[Any]]
    orders: tuple[str, ...]


# Fan out only for pages within this many rows of the top, and customers with at most this many projects.
FAN_OUT_WINDOW = 1000
FAN_OUT_PROJECTS = 64


@dataclass(frozen=True)
class _Statements:
    page: AnySelect
    count: Select[Any]
    tables: tuple[str, ...]
    inline: bool


class Listing:
    """One list: its statements by shape, its pages, counts and single rows."""

    def __init__(
        self,
        base: AnySelect,
        *,
        filters: Mapping[str, Filter],
        orders: Mapping[str, Any],
        default_order: str,
        tie: Any,
        ascending_unless_asked: bool = False,
        per_project: PerProject | None = None,
        page_only: Callable[[Subquery, bool], AnySelect] | None = None,
    ) -> None:
        """Declare a list.

        ``page_only`` adds what is worked out for the rows of a page alone: given the page as a
        sub-query, it selects the page's columns with more (a join to each row's last run, say), so
        the database does that work for ten rows rather than for every row it sorts. Its second
        argument says whether the database runs LATERAL sub-queries (PostgreSQL), in which each row's
        extras are read through an index by a sub-query of its own, without a join the planner may
        turn into a scan of the whole table.
        """
        if per_project is not None and page_only is not None:
            raise ValueError("a list that reads project by project works out every column in its arms")
        self._base = base
        self._page_only = page_only
        self._per_project = per_project
        self._projects = per_project.projects(bindparam("customer")) if per_project else None
        self._fanned: dict[tuple[Shape, int], AnySelect] = {}
        self._lateral: dict[Shape, AnySelect] = {}
        self._filters = dict(filters)
        self._orders = dict(orders)
        self._default_order = default_order
        self._tie = tie
        self._ascending_unless_asked = ascending_unless_asked
        self._built: dict[tuple[Shape, bool], _Statements] = {}
        self._ids: dict[Shape, AnySelect] = {}
        self._rows_by_ids: dict[tuple[int, bool], AnySelect] = {}

    def _shape(self, values: Mapping[str, Any], query: PageQuery | None) -> tuple[Shape, dict[str, Any]]:
        used: list[tuple[str, int]] = []
        params: dict[str, Any] = {}
        for name, value in values.items():
            if value is None:
                continue
            kind = self._filters[name]
            if isinstance(kind, OneOf):
                items = list(value)
                used.append((name, len(items)))
                params.update({f"{name}_{i}": item for i, item in enumerate(items)})
            elif isinstance(kind, During):
                since, until = time_bounds(*value)
                bounds = (_SINCE if since is not None else 0) | (_UNTIL if until is not None else 0)
                if bounds:
                    used.append((name, bounds))
                    params.update({f"{name}_since": since, f"{name}_until": until})
            elif isinstance(kind, Keyword):
                if value:
                    used.append((name, -1))
                    params[name] = contains_pattern(value)
            else:
                used.append((name, -1))
                params[name] = value
        used.sort()
        if query is None:
            return (tuple(used), self._default_order, False), params
        order = query.orderBy if query.orderBy in self._orders else self._default_order
        descending = query.descending and not (self._ascending_unless_asked and query.sort is None)
        params["offset"], params["limit"] = query.offset, query.pageSize
        return (tuple(used), order, descending), params

    def _conditions(self, used: Sequence[tuple[str, int]]) -> tuple[list[ColumnElement[bool]], bool]:
        """The conditions of the filters a shape uses, and whether an index bounds them all."""
        conditions: list[ColumnElement[bool]] = []
        inline = True
        for name, length in used:
            kind = self._filters[name]
            if isinstance(kind, OneOf):
                conditions.append(kind.column.in_([bindparam(f"{name}_{i}") for i in range(length)]))
            elif isinstance(kind, During):
                if length & _SINCE:
                    conditions.append(kind.column >= bindparam(f"{name}_since"))
                if length & _UNTIL:
                    conditions.append(kind.column <= bindparam(f"{name}_until"))
            elif isinstance(kind, Keyword):
                conditions.append(keyword_filter(bindparam(name), *kind.columns))
                inline = False
            elif isinstance(kind, Scan):
                conditions.append(kind.condition(bindparam(name)))
                inline = False
            else:
                conditions.append(kind(bindparam(name)))
        return conditions, inline

    def _statements(self, shape: Shape, lateral: bool = False) -> _Statements:
        built = self._built.get((shape, lateral))
        if built is None:
            used, order, descending = shape
            order_column = self._orders[order]
            conditions, inline = self._conditions(used)
            where = self._base.where(*conditions)
            count = select(func.count()).select_from(where.order_by(None).subquery())
            ordering = in_direction(descending, self._orders[order], self._tie)
            page = where.order_by(*ordering).offset(bindparam("offset")).limit(bindparam("limit"))
            if self._page_only is not None:
                inner = page.subquery()
                by_position = list(inner.c)
                page = self._page_only(inner, lateral).order_by(
                    *in_direction(
                        descending, *(by_position[self._position(c)] for c in (order_column, self._tie))
                    )
                )
            built = self._built[(shape, lateral)] = _Statements(page, count, tables_of(count), inline)
        return built

    def _fanned_out(self, shape: Shape, projects: int) -> AnySelect:
        """The page of a shape as one arm per project (parameters ``fan_0`` …), merged and sliced."""
        built = self._fanned.get((shape, projects))
        if built is None:
            assert self._per_project is not None  # noqa: S101 - only lists that fan out come here
            used, order, descending = shape
            conditions, _inline = self._conditions(used)
            ordering = in_direction(descending, self._orders[order], self._tie)
            arms = [
                select(
                    self._base.where(self._per_project.column == bindparam(f"fan_{i}"), *conditions)
                    .order_by(*ordering)
                    .limit(bindparam("window"))
                    .subquery()
                )
                for i in range(projects)
            ]
            merged = union_all(*arms).subquery()
            by_position = list(merged.c)
            positions = [self._position(self._orders[order]), self._position(self._tie)]
            built = (
                select(merged)
                .order_by(*in_direction(descending, *(by_position[i] for i in positions)))
                .offset(bindparam("offset"))
                .limit(bindparam("limit"))
            )
            self._fanned[(shape, projects)] = built
        return built

    def _lateral_page(self, shape: Shape) -> AnySelect:
        """The page of a shape as a LATERAL sub-query per visible project, merged and sliced."""
        built = self._lateral.get(shape)
        if built is None:
            assert self._per_project is not None and self._projects is not None  # noqa: S101
            used, order, descending = shape
            conditions, _inline = self._conditions(used)
            projects = self._projects.subquery()
            arm = (
                self._base.where(self._per_project.column == projects.c[0], *conditions)
                .order_by(*in_direction(descending, self._orders[order], self._tie))
                .limit(bindparam("window"))
                .lateral()
            )
            by_position = list(arm.c)
            positions = [self._position(self._orders[order]), self._position(self._tie)]
            built = self._lateral[shape] = (
                select(arm)
                .select_from(projects)
                .join(arm, true())
                .order_by(*in_direction(descending, *(by_position[i] for i in positions)))
                .offset(bindparam("offset"))
                .limit(bindparam("limit"))
            )
        return built

    def _position(self, column: Any) -> int:
        """Where a column stands among the list's selected columns (a fanned-out order must be selected)."""
        target = column.__clause_element__() if hasattr(column, "__clause_element__") else column
        for index, selected in enumerate(self._base.selected_columns):
            if selected.compare(target):
                return index
        raise ValueError(f"{column} is not among the selected columns")

    async def _page_rows(
        self, reads: Reader, shape: Shape, params: dict[str, Any], values: Mapping[str, Any], inline: bool
    ) -> Sequence[Row] | None:
        """The page read project by project, or None when the plain statement serves it better."""
        fan = self._per_project
        if (
            fan is None
            or self._projects is None
            or shape[1] not in fan.orders
            or values.get("customer") is None
            or values.get("project") is not None  # one project: its index serves the order already
            or params["offset"] + params["limit"] > FAN_OUT_WINDOW
        ):
            return None
        window = params["offset"] + params["limit"]
        if reads.lateral:
            return await reads.all(self._lateral_page(shape), params | {"window": window}, inline=inline)
        projects = [row[0] for row in await reads.all(self._projects, {"customer": values["customer"]})]
        if not projects:
            return ()
        if len(projects) > FAN_OUT_PROJECTS:
            return None
        fanned = {f"fan_{i}": project for i, project in enumerate(projects)}
        statement = self._fanned_out(shape, len(projects))
        return await reads.all(statement, params | fanned | {"window": window}, inline=inline)

    async def page(
        self,
        ctx: AppContext,
        *,
        query: PageQuery,
        values: Mapping[str, Any],
        render: Callable[[Row], dict[str, Any]] | None = None,
        render_page: Callable[[Sequence[Row]], Awaitable[list[dict[str, Any]]]] | None = None,
        count: Callable[[], Awaitable[int]] | None = None,
    ) -> PageData:
        """One page of the rows the filters keep, and how many they keep in all.

        Rows take their wire shape from ``render`` one by one, or from ``render_page`` all together
        (for a list that reads more about the page's rows, such as counts per row). ``count``
        replaces the counting statement where the list keeps its counts itself.
        """
        reads, counts = ctx.reads, ctx.counts
        shape, params = self._shape(values, query)
        statements = self._statements(shape, reads.lateral)
        key: Hashable = (id(self), shape, tuple(v for k, v in params.items() if k not in ("offset", "limit")))
        if count is not None:
            total: int | None = await count()
        else:
            total = counts.current(
                reads, key=key, tables=statements.tables, statement=statements.count, params=params
            )
        if total is None:
            total = await counts.count(
                reads,
                key=key,
                tables=statements.tables,
                statement=statements.count,
                params=params,
                inline=statements.inline,
            )
        rows = await self._page_rows(reads, shape, params, values, statements.inline)
        if rows is None:
            rows = await reads.all(statements.page, params, inline=statements.inline)
        if render_page is not None:
            return {"dataSource": await render_page(rows), "totalCount": total}
        assert render is not None  # noqa: S101 - one of the two is required
        return {"dataSource": [render(row) for row in rows], "totalCount": total}

    def _ids_statement(self, shape: Shape) -> AnySelect:
        """The ids (ties) of every row a shape keeps, in its order, at most ``:limit`` of them."""
        built = self._ids.get(shape)
        if built is None:
            used, order, descending = shape
            conditions, _inline = self._conditions(used)
            built = self._ids[shape] = (
                self._base.where(*conditions)
                .with_only_columns(self._tie)
                .order_by(*in_direction(descending, self._orders[order], self._tie))
                .limit(bindparam("limit"))
            )
        return built

    def _by_ids(self, count: int, lateral: bool) -> AnySelect:
        """The rows of ``count`` ids (parameters ``id_0`` …), with what ``page_only`` adds, in no order."""
        built = self._rows_by_ids.get((count, lateral))
        if built is None:
            built = self._base.where(self._tie.in_([bindparam(f"id_{i}") for i in range(count)]))
            if self._page_only is not None:
                built = self._page_only(built.subquery(), lateral)
            self._rows_by_ids[(count, lateral)] = built
        return built

    async def every(
        self, ctx: AppContext, *, query: PageQuery, values: Mapping[str, Any], most: int, chunk: int = 5000
    ) -> tuple[int, AsyncIterator[Sequence[Row]]]:
        """How many rows the filters keep, and (when at most ``most``) all of them in the query's order.

        Paging is ignored (exports read this). The ids of the rows are read first, in the list's
        order, which fixes the rows: one written meanwhile is left out, one deleted meanwhile is
        skipped, none repeats. Then the rows are read a chunk of ids at a time (each chunk padded to
        ``chunk`` ids with its last, so one statement serves every chunk) through the table's
        primary key, aside from the event loop. Past ``most`` rows the count is the list's own and
        the chunks are empty.
        """
        reads = ctx.reads
        shape, params = self._shape(values, query)
        found_ids = await reads.all(self._ids_statement(shape), params | {"limit": most + 1}, inline=False)
        ids = [row[0] for row in found_ids]
        if len(ids) > most:
            counting = self._statements(shape, reads.lateral)
            total = int(await reads.scalar(counting.count, params, inline=False) or 0)
            return total, _nothing()
        position = self._position(self._tie)
        rows_by_ids = self._by_ids(chunk, reads.lateral)

        async def chunks() -> AsyncIterator[Sequence[Row]]:
            for start in range(0, len(ids), chunk):
                wanted = ids[start : start + chunk]
                padded = wanted + [wanted[-1]] * (chunk - len(wanted))
                chunk_ids = {f"id_{i}": value for i, value in enumerate(padded)}
                # The filters' values too: what ``page_only`` adds may read them (a group's visible members).
                found = await reads.all(rows_by_ids, params | chunk_ids, inline=False)
                by_id = {row[position]: row for row in found}
                yield [by_id[i] for i in wanted if i in by_id]

        return len(ids), chunks()

    async def first(self, *, session: AsyncSession, values: Mapping[str, Any]) -> Row | None:
        """The first row the filters keep, read in the caller's session (it sees the caller's writes).

        One row: the statements any database runs serve it (``page_only`` without LATERAL).
        """
        shape, params = self._shape(values, None)
        params["offset"], params["limit"] = 0, 1
        found: Row | None = (await session.execute(self._statements(shape).page, params)).first()
        return found


async def _nothing() -> AsyncIterator[Sequence[Row]]:
    """No chunks (an export refused)."""
    for _ in ():
        yield ()


class ForIds:
    """A statement over a set of ids (the rows a page shows), built once per number of ids.

    ``make`` gets the ids' bind parameters; the reader, which runs no IN list of unknown length,
    then runs the statement built for that many.
    """

    def __init__(self, make: Callable[[list[BindParameter[Any]]], AnySelect]) -> None:
        self._make = make
        self._built: dict[int, AnySelect] = {}

    def _statement(self, count: int) -> AnySelect:
        built = self._built.get(count)
        if built is None:
            built = self._make([bindparam(f"id_{i}") for i in range(count)])
            if count <= MAX_PAGE_SIZE:  # longer sets (a dashboard of every project) are rare: not kept
                self._built[count] = built
        return built

    async def all(
        self, source: AppContext | AsyncSession, ids: Sequence[Any], *, inline: bool = True, **values: Any
    ) -> Sequence[Row]:
        """The statement's rows for these ids (and ``values`` of its other parameters).

        Read outside the session (``inline=False``: a long read, that SQLite reads aside), or in
        ``source`` when it is a session (it sees the caller's writes).
        """
        if not ids:
            return ()
        statement = self._statement(len(ids))
        params = {f"id_{i}": value for i, value in enumerate(ids)} | values
        if isinstance(source, AsyncSession):
            return (await source.execute(statement, params)).all()
        return await source.reads.all(statement, params, inline=inline)
