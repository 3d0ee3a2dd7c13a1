"""Real mouse input on the editor's view, addressed by squares and edges."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from engine.geometry import Edge, Side, Square
from engine.mapdef import MapDef
from mapeditor.painting import SQUARE

_EDGE_OFFSET = {Side.N: (0.5, 0.08), Side.S: (0.5, 0.92), Side.W: (0.08, 0.5), Side.E: (0.92, 0.5)}


def square_point(window, square: Square) -> QPoint:
    x, y = square
    return window.view.mapFromScene(QPointF((x + 0.5) * SQUARE, (y + 0.5) * SQUARE))


def edge_point(window, edge: Edge) -> QPoint:
    fx, fy = _EDGE_OFFSET[edge.side]
    return window.view.mapFromScene(QPointF((edge.x + fx) * SQUARE, (edge.y + fy) * SQUARE))


def drag(
    window,
    points: list[QPoint],
    button=Qt.MouseButton.LeftButton,
    modifier=Qt.KeyboardModifier.NoModifier,
) -> None:
    viewport = window.view.viewport()
    QTest.mousePress(viewport, button, modifier, points[0])
    for p in points[1:]:
        QTest.mouseMove(viewport, p)
    QTest.mouseRelease(viewport, button, modifier, points[-1])


def click(
    window, point: QPoint, button=Qt.MouseButton.LeftButton, modifier=Qt.KeyboardModifier.NoModifier
) -> None:
    QTest.mouseClick(window.view.viewport(), button, modifier, point)


def wheel(view, point: QPoint, notches: int) -> None:
    """Turn the mouse wheel ``notches`` steps (positive: away from the user) over ``point``."""
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    viewport = view.viewport()
    QTest.mouseMove(viewport, point)
    for _ in range(abs(notches)):
        event = QWheelEvent(
            QPointF(point),
            QPointF(viewport.mapToGlobal(point)),
            QPoint(),
            QPoint(0, 120 if notches > 0 else -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(viewport, event)


def blank(width: int = 12, height: int = 10, land: bool = False) -> MapDef:
    """An empty map (all land with ``land``) for the tool tests."""
    m = MapDef("t", "T", width, height)
    if land:
        m.land = {(x, y) for x in range(width) for y in range(height)}
    return m
