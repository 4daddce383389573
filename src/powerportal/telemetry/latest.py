"""The latest values of every device, kept in memory for the monitoring screens."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class LatestEntry:
    """What a device reported last: the reading's instant, its values and when it arrived."""

    ts: datetime
    values: dict[str, Any]
    received_at: datetime


class LatestValues:
    """Device sysno → its newest reading; written by the ingest after each commit, read by the API."""

    def __init__(self) -> None:
        self._entries: dict[int, LatestEntry] = {}

    def get(self, device_sysno: int) -> LatestEntry | None:
        """The newest values of one device, if it reported since the process started."""
        return self._entries.get(device_sysno)

    def get_many(self, device_sysnos: Iterable[int]) -> dict[int, LatestEntry]:
        """The newest values of several devices (those without any are left out)."""
        entries = self._entries
        return {sysno: entries[sysno] for sysno in device_sysnos if sysno in entries}

    def put(self, device_sysno: int, entry: LatestEntry) -> None:
        """Replace a device's entry unless the one held is newer."""
        held = self._entries.get(device_sysno)
        if held is None or held.ts <= entry.ts:
            self._entries[device_sysno] = entry

    def forget(self, device_sysnos: Iterable[int]) -> None:
        """Drop devices (deleted)."""
        for sysno in device_sysnos:
            self._entries.pop(sysno, None)

    def __len__(self) -> int:
        return len(self._entries)
