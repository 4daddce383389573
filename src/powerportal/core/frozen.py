"""Ready JSON of rows that never change once written, so a page of an append-only log is read as ids.

A page of an append-only log (the operation log) is asked for again and again, its newest rows
above all, and each of its rows reads the same every time. ``FrozenRows.page`` therefore asks the
database only for the ids of the page's rows (the list's index holds them, so the read never
touches the table) and takes the rows from memory as ready JSON. When any row of the page is new
to the process, it reads the whole page and remembers its rows.

What a page holds always comes from the database, so it is never stale, whichever process wrote
the rows. Give it only rows that no statement updates, from a table whose ids are never handed
out twice (a PostgreSQL sequence; on SQLite, a table with AUTOINCREMENT).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import orjson

from powerportal.core.reads import AnySelect, Reader

MAX_ENTRIES = 20_000


class FrozenRows:
    """Row JSON by row id, at most ``max_entries`` of them (the first remembered go first)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._max = max_entries
        self._json: dict[Any, orjson.Fragment] = {}

    async def page(
        self,
        reader: Reader,
        *,
        ids: AnySelect,
        rows: AnySelect,
        params: Mapping[str, Any],
        render: Callable[[Sequence[Any]], dict[str, Any]],
    ) -> list[orjson.Fragment]:
        """The page's rows as JSON, in the page's order.

        ``ids`` selects the id of each row of the page; ``rows`` is the same page selecting the id
        first, then the columns ``render`` turns into the row's JSON object.
        """
        remembered = [self._json.get(row_id) for (row_id,) in await reader.all(ids, params)]
        if None not in remembered:
            return cast("list[orjson.Fragment]", remembered)
        page = []
        for row in await reader.all(rows, params):
            fragment = orjson.Fragment(orjson.dumps(render(row)))
            self._remember(row[0], fragment)
            page.append(fragment)
        return page

    def _remember(self, row_id: Any, fragment: orjson.Fragment) -> None:
        if len(self._json) >= self._max:
            for old in list(self._json)[: max(1, self._max // 10)]:
                del self._json[old]
        self._json[row_id] = fragment

    def __len__(self) -> int:
        return len(self._json)
