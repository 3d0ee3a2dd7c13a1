"""Bots: legal play through the public API, determinism, and strength ordering."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

import pytest
from _game_helpers import make_map

from engine.bots import make_bot, play_game
from engine.bots.greedy_bot import GreedyBot
from engine.bots.mcts_bot import DEFAULT_PLAYOUT_TURNS, MCTSBot, level_options
from engine.errors import EngineError
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.context import RuleContext


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_play_whole_legal_games(name: str) -> None:
    g = Game(None, seed=3)
    play_game(g, [make_bot(name, seed=1), make_bot(name, seed=2)])  # play() checks every move
    assert g.is_over() and len(g.board.tiles) == 72 - len(g.set_aside)


def test_bots_play_on_a_map() -> None:
    g = Game(load_map(bundled_map()), seed=2, options=GameOptions(rule_set="none"))
    play_game(g, [make_bot("greedy", seed=1), make_bot("random", seed=2)])
    assert g.is_over()


def test_same_seed_same_game() -> None:
    def run() -> dict:
        g = Game(None, seed=5)
        return play_game(
            g, [make_bot("random", seed=7), make_bot("greedy", seed=8)]
        ).state_summary()

    assert run() == run()


def test_greedy_beats_random_in_most_games() -> None:
    wins = 0
    for seed in range(6):
        g = Game(None, seed=seed)
        play_game(g, [GreedyBot(seed=seed), make_bot("random", seed=seed)])
        wins += g.scores[0] > g.scores[1]
    assert wins >= 5


def test_greedy_takes_an_immediate_completion() -> None:
    # D's city closed by the cap with a meeple on it is worth 4 now: greedy does that.
    g = Game(None, options=GameOptions(draw_order=("E", "U")))
    move = GreedyBot().choose(g)
    assert (move.square, move.rotation, move.meeple) == ((0, -1), 180, "S")


def test_mcts_with_an_iteration_budget_plays_legally_and_beats_random() -> None:
    m = make_map(["######"] * 4, start=[(2, 1)])
    m.setup.tile_pool_max = 16
    wins = 0
    for seed in range(2):
        g = Game(m, seed=seed, options=GameOptions(rule_set="none", start_squares=((2, 1),)))
        play_game(g, [MCTSBot(iterations=12, seed=seed), make_bot("random", seed=seed)])
        wins += g.scores[0] > g.scores[1]
    assert wins >= 1


def test_mcts_does_not_see_the_real_draw_order() -> None:
    g = Game(None, seed=1)
    before = g.state_summary()
    MCTSBot(iterations=5, seed=3).choose(g)
    assert g.state_summary() == before  # searched on reshuffled copies only


def test_unknown_bot_is_an_error() -> None:
    with pytest.raises(EngineError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_mcts_with_a_time_budget_returns_a_legal_move() -> None:
    g = Game(None, seed=2)
    move = MCTSBot(iterations=None, seconds=0.0, seed=1).choose(g)  # at least one iteration
    assert move in g.legal_moves()


def test_mcts_same_seed_same_choices() -> None:
    g = Game(None, seed=4)
    a = MCTSBot(iterations=20, seed=9).choose(g)
    b = MCTSBot(iterations=20, seed=9).choose(g)
    assert a == b


def test_mcts_builds_a_real_tree_and_reuses_it_between_moves() -> None:
    from engine.bots.mcts_bot import _Node

    g = Game(None, seed=5)
    bot = MCTSBot(iterations=40, seed=2, playout_turns=2)
    other = make_bot("greedy", seed=1)
    first = bot.choose(g)
    tile = g.current_tile
    g.play(first)
    root = bot._root
    assert root is not None and root.visits == 40

    def depth(n: _Node) -> int:
        return 1 + max((depth(c) for c in n.children.values()), default=0)

    assert depth(root) >= 3  # my move, the other seat's reply, and below
    # the other seat draws a tile the search tried and plays its most visited reply there
    mine = root.children[(tile, first)]
    (tile, reply), node = max(mine.children.items(), key=lambda kv: kv[1].visits)
    RuleContext.of(g).set_current_tile(tile)  # the test deals the tile the search tried
    g.play(reply)
    reused = bot._reused_root(g)
    assert reused is node and reused.visits > 0  # the statistics under both moves are kept
    before = reused.visits
    g.play(bot.choose(g))
    assert bot._root is reused and reused.visits == before + 40
    # a position the tree never saw starts afresh
    other = make_bot("greedy", seed=1)
    g.play(other.choose(g))
    g.play(other.choose(g))
    assert bot._reused_root(Game(None, seed=99)).visits == 0


def test_mcts_widens_progressively() -> None:
    g = Game(None, seed=6)
    # UCB1 at the root (halving off) widens there as it does below the root
    bot = MCTSBot(iterations=30, seed=1, playout_turns=1, widening=1.0, halving=False)
    bot.choose(g)
    assert bot._root is not None
    assert 2 <= len(bot._root.children) <= int(math.sqrt(31)) + 1 < g.legal_moves().count()


def _halving_bot(
    monkeypatch: pytest.MonkeyPatch, rewarded: int | None = None
) -> tuple[MCTSBot, list[tuple[int, Hashable]]]:
    """A bot whose iterations are recorded as (determinisation draw, root move); with
    ``rewarded``, the root move of that greedy rank wins every playout and the others lose."""
    bot = MCTSBot(iterations=100, seed=4, root_candidates=8)
    calls: list[tuple[int, Hashable]] = []
    real = MCTSBot._iterate

    def iterate(
        self: MCTSBot,
        root: Any,
        game: Game,
        rng: Any = None,
        first: Any = None,
        dealt: bool = False,
    ) -> Any:
        probe = random.Random()
        probe.setstate((rng or self.rng).getstate())
        calls.append((probe.getrandbits(32), first[0] if first else None))
        # the root's position, before a dealt iteration plays on ``game``
        ranked = [k for k, _a, _q in self._ordered(root, game)] if rewarded is not None else []
        mover = game.to_move
        out = real(self, root, game, rng, first, dealt)
        if rewarded is not None and first is not None:
            win = 1.0 if first[0] == ranked[rewarded] else 0.0
            return [win if p == mover else 1 - win for p in range(len(out))]
        return out

    monkeypatch.setattr(MCTSBot, "_iterate", iterate)
    return bot, calls


def test_mcts_halving_compares_the_best_greedy_moves_on_the_same_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = Game(None, seed=8)
    bot, calls = _halving_bot(monkeypatch)
    bot.choose(g)
    assert len(calls) == 100 == bot.last_iterations  # the whole budget, no more
    ranked = [k for k, _a, _q in bot._ordered(bot._root, g)]  # type: ignore[arg-type]
    assert {k for _d, k in calls} == set(ranked[:8])  # only the 8 best by greedy evaluation
    # rounds: every surviving move in turn on one deal; the survivors halve each phase
    rounds: list[tuple[int, list[Hashable]]] = []
    for deal, key in calls:
        if rounds and rounds[-1][0] == deal:
            rounds[-1][1].append(key)
        else:
            rounds.append((deal, [key]))
    sizes = [len(keys) for _d, keys in rounds]
    assert sizes[0] == 8 and 4 in sizes and 2 in sizes
    assert all(a >= b for a, b in zip(sizes, sizes[1:], strict=False))  # never grows back
    assert len({d for d, _k in rounds}) == len(rounds)  # a fresh deal for each round


def test_mcts_halving_finds_the_move_the_playouts_favour(monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(None, seed=8)
    bot, _calls = _halving_bot(monkeypatch, rewarded=5)  # greedy ranks it sixth
    move = bot.choose(g)
    ranked = [a for _k, a, _q in bot._ordered(bot._root, g)]  # type: ignore[arg-type]
    assert move == ranked[5] != ranked[0]


@pytest.mark.parametrize("level", [1, 5, 7, 10])
def test_mcts_strength_levels(level: int) -> None:
    bot = make_bot("mcts", level=level, seed=1)
    opts = level_options(level)
    assert bot.iterations == opts["iterations"]  # type: ignore[attr-defined]
    assert bot.root_candidates == opts.get("root_candidates", 12)  # type: ignore[attr-defined]
    assert bot.epsilon == opts.get("epsilon", 0.1)  # type: ignore[attr-defined]
    assert bot.playout_turns == opts.get("playout_turns", DEFAULT_PLAYOUT_TURNS)  # type: ignore[attr-defined]
    g = Game(None, seed=3)
    assert bot.choose(g) in g.legal_moves()
    with pytest.raises(EngineError, match="strength level 11"):
        make_bot("mcts", level=11)


def test_mcts_plays_deutschland_with_its_rule_actions() -> None:
    m = load_map(bundled_map("deutschland"))
    g = Game(m, players=2, seed=3, options=GameOptions(rule_set="deutschland"))
    bots = [MCTSBot(iterations=3, playout_turns=1, seed=1), make_bot("greedy", seed=2)]
    play_game(g, bots)  # play() checks every action
    assert g.is_over()


def test_mcts_playout_plays_a_best_greedy_move_on_the_determinisation() -> None:
    from engine.bots.greedy_bot import placement_values

    g = Game(None, seed=4)
    for _ in range(6):
        g.play(make_bot("greedy", seed=1).choose(g))
    bot = MCTSBot(seed=3, epsilon=0.0, playout_turns=1)
    sim = g.copy(shuffle=random.Random(1))
    moves = sim.legal_moves().list()
    values = placement_values(sim, moves, sim.to_move, bot.policy.meeple_value)
    bot._playout(sim)
    played = sim.history[-1]
    assert played in moves and values[moves.index(played)] == max(values)
    assert len(sim.history) == len(g.history) + 1  # one turn, then judged


@pytest.mark.parametrize("iterations", [3, 5, 16, 23, 40])
def test_mcts_halving_never_spends_more_than_the_budget(
    monkeypatch: pytest.MonkeyPatch, iterations: int
) -> None:
    g = Game(None, seed=8)
    bot, calls = _halving_bot(monkeypatch)
    bot.iterations = iterations
    move = bot.choose(g)
    assert move in g.legal_moves()
    assert len(calls) == iterations == bot.last_iterations
    compared = {k for _d, k in calls}
    assert 2 <= len(compared) <= 8 and None not in compared  # halving; fewer moves when poorer
