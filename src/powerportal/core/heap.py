"""The heap of a long-running process, settled once its start-up is done.

Objects alive after start-up (modules, the app, its routes, caches filled at start) never die. A full
collection would scan them all, again and again, while the service runs; frozen, they are left out,
and a full collection under load scans only what requests and batches create. Young collections run
every 50,000 allocations instead of 700: a batch of readings allocates that many objects in one go,
and almost all of them die with it.
"""

from __future__ import annotations

import gc

_UNSETTLED = gc.get_threshold()


def settle() -> None:
    """Freeze what is alive now and space young collections out; call once start-up is done."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50000, 20, 100)


def unsettle() -> None:
    """Undo ``settle`` (a benchmark that starts a fresh service in the same process)."""
    gc.unfreeze()
    gc.set_threshold(*_UNSETTLED)
