"""Random full games per second (not a test): ``python benchmarks/bench_engine.py``.

Scenarios: the classic board (2 players, the 72 base tiles, farmers on: start tile D plus 71
draws) and the bundled example map (its recommended pool, no Map-Chips). Policies:

- ``two-step``: a uniformly random legal placement, then a uniformly random meeple choice
  among "none" and the legal locations (the random policy of JCloisterZone's driver);
- ``uniform``: uniform over every legal move (placement x meeple), which needs the meeple
  options of every placement.

Moves are played with ``Game.apply`` (unchecked, as bots do in playouts); ``--checked`` uses
``Game.play``. Each figure is the median of ``--runs`` runs of ``--games`` games on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.moves import Move
from engine.resources import bundled_map


def two_step(game: Game, rng: random.Random, act: Callable) -> None:
    while not game.is_over():
        p = rng.choice(game.legal_placements())  # indexed without building the list
        locs = game.meeple_locations(p)
        k = rng.randrange(len(locs) + 1)
        act(Move(p.square, p.rotation, locs[k - 1] if k else None))


def uniform(game: Game, rng: random.Random, act: Callable) -> None:
    while not game.is_over():
        act(rng.choice(game.legal_moves()))  # the same pick as on .list(), without building it


def run(
    make: Callable[[int], Game], policy: Callable, games: int, checked: bool, base: int
) -> float:
    start = time.perf_counter()
    for i in range(games):
        g = make(base + i)
        policy(g, random.Random(base + i), g.play if checked else g.apply)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--checked", action="store_true", help="use the checked Game.play")
    ap.add_argument("--profile", action="store_true", help="cProfile one run of the first case")
    args = ap.parse_args()
    example = load_map(bundled_map())
    scenarios = {
        "classic 2p base+farmers": lambda s: Game(None, players=2, seed=s),
        "example map 2p": lambda s: Game(example, seed=s, options=GameOptions(rule_set="none")),
    }
    policies = {"two-step": two_step, "uniform": uniform}
    if args.profile:
        import cProfile
        import pstats

        make = scenarios["classic 2p base+farmers"]
        cProfile.runctx(
            "run(make, two_step, args.games, args.checked, 0)",
            globals(),
            locals(),
            "/tmp/bench_engine.prof",
        )
        pstats.Stats("/tmp/bench_engine.prof").sort_stats("tottime").print_stats(15)
        return
    for sname, make in scenarios.items():
        for pname, policy in policies.items():
            run(make, policy, 5, args.checked, 10_000)  # warm-up
            figures = [
                run(make, policy, args.games, args.checked, r * args.games)
                for r in range(args.runs)
            ]
            print(
                f"{sname:26s} {pname:9s} median {statistics.median(figures):7.1f} games/s "
                f"(runs: {', '.join(f'{f:.0f}' for f in figures)}; "
                f"{'checked play' if args.checked else 'unchecked apply'})"
            )


if __name__ == "__main__":
    main()
