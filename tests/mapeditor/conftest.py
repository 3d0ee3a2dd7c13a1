"""Editor fixtures: windows built through a factory that owns their cleanup. Puts
``tests/fuzz`` on the import path: its rule-set generator (``rulegen``) feeds the dock's tests."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths

from engine.mapdef import MapDef
from mapeditor.document import MapDocument

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Recent files, autosaves and settings go to Qt's test locations, never the user's; and
    # each test starts with no settings at all (a dialog remembers its fields, the window its
    # docks: one test's choices must not reach the next).
    QStandardPaths.setTestModeEnabled(True)
    folder = tmp_path_factory.mktemp("settings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    yield


@pytest.fixture(autouse=True)
def _clipboard_emptied() -> Iterator[None]:
    yield
    # The offscreen platform crashes at exit when the clipboard still holds data set from
    # Python (a real display does not): tests that copy leave it empty.
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if isinstance(app, QApplication):
        app.clipboard().clear()


@pytest.fixture
def make_editor(qtbot) -> Iterator[Callable[..., object]]:
    """``make_editor(map=None)`` → a shown MainWindow; closed (unsaved work discarded) after the test."""
    from mapeditor.widgets.main_window import MainWindow

    def factory(m: MapDef | None = None) -> MainWindow:
        window = MainWindow(MapDocument(m) if m is not None else None)
        # qtbot closes the window before fixtures finalise: discard unsaved work first, or the
        # unsaved-changes prompt would wait for an answer.
        qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
        window.resize(1000, 760)
        window.show()
        qtbot.waitExposed(window)
        window.view.fit()
        return window

    yield factory


@pytest.fixture
def gift_map() -> MapDef:
    """``example-small`` with a rule that asks the player on the left of whoever places a road
    tile whether to take 2 points: a choice made inside another player's turn."""
    from engine.mapdef import EmbeddedRuleSet
    from engine.mapio import load_map
    from engine.resources import bundled_map
    from engine.rules.data import RuleSetSpec, preset_dict

    gift = {
        "id": "gift",
        "title": "Road gift",
        "when": "tile_placed",
        "if": [{"kind": "tile_shows", "feature": "road"}],
        "then": [{"kind": "points", "amount": 2}],
        "choice": "optional",
        "chooser": "left",
    }
    d = preset_dict("deutschland")
    d.update(name="gift", mechanics=[], layout={"kind": "none"}, rules=[gift])
    m = load_map(bundled_map("example-small"))
    m.rule_set = EmbeddedRuleSet(RuleSetSpec.from_dict(d))
    return m
