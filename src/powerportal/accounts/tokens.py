"""A short-lived in-process cache of validated tokens, so most calls authenticate without the database.

Every change this process makes to a customer or its tokens drops the affected entries at once.
With several API processes, another process may accept a revoked token until its entry ages out
(``token_cache_seconds``, default 5 s; 0 turns the cache off). When an entry ages out under load,
the calls that arrive together share one database check instead of each making its own.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import inspect
from sqlalchemy.orm import make_transient_to_detached

from powerportal.accounts.models import Customer
from powerportal.core.shared import SharedRuns
from powerportal.core.timeutil import utcnow

MAX_ENTRIES = 50_000


@dataclass(frozen=True)
class CachedToken:
    """What a validated token resolved to, and until when (``time.monotonic``) that answer holds."""

    customer: Customer
    fresh_until: float


def snapshot(customer: Customer) -> Customer:
    """A detached copy of the customer that can be merged into any session without a query."""
    columns = {attr.key: getattr(customer, attr.key) for attr in inspect(Customer).column_attrs}
    copy = Customer(**columns)
    make_transient_to_detached(copy)
    return copy


Check = Callable[[], Awaitable[tuple[Customer, datetime] | None]]


class TokenCache:
    """Token to customer snapshot, with a time-to-live.

    Keyed by the token itself, in this process's memory only (the database keeps only digests), so a
    cached call spends no time hashing.
    """

    def __init__(self, ttl_seconds: float) -> None:
        self._ttl = ttl_seconds
        self._entries: dict[str, CachedToken] = {}
        self._checks: SharedRuns[Customer | None] = SharedRuns()

    def get(self, token: str) -> Customer | None:
        """The customer of a token validated recently enough, or None when the database must decide."""
        entry = self._entries.get(token)
        if entry is None or entry.fresh_until < time.monotonic():
            return None
        return entry.customer

    def put(self, token: str, customer: Customer, *, until: datetime) -> Customer:
        """Remember a validated token (until ``until`` at most); returns the snapshot standing for it."""
        copy = snapshot(customer)
        seconds = min(self._ttl, (until - utcnow()) / timedelta(seconds=1))
        if seconds <= 0:
            return copy
        if len(self._entries) >= MAX_ENTRIES:
            for key in list(self._entries)[: MAX_ENTRIES // 10]:
                del self._entries[key]
        self._entries[token] = CachedToken(copy, time.monotonic() + seconds)
        return copy

    async def check(self, token: str, check: Check) -> Customer | None:
        """Ask the database about a token once for every call waiting on it at the same time.

        ``check`` gives the customer and until when the answer may be remembered, or None.
        """
        return await self._checks.run(token, lambda: self._check(token, check))

    async def _check(self, token: str, check: Check) -> Customer | None:
        found = await check()
        if found is None:
            return None
        customer, until = found
        # A token forgotten meanwhile is answered for the calls already waiting, but not remembered.
        return self.put(token, customer, until=until) if self._checks.owns(token) else snapshot(customer)

    def forget(self, token: str) -> None:
        """Drop one token."""
        self._entries.pop(token, None)
        self._checks.forget(token)

    def forget_customer(self, customer_sysno: int) -> None:
        """Drop every token of a customer."""
        for key in [k for k, v in self._entries.items() if v.customer.sysno == customer_sysno]:
            del self._entries[key]
        self._checks.forget_all()  # whose tokens these are is known only once they are answered
