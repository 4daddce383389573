"""Telemetry waiting for the platform, kept on disk (SQLite) so that a restart or power cut loses none."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class DiskBuffer:
    """Messages in the order they were made; the oldest go first and, past ``limit``, are dropped first."""

    def __init__(self, path: Path, limit: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.limit = limit
        self.dropped = 0
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS pending (id INTEGER PRIMARY KEY AUTOINCREMENT, body BLOB)"
        )

    def append(self, body: bytes) -> None:
        """Keep a message; beyond the limit the oldest ones make room."""
        self._db.execute("INSERT INTO pending (body) VALUES (?)", (body,))
        over = len(self) - self.limit
        if over > 0:
            self._db.execute(
                "DELETE FROM pending WHERE id IN (SELECT id FROM pending ORDER BY id LIMIT ?)", (over,)
            )
            self.dropped += over

    def oldest(self, count: int) -> list[tuple[int, bytes]]:
        """The oldest messages, oldest first."""
        rows = self._db.execute("SELECT id, body FROM pending ORDER BY id LIMIT ?", (count,)).fetchall()
        return [(int(i), bytes(b)) for i, b in rows]

    def remove(self, message_id: int) -> None:
        """A message the platform acknowledged."""
        self._db.execute("DELETE FROM pending WHERE id = ?", (message_id,))

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM pending").fetchone()[0])

    def close(self) -> None:
        """Close the file."""
        self._db.close()
