"""Benchmark: batch playtests (engine.analysis.simulate) and the full balance report.

Prints games per second per worker for each bot on the example and Deutschland maps (one worker,
in process), then the wall time of a whole greedy balance report on the Deutschland map with
every core: simulation + figures + JSON/Markdown/HTML + charts. Aim: 1,000 games under 60 s on a
2-core machine.

Run: ``python benchmarks/bench_simulate.py [--games 1000] [--skip-report] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time

from engine.analysis.balance import balance_report
from engine.analysis.report import write_report
from engine.analysis.simulate import SimConfig, default_workers, play_one, rule_set_for, simulate
from engine.mapio import load_map
from engine.resources import bundled_map


def per_worker(map_name: str, bot: str, games: int) -> float:
    """Games per second in one process (a warm-up game first: tile tables are compiled once)."""
    m = load_map(bundled_map(map_name))
    rule_set, _ = rule_set_for(m, True)
    config = SimConfig(games=games, bot=bot, mcts_iterations=10)
    play_one(m, config, 10_000, rule_set)
    t0 = time.perf_counter()
    for i in range(games):
        play_one(m, config, i, rule_set)
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games of the full report")
    ap.add_argument("--skip-report", action="store_true", help="only the per-worker figures")
    ap.add_argument("--profile", action="store_true", help="profile one greedy game")
    args = ap.parse_args()

    print("games per second per worker (one process, rules of the map on):")
    for map_name in ("example-small", "deutschland"):
        for bot, n in (("random", 20), ("greedy", 4), ("mcts", 1)):
            rate = per_worker(map_name, bot, n)
            extra = " (10 iterations per move)" if bot == "mcts" else ""
            print(f"  {map_name:14} {bot:7} {rate:7.2f} games/s{extra}")

    if args.profile:
        m = load_map(bundled_map("deutschland"))
        rule_set, _ = rule_set_for(m, True)
        prof = cProfile.Profile()
        prof.runcall(play_one, m, SimConfig(games=1, bot="greedy"), 1, rule_set)
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)

    if args.skip_report:
        return
    m = load_map(bundled_map("deutschland"))
    workers = default_workers()
    config = SimConfig(games=args.games, bot="greedy", seed=1)
    t0 = time.perf_counter()
    result = simulate(m, config, workers=workers)
    t1 = time.perf_counter()
    report = balance_report(m, result)
    with tempfile.TemporaryDirectory() as out:
        write_report(report, out, m)
    t2 = time.perf_counter()
    print(
        f"{args.games}-game greedy report on deutschland, {workers} workers: {t2 - t0:.1f} s wall "
        f"(simulation {t1 - t0:.1f} s = {args.games / (t1 - t0) / workers:.2f} games/s per "
        f"worker; figures and files {t2 - t1:.1f} s); aim: under 60 s"
    )


if __name__ == "__main__":
    main()
