"""Everything a request or a background task needs, built once per process."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from powerportal.accounts.tokens import TokenCache
from powerportal.core.config import Settings
from powerportal.core.counting import SESSION_INFO_KEY, CountCache
from powerportal.core.database import create_engine, create_sessionmaker
from powerportal.core.frozen import FrozenRows
from powerportal.core.ratelimit import MemoryLimiter, RedisLimiter, create_limiter
from powerportal.core.reads import Reader
from powerportal.core.security import PasswordHashing
from powerportal.sms.providers import SmsProvider, create_provider


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
    tokens: TokenCache
    counts: CountCache
    frozen_rows: FrozenRows
    extras: dict[str, object] = field(default_factory=dict)

    @classmethod
    def build(cls, settings: Settings) -> AppContext:
        """Wire the services from settings."""
        engine = create_engine(settings.database_url)
        counts = CountCache(settings.count_cache_seconds)
        return cls(
            settings=settings,
            engine=engine,
            sessions=create_sessionmaker(engine, info={SESSION_INFO_KEY: counts}),
            reads=Reader(engine, pool_size=settings.read_pool_size),
            counts=counts,
            frozen_rows=FrozenRows(),
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
