"""The infrastructure every request and background task shares, built once per process.

It holds no domain: the running parts of the domains (the MQTT side, the alarm texts, the
scheduler) sit in ``powerportal.runtime.Runtime`` above them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from powerportal.core.config import Settings
from powerportal.core.counting import SESSION_INFO_KEY, CountCache, CountingSession
from powerportal.core.database import create_engine, create_sessionmaker
from powerportal.core.ratelimit import MemoryLimiter, RedisLimiter, create_limiter
from powerportal.core.reads import Reader
from powerportal.core.security import PasswordHashing
from powerportal.core.sms import SmsProvider, create_provider
from powerportal.core.tokens import TokenCache


@dataclass
class AppContext:
    """Shared services of one server process."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    reads: Reader
    limiter: MemoryLimiter | RedisLimiter
    passwords: PasswordHashing
    sms: SmsProvider
    # Token → the account it resolved to (the accounts domain puts and narrows them).
    tokens: TokenCache[object]
    counts: CountCache

    @classmethod
    def build(cls, settings: Settings) -> AppContext:
        """Wire the services from settings."""
        engine = create_engine(settings.database_url)
        counts = CountCache(settings.count_cache_seconds)
        return cls(
            settings=settings,
            engine=engine,
            sessions=create_sessionmaker(
                engine, info={SESSION_INFO_KEY: counts}, sync_session_class=CountingSession
            ),
            reads=Reader(engine, pool_size=settings.read_pool_size),
            counts=counts,
            limiter=create_limiter(settings.redis_url),
            passwords=PasswordHashing(settings.password_hash_profile),
            sms=create_provider(settings),
            tokens=TokenCache(settings.token_cache_seconds),
        )

    async def close(self) -> None:
        """Release connections."""
        if isinstance(self.limiter, RedisLimiter):
            await self.limiter.close()
        await self.reads.close()
        await self.engine.dispose()
