"""The neighbour names saved by "New map from country…", drawn beside the border."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from engine.geo.neighbours import label_runs, neighbour_names
from mapeditor.document import MapDocument
from mapeditor.painting import SQUARE, edge_line, edge_midpoint, map_rect


class NeighbourNamesItem(QGraphicsItem):
    """Draws the neighbour names saved by "New map from country…" beside the border: a dashed line
    on each border edge facing that neighbour and one italic name per run of edges. Names only;
    the border roads and cities are the designer's."""

    def __init__(self, document: MapDocument) -> None:
        super().__init__()
        self._document = document
        self._edges: list[tuple[QLineF, str]] = []
        self._labels: list[tuple[QPointF, str]] = []
        self._rect = QRectF()
        self.setZValue(6)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.refresh()

    def set_document(self, document: MapDocument) -> None:
        self._document = document
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Recompute the lines and names; repaint only if they changed (an edit elsewhere, such
        as each step of a brush stroke, must not repaint the whole map under this item)."""
        m = self._document.map
        names = {
            e: n for e, n in neighbour_names(m).items() if e.square in m.land and m.faces_outside(e)
        }
        edges = [(edge_line(e), n) for e, n in names.items()]
        labels: list[tuple[QPointF, str]] = []
        for name, run in label_runs(names):
            mids = [edge_midpoint(e) for e in run]
            cx = sum(p.x() for p in mids) / len(mids)
            cy = sum(p.y() for p in mids) / len(mids)
            ox = sum(e.side.delta[0] for e in run)
            oy = sum(e.side.delta[1] for e in run)
            norm = max(1e-9, (ox * ox + oy * oy) ** 0.5)
            labels.append(
                (QPointF(cx + ox / norm * SQUARE * 0.45, cy + oy / norm * SQUARE * 0.45), name)
            )
        rect = map_rect(m).adjusted(-2 * SQUARE, -2 * SQUARE, 2 * SQUARE, 2 * SQUARE)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
        elif edges == self._edges and labels == self._labels:
            return
        self._edges, self._labels = edges, labels
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(self, painter: QPainter, _option: object, _widget: object = None) -> None:
        if not self._edges:
            return
        pen = QPen(QColor(123, 45, 139, 170), 3.0, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLines([line for line, _ in self._edges])
        font = QFont()
        font.setItalic(True)
        font.setPixelSize(15)
        painter.setFont(font)
        painter.setPen(QColor(92, 30, 110, 230))
        for centre, name in self._labels:
            rect = QRectF(centre.x() - 80, centre.y() - 10, 160, 20)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), name)
