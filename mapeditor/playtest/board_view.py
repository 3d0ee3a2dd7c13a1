"""The view on the playtest board: turns mouse input into board signals.

The wheel and the right button rotate the current tile (Ctrl+wheel zooms), the left button
clicks a square or a meeple spot. The view never touches the game; the window decides.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from mapeditor.playtest.board_scene import BoardScene, square_at


class BoardView(QGraphicsView):
    """Signals carry squares as ``(x, y)`` tuples and scene points."""

    hovered = Signal(object, QPointF)
    """The square under the mouse (``None`` when the mouse left) and the scene point."""
    clicked = Signal(object, QPointF)
    rotate_requested = Signal(int)
    """+1 clockwise, -1 counter-clockwise."""
    cancel_requested = Signal()

    def __init__(self, scene: BoardScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._fitted = True

    def fit(self) -> None:
        """Show the whole board."""
        self._fitted = True
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def zoom(self, factor: float) -> None:
        self._fitted = False
        self.scale(factor, factor)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    def scene_point(self, event: QMouseEvent) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        p = self.scene_point(event)
        inside = self.sceneRect().contains(p)
        self.hovered.emit(square_at(p) if inside else None, p)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: object) -> None:
        self.hovered.emit(None, QPointF())
        super().leaveEvent(event)  # type: ignore[arg-type]

    def mousePressEvent(self, event: QMouseEvent) -> None:
        p = self.scene_point(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(square_at(p), p)
            event.accept()
            return
        if event.button() == Qt.MouseButton.RightButton:
            self.rotate_requested.emit(1)
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        dy = event.angleDelta().y()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if dy:
                self.zoom(1.15 if dy > 0 else 1 / 1.15)
        elif dy:
            self.rotate_requested.emit(1 if dy < 0 else -1)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_R:
            self.rotate_requested.emit(
                -1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            )
        elif key == Qt.Key.Key_Escape:
            self.cancel_requested.emit()
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.2)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1 / 1.2)
        elif key == Qt.Key.Key_0:
            self.fit()
        else:
            super().keyPressEvent(event)
