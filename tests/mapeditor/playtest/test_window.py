"""The playtest window played through real mouse and key events on the board view."""

from __future__ import annotations

from _playtest_helpers import (
    click_scene,
    click_square,
    hover_square,
    play_first_placement,
    small_setup,
    wait_for_human,
    wheel,
)
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.game import Phase
from engine.moves import Move, Pass, Placement
from mapeditor.painting import square_rect


def _turn_to(qtbot, w, rotation: int, square) -> None:
    """Turn the current tile with real input (R key, wheel, right click) until ``rotation``."""
    inputs = ["key", "wheel", "right"]
    i = 0
    while w.rotation != rotation:
        how = inputs[i % 3]
        before = w.rotation
        if how == "key":
            QTest.keyClick(w.view, Qt.Key.Key_R)
        elif how == "wheel":
            wheel(w, square)
        else:
            click_square(w, square, Qt.MouseButton.RightButton)
        assert w.rotation == (before + 90) % 360
        i += 1


def _free_square(w):
    """A land square with no tile where the current tile fits in no rotation."""
    g = w.game
    fits = w.scene.overlay.fits
    for sq in sorted(g.map.placeable_squares()):
        if sq not in g.board.tiles and sq not in fits:
            return sq
    raise AssertionError("no free square")


def test_a_full_game_with_real_clicks(qtbot, make_playtest, tmp_path) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    assert g.phase is Phase.PLACE and w.current_seat().name == "Red"
    assert w.scene.overlay.fits, "the squares where the tile fits are highlighted"

    # an illegal click is refused and changes nothing
    before = g.state_summary()
    bad = _free_square(w)
    click_square(w, bad)
    assert w.game.state_summary() == before
    assert w.pending is None
    assert w.hint.text().startswith("Not there:")

    placed_meeple = False
    rotated = False
    saved = None
    turns = 0
    while not w.game.is_over():
        wait_for_human(qtbot, w)
        g = w.game
        if g.is_over():
            break
        if g.phase is not Phase.PLACE:
            [button] = [b for b in w.action_buttons() if b.property("action") == str(Pass())]
            button.click()
            continue
        legal = g.legal_placements().list()
        # prefer a placement that needs turning, to turn the tile with real input
        target = next((p for p in legal if p.rotation != w.rotation), legal[0])
        if target.rotation != w.rotation:
            _turn_to(qtbot, w, target.rotation, target.square)
            rotated = True
        hover_square(w, target.square)
        assert w.scene.overlay.hover == target.square
        assert w.rotation in w.scene.overlay.fits[target.square]  # drawn green
        actions_before = len(g.history)
        click_square(w, target.square)
        if w.pending is not None:
            assert w.pending == Placement(target.square, target.rotation)
            if not placed_meeple:
                loc, spot = next(iter(w.scene.overlay.spots.items()))
                mine = g.supply[0]
                click_scene(w, spot)
                assert w.game.history[actions_before] == Move(target.square, target.rotation, loc)
                assert w.game.supply[0] == mine - 1 or any(e.players == (0,) for e in w.game.events)
                placed_meeple = True
            else:
                [no] = [b for b in w.action_buttons() if b.objectName() == "no_meeple"]
                no.click()
        assert len(w.game.history) > actions_before
        assert w.game.history[actions_before].square == target.square
        turns += 1
        if turns == 2 and saved is None:
            # save mid-game, play on, then load: the saved position comes back
            path = tmp_path / "mid.json"
            wait_for_human(qtbot, w)
            saved = w.game.state_summary()
            w.save_to(path)
            assert path.exists()
            g = w.game
            p = g.legal_placements().list()[0]
            w.rotation = p.rotation
            click_square(w, p.square)
            if w.pending is not None:
                w.no_meeple()
            wait_for_human(qtbot, w)
            assert w.game.state_summary() != saved
            w.load_from(path)
            assert w.game.state_summary() == saved
            assert w.human_to_move()
    assert rotated and placed_meeple and saved is not None
    assert w.game.is_over()
    # the end: a summary broken down by feature and player, and the winners
    qtbot.waitUntil(lambda: w.summary is not None)
    header, rows = w.summary_rows()
    assert header[0] == "Player" and header[-1] == "Total"
    assert [int(r[-1]) for r in rows] == w.game.scores
    for r, p in zip(rows, range(2), strict=True):
        kinds = [int(v) for v in r[1:-2]]
        assert sum(kinds) == w.game.scores[p]
    out = w.game.outcome()
    assert out is not None
    winners = w.summary.findChild(type(w.hint), "winners")
    assert all(w.game.players[i] in winners.text() for i in out.winners)
    assert any(line.startswith("Game over:") for line in w.log.lines())


