"""The canvas view: zoom around the cursor, pan, and mouse input turned into tool events."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from engine.geometry import Edge, Square
from mapeditor.painting import map_rect
from mapeditor.tools.base import ToolEvent
from mapeditor.widgets.map_scene import MapScene, edge_at, square_at


class MapView(QGraphicsView):
    """Wheel zooms around the cursor; middle button or Space+drag pans; other input goes to the tool."""

    hovered = Signal(object, object)
    """The square and edge under the cursor changed."""
    notice = Signal(str)
    """The tool explains why an event did nothing (for the status bar)."""

    ZOOM_STEP = 1.15
    MIN_SCALE, MAX_SCALE = 0.02, 8.0

    def __init__(self, scene: MapScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.map_scene = scene
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setMouseTracking(True)
        # The right button erases/removes in the tools; without this the click would also reach
        # the main window and open its (blocking) tool-bar menu.
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self._panning = False
        self._space = False
        self._pan_from = QPointF()
        self._button = ""
        self._last: tuple[Square, Edge] | None = None
        self._keep_fitted = False
        """Fit again when the view is resized (shown, window resized, docks moved), until the
        user zooms or pans: a map opened before the window is shown fills the view."""

    # -- zoom ---------------------------------------------------------------------------------

    zoomChanged = Signal(float)
    """The scale changed (1.0 = one scene unit per pixel)."""

    def zoom(self, factor: float, around: QPointF | None = None) -> None:
        """Scale by ``factor``, keeping the scene point under viewport point ``around`` in place
        (default: the view's centre)."""
        self._keep_fitted = False
        current = self.transform().m11()
        factor = max(self.MIN_SCALE / current, min(self.MAX_SCALE / current, factor))
        if around is None:
            around = QPointF(self.viewport().rect().center())
        anchor = self.mapToScene(around.toPoint())
        # Scale without Qt's anchor (it follows QCursor, which synthetic and tablet input don't
        # move), then scroll the anchored scene point back under ``around``.
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(factor, factor)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        moved = self.mapFromScene(anchor) - around.toPoint()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + moved.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + moved.y())
        self.zoomChanged.emit(self.transform().m11())

    @property
    def zoom_percent(self) -> int:
        """The scale as a percentage of the map's natural size (one scene unit per pixel)."""
        return round(self.transform().m11() * 100)

    def fit(self) -> None:
        self.fitInView(map_rect(self.map_scene.document.map), Qt.AspectRatioMode.KeepAspectRatio)
        self._keep_fitted = True
        self.zoomChanged.emit(self.transform().m11())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self._keep_fitted:
            self.fit()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom(self.ZOOM_STEP**steps, around=event.position())
        event.accept()

    # -- pan and tool input ----------------------------------------------------------------------

    @property
    def hovered_square(self) -> Square | None:
        """The square the cursor was last over (``None`` before any move)."""
        return self._last[0] if self._last is not None else None

    @property
    def stroke_active(self) -> bool:
        """A tool drag is in progress (a mouse button went down on the map and is held)."""
        return bool(self._button)

    def cancel_stroke(self) -> bool:
        """Esc: drop the drag in progress; the tool commits nothing on release."""
        tool = self.map_scene.tool
        if not self._button or tool is None:
            return False
        tool.cancel()
        self._button = ""
        self.map_scene.overlay.update()
        return True

    def _pass_notice(self) -> None:
        tool = self.map_scene.tool
        if tool is not None and tool.notice:
            self.notice.emit(tool.notice)
            tool.notice = ""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape and self.cancel_stroke():
            return
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    def _tool_event(self, kind: str, event: QMouseEvent, button: str) -> ToolEvent:
        pos = self.mapToScene(event.position().toPoint())
        mods = event.modifiers()
        return ToolEvent(
            kind,
            square_at(pos),
            edge_at(pos),
            button,
            shift=bool(mods & Qt.KeyboardModifier.ShiftModifier),
            ctrl=bool(mods & Qt.KeyboardModifier.ControlModifier),
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._panning = True
            self._keep_fitted = False
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        button = {Qt.MouseButton.LeftButton: "left", Qt.MouseButton.RightButton: "right"}.get(
            event.button()
        )
        tool = self.map_scene.tool
        if button is None or tool is None:
            return
        self._button = button
        tool_event = self._tool_event("press", event, button)
        self._last = (tool_event.square, tool_event.edge)
        tool.press(tool_event)
        self._pass_notice()
        self.map_scene.overlay.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        # QGraphicsView records the cursor's scene position here: AnchorUnderMouse (wheel zoom
        # around the cursor) needs it. The scene has no interactive items, so nothing else reacts.
        super().mouseMoveEvent(event)
        if self._panning:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        tool_event = self._tool_event("move", event, self._button)
        here = (tool_event.square, tool_event.edge)
        if here == self._last:
            return
        self._last = here
        self.map_scene.hover_edge = tool_event.edge
        self.hovered.emit(tool_event.square, tool_event.edge)
        tool = self.map_scene.tool
        if tool is not None:
            tool.move(tool_event)
        self.map_scene.tool_marks_changed()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._panning:
            self._panning = False
            if self._space:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            return
        tool = self.map_scene.tool
        if tool is not None and self._button:
            tool.release(self._tool_event("release", event, self._button))
            self._pass_notice()
        self._button = ""
        self.map_scene.overlay.update()
