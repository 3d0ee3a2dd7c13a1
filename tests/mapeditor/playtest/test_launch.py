"""Starting a playtest from the editor: a map with errors is refused with its errors."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestWindow, map_errors, open_playtest


def test_a_map_with_errors_is_refused_with_the_list(qtbot, monkeypatch) -> None:
    m = load_map(bundled_map("example-small"))
    m.start_squares.clear()
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert open_playtest(m, ask_setup=False) is None
    assert shown and "too-few-start-squares" in shown[0]
    assert map_errors(m) and all(":" in e for e in map_errors(m))


def test_a_good_map_opens_a_window_on_the_copy_it_was_given(qtbot) -> None:
    m = load_map(bundled_map("example-small"))
    copy = m.copy()
    w = open_playtest(copy, ask_setup=False)
    assert isinstance(w, PlaytestWindow)
    qtbot.addWidget(w)
    assert w.map is copy and w.game.map is copy
    w.close()
    assert m == load_map(bundled_map("example-small"))
