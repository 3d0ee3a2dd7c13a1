"""The public legal-move views: ``Game.legal_moves()`` and ``Game.legal_placements()``.

``len(view)`` and ``view[i]`` count and index the moves without building them; they must give
exactly ``view.list()`` (same moves, same order) in every phase and every board situation met
in real games, which is what lets ``rng.choice(view)`` replace ``rng.choice(view.list())``.
"""

from __future__ import annotations

import random

import pytest

from engine.board import HALF_NAMES, INNER_FIELD
from engine.game import Game, GameOptions, LegalMoveGenerator, LegalPlacementGenerator, Phase
from engine.mapio import load_map
from engine.moves import Move, Placement
from engine.resources import bundled_map


def _plain_placing_moves(g: Game) -> list[Move]:
    """The placing moves the plain way: every placement, each followed by a meeple on each
    location :meth:`Board.meeple_options` finds free from the square's contacts (fields left
    out without farmers; none without a meeple in supply)."""
    tile = g.current_tile
    assert tile is not None
    out = []
    fields = {*HALF_NAMES, INNER_FIELD}
    for sq, rot in g.board.placements(tile):
        out.append(Move(sq, rot, None))
        if g.supply[g.to_move] > 0:
            contacts = g.board.contacts(sq)
            for loc in g.board.meeple_options(sq, tile, rot, contacts):
                if g.options.farmers or loc not in fields:
                    out.append(Move(sq, rot, loc))
    return out


def _check_views(g: Game) -> None:
    view = g.legal_moves()
    moves = view.list()
    if g.phase is Phase.PLACE:
        assert moves == _plain_placing_moves(g)
    assert len(view) == view.count() == len(moves)
    assert [view[i] for i in range(len(moves))] == moves
    if moves:
        assert view[-1] == moves[-1]
        assert bool(view)
    with pytest.raises(IndexError):
        view[len(moves)]
    assert list(view) == moves
    placements = g.legal_placements()
    plist = placements.list()
    assert len(placements) == len(plist)
    assert [placements[i] for i in range(len(plist))] == plist


@pytest.mark.parametrize(
    ("map_name", "players", "options"),
    [
        (None, 2, {}),
        (None, 3, {"farmers": False}),
        (None, 4, {"meeples": 1}),
        ("deutschland", 4, {}),
        ("great-britain", 3, {}),
        ("iberica", 2, {}),
    ],
)
def test_len_and_index_equal_the_list_through_whole_games(
    map_name: str | None, players: int, options: dict[str, object]
) -> None:
    m = load_map(bundled_map(map_name)) if map_name else None
    for seed in range(2):
        g = Game(m, players=players, seed=seed, options=GameOptions(**options))
        rng = random.Random(seed)
        while not g.is_over():
            _check_views(g)
            g.apply(rng.choice(g.legal_moves()))
        _check_views(g)  # over: nothing
        assert len(g.legal_moves()) == 0


def test_a_held_view_follows_the_game() -> None:
    g = Game(None, players=2, seed=4)
    view = g.legal_moves()
    first = len(view)
    g.push(view[0])
    assert view.list() == g.legal_moves().list()
    assert len(view) == len(view.list())
    g.pop()
    assert len(view) == first
    # a change made outside play (a meeple taken from the supply) is seen too
    g.supply[g.to_move] = 0
    assert len(view) == len(view.list()) == len(g.legal_placements())
    assert all(m.meeple is None for m in view)


def test_views_are_public_types_with_membership() -> None:
    g = Game(None, players=2, seed=1)
    moves = g.legal_moves()
    placements = g.legal_placements()
    assert isinstance(moves, LegalMoveGenerator)
    assert isinstance(placements, LegalPlacementGenerator)
    move = moves[0]
    assert move in moves
    assert Move((99, 99), 0, None) not in moves
    assert Placement(move.square, move.rotation) in placements
    assert "LegalMoveGenerator" in repr(moves)


def _to_rule_phase(g: Game, rng: random.Random) -> bool:
    """Play uniformly until a phase other than placing offers a rule action (False: game over)."""
    while not g.is_over():
        if g.phase.value in ("action", "after", "draw") and len(g.legal_moves().list()) > 1:
            return True
        g.apply(rng.choice(g.legal_moves()))
    return False


def test_a_held_view_follows_play_in_rule_phases() -> None:
    # len() and [i] share one list of rule offers while the game stays where it is; a view
    # held across actions (pushed, played, undone) lists what the game offers then
    g = Game(load_map(bundled_map("deutschland")), players=4, seed=3)
    rng = random.Random(3)
    seen = 0
    while seen < 5 and _to_rule_phase(g, rng):
        view = g.legal_moves()
        offers = view.list()
        assert len(view) == len(offers) and [view[i] for i in range(len(view))] == offers
        g.push(offers[-1])
        assert view.list() == g.legal_moves().list()
        assert len(view) == len(view.list())
        assert [view[i] for i in range(len(view))] == view.list()
        g.pop()
        assert len(view) == len(offers) and view[len(offers) - 1] == offers[-1]
        g.apply(offers[0])
        assert [view[i] for i in range(len(view))] == view.list() == g.legal_moves().list()
        seen += 1
    assert seen == 5
