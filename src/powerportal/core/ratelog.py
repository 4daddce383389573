"""A log that a flood cannot drown: the first few lines of a kind, then every thousandth."""

from __future__ import annotations

import logging


class LogBudget:
    """Logs the first ``first`` warnings of each kind, then one in ``every``, with the running count."""

    def __init__(self, logger: logging.Logger, *, first: int = 20, every: int = 1000) -> None:
        self.logger = logger
        self.first = first
        self.every = every
        self._seen: dict[str, int] = {}

    def warning(self, kind: str, message: str, *args: object) -> None:
        """Log this warning of this kind if the budget allows."""
        seen = self._seen.get(kind, 0) + 1
        self._seen[kind] = seen
        if seen <= self.first or seen % self.every == 0:
            self.logger.warning(message + (f" (#{seen})" if seen > self.first else ""), *args)
