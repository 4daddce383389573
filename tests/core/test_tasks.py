"""Stopping background tasks always ends, even when a task will not stop."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from powerportal.core.tasks import cancelling, stop_tasks


class LinkLost(Exception):
    """What a client library may raise when it is interrupted by a cancellation."""


async def session() -> None:
    """A link that drops every few milliseconds, and reports a cancellation as a drop too."""
    try:
        await asyncio.sleep(0.005)
    except asyncio.CancelledError as exc:
        raise LinkLost("connection lost") from exc
    raise LinkLost("connection dropped")


async def reconnecting(guarded: bool, attempts: list[int], most: int = 1000) -> None:
    while len(attempts) < most:
        try:
            await session()
        except LinkLost as exc:
            if guarded and cancelling():
                raise asyncio.CancelledError from exc
            attempts.append(1)


async def test_a_reconnect_loop_that_checks_cancelling_stops() -> None:
    attempts: list[int] = []
    task = asyncio.create_task(reconnecting(True, attempts))
    await asyncio.sleep(0.01)
    started = time.monotonic()
    await stop_tasks([task], seconds=2)
    assert task.cancelled() and time.monotonic() - started < 1


async def test_a_task_that_will_not_stop_is_left_behind_after_the_bound(
    caplog: pytest.LogCaptureFixture,
) -> None:
    attempts: list[int] = []
    stubborn = asyncio.create_task(reconnecting(False, attempts, most=200), name="stubborn")
    finished = asyncio.create_task(asyncio.sleep(0), name="finished")
    await asyncio.sleep(0.01)
    started = time.monotonic()
    with caplog.at_level(logging.ERROR):
        await stop_tasks([stubborn, finished], seconds=0.3)
    assert time.monotonic() - started < 2
    assert not stubborn.done() and attempts, "it swallowed the cancellation and went on"
    assert finished.done()
    assert "stubborn did not stop" in caplog.text
    await stubborn  # it ends on its own after its two hundred attempts
