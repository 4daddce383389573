"""Rebuild the simulator's small sample of real switch-ons from the shared tracebase extract.

    uv run python scripts/build_load_samples.py [../shared/datasets/load-ident]

Writes ``src/powerportal/load_ident/samples/tracebase-sample.jsonl``: per appliance category a few
switch-ons (1 Hz active power from 10 s before to 120 s after the step) of one or two appliances,
as ``load`` event details (docs/gateway-protocol.md). The kettle is ``dev_72882E``, which the shipped
model never saw. Attribution: ``samples/ATTRIBUTION.md`` (tracebase, ODbL 1.0).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "load-ident"
TARGET = Path(__file__).resolve().parents[1] / "src" / "powerportal" / "load_ident" / "samples"
# category → (tracebase label, devices to take events from); events per category.
PICKS = {
    "电水壶": ("WaterKettle", ("dev_72882E",)),
    "电热器/取暖器": ("Toaster", ("dev_98ABD2", "dev_9966DE")),
    "电熨斗": ("Iron", ("dev_D337C2",)),
    "微波炉": ("MicrowaveOven", ("dev_98A0D3", "dev_D32309")),
    "电磁炉": ("Cookingstove", ("dev_D33097",)),
    "笔记本电脑": ("PC-Laptop", ("dev_B8198B",)),
    "显示器": ("Monitor-TFT", ("dev_599185",)),
    "电视": ("TV-LCD", ("dev_B80E51", "dev_B8121D")),
    "照明": ("Lamp", ("dev_B8103B",)),
    "冰箱": ("Refrigerator", ("dev_98C08A",)),
}
PER_CATEGORY = 4
BEFORE = 10


def detail(power: np.ndarray) -> dict[str, object]:
    """A load event's detail from 131 seconds of power (the step after index 10)."""
    before, after = power[:BEFORE], power[BEFORE : BEFORE + 10]
    delta = float(np.nanmedian(after) - np.nanmedian(before))
    series = [None if np.isnan(v) else round(float(v), 1) for v in power]
    return {
        "delta_power": round(delta, 1),
        "power_series": {"start_ms": -BEFORE * 1000, "step_ms": 1000, "active_power": series},
    }


def main() -> None:
    """Write the sample."""
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    data = np.load(source / "tracebase_events.npz")
    power, labels, devices = data["power_w"], data["label"], data["device"]
    lines = []
    for category, (label, wanted) in PICKS.items():
        taken = 0
        for device in wanted:
            rows = np.flatnonzero((labels == label) & (devices == device))
            for index in rows[: PER_CATEGORY // len(wanted) + (PER_CATEGORY % len(wanted))]:
                if taken == PER_CATEGORY:
                    break
                item = {
                    "category": category,
                    "label": label,
                    "device": device,
                    "detail": detail(power[index]),
                }
                lines.append(json.dumps(item, ensure_ascii=False, separators=(",", ":")))
                taken += 1
    (TARGET / "tracebase-sample.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
