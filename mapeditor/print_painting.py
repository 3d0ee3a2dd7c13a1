"""The printed board: the map drawn like a Carcassonne Maps product, for PNG, SVG, PDF and paper.

:func:`paint_print` draws, in scene units like :func:`mapeditor.painting.paint_map` (which it
calls for the squares and their prints):

1. the sea, and the neighbouring land in a muted colour (:mod:`engine.geo.backdrop`);
2. the map, with the real coastline and the water inside coastal squares under the grid when the
   map came from a country;
3. the neighbours' names on their land, outside the border;
4. the furniture in the margin (:mod:`mapeditor.cartography`): a title cartouche, a legend of
   every print, a scale bar (when the map knows its kilometres) and a north arrow.

:func:`print_look` works everything out once per map; painting a page reuses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from shapely.geometry.base import BaseGeometry

from engine.geo.backdrop import (
    COAST_COLOUR,
    NEIGHBOUR_LAND_COLOUR,
    SEA_COLOUR,
    Backdrop,
    backdrop_of,
)
from engine.geo.country import GeoDataError
from engine.geo.places import projection_of
from engine.mapdef import Colour, MapDef
from mapeditor.cartography import (
    LEGEND_HEAD,
    LEGEND_ROW,
    LegendEntry,
    Placement,
    legend_entries,
    place_furniture,
)
from mapeditor.designer_icons import paint_icon
from mapeditor.painting import (
    COLOURS,
    SQUARE,
    PaintOptions,
    boat,
    draw_text,
    house,
    paint_map,
    puffs,
    road_stub,
    shield,
)
from mapeditor.print_size import SAFE_ZONE_MM

SEA = QColor(SEA_COLOUR)
"""The sea, as the editor draws it."""
NEIGHBOUR_LAND = QColor(NEIGHBOUR_LAND_COLOUR)
"""Muted: the neighbours are scenery, not play."""
COAST = QColor(COAST_COLOUR)
PARCHMENT = QColor("#f7f0dc")
INK = QColor("#3a2a10")


@dataclass(frozen=True)
class PrintLook:
    """Everything the print adds to a map, worked out once (:func:`print_look`)."""

    backdrop: Backdrop
    legend: tuple[LegendEntry, ...]
    furniture: tuple[Placement, ...]
    km_per_square: float | None
    """From the import's projection; ``None`` for a map not made from a country (no scale bar)."""
    land_path: QPainterPath
    water_path: QPainterPath
    """Water over the grid (sea and lakes) in geography mode; empty in squares mode."""
    coast_path: QPainterPath


def _path(geom: BaseGeometry) -> QPainterPath:
    """A shapely (multi)polygon or line in grid units as a path in scene units."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    for part in shapely.get_parts(geom):
        if part.is_empty:
            continue
        rings = [part.exterior, *part.interiors] if isinstance(part, shapely.Polygon) else [part]
        for ring in rings:
            coords = list(ring.coords)
            if len(coords) < 2:
                continue
            path.moveTo(coords[0][0] * SQUARE, coords[0][1] * SQUARE)
            for x, y in coords[1:]:
                path.lineTo(x * SQUARE, y * SQUARE)
    return path


def print_look(m: MapDef) -> PrintLook:
    """The backdrop, legend and furniture of ``m``'s print."""
    backdrop = backdrop_of(m)
    legend = tuple(legend_entries(m))
    try:
        km: float | None = projection_of(m).km
    except GeoDataError:
        km = None
    water = QPainterPath()
    if backdrop.source == "geography":
        grid = shapely.box(0, 0, m.width, m.height)
        water = _path(grid.difference(backdrop.land))
    return PrintLook(
        backdrop=backdrop,
        legend=legend,
        furniture=tuple(place_furniture(m, backdrop, len(legend))),
        km_per_square=km,
        land_path=_path(backdrop.land),
        water_path=water,
        coast_path=_path(backdrop.coast),
    )


