"""A short-lived in-process cache of validated tokens, so most calls authenticate without the database.

Every change this process makes to an account or its tokens drops the affected entries at once.
With several API processes, another process may accept a revoked token until its entry ages out
(``token_cache_seconds``, default 5 s; 0 turns the cache off). When an entry ages out under load,
the calls that arrive together share one database check instead of each making its own.

The cache knows nothing of accounts: it holds whatever value a token resolved to, with the id of
its owner so that every token of one owner can be dropped together.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from powerportal.core.shared import SharedRuns
from powerportal.core.timeutil import utcnow

MAX_ENTRIES = 50_000

V = TypeVar("V")


@dataclass(frozen=True)
class Resolved(Generic[V]):
    """What a database check found for a token: its value, whose it is, until when it holds."""

    value: V
    owner: Hashable
    until: datetime


@dataclass(frozen=True)
class _Entry(Generic[V]):
    value: V
    owner: Hashable
    fresh_until: float  # time.monotonic()


Check = Callable[[], Awaitable["Resolved[V] | None"]]


class TokenCache(Generic[V]):
    """Token to value, with a time-to-live.

    Keyed by the token itself, in this process's memory only (the database keeps only digests), so a
    cached call spends no time hashing. The value is handed to every call of the token as it is, so
    give it one that holds no database state (a detached snapshot).
    """

    def __init__(self, ttl_seconds: float) -> None:
        self._ttl = ttl_seconds
        self._entries: dict[str, _Entry[V]] = {}
        self._checks: SharedRuns[V | None] = SharedRuns()

    def get(self, token: str) -> V | None:
        """The value of a token validated recently enough, or None when the database must decide."""
        entry = self._entries.get(token)
        if entry is None or entry.fresh_until < time.monotonic():
            return None
        return entry.value

    def put(self, token: str, found: Resolved[V]) -> V:
        """Remember a validated token (until ``found.until`` at most); returns the value standing for it."""
        value = found.value
        seconds = min(self._ttl, (found.until - utcnow()) / timedelta(seconds=1))
        if seconds <= 0:
            return value
        if len(self._entries) >= MAX_ENTRIES:
            for key in list(self._entries)[: MAX_ENTRIES // 10]:
                del self._entries[key]
        self._entries[token] = _Entry(value, found.owner, time.monotonic() + seconds)
        return value

    async def check(self, token: str, check: Check[V]) -> V | None:
        """Ask the database about a token once for every call waiting on it at the same time."""
        return await self._checks.run(token, lambda: self._check(token, check))

    async def _check(self, token: str, check: Check[V]) -> V | None:
        found = await check()
        if found is None:
            return None
        # A token forgotten meanwhile is answered for the calls already waiting, but not remembered.
        return self.put(token, found) if self._checks.owns(token) else found.value

    def forget(self, token: str) -> None:
        """Drop one token."""
        self._entries.pop(token, None)
        self._checks.forget(token)

    def forget_owner(self, owner: Hashable) -> None:
        """Drop every token of one owner."""
        for key in [k for k, v in self._entries.items() if v.owner == owner]:
            del self._entries[key]
        self._checks.forget_all()  # whose tokens these are is known only once they are answered
