"""Fault benchmark: no reading lost or stored twice through crashes, at a size CI does not run.

Runs ``tests/telemetry/test_no_loss.py`` (a real server process, a gateway resending what was not
acknowledged, each fault of issue 13's table) with ``--readings`` readings per fault at ``--rate``
messages a second (10 readings each), and prints each fault's outcome and time. The target for every
row is the test's own assertion: all readings stored, each once (the reading table's key makes a
second copy impossible; the count must equal what was sent).

    uv run python bench/fault_bench.py [--readings 100000 --rate 1000]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--readings", type=int, default=100_000)
    parser.add_argument("--rate", type=float, default=1000.0, help="gateway messages a second")
    args = parser.parse_args()
    env = dict(
        os.environ, POWERPORTAL_FAULT_READINGS=str(args.readings), POWERPORTAL_FAULT_RATE=str(args.rate)
    )
    started = time.perf_counter()
    run = subprocess.run(  # noqa: S603
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/telemetry/test_no_loss.py",
            "-v",
            "-p",
            "no:randomly",
            "--durations=0",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    print(f"{args.readings:,} readings per fault, gateway at {args.rate:g} messages/s (10 readings each)\n")
    print(f"{'fault':<75} {'outcome':<8} {'seconds':>8}")
    durations = {m[3]: float(m[1]) for m in re.finditer(r"^([\d.]+)s call\s+(\S+::(\S+))$", run.stdout, re.M)}
    for line in run.stdout.splitlines():
        found = re.match(r"^\S+::(\S+) (PASSED|FAILED|ERROR)", line)
        if found:
            name, outcome = found.groups()
            print(f"{name:<75} {outcome:<8} {durations.get(name, 0.0):>8.1f}")
    print(f"\ntotal {time.perf_counter() - started:.0f} s; target: every fault PASSED (0 lost, 0 twice)")
    if run.returncode:
        print(run.stdout[-3000:], file=sys.stderr)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
