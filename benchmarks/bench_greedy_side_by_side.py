"""Benchmark: greedy bot speed of this checkout against a baseline commit, side by side.

Checks the baseline (default ``a46416a``, main before issue 13) out into a temporary git worktree
and plays the same greedy games in both checkouts, interleaved (base, new, new, base, ...) so the
noise of a shared machine hits both alike. Each run is a fresh process (warm-up game first) that
prints its seconds and the games' final scores.

Seconds are the CPU time of the run's process (``time.process_time``), so the load of other
processes on a shared machine counts less. Two modes per map:

* ``default``: each checkout's own defaults (this one plays the corrected rules: fields touch
  large cities, Great Britain players choose their set), so the games differ;
* ``same``: this checkout with the old readings (``fields_touch_large_city=False``,
  ``set_choice="oldest"``), so both play the very same games -- the scores must be equal, and
  the ratio is the cost of the redesign alone.

Run: ``nice python benchmarks/bench_greedy_side_by_side.py [--games 6] [--rounds 3]
[--maps deutschland,france] [--base a46416a]``. Prints per map and mode the median seconds of
both and the speed ratio new/base (> 1: this checkout is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = r"""
import dataclasses, sys, time
try:
    from engine.analysis import simulate as S
except ImportError:  # a baseline from before engine/analysis/
    from engine import simulate as S
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map

name, games, same = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "same"
m = load_map(bundled_map(name))
rule_set, _ = S.rule_set_for(m, True)
if same and "map_chips_prints" in {f.name for f in dataclasses.fields(GameOptions)}:
    ro = {"set_choice": "oldest"} if rule_set == "great_britain" else {}

    def new_game(m, players, seed, rule_set):
        opts = GameOptions(rule_set=rule_set, fields_touch_large_city=False, rule_options=ro)
        return Game(m, players=players, seed=seed, options=opts)

    S.new_game = new_game
config = S.SimConfig(games=games, bot="greedy")
S.play_one(m, config, 10_000, rule_set)  # warm-up: tile tables compile once
t0 = time.process_time()
scores = [S.play_one(m, config, i, rule_set)["scores"] for i in range(games)]
print(time.process_time() - t0)
print(scores)
"""


def run(checkout: Path, name: str, games: int, mode: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run(
        [sys.executable, "-c", RUN, name, str(games), mode],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return float(out[0]), out[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="greedy games per run")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved runs per checkout")
    ap.add_argument("--maps", default="deutschland,france,benelux,great-britain,iberica")
    ap.add_argument("--base", default="a46416a", help="baseline commit")
    ap.add_argument("--modes", default="same,default", help="same and/or default")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-base-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(base), args.base],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            print(f"{'map':14} {'mode':8} {'base s':>8} {'new s':>8} {'ratio':>6}  games")
            ratios: dict[str, list[float]] = {"default": [], "same": []}
            for name in args.maps.split(","):
                for mode in args.modes.split(","):
                    times: dict[str, list[float]] = {"base": [], "new": []}
                    scores: dict[str, str] = {}
                    for k in range(args.rounds):
                        order = ("base", "new") if k % 2 == 0 else ("new", "base")
                        for which in order:
                            checkout = base if which == "base" else ROOT
                            seconds, got = run(checkout, name, args.games, mode)
                            times[which].append(seconds)
                            scores[which] = got
                    b, n = statistics.median(times["base"]), statistics.median(times["new"])
                    ratios[mode].append(b / n)
                    same = "same" if scores["base"] == scores["new"] else "differ"
                    print(f"{name:14} {mode:8} {b:8.2f} {n:8.2f} {b / n:6.2f}  {same}")
                    if mode == "same" and same != "same":
                        print("  ! the old readings should replay the very same games")
            for mode, rs in ratios.items():
                if rs:
                    print(
                        f"geometric mean speed ratio new/base ({mode}): "
                        f"{statistics.geometric_mean(rs):.3f}"
                    )
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True
            )


if __name__ == "__main__":
    main()