def test_scoring_events_explain_themselves_in_the_log(qtbot, make_playtest) -> None:
    w = make_playtest(setup=small_setup("greedy"))
    wait_for_human(qtbot, w)
    while not w.game.is_over():
        play_first_placement(qtbot, w)
    texts = [e.text for e in w.game.events]
    assert texts, "the game scored something"
    lines = w.log.lines()
    for t in texts:
        assert any(t in line for line in lines)


def test_undo_takes_back_the_human_turn_and_the_bot_reply(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    assert not w.undo_action.isEnabled()
    start = w.game.state_summary()
    play_first_placement(qtbot, w)
    assert w.game.turn == 2  # the bot replied
    assert w.undo_action.isEnabled()
    w.undo_action.trigger()
    assert w.game.state_summary() == start
    assert w.human_to_move()


def test_meeple_step_can_be_left_and_the_tile_picked_up(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    p = next(p for p in g.legal_placements() if g.meeple_locations(p))
    w.rotation = p.rotation
    before = g.state_summary()
    click_square(w, p.square)
    assert w.pending == p
    assert set(w.scene.overlay.spots) == set(g.meeple_locations(p))
    QTest.keyClick(w.view, Qt.Key.Key_Escape)
    assert w.pending is None
    assert w.game.state_summary() == before


def test_bots_only_game_runs_to_the_end_without_blocking(qtbot, make_playtest) -> None:
    setup = small_setup()
    setup.seats[0].kind = "greedy"
    w = make_playtest(setup=setup)
    ticks = []
    w.game_changed.connect(lambda: ticks.append(w.game.turn))
    qtbot.waitUntil(w.game.is_over, timeout=20_000)
    assert ticks == sorted(ticks)
    assert w.summary is not None


def test_hover_shows_red_on_a_square_where_the_tile_does_not_fit(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    bad = _free_square(w)
    hover_square(w, bad)
    assert w.scene.overlay.hover == bad
    assert w.rotation not in w.scene.overlay.fits.get(bad, set())
    rect = square_rect(bad)
    assert w.scene.sceneRect().contains(rect)


def test_a_meeple_goes_where_its_feature_is_clicked(qtbot, make_playtest) -> None:
    from PySide6.QtCore import QPointF

    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    p = next(p for p in g.legal_placements() if len(g.meeple_locations(p)) >= 2)
    w.rotation = p.rotation
    click_square(w, p.square)
    assert w.pending == p
    r = square_rect(p.square)
    found = None
    for i in range(1, 16):
        for j in range(1, 16):
            pt = QPointF(r.left() + r.width() * i / 16, r.top() + r.height() * j / 16)
            near = [pt + QPointF(dx, dy) for dx in (-3, 0, 3) for dy in (-3, 0, 3)]
            if all(w.scene.spot_at(q) is None for q in near):
                locs = {w._feature_location(q) for q in near}
                loc = locs.pop() if len(locs) == 1 else None  # well inside one feature
                if loc is not None:
                    found = (pt, loc)
                    break
        if found:
            break
    assert found is not None
    pt, loc = found
    before = len(g.history)
    click_scene(w, pt)
    assert w.game.history[before] == Move(p.square, p.rotation, loc)


def test_turning_the_tile_in_the_meeple_step_keeps_it_on_its_square(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    g = w.game
    fits = w.scene.overlay.fits
    sq = next(
        s
        for s, rots in fits.items()
        if len(rots) >= 2 and all(g.meeple_locations(Placement(s, r)) for r in rots)
    )
    rots = sorted(fits[sq])
    w.rotation = rots[0]
    click_square(w, sq)
    assert w.pending == Placement(sq, rots[0])
    QTest.keyClick(w.view, Qt.Key.Key_R)
    assert w.pending == Placement(sq, rots[1])
    assert set(w.scene.overlay.spots) == set(g.meeple_locations(w.pending))
