"""Ready JSON of rows that never change once written, so a page of an append-only log is read as ids.

A page of an append-only log (the operation log) is asked for again and again, its newest rows
above all, and each of its rows reads the same every time. Its list therefore asks the database
only for the ids of the page's rows (the list's index holds them, so the read never touches the
table) and ``FrozenRows.remembered`` gives the rows as ready JSON. When any row of the page is new
to the process, the list reads the whole page and ``remember`` keeps its rows.

What a page holds always comes from the database, so it is never stale, whichever process wrote
the rows. Give it only rows that no statement updates, from a table whose ids are never handed
out twice (a PostgreSQL sequence; on SQLite, a table with AUTOINCREMENT).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import orjson

MAX_ENTRIES = 20_000


class FrozenRows:
    """Row JSON by row id, at most ``max_entries`` of them (the first remembered go first)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._max = max_entries
        self._json: dict[Any, orjson.Fragment] = {}

    def remembered(self, ids: Iterable[Sequence[Any]]) -> list[orjson.Fragment] | None:
        """The JSON of the rows whose ids a page query gave (one-column rows), or None if any is new."""
        found = [self._json.get(row_id) for (row_id,) in ids]
        return None if None in found else cast("list[orjson.Fragment]", found)

    def remember(
        self, rows: Iterable[Sequence[Any]], render: Callable[[Sequence[Any]], dict[str, Any]]
    ) -> list[orjson.Fragment]:
        """The rows as JSON, each kept by its id (the first column); ``render`` gives a row's object."""
        page = []
        for row in rows:
            fragment = orjson.Fragment(orjson.dumps(render(row)))
            if len(self._json) >= self._max:
                for old in list(self._json)[: max(1, self._max // 10)]:
                    del self._json[old]
            self._json[row[0]] = fragment
            page.append(fragment)
        return page

    def __len__(self) -> int:
        return len(self._json)
