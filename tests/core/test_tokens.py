"""A token in use is checked again in the background before its entry ages out."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from powerportal.core.timeutil import utcnow
from powerportal.core.tokens import Resolved, TokenCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_token_in_use_is_checked_aside_before_it_ages_out() -> None:
    clock = Clock()
    tokens: TokenCache[str] = TokenCache(4, clock=clock)
    checks: list[str] = []
    answer: list[str | None] = ["alice"]

    async def check() -> Resolved[str] | None:
        checks.append("checked")
        value = answer[0]
        return None if value is None else Resolved(value, owner=1, until=utcnow() + timedelta(hours=1))

    assert await tokens.check("t", check) == "alice" and len(checks) == 1
    clock.now += 2.9  # within the first three quarters: from memory alone
    assert tokens.get("t") == "alice"
    await settle()
    assert len(checks) == 1
    clock.now += 0.2  # the last quarter: answered from memory, checked again aside
    answer[0] = "alice v2"
    assert tokens.get("t") == "alice"
    assert tokens.get("t") == "alice", "one check aside at a time"
    await settle()
    assert len(checks) == 2
    clock.now += 3.5  # past the first entry's end, within the new one
    assert tokens.get("t") == "alice v2"
    clock.now += 0.5  # the last quarter again: this time the check finds the token revoked
    answer[0] = None
    assert tokens.get("t") == "alice v2"
    await settle()
    assert tokens.get("t") is None, "a token found revoked aside is dropped at once"


async def test_an_entry_past_its_end_is_never_answered() -> None:
    clock = Clock()
    tokens: TokenCache[str] = TokenCache(4, clock=clock)

    async def check() -> Resolved[str] | None:
        return Resolved("bob", owner=2, until=utcnow() + timedelta(hours=1))

    assert await tokens.check("t", check) == "bob"
    clock.now += 4.1
    assert tokens.get("t") is None


def test_without_a_running_loop_an_entry_just_ages_out() -> None:
    clock = Clock()
    tokens: TokenCache[str] = TokenCache(4, clock=clock)

    async def check() -> Resolved[str] | None:
        return Resolved("carol", owner=3, until=utcnow() + timedelta(hours=1))

    tokens.put("t", Resolved("carol", owner=3, until=utcnow() + timedelta(hours=1)), check)
    clock.now += 3.5
    assert tokens.get("t") == "carol"
