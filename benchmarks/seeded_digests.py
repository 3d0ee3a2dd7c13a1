"""Digests of seeded games, one line per case, to compare two builds of the engine.

``python benchmarks/seeded_digests.py`` prints ``case digest`` lines: random classic and
Deutschland games (every action uniform over ``legal_moves()``), greedy games on Deutschland as
the balance report plays them, and default Monte-Carlo moves at turn 30 of Deutschland. CI runs
it on the pure-Python build and on the compiled one (docs/performance.md, "The compiled build")
and compares the output: the same seeds must give the same games in both. The first line names
the build (not compared).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any


def _digest(items: list[Any]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(json.dumps(item, sort_keys=True).encode())
    return h.hexdigest()[:16]


def main() -> None:
    from engine.analysis.simulate import SimConfig, new_game, play_one, rule_set_for
    from engine.bots.greedy_bot import GreedyBot
    from engine.bots.mcts_bot import MCTSBot
    from engine.build import build_name
    from engine.game import Game
    from engine.mapio import load_map
    from engine.resources import bundled_map

    print("build", build_name())
    deutschland = load_map(bundled_map("deutschland"))
    rule_set, _ = rule_set_for(deutschland, True)
    for case, m, players, games in (
        ("random-classic", None, 2, 20),
        ("random-de", deutschland, 4, 6),
    ):
        played = []
        for seed in range(games):
            g = Game(m, players=players, seed=seed)
            rng = random.Random(seed)
            while not g.is_over():
                action = rng.choice(g.legal_moves())
                g.apply(action)
                played.append(action.to_dict())
            played.append(g.scores)
        print(case, _digest(played))
    config = SimConfig(games=2, bot="greedy")
    greedy = [play_one(deutschland, config, i, rule_set)["scores"] for i in range(2)]
    print("greedy-de", _digest(greedy))
    chosen = []
    for seed in range(2):
        g = new_game(deutschland, 4, seed, rule_set)
        bot = GreedyBot(seed=seed)
        while g.turn < 30:
            g.apply(bot.choose(g))
        chosen.append(MCTSBot(seed=seed).choose(g).to_dict())
    print("mcts-de", _digest(chosen))


if __name__ == "__main__":
    main()
