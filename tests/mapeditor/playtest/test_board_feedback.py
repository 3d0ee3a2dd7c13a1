"""What the board tells a player: unmistakable legal squares, named meeple spots, full player
names in the score table, and an undo that keeps the zoom."""

from __future__ import annotations

from _playtest_helpers import (
    click_square,
    hover_square,
    play_first_placement,
    small_setup,
    wait_for_human,
)
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from engine.game import Phase
from mapeditor.painting import SQUARE, square_rect
from mapeditor.playtest import rule_view
from mapeditor.playtest.board_scene import MEEPLE_ROLES, callout_rect


def _pixel(w, square):
    image = w.view.viewport().grab().toImage()
    point = w.view.mapFromScene(square_rect(square).center()) + QPoint(0, 12)
    return image.pixelColor(point)


def _distance(a, b) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def test_squares_where_the_tile_fits_stand_out_from_the_map(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    assert g.phase is Phase.PLACE
    legal = next(sq for sq, rots in w.scene.overlay.fits.items() if w.rotation in rots)
    plain = next(
        sq
        for sq in sorted(g.map.placeable_squares())
        if sq not in g.board.tiles and sq not in w.scene.overlay.fits and sq != legal
    )
    QTest.mouseMove(w.view.viewport(), QPoint(1, 1))  # no hover preview on either square
    w.scene.update()
    # The old yellow wash differed from a map square by 14 (sum of RGB differences).
    assert _distance(_pixel(w, legal), _pixel(w, plain)) > 120


def test_meeple_spots_are_labelled_and_named_on_hover(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    p = next(p for p in g.legal_placements() if len(g.meeple_locations(p)) >= 2)
    while w.rotation != p.rotation:
        QTest.keyClick(w.view, Qt.Key.Key_R)
    click_square(w, p.square)
    assert w.pending == p
    labels = w.scene.overlay.spot_labels
    assert set(labels) == set(g.meeple_locations(p))
    assert set(labels.values()) <= set(MEEPLE_ROLES.values())
    targets = w.scene.overlay.callouts
    assert set(targets) == set(labels)
    rects = [callout_rect(c) for c in targets.values()]
    assert all(not a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :]), (
        "labelled targets never overlap"
    )
    assert all(r.width() >= 0.9 * SQUARE for r in rects)  # large enough to hit
    loc, spot = next(iter(targets.items()))
    pos = w.view.mapFromScene(spot)
    QTest.mouseMove(w.view.viewport(), pos + QPoint(4, 4))
    QTest.mouseMove(w.view.viewport(), pos)
    assert w.scene.overlay.spot_hover == loc
    assert w.hint.text().startswith(f"{labels[loc]} on the ")
    assert w.view.viewport().toolTip() == w.hint.text()
    played = len(w.game.history)
    QTest.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    move = w.game.history[played]
    assert move.meeple == loc  # the click on the target placed that meeple


def test_player_names_are_not_cut_short_by_a_wide_chips_column(
    qtbot, make_playtest, monkeypatch
) -> None:
    setup = small_setup()
    setup.seats[0].name = "Bartholomew the Bold"
    setup.seats[1].name = "Wilhelmina of Orange"
    many = [("purple", 3), ("light_blue", 2), ("orange", 1)] * 8
    monkeypatch.setattr(rule_view, "chips_held", lambda game, player: many)
    w = make_playtest(setup=setup)
    wait_for_human(qtbot, w)
    board = w.score_board
    metrics = board.fontMetrics()
    for row, name in enumerate(w.game.players):
        text = board.cell_text(row, "Player")
        assert name in text
        bold = board.item(row, 0).font()
        width = type(metrics)(bold).horizontalAdvance(text)
        assert board.columnWidth(0) >= width, (name, board.columnWidth(0), width)
    assert board.cell_text(0, "Chips").count("P3") == 8  # every chip still listed (wrapped)


def test_undo_keeps_the_zoom(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    p = play_first_placement(qtbot, w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    hover_square(w, p.square)
    fitted = w.view.transform().m11()
    for _ in range(3):
        QTest.keyClick(w.view, Qt.Key.Key_Plus)  # zoom in
    zoomed = w.view.transform().m11()
    assert zoomed > fitted * 1.5
    centre = w.view.mapToScene(w.view.viewport().rect().center())
    QTest.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert p.square not in w.game.board.tiles  # undone
    assert w.view.transform().m11() == zoomed
    after = w.view.mapToScene(w.view.viewport().rect().center())
    assert abs(after.x() - centre.x()) < 1 and abs(after.y() - centre.y()) < 1
