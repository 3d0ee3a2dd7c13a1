"""The canvas keeps a freshly opened map fitted to the view until the user zooms or pans."""

from __future__ import annotations

from engine.resources import bundled_map
from mapeditor.painting import map_rect
from mapeditor.widgets.main_window import open_editor


def _shown_fraction(window) -> float:
    """How much of the viewport's smaller dimension the whole map spans."""
    view = window.view
    rect = view.mapFromScene(map_rect(window.document.map)).boundingRect()
    port = view.viewport().rect()
    return max(rect.width() / port.width(), rect.height() / port.height())


def test_a_map_opened_before_the_window_is_shown_fills_the_view(qtbot) -> None:
    window = open_editor(bundled_map("deutschland"))  # fitted while still hidden
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: 0.9 <= _shown_fraction(window) <= 1.01)
    window.resize(1500, 1000)  # still fitted after a resize
    qtbot.waitUntil(lambda: 0.9 <= _shown_fraction(window) <= 1.01)


def test_after_a_zoom_a_resize_keeps_the_users_scale(qtbot) -> None:
    window = open_editor(bundled_map("france"))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    window.view.zoom(2.0)
    scale = window.view.transform().m11()
    window.resize(1400, 900)
    qtbot.wait(50)
    assert window.view.transform().m11() == scale
