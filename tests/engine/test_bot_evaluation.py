"""The MCTS bot's learned evaluation (engine.bots.evaluation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bots import evaluation, make_bot
from engine.bots.evaluation import FEATURE_NAMES, seat_features, seat_values, weights
from engine.bots.greedy_bot import GreedyBot
from engine.errors import EngineError
from engine.features import CITY
from engine.game import Game
from engine.moves import Move


def test_weights_cover_every_feature() -> None:
    assert len(weights()) == len(FEATURE_NAMES)
    # a point scored is a point of the final margin, give or take the leader's habits
    assert 0.8 < weights()[FEATURE_NAMES.index("score")] < 1.6


def test_features_of_an_empty_board_differ_only_in_the_seat_to_move() -> None:
    game = Game(None, seed=3)
    a, b = seat_features(game)
    named = dict(zip(FEATURE_NAMES, a, strict=True))
    # one tile on the board, the rest still to draw
    assert named["supply*left"] == pytest.approx(7 * game.tiles_left() / (game.tiles_left() + 1))
    assert named["supply"] == 7.0 and named["to_move"] == 1.0
    assert [x for n, x in zip(FEATURE_NAMES, b, strict=True) if n != "to_move"] == [
        x for n, x in zip(FEATURE_NAMES, a, strict=True) if n != "to_move"
    ]


def _city_meeple_played() -> tuple[Game, int]:
    """A classic game just after its first seat put a meeple on a city (still open)."""
    for seed in range(50):
        for move in Game(None, seed=seed).legal_moves().list():
            game = Game(None, seed=seed)
            if not isinstance(move, Move) or move.meeple is None:
                continue
            me = game.to_move
            game.play(move)
            f = game.board.features
            nodes = [m[3] for m in game.meeples.values()]
            if nodes[0] >= 0 and f.kind[f.find(nodes[0])] == CITY and game.scores[me] == 0:
                return game, me
    raise AssertionError("no open city to put a meeple on in 50 deals")


def test_a_meeple_on_an_open_city_counts_as_city_points_of_its_seat() -> None:
    game, me = _city_meeple_played()
    named = dict(zip(FEATURE_NAMES, seat_features(game)[me], strict=True))
    assert named["city"] == game.projected_scores()[me] > 0
    assert named["road"] == named["field"] == named["monastery"] == 0
    assert named["supply"] == 6.0


def test_seat_values_of_a_finished_game_are_its_scores() -> None:
    game = Game(None, seed=5)
    bot = GreedyBot(seed=1)
    while not game.is_over():
        game.play(bot.choose(game))
    assert seat_values(game) == [float(s) for s in game.scores]


@pytest.mark.parametrize("evaluation", ["learned", "projected"])
def test_mcts_with_either_evaluation_plays_legal_moves(evaluation: str) -> None:
    game = Game(None, seed=2)
    bot = make_bot("mcts", iterations=30, evaluation=evaluation, seed=1)
    for _ in range(6):
        action = bot.choose(game)
        assert action in game.legal_moves()
        game.play(action)


def test_an_unknown_evaluation_is_an_error() -> None:
    with pytest.raises(EngineError, match="evaluation: 'best' is not one of projected, learned"):
        make_bot("mcts", evaluation="best")


def test_a_weights_file_without_a_weight_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mcts_evaluation.json").write_text('{"weights": {"score": 1.0}}', encoding="utf-8")
    monkeypatch.setattr(evaluation, "data_dir", lambda: tmp_path)
    evaluation.weights.cache_clear()
    try:
        with pytest.raises(
            EngineError, match=r"mcts_evaluation.json: weights.city: None is not a number"
        ):
            evaluation.weights()
    finally:
        evaluation.weights.cache_clear()
