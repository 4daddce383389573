"""Stopping background tasks so that a shutdown always ends.

A task asked to stop may not: a library can turn the ``CancelledError`` into its own error (an
MQTT client reports a lost connection), and a reconnect loop that catches that error goes on. Such
loops check ``cancelling()`` before they retry, and ``stop_tasks`` waits a bounded time and then
leaves a task that still runs, so that the server's shutdown, and the tests, never hang.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)

STOP_SECONDS = 10.0


def cancelling() -> bool:
    """Whether the running task has been asked to stop (whatever error the request surfaced as)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], *, seconds: float = STOP_SECONDS) -> None:
    """Cancel the tasks and wait for them to end, at most ``seconds``; their errors are logged, not raised."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    stuck: set[asyncio.Task[Any]] = set()
    if any(not task.done() for task in tasks):
        _done, stuck = await asyncio.wait(tasks, timeout=seconds)
    for task in tasks:
        if task in stuck:
            log.error("task %s did not stop within %.0f s; left behind", task.get_name(), seconds)
        elif not task.cancelled() and task.exception() is not None:
            log.warning("task %s failed", task.get_name(), exc_info=task.exception())
