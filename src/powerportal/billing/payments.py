"""The interface an online payment provider (WeChat Pay, Alipay, a bank's aggregator) plugs into.

Not wired to a real provider: a deployment that takes payments online implements this protocol and
mounts two routes, one that opens an order (the tenant scans the returned QR code or follows the
link) and one for the provider's signed callback. The callback, once ``verify`` accepts it, pays in
through ``service.recharge`` exactly like a manager's recharge (method ``wechat`` or ``alipay``,
operator ``在线支付``), so the ledger, the restore within a minute and the operation log are the
same. ``order_no`` is unique per payment: a callback repeated by the provider finds its ledger
entry by ``remark`` and is acknowledged without paying in twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class PaymentOrder:
    """A payment opened with the provider: what the tenant scans or follows."""

    order_no: str
    account_sysno: int
    amount_fen: int
    pay_url: str


@dataclass(frozen=True, slots=True)
class PaidNotice:
    """A provider's verified word that an order was paid."""

    order_no: str
    amount_fen: int
    method: str  # wechat | alipay | transfer


class PaymentProvider(Protocol):
    """What billing needs of a payment provider."""

    name: str

    async def open_order(
        self, *, order_no: str, account_sysno: int, amount_fen: int, subject: str
    ) -> PaymentOrder:
        """Open a payment with the provider."""
        ...

    def verify(self, *, headers: dict[str, str], body: bytes) -> PaidNotice | None:
        """The paid notice in a callback whose signature holds, else None (answer the provider 400)."""
        ...
