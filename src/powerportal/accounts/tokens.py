"""A short-lived in-process cache of validated tokens, so most calls authenticate without the database.

Every change this process makes to a customer or its tokens drops the affected entries at once.
With several API processes, another process may accept a revoked token until its entry ages out
(``token_cache_seconds``, default 5 s; 0 turns the cache off).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import inspect
from sqlalchemy.orm import make_transient_to_detached

from powerportal.accounts.models import Customer

MAX_ENTRIES = 50_000


@dataclass(frozen=True)
class CachedToken:
    """What a validated token resolved to."""

    customer: Customer
    last_seen: datetime
    expires_at: datetime
    cached_at: float


def snapshot(customer: Customer) -> Customer:
    """A detached copy of the customer that can be merged into any session without a query."""
    columns = {attr.key: getattr(customer, attr.key) for attr in inspect(Customer).column_attrs}
    copy = Customer(**columns)
    make_transient_to_detached(copy)
    return copy


class TokenCache:
    """Token digest to customer snapshot, with a time-to-live."""

    def __init__(self, ttl_seconds: float) -> None:
        self._ttl = ttl_seconds
        self._entries: dict[str, CachedToken] = {}

    def get(self, digest: str) -> CachedToken | None:
        """The live entry for a token digest."""
        entry = self._entries.get(digest)
        if entry is None or time.monotonic() - entry.cached_at > self._ttl:
            return None
        return entry

    def put(self, digest: str, customer: Customer, last_seen: datetime, expires_at: datetime) -> Customer:
        """Remember a validated token; returns the snapshot that stands for the customer."""
        copy = snapshot(customer)
        if self._ttl <= 0:
            return copy
        if len(self._entries) >= MAX_ENTRIES:
            for key in list(self._entries)[: MAX_ENTRIES // 10]:
                del self._entries[key]
        self._entries[digest] = CachedToken(copy, last_seen, expires_at, time.monotonic())
        return copy

    def forget(self, digest: str) -> None:
        """Drop one token."""
        self._entries.pop(digest, None)

    def forget_customer(self, customer_sysno: int) -> None:
        """Drop every token of a customer."""
        for key in [k for k, v in self._entries.items() if v.customer.sysno == customer_sysno]:
            del self._entries[key]
