"""Benchmark: "New map from country" import time, this checkout against another (a ratio).

Run: ``python benchmarks/bench_country_ratio.py OTHER_CHECKOUT [--rounds 3]``. Each round times
the same imports (Italy at 40 km, Germany at 20 columns, Japan at 43.4 km; data already loaded)
in a fresh process per checkout, interleaved, and prints the median time of each and the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CASES = [("Italy", {"km": 40.0}), ("Germany", {"columns": 20}), ("Japan", {"km": 43.4})]

CHILD = """
import json, sys, time
try:
    from engine.geo.country import import_country
except ImportError:  # a baseline from before engine/geo/
    from engine.country import import_country
import_country("Luxembourg", columns=5)  # load Natural Earth and GeoNames first
out = {}
for name, kwargs in json.loads(sys.argv[1]):
    start = time.perf_counter()
    import_country(name, **kwargs)
    out[name] = time.perf_counter() - start
print(json.dumps(out))
"""


def run(checkout: Path) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(CASES)],
        capture_output=True,
        text=True,
        cwd=checkout,
        env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("other", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    times: dict[str, dict[str, list[float]]] = {"this": {}, "other": {}}
    for _ in range(args.rounds):
        for label, checkout in (("this", here), ("other", args.other.resolve())):
            for name, t in run(checkout).items():
                times[label].setdefault(name, []).append(t)
    for name, _ in CASES:
        a = statistics.median(times["this"][name])
        b = statistics.median(times["other"][name])
        print(f"{name:<8} this {a * 1000:7.0f} ms  other {b * 1000:7.0f} ms  ratio {a / b:5.2f}")


if __name__ == "__main__":
    main()
