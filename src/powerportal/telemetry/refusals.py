"""What the platform refused or repaired of each gateway, by reason: counted in memory, kept in the database.

The broker and the ingest note refusals as they happen (cheap: a dictionary); a periodic flush adds
them to ``gateway_refusal`` so that the counts survive restarts and the owner's 接入日志 shows them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.core import text
from powerportal.core.database import upsert_insert
from powerportal.core.timeutil import utcnow
from powerportal.gateways.models import Gateway, GatewayRefusal
from powerportal.gateways.refusals import REASONS

log = logging.getLogger("powerportal.telemetry.refusals")


@dataclass
class _Tally:
    count: int
    first_time: datetime
    last_time: datetime
    last_detail: str | None


class RefusalLedger:
    """Refusals noted since the last flush, by serial number and reason."""

    def __init__(self) -> None:
        self._pending: dict[tuple[str, str], _Tally] = {}

    def note(self, sn: str, reason: str, detail: str | None = None, count: int = 1) -> None:
        """Count a refusal of gateway ``sn`` (as claimed: an unregistered one is dropped at the flush)."""
        if reason not in REASONS or count <= 0:
            return
        key = (sn, reason)
        held = self._pending.get(key)
        detail = text.clean(detail, 255) if detail else None
        if held is None:
            if len(self._pending) >= 100_000:
                return  # a flood of made-up serial numbers waits for the next flush
            now = utcnow()
            self._pending[key] = _Tally(count, now, now, detail)
        else:
            held.count += count
            held.last_time = utcnow()
            held.last_detail = detail or held.last_detail

    async def flush(self, session: AsyncSession) -> int:
        """Add what was noted to the database (registered gateways only); returns the rows touched.

        A tally begun before the gateway's registration is another registration's (a serial number
        deleted and registered again, by anyone, within a flush): it is dropped, not shown to the new owner.
        """
        if not self._pending:
            return 0
        pending, self._pending = self._pending, {}
        sns = sorted({sn for sn, _ in pending})
        rows = await session.execute(
            select(Gateway.sn, Gateway.sysno, Gateway.create_time).where(Gateway.sn.in_(sns))
        )
        found = {sn: (sysno, registered) for sn, sysno, registered in rows.tuples()}
        insert = await upsert_insert(session)
        touched = 0
        for (sn, reason), tally in sorted(pending.items()):
            gateway = found.get(sn)
            if gateway is None or tally.first_time < gateway[1]:
                continue
            sysno = gateway[0]
            stmt = insert(GatewayRefusal).values(
                gateway_sysno=sysno,
                reason=reason,
                count=tally.count,
                last_time=tally.last_time,
                last_detail=tally.last_detail,
            )
            stmt = stmt.on_conflict_do_update(
                index_elements=["gateway_sysno", "reason"],
                set_={
                    "count": GatewayRefusal.count + tally.count,
                    "last_time": tally.last_time,
                    "last_detail": func.coalesce(stmt.excluded.last_detail, GatewayRefusal.last_detail),
                },
            )
            await session.execute(stmt)
            touched += 1
        return touched
