"""A log that a flood cannot drown: the first few lines of a kind each minute, then a count of the rest."""

from __future__ import annotations

import logging
import time

WINDOW_SECONDS = 60.0


class LogBudget:
    """The first ``first`` warnings of each kind per minute; the next minute says how many were held back."""

    def __init__(self, logger: logging.Logger, *, first: int = 10, window: float = WINDOW_SECONDS) -> None:
        self.logger = logger
        self.first = first
        self.window = window
        # kind → (window start, lines in this window)
        self._windows: dict[str, tuple[float, int]] = {}

    def warning(self, kind: str, message: str, *args: object, exc_info: bool = False) -> None:
        """Log this warning of this kind if the minute's budget allows (a traceback only then)."""
        now = time.monotonic()
        start, seen = self._windows.get(kind, (now, 0))
        if now - start >= self.window:
            held = seen - self.first
            if held > 0:
                self.logger.warning(
                    "%d more %r warnings in the last %.0f s not logged", held, kind, now - start
                )
            start, seen = now, 0
        seen += 1
        self._windows[kind] = (start, seen)
        if seen <= self.first:
            self.logger.warning(message, *args, exc_info=exc_info)
