"""Acknowledgements sent in the order the messages came, each once its message is stored."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class OrderedAcks(Generic[T]):
    """Holds what is owed; ``send`` each in arrival order once stored, ``fail`` once if one is not.

    MQTT wants QoS 1 acknowledgements in the order of the publishes; a message with nothing to store
    (``stored`` None) is acknowledged as soon as those before it are.
    """

    def __init__(self, send: Callable[[T], None], fail: Callable[[], None]) -> None:
        self._send = send
        self._fail = fail
        self._owed: deque[tuple[T, asyncio.Future[None] | None]] = deque()
        self.failed = False

    def __len__(self) -> int:
        return len(self._owed)

    def oldest(self) -> asyncio.Future[None] | None:
        """The storage of the oldest message still owed, if any."""
        return self._owed[0][1] if self._owed else None

    def push(self, item: T, stored: asyncio.Future[None] | None) -> None:
        """Owe an acknowledgement."""
        self._owed.append((item, stored))
        if stored is not None and not stored.done():
            stored.add_done_callback(lambda _f: self.flush())
        else:
            self.flush()

    def flush(self) -> None:
        """Send what is due."""
        while self._owed and not self.failed:
            item, stored = self._owed[0]
            if stored is not None and not stored.done():
                return
            self._owed.popleft()
            if stored is not None and (stored.cancelled() or stored.exception() is not None):
                self.failed = True  # not stored: no acknowledgement; the sender sends it again
                self._fail()
                return
            self._send(item)

    def clear(self) -> None:
        """Forget what is owed (the connection is gone; its sender resends)."""
        self._owed.clear()
