"""First launch: the start page, shipped maps opened as untitled copies, Save As, the Help menu."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QTextBrowser

from engine.resources import bundled_map
from mapeditor.files import documents_dir
from mapeditor.widgets.main_window import open_editor
from tests.mapeditor._editor_input import click, square_point


def _shown(qtbot, window):
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1100, 760)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def _click_item(lst, text: str) -> None:
    item = next(
        lst.item(i)
        for i in range(lst.count())
        if text in (lst.item(i).text(), lst.item(i).toolTip())
    )
    rect = lst.visualItemRect(item)
    QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_without_a_file_the_editor_shows_the_start_page(qtbot) -> None:
    window = _shown(qtbot, open_editor())
    assert window.pages.currentWidget() is window.start_page
    shipped = [window.start_page.shipped.item(i).text() for i in range(5)]
    assert "France" in shipped and "Deutschland" in shipped


def test_a_shipped_map_opens_as_an_untitled_copy_and_saves_to_documents(
    qtbot, tmp_path, monkeypatch
) -> None:
    window = _shown(qtbot, open_editor())
    window.settings.remove("last_dir")  # a first launch (test settings are shared between runs)
    original = bundled_map("france").read_bytes()
    _click_item(window.start_page.shipped, "France")
    assert window.pages.currentWidget() is window.view
    assert window.document.path is None and "unsaved" in window.document.display_name
    assert window.document.map.id == "france"
    # edit it with a real click (the land brush erases with the right button)
    sq = next(iter(sorted(window.document.map.land - set(window.document.map.towns))))
    window.view.fit()
    click(window, square_point(window, sq), Qt.MouseButton.RightButton)
    assert window.document.modified
    asked: list[str] = []
    target = tmp_path / "my-france.json"

    def fake_save(_parent, _title, start, _filter):
        asked.append(start)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_save)
    QTest.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert asked and Path(asked[0]).parent == documents_dir()
    assert target.is_file() and window.document.path == target
    assert bundled_map("france").read_bytes() == original  # the shipped file is untouched


def test_opening_a_shipped_path_directly_makes_a_copy_too(qtbot) -> None:
    window = _shown(qtbot, open_editor(bundled_map("benelux")))
    assert window.pages.currentWidget() is window.view
    assert window.document.path is None
    assert "shipped map" in window.statusBar().currentMessage()


def test_recent_files_are_listed_on_the_start_page(qtbot, tmp_path) -> None:
    first = _shown(qtbot, open_editor(bundled_map("example-small")))
    path = tmp_path / "mine.json"
    assert first._save_to(path)
    window = _shown(qtbot, open_editor())
    _click_item(window.start_page.recent, str(path.resolve()))
    assert window.document.path == path


def test_help_menu_shortcut_sheet_and_about_credits(qtbot) -> None:
    window = _shown(qtbot, open_editor(bundled_map("example-small")))
    QTest.keyClick(window.view, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: any(w.objectName() == "help-keyboard-shortcuts" for w in _tops()))
    sheet = next(w for w in _tops() if w.objectName() == "help-keyboard-shortcuts")
    text = sheet.findChild(QTextBrowser).toPlainText()
    assert "Save" in text and "Ctrl+S" in text
    assert "Zoom around the cursor" in text
    sheet.close()
    window.help_actions["about"].trigger()
    about = next(w for w in _tops() if w.objectName() == "help-about-carcassonne-maps-studio")
    assert "Natural Earth" in about.findChild(QTextBrowser).toPlainText()
    about.close()
    window.help_actions["tools"].trigger()
    guide = next(w for w in _tops() if w.objectName() == "help-tools-guide")
    assert "Large city" in guide.findChild(QTextBrowser).toPlainText()
    guide.close()


def _tops():
    return [w for w in QApplication.topLevelWidgets() if w.isVisible()]


def test_the_start_page_offers_nothing_to_edit(qtbot) -> None:
    window = _shown(qtbot, open_editor())
    assert not window.paste_action.isEnabled() and not window.save_action.isEnabled()
    QTest.keyClick(window, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert not window.document.modified
    _click_item(window.start_page.shipped, "Example (small)")
    assert window.paste_action.isEnabled() and window.save_action.isEnabled()


def test_a_message_from_opening_hides_the_tool_hint_once_the_window_shows(qtbot) -> None:
    """Opening from the command line says so before the window is shown; the message must not be
    drawn over the tool hint (they share the status bar's left side)."""
    window = open_editor(bundled_map("italia"))
    message = window.statusBar().currentMessage()
    assert "shipped map" in message
    _shown(qtbot, window)
    assert window.statusBar().currentMessage() == message
    assert not window._hint.isVisible()
    window.statusBar().clearMessage()
    assert window._hint.isVisible()
