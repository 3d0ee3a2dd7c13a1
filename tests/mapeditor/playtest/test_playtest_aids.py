"""The playtest aids, through real mouse and key events: the tiles-left panel with the open
squares no tile left can fill, projected scores, a scoring line or a player's row picking out
its feature, and taking back an action within a turn."""

from __future__ import annotations

import random
from collections import Counter

from _playtest_helpers import click_square, small_setup, wait_for_human
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from engine import replay
from engine.bots import make_bot
from engine.mapio import load_map
from engine.moves import Move
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestSetup, PlaytestWindow, Seat, aids, rule_view
from mapeditor.playtest.session import PlaytestSession
from mapeditor.playtest.setup import default_setup


def _press(qtbot, w: PlaytestWindow, key: Qt.Key) -> None:
    """A key pressed on the board, in the active window (the window's shortcuts answer)."""
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.view.setFocus()
    QTest.keyClick(w.view, key)


def _hover(widget, point: QPoint) -> None:
    """Move the mouse to ``point`` of ``widget`` (from a nearby point: Qt sends no move to
    where the mouse already is)."""
    QTest.mouseMove(widget, point + QPoint(2, 2))
    QTest.mouseMove(widget, point)


def test_tiles_left_show_the_pile_and_mark_the_squares_no_tile_can_fill(qtbot, make_playtest):
    w = make_playtest(setup=small_setup("human"))  # two humans: the test plays both
    assert not w.tiles_dock.isVisible() and not w.scene.overlay.unfillable
    _press(qtbot, w, Qt.Key.Key_T)
    qtbot.waitUntil(w.tiles_dock.isVisible)
    # play on until an open square can no longer be filled (the example's short pile)
    pick = random.Random(0)
    while not (w.scene.overlay.unfillable and w.game.pile):
        assert not w.game.is_over(), "no unfillable square came up"
        w.play(pick.choice(w.game.legal_moves().list()))
    g = w.game
    panel = w.tiles_panel
    assert panel.counts == sorted(Counter(g.pile).items())
    assert panel.tiles.count() == len(panel.counts)
    assert not panel.tiles.item(0).icon().isNull()  # drawn with the tile's art
    assert f"{panel.counts[0][0]} ×{panel.counts[0][1]}" == panel.tiles.item(0).text()
    # every marked square is open and no tile left nor in hand fits it in any rotation,
    # and every other open square takes one
    kinds = set(g.pile) | {g.current_tile}
    for sq in g.board.frontier:
        fits = any(g.board.is_legal(sq, t, r) for t in kinds for r in (0, 90, 180, 270))
        assert (sq in w.scene.overlay.unfillable) == (not fits), sq
    assert f"{len(w.scene.overlay.unfillable)} open square" in panel.summary.text()
    # T again closes the panel and the marks go
    _press(qtbot, w, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: not w.tiles_dock.isVisible())
    assert not w.scene.overlay.unfillable


def _play_with_meeples_until(qtbot, w: PlaytestWindow, done) -> None:
    """As the human (Red), place the first placement with a meeple whenever one is offered."""
    while not done():
        assert not w.game.is_over(), "the game ended first"
        wait_for_human(qtbot, w)
        g = w.game
        p = g.legal_placements().list()[0]
        w.rotation = p.rotation
        click_square(w, p.square)
        if w.pending is not None:
            spot = next(iter(w.scene.overlay.spots.values()))
            QTest.mouseClick(
                w.view.viewport(),
                Qt.MouseButton.LeftButton,
                Qt.KeyboardModifier.NoModifier,
                w.view.mapFromScene(spot),
            )
        wait_for_human(qtbot, w)


def test_projected_scores_toggle_on_the_score_board(qtbot, make_playtest):
    w = make_playtest()
    _play_with_meeples_until(qtbot, w, lambda: w.game.meeples_on_board(0) > 0)
    g = w.game
    assert "→" not in w.score_board.cell_text(0, "Score")
    QTest.mouseClick(w.projected_box, Qt.MouseButton.LeftButton)
    assert w.projected_box.isChecked()
    projected = g.projected_scores()
    assert projected[0] > g.scores[0]  # Red's meeple stands on an open feature
    for p in range(len(g.players)):
        assert w.score_board.cell_text(p, "Score") == f"{g.scores[p]} → {projected[p]}"
    QTest.mouseClick(w.projected_box, Qt.MouseButton.LeftButton)
    assert w.score_board.cell_text(0, "Score") == str(g.scores[0])


