"""Password hashing, opaque tokens and the encrypted passwordless-link parameter."""

from __future__ import annotations

import base64
import hashlib
import secrets

import orjson
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from cryptography.fernet import Fernet, InvalidToken
from starlette.concurrency import run_in_threadpool

_HASHERS = {
    "default": PasswordHasher(),  # argon2id, RFC 9106 low-memory profile
    "fast": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
}


class PasswordHashing:
    """Argon2id hashing off the event loop."""

    def __init__(self, profile: str = "default") -> None:
        self._hasher = _HASHERS[profile]

    async def hash(self, password: str) -> str:
        """Hash a password."""
        return await run_in_threadpool(self._hasher.hash, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        """Check a password against its hash."""

        def _verify() -> bool:
            try:
                return self._hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await run_in_threadpool(_verify)

    async def burn(self, password: str) -> None:
        """Spend the time of one verification, so unknown accounts answer as slowly as known ones."""
        await run_in_threadpool(self._hasher.hash, password)


def new_token() -> str:
    """A fresh opaque login token."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def code_digest(secret_key: str, code: str) -> str:
    """Keyed digest of an SMS code."""
    return hashlib.blake2b(code.encode(), key=secret_key.encode()[:64], digest_size=16).hexdigest()


def _fernet(secret_key: str) -> Fernet:
    key = hashlib.sha256(("login-link:" + secret_key).encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret_key: str, payload: dict[str, object]) -> str:
    """Encrypt and authenticate a small payload into a URL-safe string."""
    return _fernet(secret_key).encrypt(orjson.dumps(payload)).decode()


def unseal(secret_key: str, sealed: str) -> dict[str, object] | None:
    """Decrypt a sealed payload; None when it was tampered with or is not ours."""
    try:
        data = orjson.loads(_fernet(secret_key).decrypt(sealed.encode()))
    except (InvalidToken, orjson.JSONDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None
