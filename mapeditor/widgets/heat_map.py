"""The balance report's heat map: the map as it prints, with a square per placeable square
coloured by how often (or how early) the report's games built it, and its legend's colour bar.

The colours are the report's own charts' (:mod:`engine.analysis.report`), drawn nearly opaque
so that what the legend's words name is what the eye sees over the land.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QWidget

from engine.analysis.report_types import BalanceReport
from engine.geo.naming import PlaceNames
from engine.mapdef import MapDef
from mapeditor.painting import SQUARE, PaintOptions, map_rect
from mapeditor.print_painting import PrintLook, paint_print, print_look

__all__ = [
    "HEAT_LEGENDS",
    "HEAT_MODES",
    "HeatLegendBar",
    "HeatMapView",
    "heat_colour",
    "paint_heat",
    "render_heat",
]

HEAT_MODES = {
    "often": "How often each square is built",
    "early": "How early each square is built",
}
HEAT_SCALES = {
    # The report's colour maps (engine.analysis.report: viridis, magma_r) at five stops, so the
    # dialog and a saved report read alike, and matplotlib stays optional.
    "often": ("#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"),
    "early": ("#fcfdbf", "#fc8961", "#b73779", "#51127c", "#1c1044"),
}
HEAT_ALPHA = 225
"""Nearly opaque: under a translucent square the pale green land shifts the hue (a blue drawn
at 60 % read green), while the print's towns still show through a little."""
HEAT_ENDS = {
    "often": ("in no game", "in every game"),
    "early": ("among the first tiles", "among the last"),
}
"""What the two ends of the legend's colour bar mean."""
HEAT_LEGENDS = {
    "often": "Purple: built in few games, teal: in half, green: in most, yellow: in every game. "
    "Red cross: never built.",
    "early": "Pale yellow: built among the first tiles, orange and pink: midway, dark purple: "
    "among the last (mean placement). Red cross: never built.",
}


def heat_colour(mode: str, t: float, alpha: int = HEAT_ALPHA) -> QColor:
    """The colour of ``t`` (0..1) on ``mode``'s scale (:data:`HEAT_SCALES`)."""
    stops = HEAT_SCALES[mode]
    t = max(0.0, min(1.0, t)) * (len(stops) - 1)
    k = min(int(t), len(stops) - 2)
    a, b = QColor(stops[k]), QColor(stops[k + 1])
    u = t - k
    return QColor(
        round(a.red() + (b.red() - a.red()) * u),
        round(a.green() + (b.green() - a.green()) * u),
        round(a.blue() + (b.blue() - a.blue()) * u),
        alpha,
    )


def heat_scale(mode: str, values: list[float]) -> Callable[[float], float]:
    """``value -> t`` (0..1) of ``mode``: the share of games as it is; the mean placement
    from the earliest square's to the latest's, as the report's chart draws them."""
    if mode == "often":
        return lambda v: v
    lo, hi = min(values, default=0.0), max(values, default=1.0)
    return lambda v: (v - lo) / (hi - lo) if hi > lo else 0.0


def paint_heat(
    painter: QPainter,
    m: MapDef,
    report: BalanceReport,
    mode: str = "often",
    look: PrintLook | None = None,
) -> None:
    """Draw the map as it prints (sea, neighbouring land, coast, names: ``look``, made from
    ``m`` when not given) and, over it, a nearly opaque square per placeable square: how
    often it was built (``often``: share of games) or how early (``early``: mean
    placement)."""
    paint_print(painter, m, look if look is not None else print_look(m))
    fill = report["fill"]
    grid = fill["built_rate"] if mode == "often" else fill["mean_placement"]
    scale = heat_scale(mode, [v for row in grid for v in row if v is not None])
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    for y, row in enumerate(grid):
        for x, v in enumerate(row):
            if v is None:
                continue
            painter.setBrush(heat_colour(mode, scale(v)))
            painter.drawRect(QRectF(x * SQUARE + 2, y * SQUARE + 2, SQUARE - 4, SQUARE - 4))
    painter.setPen(QPen(QColor(200, 0, 0), 4.0))
    for x, y in fill["never_reached"]:
        a = QPointF(x * SQUARE + 14, y * SQUARE + 14)
        b = QPointF((x + 1) * SQUARE - 14, (y + 1) * SQUARE - 14)
        painter.drawLine(a, b)
        painter.drawLine(QPointF(a.x(), b.y()), QPointF(b.x(), a.y()))
    painter.restore()


