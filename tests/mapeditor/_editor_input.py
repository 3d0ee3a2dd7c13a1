"""Real mouse input on the editor's view, addressed by squares and edges."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from engine.geometry import Edge, Side, Square
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
