"""Thousands of random Map-Chips games per rule set with invariants (not a test).

``python benchmarks/map_chips_games.py [--games 2000] [--rule-sets france,benelux,...]``

For each rule set, plays ``--games`` full games on its shipped map (uniformly random legal
actions, ``Game.apply``; 2-6 players, random chip value split and module options, as in
``tests/engine/rules/test_map_chips_invariants.py``) and checks
``engine.rules.chips_common.invariant_violations`` after every action (chips conserved, meeples
conserved including the Isle of Man). Prints games/s, actions, how often each rule action was
played, and the violations found (there should be none; the exit status is 1 otherwise).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.chips_common import invariant_violations

MAPS = {
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
}
OPTIONS: dict[str, list[dict[str, object]]] = {
    "france": [{}, {"wine_limit": "turn"}, {"export_road_needs_coa": False}],
    "benelux": [{}, {"stack_size": 3}],
    "great_britain": [{}, {"hand_in_without_meeples": False}],
    "iberica": [{}, {"treat_squares": "setup"}],
    "deutschland": [{}],
}


def run(rule_set: str, games: int) -> tuple[float, int, Counter[str], list[str]]:
    m = load_map(bundled_map(MAPS[rule_set]))
    actions = 0
    kinds: Counter[str] = Counter()
    problems: list[str] = []
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        ro = dict(rng.choice(OPTIONS[rule_set]))
        ro["ones_per_colour"] = rng.randint(0, 10)
        g = Game(m, players=rng.randint(2, 6), seed=seed, options=GameOptions(rule_options=ro))
        while not g.is_over():
            action = rng.choice(g.legal_moves().list())
            kinds[type(action).__name__] += 1
            g.apply(action)
            actions += 1
            bad = invariant_violations(g)
            if bad:
                problems.extend(f"seed {seed} turn {g.turn}: {b}" for b in bad)
                break
    return time.perf_counter() - start, actions, kinds, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rule-sets", default=",".join(MAPS))
    args = ap.parse_args()
    failed = False
    for rule_set in args.rule_sets.split(","):
        seconds, actions, kinds, problems = run(rule_set, args.games)
        rule = {k: v for k, v in sorted(kinds.items()) if k not in ("Move", "Pass", "Draw")}
        print(
            f"{rule_set:14s} {args.games} games in {seconds:6.1f} s ({args.games / seconds:5.1f}"
            f" games/s), {actions} actions, rule actions {rule}, violations {len(problems)}"
        )
        for p in problems[:10]:
            print("   ", p)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
