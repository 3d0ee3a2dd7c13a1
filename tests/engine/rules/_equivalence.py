"""Seeded games whose outcome is compared between a country module and its data preset.

:func:`signature` plays one game with bots and returns what must agree: every action as its
record dict, the final scores and breakdown, and the chip state common to every Map-Chips rule
set. ``python tests/engine/rules/_equivalence.py`` rewrites ``data/module_games.json``, the
outcomes of these games under the country modules as they were before the presets existed
(commit 4a09b67), which the presets must reproduce.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data.ruleset import OFFICIAL_2019, PRESET_MAPS

MAPS = {name: PRESET_MAPS[name] for name in OFFICIAL_2019}
"""2019 preset name -> shipped map made for it (the presets with a country module)."""

CASES: list[tuple[str, int, int, str]] = [
    (name, seed, players, bot)
    for name in MAPS
    for seed, players, bot in (
        (1, 2, "random"),
        (2, 3, "random"),
        (3, 4, "random"),
        (4, 2, "greedy"),
        (5, 3, "greedy"),
    )
]
"""(preset, seed, players, bot) of every compared game."""

GOLDEN = Path(__file__).parent / "data" / "module_games.json"
COMMON = ("chips", "down", "up", "under", "held", "out")


def signature(rule_set: str, map_name: str, seed: int, players: int, bot: str) -> dict[str, Any]:
    """Play one seeded game under ``rule_set`` on shipped map ``map_name`` with ``bot`` for
    every seat; what it did and how it ended."""
    m = load_map(bundled_map(MAPS[map_name]))
    g = Game(m, players=players, seed=seed, options=GameOptions(rule_set=rule_set))
    bots = [make_bot(bot, seed=seed * 10 + i) for i in range(players)]
    moves: list[Any] = []
    while not g.is_over():
        action = bots[g.to_move].choose(g)
        moves.append(action.to_dict())
        g.play(action)
    (summary,) = [s for s in g.state_summary()["rules"].values()]
    text = json.dumps(moves, sort_keys=True)
    return {
        "actions": len(moves),
        "moves_sha256": hashlib.sha256(text.encode()).hexdigest(),
        "rule_actions": sorted({m["type"] for m in moves} - {"place", "draw", "pass"}),
        "scores": list(g.scores),
        "breakdown": [dict(sorted(b.items())) for b in g.breakdown],
        "chips": {k: summary[k] for k in COMMON},
    }


def key(name: str, seed: int, players: int, bot: str) -> str:
    return f"{name}/{seed}/{players}/{bot}"


if __name__ == "__main__":
    out = {key(*case): signature(case[0], *case) for case in CASES}
    GOLDEN.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} games to {GOLDEN}")
