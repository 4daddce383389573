"""Calls for the same thing that arrive together share one run.

When a cached answer ages out under load, every call arriving before the first database read comes
back would otherwise make its own (dozens at once, each holding a connection, which the calls
behind them queue for). ``SharedRuns.run`` starts the work once per key and lets the others wait
for the same result; a caller that gives up does not cancel it for the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SharedRuns(Generic[V]):
    """At most one run of the work per key at a time."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[V]] = {}

    async def run(self, key: Hashable, work: Callable[[], Awaitable[V]]) -> V:
        """The result of ``work()``, started now or already under way for this key."""
        return await asyncio.shield(self.start(key, work))

    def start(self, key: Hashable, work: Callable[[], Awaitable[V]]) -> asyncio.Future[V]:
        """Start ``work()`` unless it is already under way for this key; its future (not to be cancelled)."""
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(work())
            running.add_done_callback(lambda done: self._finished(key, done))
        return running

    def running(self, key: Hashable) -> bool:
        """Whether a run for the key is under way."""
        return key in self._running

    def owns(self, key: Hashable) -> bool:
        """Whether the calling run is still the one for its key (``forget`` was not called meanwhile)."""
        return self._running.get(key) is asyncio.current_task()

    def forget(self, key: Hashable) -> None:
        """Let the next call for the key start afresh (the run under way still answers its callers)."""
        self._running.pop(key, None)

    def forget_all(self) -> None:
        """``forget`` every key."""
        self._running.clear()

    def _finished(self, key: Hashable, done: asyncio.Future[V]) -> None:
        if self._running.get(key) is done:
            del self._running[key]
        if not done.cancelled():
            done.exception()  # seen, even when every caller has gone
