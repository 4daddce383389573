"""A short-lived in-process cache of validated tokens, so most calls authenticate without the database.

Every change this process makes to an account or its tokens drops the affected entries at once.
With several API processes, another process may accept a revoked token until its entry ages out
(``token_cache_seconds``, default 5 s; 0 turns the cache off). A token in use is checked again in
the background during the last quarter of its entry's life, so that its calls never wait for the
database while it keeps being used; when an entry does age out under load, the calls that arrive
together share one database check instead of each making its own.

The cache knows nothing of accounts: it holds whatever value a token resolved to, with the id of
its owner so that every token of one owner can be dropped together.
"""

from __future__ import annotations

import asyncio
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


Check = Callable[[], Awaitable["Resolved[V] | None"]]


@dataclass(frozen=True)
class _Entry(Generic[V]):
    value: V
    owner: Hashable
    fresh_until: float  # the clock (time.monotonic)
    check_from: float  # from then on, a call checks the token again in the background
    check: Check[V] | None  # how it was checked


class TokenCache(Generic[V]):
    """Token to value, with a time-to-live.

    Keyed by the token itself, in this process's memory only (the database keeps only digests), so a
    cached call spends no time hashing. The value is handed to every call of the token as it is, so
    give it one that holds no database state (a detached snapshot).
    """

    def __init__(self, ttl_seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._ttl = ttl_seconds
        self._entries: dict[str, _Entry[V]] = {}
        self._checks: SharedRuns[V | None] = SharedRuns()

    def get(self, token: str) -> V | None:
        """The value of a token validated recently enough, or None when the database must decide."""
        entry = self._entries.get(token)
        if entry is None:
            return None
        now = self._clock()
        if entry.fresh_until < now:
            return None
        if entry.check_from <= now and entry.check is not None and not self._checks.running(token):
            self._check_aside(token, entry.check)
        return entry.value

    def _check_aside(self, token: str, check: Check[V]) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop to check on: the entry simply ages out
            return
        self._checks.start(token, lambda: self._check(token, check))

    def put(self, token: str, found: Resolved[V], check: Check[V] | None = None) -> V:
        """Remember a validated token (until ``found.until`` at most); returns the value standing for it.

        ``check`` checks the token again; given, calls during the last quarter of the entry's life
        start it in the background.
        """
        value = found.value
        seconds = min(self._ttl, (found.until - utcnow()) / timedelta(seconds=1))
        if seconds <= 0:
            return value
        if len(self._entries) >= MAX_ENTRIES:
            for key in list(self._entries)[: MAX_ENTRIES // 10]:
                del self._entries[key]
        now = self._clock()
        self._entries[token] = _Entry(value, found.owner, now + seconds, now + seconds * 0.75, check)
        return value

    async def check(self, token: str, check: Check[V]) -> V | None:
        """Ask the database about a token once for every call waiting on it at the same time."""
        return await self._checks.run(token, lambda: self._check(token, check))

    async def _check(self, token: str, check: Check[V]) -> V | None:
        found = await check()
        if found is None:
            if self._checks.owns(token):  # no longer valid: not even the entry checked aside stays
                self._entries.pop(token, None)
            return None
        # A token forgotten meanwhile is answered for the calls already waiting, but not remembered.
        return self.put(token, found, check) if self._checks.owns(token) else found.value

    def forget(self, token: str) -> None:
        """Drop one token."""
        self._entries.pop(token, None)
        self._checks.forget(token)

    def forget_owner(self, owner: Hashable) -> None:
        """Drop every token of one owner."""
        for key in [k for k, v in self._entries.items() if v.owner == owner]:
            del self._entries[key]
        self._checks.forget_all()  # whose tokens these are is known only once they are answered
