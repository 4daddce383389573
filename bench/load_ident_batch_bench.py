"""The cost of identifying load events in the ingest: a message's events judged at once, against one by one.

A gateway may send about 200 load events in one 256 KiB message; the ingest judges them before its batch
commits. The ceiling printed beside the batched figure is the one-by-one cost measured in the same run.

    uv run python bench/load_ident_batch_bench.py
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from powerportal.load_ident import service
from powerportal.load_ident.events import parse_event
from powerportal.load_ident.model import DEFAULT_POLICY

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    ROOT / "tests/fixtures/load_ident/tracebase-held-out.jsonl",
    ROOT / "bench/load_ident_unseen.jsonl",
)
EVENTS = 200
ROUNDS = 5


def main() -> None:
    lines = [line for path in SOURCES for line in path.read_text().splitlines() if line.strip()]
    batch = [(parse_event(line), DEFAULT_POLICY) for line in itertools.islice(itertools.cycle(lines), EVENTS)]
    service.classify_all(batch[:1])  # the model loads once
    batched, alone = [], []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        together = service.classify_all(batch)
        batched.append(time.perf_counter() - started)
        started = time.perf_counter()
        one_by_one = [service.classify_all([item])[0] for item in batch]
        alone.append(time.perf_counter() - started)
        assert together == one_by_one
    best, ceiling = min(batched), min(alone)
    print(f"{EVENTS} load events (real and hand-made), best of {ROUNDS} rounds:")
    for label, seconds in (("judged at once", best), ("one by one", ceiling)):
        print(
            f"  {label:15s} {seconds * 1000:7.1f} ms the message, {seconds / EVENTS * 1000:.2f} ms an event"
        )
    print(f"  at once is {ceiling / best:.1f}× faster (ceiling: the one-by-one cost of the same run)")


if __name__ == "__main__":
    main()
