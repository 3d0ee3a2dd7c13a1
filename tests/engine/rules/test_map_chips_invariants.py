"""Invariants over many random and bot games per Map-Chips rule set, on the shipped maps.

After every action: chips conserved (on the board + held + out of the game = 30, each chip in
exactly one place, none under a tile), meeples conserved (supply + board + Isle of Man = meeples
per player). Games vary players (2-6), the chip value split and each module's options; short
games (a forced end after a few turns) keep the count high on this 2-core machine. The
benchmark ``benchmarks/map_chips_games.py`` runs thousands of full games per rule set.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from _chips_helpers import check_invariants

from engine.bots import make_bot
from engine.game import Game, GameOptions
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

MAPS = {
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
}
MODULE_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "france": [
        {},
        {"wine_limit": "turn"},
        {"export_road_needs_coa": False},
        {"chip_reading": "any_city_square"},
    ],
    "benelux": [{}, {"stack_size": 3}, {"chip_count": 12}],
    "great_britain": [{}, {"hand_in_without_meeples": False}],
    "iberica": [{}, {"treat_squares": "setup"}],
    "deutschland": [{}, {"chip_count": 25}],
}
_CACHE: dict[str, Any] = {}


def shipped(rule_set: str) -> MapDef:
    if rule_set not in _CACHE:
        _CACHE[rule_set] = load_map(bundled_map(MAPS[rule_set]))
    return _CACHE[rule_set]


def options_for(rule_set: str, rng: random.Random, end: int | None) -> GameOptions:
    ro = dict(rng.choice(MODULE_OPTIONS[rule_set]))
    ro["ones_per_colour"] = rng.randint(0, 10)
    return GameOptions(
        rule_options=ro,
        end_after_turns=end,
        farmers=rng.random() < 0.8,
        town_extra_tile=rng.random() < 0.15,
        town_cost=rng.random() < 0.1,
    )


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(3))
@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_short_random_games_keep_the_invariants(rule_set: str, chunk: int) -> None:
    """60 random games of 1-20 turns per chunk, 2-6 players, varied options."""
    m = shipped(rule_set)
    for k in range(60):
        seed = 1000 * chunk + k
        rng = random.Random(seed)
        players = rng.randint(2, 6)
        g = Game(
            m, players=players, seed=seed, options=options_for(rule_set, rng, rng.randint(1, 20))
        )
        check_invariants(g)
        while not g.is_over():
            g.apply(rng.choice(g.legal_moves().list()))
            check_invariants(g)
        assert g.scores == [sum(b.values()) for b in g.breakdown]


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_full_random_games_replay_identically(rule_set: str) -> None:
    """Full random games with varied options; replaying each record gives the identical state."""
    m = shipped(rule_set)
    for seed in range(12):
        rng = random.Random(seed)
        g = Game(m, players=2 + seed % 4, seed=seed, options=options_for(rule_set, rng, None))
        while not g.is_over():
            g.play(rng.choice(g.legal_moves().list()))
            if g.turn % 5 == 0:
                check_invariants(g)
        check_invariants(g)
        if seed < 4:
            again = replay(loads_record(dumps_record(record_of(g))))
            assert again.state_summary() == g.state_summary()


@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_greedy_and_random_bots_play_every_rule_action(rule_set: str) -> None:
    """A full game greedy vs random; the greedy bot uses the module's actions and wins."""
    m = shipped(rule_set)
    g = Game(m, seed=3)
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2)]
    used: set[str] = set()
    while not g.is_over():
        action = bots[g.to_move].choose(g)
        if g.to_move == 0:
            used.add(type(action).__name__)
        g.play(action)
        check_invariants(g)
    rule_actions = used - {"Move", "Pass", "Draw"}
    assert rule_actions, f"greedy never used a {rule_set} action"
    assert g.scores[0] > g.scores[1]
    assert replay(record_of(g)).state_summary() == g.state_summary()


@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_mcts_bot_plays_map_chips_games(rule_set: str) -> None:
    """A short game MCTS vs greedy: every chosen action is legal, invariants hold."""
    m = shipped(rule_set)
    g = Game(m, seed=5, options=GameOptions(end_after_turns=14))
    bots = [make_bot("mcts", seed=1, iterations=6, playout_turns=6), make_bot("greedy", seed=2)]
    while not g.is_over():
        g.play(bots[g.to_move].choose(g))
        check_invariants(g)
    assert g.turn == 14


@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_replay_cli_explains_map_chips_points(rule_set: str, tmp_path, capsys) -> None:
    """``python -m engine replay`` replays every new action and lists the rule points by kind."""
    import json

    from engine.cli import main
    from engine.record import save_record

    m = shipped(rule_set)
    rng = random.Random(7)
    g = Game(m, seed=7, map_path=str(bundled_map(MAPS[rule_set])))
    while not g.is_over():
        g.play(rng.choice(g.legal_moves().list()))
    path = tmp_path / "game.json"
    save_record(record_of(g), path)
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "chip" in text and f"Red: {g.scores[0]}" in text
    assert main(["replay", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    kinds = {e["kind"] for e in data["events"]}
    assert "chip" in kinds
    assert sum(e["points"] for e in data["events"] if 0 in e["players"]) == g.scores[0]


@pytest.mark.parametrize("rule_set", sorted(MAPS))
def test_bot_copies_redeal_hidden_chips_and_island_tiles(rule_set: str) -> None:
    """``Game.copy(shuffle=rng)`` (what the bots use) re-deals the values of face-down chips (and
    Benelux's hidden island tiles) but keeps everything visible; the real game is unchanged."""
    m = shipped(rule_set)
    g = Game(m, seed=2)
    rng = random.Random(2)
    for _ in range(12):
        g.play(rng.choice(g.legal_moves().list()))
    before = g.state_summary()
    st = g.rule_state[rule_set]
    changed = False
    for k in range(5):
        c = g.copy(shuffle=random.Random(k))
        cs = c.rule_state[rule_set]
        check_invariants(c)
        assert set(cs.down) == set(st.down) and cs.held == st.held and cs.up == st.up
        hidden = sorted([*st.down.values(), *st.unseen])
        assert sorted([*cs.down.values(), *cs.unseen]) == hidden
        assert sorted(set(cs.out) - set(cs.unseen)) == sorted(set(st.out) - set(st.unseen))
        if rule_set == "great_britain":
            assert all(cs.chips[cid].colour is m.chip_squares[sq] for sq, cid in cs.down.items())
        if rule_set == "benelux":
            assert {sq: cs.face_up(sq) for sq in cs.stacks} == {
                sq: st.face_up(sq) for sq in st.stacks
            }
            pool = sorted([*g.pile, *(t for s in st.stacks.values() for t in s)])
            assert sorted([*c.pile, *(t for s in cs.stacks.values() for t in s)]) == pool
        changed |= cs.down != st.down
    assert changed
    assert g.state_summary() == before
