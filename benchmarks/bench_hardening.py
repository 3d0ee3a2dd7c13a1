"""Benchmark: the inputs of issue 12 that hung or crawled, old tree against this one.

``python benchmarks/bench_hardening.py --base /tmp/base [--repeat 3] [--timeout 60]``

``--base`` is a checkout of the previous main (``git worktree add /tmp/base a46416a``). Each case
runs in a fresh subprocess of each tree, interleaved, timed inside the child; a case that has not
finished after ``--timeout`` seconds is reported as ``>timeout``. Cases:

* ``validate 16 choose 8``: a 40x40 France map with 16 start squares, 8 used;
* ``validate 40 choose 20``: the same with 40 start squares, 20 used;
* ``read 300k towns``: a 400x400 map file listing 300,000 towns (15 MB);
* ``save 12 MB editor``: saving a map whose editor block holds 12 MB (refused now).

(``validate /dev/zero`` is not timed: the old tree reads until memory runs out, which a shared
machine must not be put through; ``tests/engine/test_hardening.py`` covers it.)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

SETUP = r"""
import json, random, time, sys
from engine.mapdef import NamedRuleSet
from engine.mapdef import MapDef, RuleSet, StartSquare
def starts_map(n, k):
    rng = random.Random(1)
    m = MapDef("t", "T", 40, 40)
    m.rule_set = NamedRuleSet("france")
    m.land = {(x, y) for x in range(40) for y in range(40) if rng.random() < 0.85}
    for sq in rng.sample(sorted(m.land), n):
        m.start_squares[sq] = StartSquare("s")
    m.setup.start_squares_used = k
    return m
"""

CASES = {
    "validate 16 choose 8": SETUP
    + r"""
from engine.validation import validate_map
m = starts_map(16, 8)
t = time.perf_counter(); validate_map(m); print(time.perf_counter() - t)
""",
    "validate 40 choose 20": SETUP
    + r"""
from engine.validation import validate_map
m = starts_map(40, 20)
t = time.perf_counter(); validate_map(m); print(time.perf_counter() - t)
""",
    "read 300k towns": r"""
import json, time, sys
from engine.mapio import loads_map
from engine.errors import MapFormatError
d = {"format": "carcassonne-map", "format_version": 1, "id": "t", "name": "t",
     "grid": {"width": 400, "height": 400}, "squares": ["#" * 400] * 400,
     "towns": [{"x": i % 400, "y": (i // 400) % 400, "name": "t"} for i in range(300000)]}
text = json.dumps(d)
t = time.perf_counter()
try:
    loads_map(text)
except MapFormatError:
    pass
print(time.perf_counter() - t)
""",
    "save 12 MB editor": r"""
import time, tempfile, os
from engine.mapdef import MapDef
from engine.mapio import save_map
from engine.errors import MapFormatError
m = MapDef("t", "T", 8, 8)
m.land = {(x, y) for x in range(8) for y in range(8)}
m.editor = {"notes": ["x" * 100] * 120000}
t = time.perf_counter()
try:
    save_map(m, os.path.join(tempfile.mkdtemp(), "m.json"))
except MapFormatError:
    pass
print(time.perf_counter() - t)
""",
}


def run(tree: Path, code: str, timeout: float) -> float | None:
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir()}
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="checkout of the previous main")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    for name in args.cases.split(","):
        times: dict[str, list[float | None]] = {"old": [], "new": []}
        for _ in range(args.repeat):
            for label, tree in (("old", args.base), ("new", HERE)):
                times[label].append(run(tree, CASES[name], args.timeout))

        def show(values: list[float | None]) -> str:
            done = [v for v in values if v is not None]
            if len(done) < len(values):
                return f">{args.timeout:g} s ({len(values) - len(done)} of {len(values)} cut)"
            return f"{statistics.median(done):.3f} s"

        old, new = show(times["old"]), show(times["new"])
        ratio = ""
        if all(v is not None for v in times["old"] + times["new"]):
            o = statistics.median(v for v in times["old"] if v is not None)
            n = statistics.median(v for v in times["new"] if v is not None)
            ratio = f"  old/new {o / max(n, 1e-9):.1f}x"
        print(f"{name:24s} old {old:>24s}  new {new:>12s}{ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
