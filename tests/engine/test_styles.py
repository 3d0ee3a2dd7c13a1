"""Play styles (engine.bots.styles) and bot specs (engine.bots.spec)."""

from __future__ import annotations

import pytest

from engine.analysis.simulate import SimConfig
from engine.bots import make_bot, play_game
from engine.bots.spec import BotSpec
from engine.bots.styles import STYLES
from engine.errors import EngineError
from engine.features import FIELD
from engine.game import Game
from engine.moves import Move


def test_specs_name_a_style_or_a_level() -> None:
    assert BotSpec.parse("greedy") == BotSpec("greedy")
    assert BotSpec.parse("greedy:farmer") == BotSpec("greedy", style="farmer")
    assert BotSpec.parse("mcts@10") == BotSpec("mcts", level=10)
    assert str(BotSpec("mcts", level=3)) == "mcts@3"
    for bad, why in (
        ("clever", "'clever' is not one of random, greedy, mcts"),
        ("greedy@3", "a level is mcts@1 to mcts@10"),
        ("mcts@11", "a level is mcts@1 to mcts@10"),
        ("random:farmer", "play styles are greedy's and mcts's"),
        ("mcts:hoarder@4", "unknown play style 'hoarder'"),
        ("greedy:hoarder", "unknown play style 'hoarder'"),
    ):
        with pytest.raises(EngineError, match=why):
            BotSpec.parse(bad)
    with pytest.raises(EngineError, match="seats: bot 'greedy:x'"):
        SimConfig(seats=("greedy:x", "greedy"))
    assert BotSpec.parse("mcts@2").make(seed=1).name == "mcts"
    assert BotSpec.parse("mcts:cities@2") == BotSpec("mcts", style="cities", level=2)
    assert BotSpec.parse("mcts:cities@2").make(seed=1).name == "mcts:cities"


def _field_meeples(game: Game, seat: int) -> int:
    """Meeples ``seat`` put on fields in ``game`` (replayed from its record)."""
    replay = Game(None, players=len(game.players), seed=game.seed)
    n = 0
    for action in game.history:
        if isinstance(action, Move) and action[2] is not None and replay.to_move == seat:
            o = replay.board.compiled.oriented[replay.current_tile][action[1] // 90]
            n += o.kinds[o.aliases[action[2]]] == FIELD
        replay.play(action)
    return n


def test_the_farmer_farms_more_than_the_balanced_bot() -> None:
    farmer = balanced = 0
    for seed in (1, 2, 3, 4):
        a = play_game(Game(None, seed=seed), [make_bot("greedy", style="farmer", seed=1)] * 2)
        b = play_game(Game(None, seed=seed), [make_bot("greedy", seed=1)] * 2)
        farmer += _field_meeples(a, 0) + _field_meeples(a, 1)
        balanced += _field_meeples(b, 0) + _field_meeples(b, 1)
    assert farmer > balanced + 8  # 35 against 22 field meeples in these four games


def test_the_balanced_style_is_the_greedy_bot() -> None:
    a = play_game(
        Game(None, seed=5), [make_bot("greedy", style="balanced", seed=i) for i in (1, 2)]
    )
    b = play_game(Game(None, seed=5), [make_bot("greedy", seed=i) for i in (1, 2)])
    assert a.history == b.history


def test_a_style_adds_its_points_to_the_moves_of_its_plan() -> None:
    game = Game(None, seed=3)
    moves = game.legal_moves().list()
    bonus = STYLES["farmer"].bonuses(game, moves)
    tile = game.current_tile
    for mv, b in zip(moves, bonus, strict=True):
        if mv[2] is None:
            assert b == 0.0
        else:
            o = game.board.compiled.oriented[tile][mv[1] // 90]
            assert b == (1.0 if o.kinds[o.aliases[mv[2]]] == FIELD else 0.0)
    assert any(b == 1.0 for b in bonus)
    assert make_bot("greedy", style="thrifty").meeple_value == 1.0


def test_an_mcts_style_searches_its_plan_first() -> None:
    def field_meeples(**style: str) -> tuple[int, list[object]]:
        n = 0
        histories = []
        for seed in (1, 2):
            bots = [make_bot("mcts", iterations=12, seed=1, **style) for _ in range(2)]
            game = play_game(Game(None, seed=seed), bots)
            n += _field_meeples(game, 0) + _field_meeples(game, 1)
            histories.append(game.history)
        return n, histories

    farmer, _ = field_meeples(style="farmer")
    balanced, balanced_games = field_meeples(style="balanced")
    plain, plain_games = field_meeples()
    assert balanced_games == plain_games  # the balanced style is the bot itself
    assert farmer >= balanced + 3  # 15 against 10 field meeples in these two games
