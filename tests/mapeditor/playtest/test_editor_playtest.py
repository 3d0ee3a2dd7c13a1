"""The editor's Playtest action: a copy of the map goes to the game window; errors refuse it."""

from __future__ import annotations

from _playtest_helpers import play_first_placement, wait_for_human
from PySide6.QtWidgets import QDialog, QMessageBox

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestWindow, SetupDialog


def test_playtest_plays_a_copy_of_the_edited_map(qtbot, make_editor, monkeypatch) -> None:
    editor = make_editor(load_map(bundled_map("example-small")))
    before = editor.document.snapshot()
    # accept the setup dialog as it comes (a human and a greedy bot)
    monkeypatch.setattr(SetupDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    assert editor.playtest_action.isEnabled()
    editor.playtest_action.trigger()
    w = editor._playtest
    assert isinstance(w, PlaytestWindow)
    qtbot.addWidget(w, before_close_func=lambda w: setattr(w, "ask_to_keep_game", False))
    w.pace.setValue(0)
    assert w.map is not editor.document.map and w.map == editor.document.map
    wait_for_human(qtbot, w)
    play_first_placement(qtbot, w)
    assert w.game.turn >= 2
    assert editor.document.map == before  # playing never changes the map being edited
    assert not editor.document.undo_stack.canUndo()


def test_playtest_is_refused_with_the_errors(qtbot, make_editor, monkeypatch) -> None:
    m = load_map(bundled_map("example-small"))
    m.start_squares.clear()
    editor = make_editor(m)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    editor.playtest_action.trigger()
    assert editor._playtest is None
    assert shown and "too-few-start-squares" in shown[0]
