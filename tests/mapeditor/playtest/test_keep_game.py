"""Closing the playtest window or starting a new game mid-game asks to save the game record."""

from __future__ import annotations

from _playtest_helpers import click_square, wait_for_human
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine.record import load_record
from tests.mapeditor._dialogs import answer_next_message_box

B = QMessageBox.StandardButton


def _play_one_turn(qtbot, w) -> None:
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)  # window shortcuts (Ctrl+W, Ctrl+N) need it active
    wait_for_human(qtbot, w)
    p = next(p for p in w.game.legal_placements().list() if p.rotation == w.rotation)
    click_square(w, p.square)
    if w.pending is not None:
        [no] = [b for b in w.action_buttons() if b.objectName() == "no_meeple"]
        no.click()
    assert w.actors, "a turn was played"


def test_closing_mid_game_asks_and_cancel_keeps_the_window(qtbot, make_playtest) -> None:
    w = make_playtest()
    _play_one_turn(qtbot, w)
    seen: list[str] = []
    answer_next_message_box(B.Cancel, seen)
    QTest.keySequence(w.view, QKeySequence.StandardKey.Close)
    assert seen and "not finished" in seen[0]
    assert w.isVisible()


def test_closing_mid_game_can_save_the_record(qtbot, make_playtest, tmp_path, monkeypatch) -> None:
    w = make_playtest()
    _play_one_turn(qtbot, w)
    target = tmp_path / "kept.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    seen: list[str] = []
    answer_next_message_box(B.Save, seen)
    QTest.keySequence(w.view, QKeySequence.StandardKey.Close)
    assert seen
    assert not w.isVisible()
    assert len(load_record(target).actions) == len(w.actors)


def test_new_game_mid_game_asks_first(qtbot, make_playtest) -> None:
    w = make_playtest()
    _play_one_turn(qtbot, w)
    played = len(w.actors)
    seen: list[str] = []
    answer_next_message_box(B.Cancel, seen)
    QTest.keySequence(w.view, QKeySequence.StandardKey.New)
    assert seen and len(w.actors) == played  # cancelled: the same game goes on


def test_an_untouched_or_saved_game_closes_without_a_question(
    qtbot, make_playtest, tmp_path
) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    assert not w.has_unsaved_play()
    _play_one_turn(qtbot, w)
    assert w.has_unsaved_play()
    w.save_to(tmp_path / "g.json")
    assert not w.has_unsaved_play()
    w.close()
    assert not w.isVisible()
