"""The editor canvas: the map drawn in chunk items, plus an overlay for tools and issues.

A 200×200 map is 40,000 squares: one item per square would make Qt's scene index the bottleneck,
so the map is cut into :data:`CHUNK` × :data:`CHUNK`-square items that each paint their region
with :func:`mapeditor.painting.paint_map`, and a change repaints only the chunks it touched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from engine.geometry import Edge, Square
from mapeditor.document import MapDocument
from mapeditor.painting import SQUARE, PaintOptions, edge_line, map_rect, paint_map, square_rect
from mapeditor.print_painting import PrintLook, paint_print, print_look

if TYPE_CHECKING:
    from mapeditor.tools.base import Tool

CHUNK = 16
"""Squares per side of one chunk item."""

MARGIN = SQUARE * 1.5
"""Room around the grid for labels drawn outside it (neighbour names, border stubs)."""
LOOK_DELAY_MS = 400
"""The print look is worked out again this long after the last change (a stroke is many)."""


class ChunkItem(QGraphicsItem):
    """Paints one CHUNK×CHUNK block of the map (with a margin so labels are not cut)."""

    def __init__(self, scene: MapScene, cx: int, cy: int, last: tuple[int, int]) -> None:
        super().__init__()
        self._scene = scene
        self.cx, self.cy = cx, cy
        rect = QRectF(cx * CHUNK * SQUARE, cy * CHUNK * SQUARE, CHUNK * SQUARE, CHUNK * SQUARE)
        # Chunks on the grid's rim also own the margin beyond it, where labels stick out.
        self._rect = rect.adjusted(
            -MARGIN if cx == 0 else 0,
            -MARGIN if cy == 0 else 0,
            MARGIN if cx == last[0] else 0,
            MARGIN if cy == last[1] else 0,
        )
        self.setZValue(0)
        # Qt then passes the exposed part in option.exposedRect: a change repaints just that.
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        region = (
            self._rect.intersected(option.exposedRect)
            if option.exposedRect.isValid()
            else self._rect
        )
        look = self._scene.print_look
        if look is not None:
            paint_print(painter, self._scene.document.map, look, region=region)
        else:
            paint_map(painter, self._scene.document.map, self._scene.options, region=region)


class OverlayItem(QGraphicsItem):
    """Selection, tool preview, validation markers and the chip layout, above the map."""

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._scene = scene
        self.setZValue(10)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._scene.sceneRect()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        s = self._scene
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for squares, colour in (
            (s.marker_errors, QColor(220, 30, 30, 200)),
            (s.marker_warnings, QColor(240, 150, 0, 200)),
        ):
            painter.setPen(QPen(colour, 4, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for sq in squares:
                painter.drawRect(square_rect(sq).adjusted(4, 4, -4, -4))
        if s.chips and s.layer_visible("chips"):
            painter.setPen(QPen(QColor(40, 40, 40), 2))
            painter.setBrush(QBrush(QColor(250, 250, 250, 220)))
            for sq in s.chips:
                painter.drawEllipse(square_rect(sq).center(), SQUARE * 0.22, SQUARE * 0.22)
        painter.setPen(QPen(QColor(20, 110, 230), 3))
        painter.setBrush(QBrush(QColor(20, 110, 230, 50)))
        for sq in s.document.selection:
            painter.drawRect(square_rect(sq))
        # what is drawn of the tool now, so that the next change repaints where it was
        s._marks_rect = s._marks_rect.united(s.tool_marks_rect())
        tool = s.tool
        if tool is not None:
            painter.setPen(QPen(QColor(255, 255, 255, 220), 2, Qt.PenStyle.DashLine))
            painter.setBrush(QBrush(QColor(255, 255, 255, 60)))
            for sq in tool.preview:
                painter.drawRect(square_rect(sq))
            painter.setPen(QPen(QColor(230, 30, 160), 6))
            for edge in tool.preview_edges:
                painter.drawLine(edge_line(edge))
        if s.hover_edge is not None and s.show_hover_edge:
            painter.setPen(QPen(QColor(255, 255, 255, 160), 3))
            painter.drawLine(edge_line(s.hover_edge))


class MapScene(QGraphicsScene):
    """Draws a :class:`MapDocument`; redraws only what changed."""

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.options = PaintOptions(outside_grid=True)
        self.tool: Tool | None = None
        self.hover_edge: Edge | None = None
        self.show_hover_edge = False
        self.marker_errors: set[Square] = set()
        self.marker_warnings: set[Square] = set()
        self.chips: list[Square] = []
        self.print_look: PrintLook | None = None
        """The print's look (View ▸ Print look) while shown, worked out again shortly after
        each change (:meth:`set_print_look`)."""
        self._look_timer = QTimer(self)
        self._look_timer.setSingleShot(True)
        self._look_timer.setInterval(LOOK_DELAY_MS)
        self._look_timer.timeout.connect(self._refresh_print_look)
        self._chunks: dict[tuple[int, int], ChunkItem] = {}
        self._marks_rect = QRectF()
        """Where the overlay has drawn the tool's preview and the hover edge since the last
        :meth:`tool_marks_changed`."""
        self.overlay = OverlayItem(self)
        self.addItem(self.overlay)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.set_document(document)

    def set_document(self, document: MapDocument) -> None:
        self.document = document
        document.squaresChanged.connect(self.on_squares_changed)
        document.mapReplaced.connect(self.rebuild)
        document.selectionChanged.connect(self.overlay.update)
        document.undo_stack.indexChanged.connect(self._print_look_stale)
        document.mapReplaced.connect(self._print_look_stale)
        self.rebuild()
        self._print_look_stale()

    def set_print_look(self, on: bool) -> None:
        """Draw the map as it prints (neighbouring land, sea, names, cartouche, legend) or as the
        editor's schematic."""
        self.print_look = print_look(self.document.map) if on else None
        self.update()

    def _print_look_stale(self, *_args: object) -> None:
        if self.print_look is not None:
            self._look_timer.start()  # debounced: a brush stroke is many changes

    def _refresh_print_look(self) -> None:
        if self.print_look is not None:
            self.set_print_look(True)

    def rebuild(self) -> None:
        """Lay out chunk items for the current grid size."""
        m = self.document.map
        for item in self._chunks.values():
            self.removeItem(item)
        self._chunks.clear()
        columns, rows = (m.width + CHUNK - 1) // CHUNK, (m.height + CHUNK - 1) // CHUNK
        for cy in range(rows):
            for cx in range(columns):
                item = ChunkItem(self, cx, cy, (columns - 1, rows - 1))
                self._chunks[(cx, cy)] = item
                self.addItem(item)
        rect = map_rect(m).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
        self.setSceneRect(rect)
        self.overlay.prepareGeometryChange()
        self.update()

    def on_squares_changed(self, squares: Iterable[Square] | None) -> None:
        if squares is None:
            for item in self._chunks.values():
                item.update()
            self.overlay.update()
            return
        # A square's drawing reaches into its neighbours (shared edges, names under towns):
        # repaint the block around each changed square, in the chunks it overlaps, and the
        # overlay there only (updating all of it would repaint every chunk in view).
        for x, y in squares:
            dirty = QRectF((x - 1) * SQUARE, (y - 1) * SQUARE, 3 * SQUARE, 3 * SQUARE)
            for key in self.chunks_of([(x, y)]):
                chunk = self._chunks.get(key)
                if chunk is not None:
                    chunk.update(dirty)
            self.overlay.update(dirty)

    @staticmethod
    def chunks_of(squares: Iterable[Square]) -> set[tuple[int, int]]:
        """The chunks a change on ``squares`` can show in (neighbours too: edges are shared)."""
        out: set[tuple[int, int]] = set()
        for x, y in squares:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    out.add(((x + dx) // CHUNK, (y + dy) // CHUNK))
        return out

    def tool_marks_rect(self) -> QRectF:
        """The scene rectangle holding the tool's preview squares and edges and the hover edge."""
        rect = QRectF()
        tool = self.tool
        if tool is not None and tool.preview:
            xs = [x for x, _ in tool.preview]
            ys = [y for _, y in tool.preview]
            rect = square_rect((min(xs), min(ys))).united(square_rect((max(xs), max(ys))))
        edges = list(tool.preview_edges) if tool is not None else []
        if self.hover_edge is not None and self.show_hover_edge:
            edges.append(self.hover_edge)
        for edge in edges:
            line = edge_line(edge)
            rect = rect.united(QRectF(line.p1(), line.p2()).normalized())
        if rect.isNull():
            return rect
        pad = 8.0  # the widest mark pen (6) and antialiasing
        return rect.adjusted(-pad, -pad, pad, pad)

    def tool_marks_changed(self) -> None:
        """The tool's preview or the hover edge changed: repaint the overlay where they were
        and where they are, not all of it (which would repaint every chunk in view)."""
        now = self.tool_marks_rect()
        for dirty in (self._marks_rect, now):  # apart: a jump across the map is two small areas
            if not dirty.isNull():
                self.overlay.update(dirty)
        self._marks_rect = now

    def set_markers(self, errors: set[Square], warnings: set[Square]) -> None:
        """Show validation markers; repaint only the squares whose marker came or went (the
        validation after each edit mostly finds the same issues)."""
        changed = (set(errors) ^ self.marker_errors) | (set(warnings) ^ self.marker_warnings)
        self.marker_errors, self.marker_warnings = set(errors), set(warnings)
        if len(changed) > 256:  # many rectangles cost Qt more than one repaint of the view
            self.overlay.update()
            return
        for sq in changed:
            self.overlay.update(square_rect(sq).adjusted(-4, -4, 4, 4))

    def set_chips(self, chips: list[Square]) -> None:
        self.chips = list(chips)
        self.overlay.update()

    def set_grid(self, on: bool) -> None:
        self.set_layer_visible("grid", on)

    def set_layer_visible(self, layer: str, on: bool) -> None:
        """Show or hide one of :data:`mapeditor.painting.LAYERS` (a view setting, not an edit)."""
        hidden = self.options.hidden - {layer} if on else self.options.hidden | {layer}
        self.options.hidden = frozenset(hidden)
        self.on_squares_changed(None)

    def layer_visible(self, layer: str) -> bool:
        return layer not in self.options.hidden


def square_at(point: QPointF) -> Square:
    return (int(point.x() // SQUARE), int(point.y() // SQUARE))


def edge_at(point: QPointF) -> Edge:
    """The side of the square under ``point`` nearest to it."""
    from engine.geometry import Side

    x, y = square_at(point)
    fx, fy = point.x() / SQUARE - x, point.y() / SQUARE - y
    distances = {Side.N: fy, Side.S: 1 - fy, Side.W: fx, Side.E: 1 - fx}
    side = min(distances, key=distances.__getitem__)
    return Edge(x, y, side)
