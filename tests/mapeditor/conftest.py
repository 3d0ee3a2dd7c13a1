"""Editor fixtures: windows built through a factory that owns their cleanup."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QSettings, QStandardPaths

from engine.mapdef import MapDef
from mapeditor.document import MapDocument


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