def render_heat(
    m: MapDef, report: BalanceReport, mode: str = "often", scale: float = 0.5
) -> QImage:
    """The heat map as an image (``scale`` pixels per scene unit)."""
    rect = map_rect(m)
    img = QImage(
        max(1, int(rect.width() * scale)),
        max(1, int(rect.height() * scale)),
        QImage.Format.Format_ARGB32,
    )
    img.fill(QColor("white"))
    painter = QPainter(img)
    try:
        painter.scale(scale, scale)
        painter.translate(-rect.topLeft())
        paint_heat(painter, m, report, mode)
    finally:
        painter.end()
    return img


class HeatMapView(QWidget):
    """The map with the heat overlay, scaled to fit the widget."""

    def __init__(self, m: MapDef, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map = m
        self.names = PlaceNames(m)
        self._look: PrintLook | None = None
        self.report: BalanceReport | None = None
        self.mode = "often"
        self.setMinimumSize(QSize(240, 200))
        self.setMouseTracking(True)  # tooltips with each square's figures

    def set_report(self, report: BalanceReport | None, mode: str | None = None) -> None:
        self.report = report
        if mode is not None:
            self.mode = mode
        self.update()

    def _transform(self) -> tuple[float, float, float]:
        """``(scale, dx, dy)``: widget = scene * scale + (dx, dy) (the map fitted, centred)."""
        rect = map_rect(self.map)
        scale = min(self.width() / rect.width(), self.height() / rect.height())
        dx = (self.width() - rect.width() * scale) / 2 - rect.left() * scale
        dy = (self.height() - rect.height() * scale) / 2 - rect.top() * scale
        return scale, dx, dy

    def square_at(self, pos: QPointF) -> tuple[int, int] | None:
        """The map square under a widget position, or ``None`` outside the grid."""
        scale, dx, dy = self._transform()
        x = int((pos.x() - dx) // (scale * SQUARE))
        y = int((pos.y() - dy) // (scale * SQUARE))
        return (x, y) if self.map.in_grid((x, y)) else None

    def describe_square(self, square: tuple[int, int]) -> str:
        """The heat-map figures of one square, in words (the tooltip)."""
        if self.report is None:
            return ""
        x, y = square
        fill = self.report["fill"]
        # by place first ("near Kassel"), the square after it for the canvas
        where = f"{self.names.square(square)} ({x}, {y})"
        rate = fill["built_rate"][y][x]
        if rate is None:
            return f"{where}: no tile can go here"
        early = fill["mean_placement"][y][x]
        when = f", on average as tile {early:.0f} of the game" if early is not None else ""
        return f"{where}: built in {rate:.0%} of games{when}"

    def mouseMoveEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        square = self.square_at(event.position())
        self.setToolTip(self.describe_square(square) if square is not None else "")
        super().mouseMoveEvent(event)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        try:
            painter.fillRect(self.rect(), QColor("white"))
            if self.report is None:
                painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Run a simulation.")
                return
            scale, dx, dy = self._transform()
            painter.translate(dx, dy)
            painter.scale(scale, scale)
            if self._look is None:  # the print's geography, worked out once per map
                self._look = print_look(self.map)
            paint_heat(painter, self.map, self.report, self.mode, self._look)
        finally:
            painter.end()


class HeatLegendBar(QWidget):
    """The colour bar of the heat map's legend: ``mode``'s scale as the squares show it (over
    the print's land, at the squares' opacity), with what its ends mean."""

    def __init__(self, mode: str = "often", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mode = mode
        self.setMinimumHeight(22)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.update()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        try:
            low, high = HEAT_ENDS[self.mode]
            metrics = painter.fontMetrics()
            left = metrics.horizontalAdvance(low) + 8
            right = metrics.horizontalAdvance(high) + 8
            bar = QRectF(left, 3, max(10, self.width() - left - right), self.height() - 6)
            painter.fillRect(bar, PaintOptions().land)
            steps = 64
            for k in range(steps):
                cell = QRectF(
                    bar.left() + bar.width() * k / steps,
                    bar.top(),
                    bar.width() / steps + 1,
                    bar.height(),
                )
                painter.fillRect(cell, heat_colour(self.mode, k / (steps - 1)))
            painter.setPen(QColor("#333333"))
            text = Qt.AlignmentFlag.AlignVCenter
            painter.drawText(
                QRectF(0, 0, left - 4, self.height()), text | Qt.AlignmentFlag.AlignRight, low
            )
            painter.drawText(QRectF(bar.right() + 4, 0, right, self.height()), text, high)
        finally:
            painter.end()
