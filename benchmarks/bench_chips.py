"""Benchmark: Map-Chips layout generation and the exact maximum on a 60x60 all-land map.

4 start squares (2 used), 6 large cities (2 squares each, open to the north and east).
Run: ``python benchmarks/bench_chips.py``. Goal: a re-roll (generate_layout, 30 chips) well
under 50 ms so the editor can re-roll interactively.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from engine.chips import evenness, feasibility, generate_layout, max_chips, start_choices
from engine.geometry import Side
from engine.mapdef import EdgeKind, LargeCity, MapDef, NamedRuleSet, StartSquare


def bench_map(n: int = 60) -> MapDef:
    m = MapDef(
        id="bench", name="Bench 60x60", width=n, height=n, rule_set=NamedRuleSet("deutschland")
    )
    m.land = {(x, y) for x in range(n) for y in range(n)}
    for i, sq in enumerate([(5, 5), (54, 5), (5, 54), (54, 54)]):
        m.start_squares[sq] = StartSquare(f"Start {i}")
    m.setup.start_squares_used = 2
    for i, (x, y) in enumerate([(15, 15), (40, 15), (28, 30), (15, 45), (44, 44), (30, 52)]):
        city = LargeCity(f"c{i}", f"City {i}", {(x, y), (x + 1, y)})
        for edge in city.outer_edges():
            open_side = edge.side in (Side.N, Side.E)
            city.edges[edge] = EdgeKind.CITY if open_side else EdgeKind.FIELD
        m.large_cities[city.id] = city
    return m


def timed(fn: Callable[[int], object], runs: int) -> tuple[float, float, float]:
    """Median, min and max wall time in ms over ``runs`` calls of ``fn(i)``."""
    times = []
    for i in range(runs):
        start = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    m = bench_map()
    used = start_choices(m)[0]
    print(f"map: {m.width}x{m.height}, {len(m.placeable_squares())} placeable squares")
    for count in (20, 30, 100):
        med, lo, hi = timed(lambda s, c=count: generate_layout(m, used, c, seed=s), 30)
        scores = [evenness(m, generate_layout(m, used, count, seed=s)) for s in range(10)]
        print(
            f"generate_layout({count:3d}): median {med:6.1f} ms (min {lo:.1f}, max {hi:.1f}); "
            f"evenness {min(scores):.3f}..{max(scores):.3f}"
        )
    best = max_chips(m, used)
    med, lo, hi = timed(lambda s: max_chips(m, used), 20)
    print(f"max_chips = {best}: median {med:6.1f} ms (min {lo:.1f}, max {hi:.1f})")
    med, lo, hi = timed(lambda s: feasibility(m), 10)
    print(f"feasibility ({len(start_choices(m))} start choices): median {med:6.1f} ms")
    med, lo, hi = timed(lambda s: generate_layout(m, used, best, seed=s), 3)
    print(f"generate_layout({best}) (the exact maximum): median {med:6.1f} ms")


if __name__ == "__main__":
    main()
