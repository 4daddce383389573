"""Sliding-window counters for login throttling and SMS limits."""

from __future__ import annotations

import time
from collections import defaultdict, deque
from typing import Protocol

from redis.asyncio import Redis


class Limiter(Protocol):
    """Counts events per key over a window."""

    async def hit(self, key: str, window: float) -> int:
        """Record one event; return how many fall inside the window."""

    async def count(self, key: str, window: float) -> int:
        """How many events fall inside the window."""

    async def release(self, key: str) -> None:
        """Take back the latest event (one recorded before its outcome was known)."""

    async def clear(self, key: str) -> None:
        """Forget a key."""


class MemoryLimiter:
    """In-process counters; right for a single server process."""

    def __init__(self) -> None:
        self._events: dict[str, deque[float]] = defaultdict(deque)

    def _trim(self, key: str, window: float) -> deque[float]:
        events = self._events[key]
        horizon = time.monotonic() - window
        while events and events[0] < horizon:
            events.popleft()
        return events

    async def hit(self, key: str, window: float) -> int:
        """Record one event; return how many fall inside the window."""
        events = self._trim(key, window)
        events.append(time.monotonic())
        return len(events)

    async def count(self, key: str, window: float) -> int:
        """How many events fall inside the window."""
        return len(self._trim(key, window))

    async def release(self, key: str) -> None:
        """Take back the latest event (one recorded before its outcome was known)."""
        events = self._events.get(key)
        if events:
            events.pop()

    async def clear(self, key: str) -> None:
        """Forget a key."""
        self._events.pop(key, None)


class RedisLimiter:
    """Counters in Redis sorted sets, shared by every server process."""

    def __init__(self, url: str) -> None:
        self._redis: Redis = Redis.from_url(url)

    async def hit(self, key: str, window: float) -> int:
        """Record one event; return how many fall inside the window."""
        now = time.time()
        name = f"pp:rl:{key}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(name, 0, now - window)
            pipe.zadd(name, {f"{now}:{time.perf_counter_ns()}": now})
            pipe.zcard(name)
            pipe.expire(name, int(window) + 1)
            result = await pipe.execute()
        return int(result[2])

    async def count(self, key: str, window: float) -> int:
        """How many events fall inside the window."""
        name = f"pp:rl:{key}"
        return int(await self._redis.zcount(name, time.time() - window, "+inf"))

    async def release(self, key: str) -> None:
        """Take back the latest event (one recorded before its outcome was known)."""
        await self._redis.zpopmax(f"pp:rl:{key}")

    async def clear(self, key: str) -> None:
        """Forget a key."""
        await self._redis.delete(f"pp:rl:{key}")

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()


def create_limiter(redis_url: str) -> MemoryLimiter | RedisLimiter:
    """Redis-backed when a URL is configured, else in memory."""
    return RedisLimiter(redis_url) if redis_url else MemoryLimiter()


class TokenBucket:
    """``rate`` a second with bursts of ``burst``; says how long to wait when a take runs it dry."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self, amount: float = 1.0) -> float:
        """Take ``amount`` (going into debt if need be); return the seconds until the debt is paid."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate) - amount
        self.stamp = now
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate
