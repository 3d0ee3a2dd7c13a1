"""File ▸ Print preview: Qt's preview of the true-scale pages, without pages of only sea."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintPreviewDialog, QPrintPreviewWidget
from PySide6.QtTest import QTest

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.widgets.printing import printer_layout


def test_print_preview_shows_the_overview_and_the_printed_pages(make_editor, qtbot) -> None:
    m = load_map(bundled_map("france"))
    window = make_editor(m)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(
        window.view,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: window.findChild(QPrintPreviewDialog, "print_preview") is not None)
    dialog = window.findChild(QPrintPreviewDialog, "print_preview")
    preview = dialog.findChild(QPrintPreviewWidget)
    qtbot.waitUntil(lambda: preview.pageCount() > 0, timeout=20_000)
    printer = dialog.printer()
    lay = printer_layout(m, printer, choose_orientation=False)
    assert lay.skipped, "France has pages of only sea on this paper"
    assert preview.pageCount() == lay.page_count + 1  # the overview and the printed pages
    assert preview.pageCount() < len(lay.tiles) + 1
    dialog.reject()