def test_hovering_a_scoring_line_or_a_row_picks_out_its_feature(qtbot, make_playtest):
    w = make_playtest()
    _play_with_meeples_until(qtbot, w, lambda: any(e.squares for e in w.game.events))
    event = next(e for e in w.game.events if e.squares)
    rows = [i for i in range(w.log.count()) if w.log.item(i).text() == f"   ★ {event.text}"]
    assert rows, w.log.lines()
    w.log.scrollToItem(w.log.item(rows[0]))
    rect = w.log.visualItemRect(w.log.item(rows[0]))
    _hover(w.log.viewport(), rect.center())
    qtbot.waitUntil(lambda: w.scene.overlay.highlight == frozenset(event.squares))
    # a line that is no scoring picks out nothing
    plain = next(i for i in range(w.log.count()) if "★" not in w.log.item(i).text())
    w.log.scrollToItem(w.log.item(plain))
    _hover(w.log.viewport(), w.log.visualItemRect(w.log.item(plain)).center())
    qtbot.waitUntil(lambda: not w.scene.overlay.highlight)

    # the score board: a player's row picks out the features their meeples hold
    _play_with_meeples_until(qtbot, w, lambda: w.game.meeples_on_board(0) > 0)
    held = aids.held_squares(w.game, 0)
    assert held
    board = w.score_board
    cell = board.visualItemRect(board.item(0, 1))
    _hover(board.viewport(), cell.center())
    qtbot.waitUntil(lambda: w.scene.overlay.highlight == frozenset(held))
    _hover(w.view.viewport(), QPoint(5, 5))  # the mouse leaves the score board
    qtbot.waitUntil(lambda: not w.scene.overlay.highlight)


def _hot_seat(map_name: str, seed: int = 3) -> PlaytestSetup:
    m = load_map(bundled_map(map_name))
    base = default_setup(m, seed=seed)
    seats = [Seat("Ann", "#d7301f", "human"), Seat("Bob", "#2b6cc4", "human")]
    return PlaytestSetup(seats=seats, seed=seed, options=base.options)


def test_take_back_within_a_turn_and_never_after_it(qtbot, make_playtest):
    w = make_playtest("great-britain", _hot_seat("great-britain"))
    # first moves until a placement leaves the turn open (an extra turn to buy) without
    # turning up a face-down chip
    while True:
        g = w.game
        assert not g.is_over(), "no such placement came up"
        before = (len(g.history), g.turn, g.to_move, g.current_tile)
        hidden = _face_down(g)
        w.play(g.legal_moves().list()[0])
        if (w.game.turn, w.game.to_move) != before[1:3]:
            assert not w.take_back_action.isEnabled()  # the turn ended: a new tile was drawn
        elif isinstance(g.history[-1], Move) and _face_down(g) == hidden and before[0] > 3:
            break
    record = w.game.record()
    assert w.take_back_action.isEnabled()
    _press(qtbot, w, Qt.Key.Key_Backspace)
    g = w.game
    # the move is gone: the same tile in hand, one action fewer, the record and model agree
    assert (len(g.history), g.turn, g.to_move, g.current_tile) == before
    assert g.record().actions == record.actions[:-1]
    assert replay(g.record()).state_summary() == g.state_summary()
    assert "(taken back:" in w.log.lines()[-1]
    assert w.has_unsaved_play()  # still a game to ask about before closing
    # nothing more to take back in this turn: Backspace does nothing
    assert not w.take_back_action.isEnabled()
    _press(qtbot, w, Qt.Key.Key_Backspace)
    assert len(w.game.history) == before[0]
    # play the turn to its end: the next player's draw is seen, nothing can be taken back
    w.play(g.legal_moves().list()[0])
    while w.game.to_move == before[2]:
        w.play(w.game.legal_moves().list()[0])
    assert not w.take_back_action.isEnabled()
    n = len(w.game.history)
    _press(qtbot, w, Qt.Key.Key_Backspace)
    assert len(w.game.history) == n


def test_a_tile_taken_from_an_island_stack_is_never_taken_back(qtbot):
    m = load_map(bundled_map("benelux"))
    session = PlaytestSession(m, _hot_seat("benelux"), pace_ms=0)
    session.begin()
    g = session.game
    while not any(type(a).__name__ == "TakeIslandTile" for a in g.legal_moves().list()):
        session.play(g.legal_moves().list()[0])
    take = next(a for a in g.legal_moves().list() if type(a).__name__ == "TakeIslandTile")
    actions = len(g.history)
    session.play(take)  # the stack's tile is now in hand, seen by all
    assert g.current_tile is not None and session.actors[-1] == (g.to_move, g.turn)
    assert not session.can_take_back() and not session.take_back()
    assert len(session.game.history) == actions + 1
    session.close()


def _face_down(game) -> int:
    return sum(1 for c in rule_view.pieces(game).chips if c.value is None)


def test_a_placement_that_turned_up_a_face_down_chip_is_never_taken_back(qtbot):
    """Deutschland's chips lie face down: a tile placed on one shows its value, so taking the
    tile back would let its player look under the chips."""
    m = load_map(bundled_map("deutschland"))
    session = PlaytestSession(m, _hot_seat("deutschland"), pace_ms=0)
    session.begin()
    bot = make_bot("greedy", seed=1)
    while True:
        g = session.game
        assert not g.is_over(), "no such placement came up"
        action, turn, hidden = bot.choose(g), (g.turn, g.to_move), _face_down(g)
        session.play(action)
        if isinstance(action, Move) and (g.turn, g.to_move) == turn:
            break  # the turn goes on after the placement (an upgrade is offered)
    assert _face_down(g) < hidden
    assert not session.can_take_back() and not session.take_back()
    session.close()
