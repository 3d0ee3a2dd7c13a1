"""Each Map-Chips action played with real clicks in the window, on its own country map.

The engine plays a seeded random game until the action is legal for Red (the human seat); the
window loads that position from its record, and the human takes the action through the UI.
"""

from __future__ import annotations

import random

import pytest
from _playtest_helpers import click_square, wait_for_human
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move
from engine.record import save_record
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestSetup, Seat, rule_view
from mapeditor.playtest.describe import describe_action

SHORT = {"purple": "P", "light_blue": "B", "orange": "O"}


def _reach(map_name: str, action_type: str, options: GameOptions | None = None) -> Game:
    """A game where ``action_type`` is legal for player 0 (engine-only random play)."""
    m = load_map(bundled_map(map_name))
    for seed in range(20):
        g = Game(m, players=["Red", "Blue"], seed=seed, options=options)
        rng = random.Random(seed)
        while not g.is_over():
            legal = g.legal_moves().list()
            if g.to_move == 0 and any(type(a).__name__ == action_type for a in legal):
                return g
            g.play(rng.choice(legal))
    raise AssertionError(f"{action_type} never became legal on {map_name}")


def _window_at(make_playtest, tmp_path, map_name: str, game: Game):
    path = tmp_path / "position.json"
    save_record(game.record(), path)
    setup = PlaytestSetup(
        seats=[Seat("Red", "#d7301f", "human"), Seat("Blue", "#2b6cc4", "random")],
        seed=game.seed,
        options=game.options,
    )
    w = make_playtest(map_name, setup)
    w.load_from(path)
    assert w.game.state_summary() == game.state_summary()
    assert w.human_to_move()
    return w


def _buttons_match_legal_actions(w) -> None:
    """Every rule action offered is legal, and every legal one is offered (button or square)."""
    legal = [a for a in w.game.legal_moves() if not isinstance(a, Move)]
    offered = {b.property("action") for b in w.action_buttons()}
    on_board = {str(a) for a in w.square_actions().values()}
    assert offered <= {str(a) for a in legal}
    assert {str(a) for a in legal} <= offered | on_board


def _button(w, action) -> object:
    [b] = [b for b in w.action_buttons() if b.property("action") == str(action)]
    assert b.text() == describe_action(action)
    return b


@pytest.mark.parametrize(
    ("map_name", "action_type"),
    [
        ("france", "SellWine"),
        ("great-britain", "BuyExtraTurn"),
        ("deutschland", "UpgradeMeeple"),
    ],
)
def test_button_actions(qtbot, make_playtest, tmp_path, map_name, action_type) -> None:
    g = _reach(map_name, action_type)
    w = _window_at(make_playtest, tmp_path, map_name, g)
    _buttons_match_legal_actions(w)
    action = next(a for a in w.game.legal_moves() if type(a).__name__ == action_type)
    held = w.game.rule_state[w.game.rules[0].name].held_chips(0)
    expected = " ".join(f"{SHORT[c.colour.value]}{c.value}" for c in held) or "-"
    assert w.score_board.cell_text(0, "Chips") == expected
    if action_type == "SellWine":
        letter = SHORT[action.colour.value]
        assert letter in w.score_board.cell_text(0, "Wines").split()
    score = w.game.scores[0]
    supply = w.game.supply[0]
    QTest.mouseClick(_button(w, action), Qt.MouseButton.LeftButton)
    assert w.game.history[-1] == action
    if action_type == "SellWine":
        assert w.game.scores[0] == score + (5 if action.market == "export" else 9)
        assert any("wine" in line for line in w.log.lines())
    elif action_type == "BuyExtraTurn":
        assert w.game.supply[0] == supply - 1
        assert rule_view.pieces(w.game).isle_meeples == {0: 1}
        wait_for_human(qtbot, w)
        assert w.game.to_move == 0 and w.game.phase in (Phase.PLACE, Phase.DRAW)
        assert any("takes another turn" in line for line in w.log.lines())
    else:
        mid = next(
            m
            for m, (p, sq, loc, _n, _s) in w.game.meeples.items()
            if p == 0 and sq == action.square and loc == action.location
        )
        assert w.game.meeple_strength(mid) == 2
        assert mid in rule_view.pieces(w.game).upgraded
    # the same action is not offered again once it is no longer legal
    assert all(
        b.property("action") != str(action) or action in w.game.legal_moves()
        for b in w.action_buttons()
    )


def test_take_an_island_tile_by_clicking_its_stack(qtbot, make_playtest, tmp_path) -> None:
    g = _reach("benelux", "TakeIslandTile")
    w = _window_at(make_playtest, tmp_path, "benelux", g)
    assert w.game.phase is Phase.DRAW
    _buttons_match_legal_actions(w)
    target = next(sq for sq, a in w.square_actions().items())
    face_up = w.game.rule_state["benelux"].face_up(target)
    assert any(s.square == target and s.tile == face_up for s in rule_view.pieces(w.game).stacks)
    click_square(w, target)
    assert type(w.game.history[-1]).__name__ == "TakeIslandTile"
    assert w.game.phase is Phase.PLACE and w.game.current_tile == face_up
    assert w.scene.overlay.fits  # now place it like any tile


def test_draw_face_down_is_a_button_too(qtbot, make_playtest, tmp_path) -> None:
    g = _reach("benelux", "TakeIslandTile")
    w = _window_at(make_playtest, tmp_path, "benelux", g)
    [draw] = [b for b in w.action_buttons() if b.property("action") == "draw"]
    QTest.mouseClick(draw, Qt.MouseButton.LeftButton)
    assert w.game.phase is Phase.PLACE
    assert not [b for b in w.action_buttons() if b.property("action") == "draw"]


def test_place_a_treat_by_clicking_a_track_square(qtbot, make_playtest, tmp_path) -> None:
    g = _reach("iberica", "PlaceTreat")
    w = _window_at(make_playtest, tmp_path, "iberica", g)
    assert w.game.phase is Phase.ACTION
    _buttons_match_legal_actions(w)
    # a treat is compulsory: no pass offered
    assert not [b for b in w.action_buttons() if b.property("action") == "pass"]
    squares = sorted(w.square_actions())
    assert set(squares) == set(w.scene.overlay.targets)
    state = w.game.rule_state["iberica"]
    chip = state.pending
    click_square(w, squares[0])
    assert w.game.rule_state["iberica"].up[squares[0]] == chip
    assert any(c.square == squares[0] and c.value for c in rule_view.pieces(w.game).chips)


def test_town_variant_a_gives_the_human_an_extra_tile(qtbot, make_playtest, tmp_path) -> None:
    m = load_map(bundled_map("example-small"))
    options = GameOptions(rule_set="none", town_extra_tile=True)
    for seed in range(40):
        g = Game(m, players=["Red", "Blue"], seed=seed, options=options)
        rng = random.Random(seed)
        found = None
        while not g.is_over() and found is None:
            if g.to_move == 0 and g.phase is Phase.PLACE:
                found = next((p for p in g.legal_placements() if p.square in m.towns), None)
                if found:
                    break
            g.play(rng.choice(g.legal_moves().list()))
        if found:
            break
    else:
        raise AssertionError("no town placement found")
    w = _window_at(make_playtest, tmp_path, "example-small", g)
    turn = w.game.turn
    w.rotation = found.rotation
    click_square(w, found.square)
    if w.pending is not None:
        w.no_meeple()
    wait_for_human(qtbot, w)
    assert w.game.turn == turn + 1
    assert w.game.to_move == 0
    assert any("takes another turn" in line for line in w.log.lines())