def paint_print(
    painter: QPainter, m: MapDef, look: PrintLook, region: QRectF | None = None
) -> None:
    """Draw ``m``'s print in scene units (see the module's docstring)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    grid = QRectF(0, 0, m.width * SQUARE, m.height * SQUARE)
    painter.setClipRect(
        grid if region is None else grid.intersected(region), Qt.ClipOperation.IntersectClip
    )
    painter.fillRect(grid, SEA)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(NEIGHBOUR_LAND)
    painter.drawPath(look.land_path)

    def coast(p: QPainter) -> None:
        # The real coast under the grid: the water inside coastal squares, then its line.
        water = QColor(SEA)
        water.setAlpha(150)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(water)
        p.drawPath(look.water_path)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(COAST, 1.4))
        p.drawPath(look.coast_path)

    options = PaintOptions(background=None, underlay=coast, neighbour_labels=False)
    paint_map(painter, m, options, region=region)
    for label in look.backdrop.labels:
        _neighbour_name(painter, label.name, QPointF(label.x * SQUARE, label.y * SQUARE), grid)
    for piece in look.furniture:
        rect = inside_safe_zone(m, piece)
        if region is not None and not rect.intersects(region):
            continue
        if piece.kind == "cartouche":
            _cartouche(painter, m, rect)
        elif piece.kind == "legend":
            _legend(painter, look.legend, rect)
        else:
            _scale(painter, look.km_per_square, m.square_size_mm, rect)
    painter.restore()


def inside_safe_zone(m: MapDef, piece: Placement) -> QRectF:
    """A piece's rectangle, 5 units in from its squares and :data:`SAFE_ZONE_MM` in from the
    board's edge (a print shop's cut may wander that far)."""
    gap = 5.0
    safe = max(gap, SAFE_ZONE_MM / m.square_size_mm * SQUARE)
    left = safe if piece.x == 0 else gap
    top = safe if piece.y == 0 else gap
    right = safe if piece.x + piece.w == m.width else gap
    bottom = safe if piece.y + piece.h == m.height else gap
    rect = QRectF(piece.x * SQUARE, piece.y * SQUARE, piece.w * SQUARE, piece.h * SQUARE)
    return rect.adjusted(left, top, -right, -bottom)


def _neighbour_name(painter: QPainter, name: str, centre: QPointF, grid: QRectF) -> None:
    """A neighbour's name in spaced capitals, as maps name countries, kept on the sheet."""
    text = " ".join(name.upper())
    rect = QRectF(centre.x() - SQUARE * 1.6, centre.y() - 14, SQUARE * 3.2, 28)
    rect.moveLeft(max(grid.left() + 2, min(rect.left(), grid.right() - 2 - rect.width())))
    rect.moveTop(max(grid.top() + 2, min(rect.top(), grid.bottom() - 2 - rect.height())))
    draw_text(painter, rect, text, 15, QColor("#6f6a55"), bold=True)


def _frame(painter: QPainter, rect: QRectF) -> None:
    painter.setPen(QPen(QColor("#6b3f1f"), 2.0))
    painter.setBrush(PARCHMENT)
    painter.drawRoundedRect(rect, 5, 5)
    painter.setPen(QPen(QColor("#6b3f1f"), 0.8))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(rect.adjusted(3, 3, -3, -3), 3, 3)


def _cartouche(painter: QPainter, m: MapDef, rect: QRectF) -> None:
    _frame(painter, rect)
    inner = rect.adjusted(8, 5, -8, -5)
    title = QRectF(inner.x(), inner.y(), inner.width(), inner.height() * 0.62)
    draw_text(painter, title, m.name or m.id, 30, INK, bold=True)
    sub = QRectF(inner.x(), title.bottom(), inner.width(), inner.height() * 0.38)
    draw_text(
        painter,
        sub,
        f"Carcassonne Maps · {m.width} × {m.height} squares of {m.square_size_mm:g} mm",
        9,
        INK,
    )


