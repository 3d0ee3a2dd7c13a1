"""Benchmark: validate (including the chip feasibility proof) a 60x60 all-land map.

The map has 4 start squares and 6 large cities and uses the Deutschland rule set, so
``validate_map`` also proves, for each of the 6 choices of 2 used start squares, the exact
maximum number of chips. Prints the median of several runs in milliseconds (goal: < 200 ms).

    python benchmarks/bench_validate.py [--runs N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.geometry import Edge, Side  # noqa: E402
from engine.mapdef import EdgeKind, LargeCity, MapDef, NamedRuleSet, Setup, StartSquare  # noqa: E402
from engine.validation import validate_map  # noqa: E402

SIZE = 60


def big_map() -> MapDef:
    m = MapDef(
        id="bench",
        name="Benchmark 60x60",
        width=SIZE,
        height=SIZE,
        rule_set=NamedRuleSet("deutschland"),
        setup=Setup(start_squares_used=2, chip_count=30, tile_pool_min=110, tile_pool_max=120),
        land={(x, y) for x in range(SIZE) for y in range(SIZE)},
        start_squares={
            (10, 10): StartSquare("North-West"),
            (49, 10): StartSquare("North-East"),
            (10, 49): StartSquare("South-West"),
            (49, 49): StartSquare("South-East"),
        },
    )
    # Six 2x2 cities with an open side on each face and a road on one of them.
    for i, (cx, cy) in enumerate([(20, 20), (38, 20), (29, 30), (20, 40), (38, 40), (5, 30)]):
        squares = {(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)}
        edges = {
            Edge(cx, cy, Side.N): EdgeKind.CITY,
            Edge(cx + 1, cy, Side.E): EdgeKind.CITY,
            Edge(cx + 1, cy + 1, Side.S): EdgeKind.CITY,
            Edge(cx, cy + 1, Side.W): EdgeKind.ROAD,
        }
        m.large_cities[f"c{i}"] = LargeCity(f"c{i}", f"City {i}", squares, 2, edges)
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    args = parser.parse_args()
    m = big_map()
    issues = validate_map(m)  # warm-up: loads the tile set and imports
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        validate_map(m)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"map: {SIZE}x{SIZE}, {len(m.land)} squares, {len(m.start_squares)} start squares, "
        f"{len(m.large_cities)} large cities, rule set {m.rule_set.name}"
    )
    print(f"issues: {len(issues)} ({', '.join(sorted({i.code for i in issues})) or 'none'})")
    print(
        f"validate_map incl. feasibility proof: median {statistics.median(times):.1f} ms "
        f"(min {min(times):.1f}, max {max(times):.1f}, {args.runs} runs; goal < 200 ms)"
    )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        validate_map(m)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(20)


if __name__ == "__main__":
    main()
