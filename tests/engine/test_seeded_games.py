"""Seeded games play exactly as they did before the speed work of issue 17.

The fixture ``data/seeded_games.json`` holds, per scenario, a digest of the records of real
games (every action, the final scores and every scoring event's text). It was written by running
THIS file's :func:`digests` on the engine without the speed work (main at ``a46416a`` with the
rule corrections of issue 13 and the record fields of issues 12 and 13 merged, commit
``262ebee``; those changed records on purpose, the speed work must not):

    git worktree add /tmp/base 262ebee
    cd /tmp/base && PYTHONPATH=/tmp/base python /path/to/tests/engine/test_seeded_games.py --write

The test recomputes the digests by playing the same games with today's engine. Random actions
are drawn the way the bots and benchmarks draw them, ``rng.choice`` over the legal moves (on
the list, and on the lazy view itself where it is a sequence: both must pick the same action),
so any change to move order, legality, sampling, scoring or the chip set-up changes a digest.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parent / "data" / "seeded_games.json"


def _game_digest(g: Any) -> str:
    rec = g.record().to_dict()
    rec.pop("map", None)
    rec["events"] = [e.text for e in g.events]
    return hashlib.sha256(json.dumps(rec, sort_keys=True).encode()).hexdigest()


def _uniform(g: Any, rng: random.Random, on_view: bool) -> None:
    while not g.is_over():
        moves = g.legal_moves()
        g.apply(rng.choice(moves if on_view else moves.list()))


def _two_step(g: Any, rng: random.Random, _on_view: bool) -> None:
    from engine.moves import Move

    while not g.is_over():
        if g.phase.value != "place":
            g.apply(rng.choice(g.legal_moves().list()))
            continue
        p = rng.choice(g.legal_placements().list())
        locs = g.meeple_locations(p)
        k = rng.randrange(len(locs) + 1)
        g.apply(Move(p.square, p.rotation, locs[k - 1] if k else None))


def _greedy(g: Any, rng: random.Random, _on_view: bool) -> None:
    from engine.bots.greedy_bot import GreedyBot

    bots = [GreedyBot(seed=rng.randrange(1 << 30)) for _ in g.players]
    while not g.is_over():
        g.apply(bots[g.to_move].choose(g))


# name -> (map name or None, players, options, policy, seeds)
SCENARIOS: dict[str, tuple[str | None, int, dict[str, Any], Callable[..., None], range]] = {
    "classic-uniform": (None, 2, {}, _uniform, range(12)),
    "classic-uniform-3p-no-farmers": (None, 3, {"farmers": False}, _uniform, range(6)),
    "classic-uniform-2-meeples": (None, 4, {"meeples": 2}, _uniform, range(6)),
    "classic-two-step": (None, 2, {}, _two_step, range(6)),
    "deutschland-uniform-4p": ("deutschland", 4, {}, _uniform, range(8)),
    "france-uniform-3p": ("france", 3, {}, _uniform, range(4)),
    "benelux-uniform-2p": ("benelux", 2, {}, _uniform, range(4)),
    "great-britain-uniform-5p": ("great-britain", 5, {}, _uniform, range(4)),
    "iberica-uniform-2p": ("iberica", 2, {}, _uniform, range(4)),
    "example-uniform-2p-no-chips": ("example-small", 2, {"rule_set": "none"}, _uniform, range(4)),
    "deutschland-greedy-2p": ("deutschland", 2, {}, _greedy, range(2)),
}


def digests(on_view: bool = False) -> dict[str, str]:
    """One digest per scenario over all its seeded games."""
    from engine.game import Game, GameOptions
    from engine.mapio import load_map
    from engine.resources import bundled_map

    out: dict[str, str] = {}
    for name, (map_name, players, options, policy, seeds) in SCENARIOS.items():
        m = load_map(bundled_map(map_name)) if map_name else None
        h = hashlib.sha256()
        for seed in seeds:
            g = Game(
                m,
                players=players,
                seed=seed,
                options=GameOptions(**options),
                map_path=map_name,
            )
            policy(g, random.Random(seed), on_view)
            h.update(_game_digest(g).encode())
        out[name] = h.hexdigest()
    return out


def test_seeded_games_match_the_baseline_records() -> None:
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert digests() == expected


def test_sampling_on_the_lazy_view_picks_what_the_list_picks() -> None:
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = digests(on_view=True)
    uniform = {k for k, v in SCENARIOS.items() if v[3] is _uniform}
    assert {k: got[k] for k in uniform} == {k: expected[k] for k in uniform}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
