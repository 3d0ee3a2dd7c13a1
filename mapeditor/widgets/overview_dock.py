"""The overview (minimap): the whole map small, the main view's area framed; click or drag to go.

The map is drawn once into a pixmap (again a moment after each edit), so moving around in the
main view only repaints the frame.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from engine.mapdef import MapDef
from mapeditor.document import MapDocument
from mapeditor.painting import SQUARE, map_rect, paint_map
from mapeditor.widgets.map_scene import MapScene
from mapeditor.widgets.map_view import MapView

PIXELS = 480
"""The longer side of the overview's picture of the map."""
DETAILED_UP_TO = 3000
"""Grids with more squares get one pixel per square (drawing them in full takes too long to
redo after every edit: 0.3-1 s for 200×200)."""


def square_image(m: MapDef) -> QImage:
    """One pixel per square: sea, land, large cities, towns and start squares."""
    image = QImage(m.width, m.height, QImage.Format.Format_RGB32)
    image.fill(QColor("#a9cde0"))
    for colour, squares in (
        ("#d8e6b0", m.land),
        ("#d9b382", (sq for city in m.large_cities.values() for sq in city.squares)),
        ("#b0793a", m.towns),
        ("#d1201b", m.start_squares),
    ):
        rgb = QColor(colour).rgb()
        for x, y in squares:
            if 0 <= x < m.width and 0 <= y < m.height:
                image.setPixel(x, y, rgb)
    return image


class OverviewView(QGraphicsView):
    """The map small; a red frame marks what the main view shows. Click or drag to move there."""

    def __init__(self, scene: MapScene, main: MapView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.frame_scene = QGraphicsScene(self)  # empty: the map is drawn as the background
        self.setScene(self.frame_scene)
        self.map_scene = scene
        self.main = main
        self.picture = QPixmap()
        self.setObjectName("overview")
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self.setMinimumSize(120, 100)
        for bar in (main.horizontalScrollBar(), main.verticalScrollBar()):
            bar.valueChanged.connect(self.viewport().update)
        main.zoomChanged.connect(self.viewport().update)
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(400)  # one picture after a burst of edits (a brush stroke)
        self._redraw.timeout.connect(self.render_map)
        self.set_document(scene.document)

    def set_document(self, document: MapDocument) -> None:
        document.squaresChanged.connect(self._redraw.start)
        document.mapReplaced.connect(self._redraw.start)
        self.render_map()

    def render_map(self) -> None:
        """Draw the map (with the main view's layer settings) into the overview's picture."""
        m = self.map_scene.document.map
        rect = map_rect(m)
        if m.width * m.height > DETAILED_UP_TO:
            self.picture = QPixmap.fromImage(square_image(m))
        else:
            scale = PIXELS / max(rect.width(), rect.height(), SQUARE)
            self.picture = QPixmap(
                max(1, round(rect.width() * scale)), max(1, round(rect.height() * scale))
            )
            self.picture.fill(Qt.GlobalColor.transparent)
            painter = QPainter(self.picture)
            painter.scale(scale, scale)
            paint_map(painter, m, self.map_scene.options)
            painter.end()
        self.scene().setSceneRect(rect)
        self.fit()
        self.viewport().update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # QGraphicsView would ask for its scene's size; a dock beside the canvas wants little.
        return QSize(220, 200)

    def fit(self) -> None:
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit()

    def shown_rect(self) -> QRectF:
        """The scene rectangle the main view shows."""
        return self.main.mapToScene(self.main.viewport().rect()).boundingRect()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802 - Qt's name
        super().drawBackground(painter, rect)
        painter.drawPixmap(self.sceneRect(), self.picture, QRectF(self.picture.rect()))

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        pen = QPen(QColor(220, 30, 30), 2)
        pen.setCosmetic(True)  # two pixels whatever the overview's scale
        painter.setPen(pen)
        painter.setBrush(QColor(220, 30, 30, 14))
        painter.drawRect(self.shown_rect())

    def _go(self, event: QMouseEvent) -> None:
        self.main.centerOn(self.mapToScene(event.position().toPoint()))
        self.main._keep_fitted = False  # the user chose a place: a resize keeps it
        self.viewport().update()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._go(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event)
