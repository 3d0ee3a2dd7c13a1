"""``BoardState.monk_neighbour_count`` (the neighbours of a monastery from the squares it still
waits for) equals ``neighbour_count`` (its 8 neighbours looked at) on every monastery square,
over whole random games of every shipped map and of the map-less table, after each action and
inside the placement trials the bots judge with (``Game.push_placement``, undone by ``pop``)."""

from __future__ import annotations

import random

import pytest

from engine.analysis.simulate import new_game, rule_set_for
from engine.game import Game, Phase
from engine.mapio import load_map
from engine.moves import Move
from engine.resources import shipped_maps


def _check(game: Game) -> int:
    board = game.board
    for sq in board.monasteries:
        assert board.monk_neighbour_count(sq) == board.neighbour_count(sq), (sq, game.turn)
    return len(board.monasteries)


def _play(game: Game, seed: int) -> int:
    """A random game, checked after every action and around a few trials per placement;
    returns how many monastery squares were checked."""
    rng = random.Random(seed)
    checked = 0
    while not game.is_over():
        if game.phase is Phase.PLACE:
            moves = game.legal_moves().list()
            for move in rng.sample(moves, min(3, len(moves))):
                assert isinstance(move, Move)
                game.push_placement(move)
                checked += _check(game)
                game.pop()
        game.apply(rng.choice(game.legal_moves()))
        checked += _check(game)
    return checked


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.stem)
def test_monk_neighbours_of_every_map(path) -> None:
    m = load_map(path)
    rule_set, _ = rule_set_for(m, True)
    assert _play(new_game(m, 4, 3, rule_set), 3) > 50


def test_monk_neighbours_without_a_map() -> None:
    assert _play(Game(None, players=3, seed=4), 4) > 50


def test_a_square_without_a_monastery_is_counted_the_long_way() -> None:
    game = Game(None, players=2, seed=1)
    board = game.board
    for sq in list(board.tiles) + [(40, 40)]:
        if sq not in board.monasteries:
            assert board.monk_neighbour_count(sq) == board.neighbour_count(sq)
