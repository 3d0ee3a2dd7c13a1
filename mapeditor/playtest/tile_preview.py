"""The current tile, shown large: click, wheel or R turns it."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.tiles import TileType
from mapeditor.tile_painter import tile_image


class TilePreview(QWidget):
    """Shows ``tile`` at ``rotation``; asks to rotate on click (left: clockwise) and wheel."""

    rotate_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tile: TileType | None = None
        self.rotation = 0
        self.caption = ""
        self.setMinimumSize(QSize(150, 170))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setToolTip(
            "The tile to place: click, mouse wheel, R or right-click on the board turn it"
        )

    def sizeHint(self) -> QSize:
        return QSize(180, 190)

    def show_tile(self, tile: TileType | None, rotation: int, caption: str = "") -> None:
        self.tile = tile
        self.rotation = rotation
        self.caption = caption
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        side = min(self.width() - 10, self.height() - 30)
        rect = QRectF((self.width() - side) / 2, 5, side, side)
        if self.tile is None:
            p.setPen(QPen(QColor(120, 120, 120), 2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(rect, 8, 8)
        else:
            # a cached image: painting a tile the first time is slow, the board warms the cache
            image = tile_image(self.tile, self.rotation, max(16, round(side)))
            p.drawImage(rect, image)
        f = QFont(self.font())
        f.setPointSizeF(max(7.0, f.pointSizeF()))
        p.setFont(f)
        p.setPen(self.palette().windowText().color())
        text = self.caption or (
            f"{self.tile.id}  {self.rotation}°" if self.tile is not None else "no tile"
        )
        p.drawText(
            QRectF(0, rect.bottom() + 2, self.width(), 22), Qt.AlignmentFlag.AlignCenter, text
        )
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.rotate_requested.emit(1)
        elif event.button() == Qt.MouseButton.RightButton:
            self.rotate_requested.emit(-1)

    def wheelEvent(self, event: QWheelEvent) -> None:
        dy = event.angleDelta().y()
        if dy:
            self.rotate_requested.emit(1 if dy < 0 else -1)
        event.accept()
