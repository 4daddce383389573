"""The ledger's invariant under random recharges, charges, adjustments, concurrent writes and restarts.

For every account, after any sequence: the balance equals the sum of its entries, each entry's
``balance_fen`` is the running sum up to it, and opening + recharges − charges ± adjustments =
closing, to the fen. The charges equal the device's use since opening at the account's price,
rounded once (no drift however the use was cut into charges).
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

from sqlalchemy import select

from powerportal.billing import charging
from powerportal.billing.models import ADJUSTMENT, CHARGE, RECHARGE, BillingAccount, LedgerEntry
from powerportal.core.timeutil import utcnow
from powerportal.energy.observer import EnergyObserver
from tests.billing.test_billing_api import B, backdate, feed, opened
from tests.conftest import Harness, login, make_settings, start_harness
from tests.factories import Account, make_account, make_device, make_gateway, make_project


async def check_invariant(h: Harness, sysnos: list[int]) -> dict[int, int]:
    """Assert the invariant for each account; return each account's balance."""
    balances = {}
    async with h.ctx.sessions() as session:
        for sysno in sysnos:
            account = await session.get(BillingAccount, sysno)
            assert account is not None
            entries = (
                await session.scalars(
                    select(LedgerEntry).where(LedgerEntry.account_sysno == sysno).order_by(LedgerEntry.sysno)
                )
            ).all()
            running = 0
            for entry in entries:
                running += entry.amount_fen
                assert entry.balance_fen == running, (sysno, entry.sysno)
            by_kind = {
                kind: sum(e.amount_fen for e in entries if e.kind == kind)
                for kind in (RECHARGE, CHARGE, ADJUSTMENT)
            }
            assert running == account.balance_fen
            assert by_kind[RECHARGE] + by_kind[CHARGE] + by_kind[ADJUSTMENT] == account.balance_fen
            assert -by_kind[CHARGE] == account.charged_fen
            balances[sysno] = account.balance_fen
    return balances


async def test_ledger_invariant_under_random_work_and_restarts(database_url: str) -> None:
    rng = random.Random(20261126)
    start = utcnow().replace(microsecond=0) - timedelta(hours=6)
    counters: dict[int, float] = {}
    minute: dict[int, int] = {}
    first: dict[int, float | None] = {}
    expected_recharged: dict[int, int] = {}
    expected_adjusted: dict[int, int] = {}
    sysnos: list[int] = []
    devices: list[int] = []
    owner: Account | None = None
    for life in range(3):  # three processes, one after the other, on the same database
        async for h in start_harness(make_settings(database_url)):
            if owner is None:
                owner = await make_account(h, "13900000031")
                project = await make_project(h, owner.sysno)
                gateway = await make_gateway(h, project)
                for n in range(3):
                    device = await make_device(h, gateway, project, rated_current=63)
                    made = await h.post(
                        f"{B}/AddAccount",
                        opened(device, flat_price=0.7 + 0.13 * n, opening_balance=20),
                        owner.token,
                    )
                    assert made["statusCode"] == 200, made
                    sysnos.append(made["data"]["sysno"])
                    await backdate(h, made["data"]["sysno"], start - timedelta(days=1))
                    devices.append(device)
                    counters[device], minute[device] = 50.0, 0
                    first[device] = None
                    expected_recharged[made["data"]["sysno"]] = 2000
                    expected_adjusted[made["data"]["sysno"]] = 0
            token = owner.token if life == 0 else await login(h, owner.mobile)
            observer = EnergyObserver(h.ctx.sessions)
            for _ in range(12):
                work = []
                for _ in range(rng.randint(1, 4)):
                    pick = rng.randrange(3)
                    sysno, device = sysnos[pick], devices[pick]
                    roll = rng.random()
                    if roll < 0.4:
                        amount = round(rng.uniform(0.01, 50), 2)
                        expected_recharged[sysno] += round(amount * 100)
                        work.append(
                            h.post(
                                f"{B}/Recharge",
                                {"account_sysnos": [sysno], "amount": amount, "method": "cash"},
                                token,
                            )
                        )
                    elif roll < 0.55:
                        amount = round(rng.uniform(-5, 5), 2) or 0.01
                        expected_adjusted[sysno] += round(amount * 100)
                        work.append(
                            h.post(
                                f"{B}/AdjustBalance",
                                {"account_sysno": sysno, "amount": amount, "remark": "核对"},
                                token,
                            )
                        )
                    else:
                        values = []
                        for _ in range(rng.randint(2, 8)):
                            minute[device] += 1
                            counters[device] = round(counters[device] + rng.uniform(0, 0.3), 3)
                            values.append((start + timedelta(minutes=minute[device]), counters[device]))
                            if first[device] is None:
                                first[device] = counters[device]
                        await feed(h, observer, device, values)
                # the writes of one round race each other (and the charge below)
                answers = await asyncio.gather(*work, charged_all(h))
                for answer in answers[:-1]:
                    assert answer["statusCode"] == 200, answer
            await charged_all(h)
            balances = await check_invariant(h, sysnos)
            for pick, sysno in enumerate(sysnos):
                device = devices[pick]
                used = counters[device] - (first[device] or counters[device])
                account_fen = round(used * (0.7 + 0.13 * pick) * 100)
                paid = expected_recharged[sysno] + expected_adjusted[sysno]
                # the use priced once, rounded once (a half fen may round either way in floats)
                assert abs(balances[sysno] - (paid - account_fen)) <= 1, (life, pick)


async def charged_all(h: Harness) -> dict[str, int]:
    async with h.ctx.sessions() as session:
        await charging.charge(session)
        await session.commit()
    return {"statusCode": 200}
