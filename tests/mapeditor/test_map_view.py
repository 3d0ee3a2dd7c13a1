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


def test_the_wheel_zooms_around_the_cursor(qtbot) -> None:
    from PySide6.QtCore import QPointF

    from mapeditor.painting import SQUARE
    from tests.mapeditor._editor_input import square_point, wheel

    window = open_editor(bundled_map("france"))
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    window.view.fit()
    marseille = (16, 17)
    point = square_point(window, marseille)
    before = window.view.transform().m11()
    wheel(window.view, point, 3)
    assert window.view.transform().m11() > before * 1.4  # three notches zoomed in
    under = window.view.mapToScene(point)
    centre = QPointF((marseille[0] + 0.5) * SQUARE, (marseille[1] + 0.5) * SQUARE)
    # Within a square: while the map is smaller than the view Qt centres it, so the first notch
    # cannot keep the point exactly in place.
    assert abs(under.x() - centre.x()) < SQUARE and abs(under.y() - centre.y()) < SQUARE
    assert window.view.viewport().rect().contains(window.view.mapFromScene(centre))
    assert f"{window.view.zoom_percent}%" in window.zoom_label.text()