def _legend(painter: QPainter, entries: tuple[LegendEntry, ...], rect: QRectF) -> None:
    _frame(painter, rect)
    row = LEGEND_ROW * SQUARE
    head = QRectF(rect.x() + 8, rect.y() + 4, rect.width() - 16, LEGEND_HEAD * SQUARE - 6)
    draw_text(painter, head, "Legend", 12, INK, bold=True, align=Qt.AlignmentFlag.AlignLeft)
    top = rect.y() + LEGEND_HEAD * SQUARE - 2
    per_column = max(1, math.floor((rect.bottom() - top) / row))
    columns = max(1, math.ceil(len(entries) / per_column))
    col_w = (rect.width() - 8) / columns
    for i, entry in enumerate(entries):
        col, line = divmod(i, per_column)
        x = rect.x() + 6 + col * col_w
        y = top + line * row
        _symbol(painter, entry.key, QRectF(x, y + 1, row - 2, row - 2), entry.drawn)
        text = QRectF(x + row + 2, y, col_w - row - 6, row)
        draw_text(
            painter,
            text,
            entry.text,
            9,
            INK,
            align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )


def _symbol(
    painter: QPainter, key: str, rect: QRectF, drawn: tuple[str, str] | None = None
) -> None:
    """The legend's small picture of a print, drawn as on the map at the size of ``rect``."""
    painter.save()
    painter.translate(rect.topLeft())
    k = rect.width() / SQUARE
    painter.scale(k, k)
    box = QRectF(0, 0, SQUARE, SQUARE)
    c = box.center()
    painter.setPen(QPen(QColor("#8a8a7a"), 2))
    painter.setBrush(QColor("#d8e6b0"))
    painter.drawRect(box)
    if drawn is not None:  # a designer mark: its colour and icon, as on the map
        fill = QColor(drawn[1])
        fill.setAlpha(110)
        painter.setPen(QPen(QColor(drawn[1]).darker(150), 3))
        painter.setBrush(fill)
        inner = box.adjusted(5, 5, -5, -5)
        painter.drawRoundedRect(inner, 6, 6)
        paint_icon(painter, drawn[0], drawn[1], inner.adjusted(8, 8, -8, -8))
    elif key == "start":
        painter.setPen(QPen(QColor("#d1201b"), 6))
        painter.setBrush(QColor("#f3e3c3"))
        painter.drawRect(box.adjusted(4, 4, -4, -4))
        house(painter, c, 26, QColor("#d1201b"))
    elif key == "town":
        house(painter, c, 30, QColor("#f0c27a"))
    elif key == "town_colour":
        house(painter, c + QPointF(-8, 6), 24, QColor("#f0c27a"))
        painter.setPen(QPen(QColor("#333333"), 1))
        painter.setBrush(COLOURS[Colour.PURPLE])
        for gx, gy in ((36, 12), (46, 12), (41, 21)):
            painter.drawEllipse(QPointF(gx, gy), 6, 6)
    elif key in ("large_city", "border_city"):
        painter.fillRect(box.adjusted(1, 1, -1, -1), QColor("#d9b382"))
        for dx, dy in ((0.3, 0.35), (0.7, 0.35), (0.5, 0.7)):
            house(painter, QPointF(dx * SQUARE, dy * SQUARE), 18, QColor("#b5542e"))
    elif key == "border_road":
        road_stub(painter, QPointF(0, c.y()), QPointF(1, 0), SQUARE * 0.8)
        puffs(painter, QPointF(SQUARE * 0.8, c.y()), 10)
    elif key == "coat_of_arms":
        shield(painter, c, 1, 34)
    elif key == "clouds":
        painter.fillRect(box.adjusted(1, 1, -1, -1), QColor("#eef0f3"))
        puffs(painter, c, 14)
    elif key == "ferry":
        painter.fillRect(box.adjusted(1, 1, -1, -1), SEA)
        boat(painter, c, 40)
    elif key in ("island", "stack", "gated"):
        painter.fillRect(box.adjusted(1, 1, -1, -1), QColor("#c9d8b0"))
        if key == "stack":
            painter.setPen(QPen(QColor("#3b3b3b"), 2))
            painter.setBrush(QColor("#f6f1de"))
            painter.drawRect(box.adjusted(16, 16, -16, -16))
        elif key == "gated":
            painter.setPen(QPen(QColor("#556b2f"), 3, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(box.adjusted(6, 6, -6, -6))
    elif key == "waves":
        painter.fillRect(box.adjusted(1, 1, -1, -1), QColor("#8fc3e6"))
        painter.setPen(QPen(QColor("#2f6fa3"), 4))
        for k2 in range(3):
            y = SQUARE * (0.3 + 0.2 * k2)
            painter.drawLine(QPointF(10, y), QPointF(SQUARE - 10, y))
    elif key == "chip_square":
        painter.setPen(QPen(COLOURS[Colour.LIGHT_BLUE].darker(160), 3))
        painter.setBrush(COLOURS[Colour.LIGHT_BLUE])
        painter.drawEllipse(c, 16, 16)
    elif key == "track":
        painter.setBrush(COLOURS[Colour.ORANGE])
        painter.setPen(QPen(COLOURS[Colour.ORANGE].darker(150), 2))
        painter.drawRoundedRect(box.adjusted(12, 14, -12, -14), 6, 6)
        draw_text(painter, box, "1", 28, QColor("white"), bold=True)
    elif key == "isle_of_man":
        painter.setPen(QPen(QColor("#7a1010"), 3))
        painter.setBrush(QColor("#f7e7c0"))
        painter.drawEllipse(c, 24, 24)
    painter.restore()


def nice_length(km_per_square: float, most_squares: float) -> float:
    """The longest round distance (1, 2 or 5 × a power of ten km) at most ``most_squares`` long.

    >>> nice_length(25.0, 1.5)
    20.0
    """
    most = km_per_square * most_squares
    best = 0.0
    for power in range(-1, 5):
        for lead in (1, 2, 5):
            length = lead * 10.0**power
            if length <= most:
                best = length
    return best or most


def _scale(painter: QPainter, km: float | None, square_mm: float, rect: QRectF) -> None:
    """North arrow at the left; a scale bar in kilometres beside it when the map knows them."""
    _frame(painter, rect)
    arrow = QRectF(rect.x() + 4, rect.y() + 4, min(rect.height(), SQUARE) - 8, rect.height() - 8)
    a = arrow.center()
    s = min(arrow.width(), arrow.height())
    painter.setPen(QPen(INK, 1.2))
    painter.setBrush(INK)
    painter.drawPolygon(
        QPolygonF(
            [QPointF(a.x(), a.y() - s * 0.3), QPointF(a.x() + s * 0.15, a.y() + s * 0.25),
             QPointF(a.x(), a.y() + s * 0.12), QPointF(a.x() - s * 0.15, a.y() + s * 0.25)]
        )
    )  # fmt: skip
    draw_text(painter, QRectF(a.x() - 10, a.y() - s * 0.5, 20, s * 0.2), "N", 11, INK, bold=True)
    room = QRectF(arrow.right() + 6, rect.y() + 6, rect.right() - arrow.right() - 14, 0)
    room.setBottom(rect.bottom() - 6)
    if room.width() < 20:
        return
    if km is None:
        text = f"1 square = {square_mm:g} mm"
        draw_text(painter, room, text, 9, INK)
        return
    length = nice_length(km, room.width() / SQUARE)
    w = length / km * SQUARE
    y = room.center().y()
    for k in range(4):
        painter.setPen(QPen(INK, 0.8))
        painter.setBrush(INK if k % 2 == 0 else PARCHMENT)
        painter.drawRect(QRectF(room.x() + k * w / 4, y - 2, w / 4, 4))
    draw_text(painter, QRectF(room.x() - 6, y + 4, w + 12, 14), f"{length:g} km", 11, INK)
    draw_text(painter, QRectF(room.x(), y - 18, w, 14), "Scale", 10, INK)
