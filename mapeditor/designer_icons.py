"""The rule language's icons drawn with Qt: a resource's or a mark's picture by its name.

The shapes are :mod:`engine.rules.data.icons` (one definition for the editor, the report and the
online client), rendered by Qt's SVG renderer: sharp at any size, as vectors in a PDF.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from engine.rules.data.icons import icon_svg


@lru_cache(maxsize=256)
def _renderer(name: str, colour: str) -> QSvgRenderer:
    return QSvgRenderer(QByteArray(icon_svg(name, colour).encode("utf-8")))


def paint_icon(painter: QPainter, name: str, colour: str, rect: QRectF) -> None:
    """Draw icon ``name`` filled with ``colour`` (``#rrggbb``) into ``rect``."""
    _renderer(name, colour).render(painter, rect)


def icon_pixmap(name: str, colour: str, size: int = 16) -> QPixmap:
    """Icon ``name`` as a ``size`` × ``size`` pixmap on a transparent ground."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_icon(painter, name, colour, QRectF(0, 0, size, size))
    painter.end()
    return pixmap


def icon(name: str, colour: str, size: int = 16) -> QIcon:
    """Icon ``name`` for a button, a tool, a header or a list row."""
    return QIcon(icon_pixmap(name, colour, size))
