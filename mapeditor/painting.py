"""Draw a :class:`~engine.mapdef.MapDef` with a ``QPainter``: the one renderer of the editor.

:func:`paint_map` uses only ``QtGui``, so it works on any paint device: the editor's scene chunks,
a ``QImage`` (PNG export), a ``QSvgGenerator`` or a ``QPdfWriter``. One square is :data:`SQUARE`
scene units; square ``(x, y)`` covers ``QRectF(x * SQUARE, y * SQUARE, SQUARE, SQUARE)``. Callers
scale the painter for other sizes (e.g. true-scale printing).

When ``region`` is given only elements that intersect it are drawn and the painter is clipped to
it, so a large map can be repainted piece by piece (the editor draws it in chunks).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from engine.geometry import Edge, Side, Square
from engine.mapdef import Colour, EdgeKind, IslandRole, MapDef
from mapeditor.designer_icons import paint_icon

SQUARE = 64.0
"""Scene units per map square."""

COLOURS: dict[Colour, QColor] = {
    Colour.PURPLE: QColor("#8e44ad"),
    Colour.LIGHT_BLUE: QColor("#3fa9dc"),
    Colour.ORANGE: QColor("#e8891c"),
}
"""The printed Map-Chips colours."""


LAYERS: dict[str, str] = {
    "land": "Land",
    "large_cities": "Large cities",
    "towns": "Towns and start squares",
    "borders": "Border roads and cities",
    "ferries": "Ferries",
    "islands": "Islands and waves",
    "chips": "Chip squares",
    "tracks": "Tracks",
    "labels": "Labels",
    "grid": "Grid",
}
"""The map's drawing layers that can be hidden, and their names in the View menu."""


@dataclass
class PaintOptions:
    """What :func:`paint_map` draws and in which colours (all keyword-style, all optional)."""

    grid: bool = True
    """Thin lines between map squares."""
    outside_grid: bool = False
    """Faint grid lines over squares outside the map too (useful while editing)."""
    labels: bool = True
    """Names of start squares, towns, cities and neighbours."""
    background: QColor | None = field(default_factory=lambda: QColor("#a9cde0"))
    """Fill for grid squares outside the map (sea); ``None`` leaves them transparent."""
    land: QColor = field(default_factory=lambda: QColor("#d8e6b0"))
    clouds: QColor = field(default_factory=lambda: QColor("#eef0f3"))
    """Fill for outside squares beyond a land border (the rules' neutral "clouds")."""
    city: QColor = field(default_factory=lambda: QColor("#d9b382"))
    grid_colour: QColor = field(default_factory=lambda: QColor(90, 100, 70, 140))
    frame: bool = True
    """A thin frame around the whole grid."""
    hidden: frozenset[str] = frozenset()
    """Layers (names from :data:`LAYERS`) not drawn: the editor's visibility toggles."""
    underlay: Callable[[QPainter], None] | None = None
    """Drawn over the ground and the clouds, under the grid and the prints (the print's
    coastline, :mod:`mapeditor.print_painting`)."""
    neighbour_labels: bool = True
    """Neighbour names beside border roads and cities (the print names neighbours on their
    land instead)."""


# -- small helpers -----------------------------------------------------------------------------


def square_rect(square: Square) -> QRectF:
    """The scene rectangle of a square."""
    return QRectF(square[0] * SQUARE, square[1] * SQUARE, SQUARE, SQUARE)


def edge_line(edge: Edge) -> QLineF:
    """The scene line segment of a square's edge."""
    r = square_rect(edge.square)
    if edge.side is Side.N:
        return QLineF(r.topLeft(), r.topRight())
    if edge.side is Side.E:
        return QLineF(r.topRight(), r.bottomRight())
    if edge.side is Side.S:
        return QLineF(r.bottomLeft(), r.bottomRight())
    return QLineF(r.topLeft(), r.bottomLeft())


def edge_midpoint(edge: Edge) -> QPointF:
    return edge_line(edge).center()


def _outward(side: Side) -> QPointF:
    dx, dy = side.delta
    return QPointF(dx, dy)


def map_rect(m: MapDef) -> QRectF:
    """The scene rectangle of the whole grid."""
    return QRectF(0, 0, m.width * SQUARE, m.height * SQUARE)


def _tint(colour: QColor, amount: float) -> QColor:
    """``colour`` mixed with white (amount 0 = colour, 1 = white)."""
    c = QColor(colour)
    return QColor(
        round(c.red() + (255 - c.red()) * amount),
        round(c.green() + (255 - c.green()) * amount),
        round(c.blue() + (255 - c.blue()) * amount),
    )


def _font(size: float, bold: bool = False) -> QFont:
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(1, round(size)))
    f.setBold(bold)
    return f


MIN_TEXT = 5.0
"""Smallest text size (scene units; 3.5 mm on a 45 mm square) a name shrinks to."""


@lru_cache(maxsize=4096)
def fitted_size(text: str, width: float, height: float, size: float, bold: bool = False) -> int:
    """The largest whole text size up to ``size`` at which ``text``, wrapped at spaces, fits a
    ``width`` × ``height`` box (never below :data:`MIN_TEXT`: then it overflows, unclipped)."""
    s = max(1, round(size))
    flags = int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)
    while s > MIN_TEXT:
        box = QFontMetricsF(_font(s, bold)).boundingRect(
            QRectF(0, 0, width, max(height, 1.0)), flags, text
        )
        if box.width() <= width + 0.01 and box.height() <= height + 0.01:
            break
        s -= 1
    return s


def draw_text(
    painter: QPainter,
    rect: QRectF,
    text: str,
    size: float,
    colour: QColor,
    *,
    bold: bool = False,
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
) -> None:
    """``text`` in ``rect``, wrapped at spaces and shrunk to fit; never clipped (a name too long
    even at :data:`MIN_TEXT` runs over the rectangle rather than lose letters)."""
    painter.setFont(_font(fitted_size(text, rect.width(), rect.height(), size, bold), bold))
    painter.setPen(colour)
    painter.drawText(rect, align | Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextDontClip, text)


def shield(painter: QPainter, centre: QPointF, count: int, size: float = 14.0) -> None:
    """A blue coat of arms, with a count when there is more than one."""
    if count <= 0:
        return
    s = size
    path = QPainterPath()
    path.moveTo(centre.x() - s / 2, centre.y() - s / 2)
    path.lineTo(centre.x() + s / 2, centre.y() - s / 2)
    path.lineTo(centre.x() + s / 2, centre.y())
    path.quadTo(centre.x() + s / 2, centre.y() + s / 2, centre.x(), centre.y() + s * 0.65)
    path.quadTo(centre.x() - s / 2, centre.y() + s / 2, centre.x() - s / 2, centre.y())
    path.closeSubpath()
    painter.setPen(QPen(QColor("#f4f4f4"), 1.5))
    painter.setBrush(QColor("#1f4e9c"))
    painter.drawPath(path)
    if count > 1:
        draw_text(
            painter,
            QRectF(centre.x() - s, centre.y() - s / 2, 2 * s, s),
            str(count),
            s * 0.7,
            QColor("white"),
            bold=True,
        )


def house(painter: QPainter, centre: QPointF, size: float, fill: QColor) -> None:
    s = size
    poly = QPolygonF(
        [
            QPointF(centre.x() - s / 2, centre.y() + s / 2),
            QPointF(centre.x() - s / 2, centre.y() - s / 6),
            QPointF(centre.x(), centre.y() - s / 2),
            QPointF(centre.x() + s / 2, centre.y() - s / 6),
            QPointF(centre.x() + s / 2, centre.y() + s / 2),
        ]
    )
    painter.setPen(QPen(QColor("#4a2c1a"), 1.5))
    painter.setBrush(fill)
    painter.drawPolygon(poly)


Visible = Callable[[QRectF], bool]
"""Whether a rectangle of the map is in the region being painted."""


def _rows_cols(m: MapDef, region: QRectF | None) -> tuple[range, range]:
    if region is None:
        return range(m.width), range(m.height)
    x0 = max(0, math.floor(region.left() / SQUARE) - 1)
    x1 = min(m.width, math.ceil(region.right() / SQUARE) + 1)
    y0 = max(0, math.floor(region.top() / SQUARE) - 1)
    y1 = min(m.height, math.ceil(region.bottom() / SQUARE) + 1)
    return range(x0, max(x0, x1)), range(y0, max(y0, y1))


def _squares_bbox(squares: Iterable[Square]) -> QRectF:
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return QRectF(
        min(xs) * SQUARE,
        min(ys) * SQUARE,
        (max(xs) - min(xs) + 1) * SQUARE,
        (max(ys) - min(ys) + 1) * SQUARE,
    )


# -- the renderer ------------------------------------------------------------------------------


def paint_map(
    painter: QPainter,
    m: MapDef,
    options: PaintOptions | None = None,
    region: QRectF | None = None,
) -> None:
    """Draw ``m`` with ``painter`` in scene units (:data:`SQUARE` per square).

    ``region`` limits drawing (and clips) to a scene rectangle; ``None`` draws everything.
    The painter's state is restored afterwards.
    """
    opts = options if options is not None else PaintOptions()
    shown = LAYERS.keys() - opts.hidden
    if opts.hidden:
        opts = dataclasses.replace(
            opts, grid=opts.grid and "grid" in shown, labels=opts.labels and "labels" in shown
        )
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        grid_rect = map_rect(m)
        area = grid_rect if region is None else grid_rect.intersected(region)
        if region is not None:
            painter.setClipRect(region, Qt.ClipOperation.IntersectClip)
        if area.isEmpty():
            return

        def visible(rect: QRectF) -> bool:
            return region is None or rect.intersects(region)

        xs, ys = _rows_cols(m, region)
        _paint_ground(painter, m, opts, xs, ys, area, land="land" in shown)
        if "land" in shown:
            _paint_clouds(painter, m, opts, visible)
        if opts.underlay is not None:
            painter.save()
            opts.underlay(painter)
            painter.restore()
        if "islands" in shown:
            _paint_islands(painter, m, visible)
        if "tracks" in shown:
            _paint_tracks(painter, m, xs, ys, visible)
        if "islands" in shown:
            _paint_waves(painter, m, xs, ys)
        if opts.grid:
            _paint_grid(painter, m, opts, xs, ys)
        if "large_cities" in shown:
            _paint_cities(painter, m, opts, visible)
        if "borders" in shown:
            _paint_borders(painter, m, opts, visible)
        if "ferries" in shown:
            _paint_ferries(painter, m, visible)
        if "chips" in shown and m.marks:
            _paint_designer_marks(painter, m, opts, xs, ys)
        _paint_squares_marks(
            painter, m, opts, xs, ys, towns="towns" in shown, chips="chips" in shown
        )
        if opts.frame:
            painter.setPen(QPen(QColor(40, 60, 80), 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(grid_rect)
    finally:
        painter.restore()


def _paint_ground(
    painter: QPainter,
    m: MapDef,
    opts: PaintOptions,
    xs: range,
    ys: range,
    area: QRectF,
    *,
    land: bool = True,
) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    if opts.background is not None:
        painter.fillRect(area, opts.background)
    squares = m.land if land else set()
    # Runs of land along each row: one rectangle per run instead of one per square.
    for y in ys:
        run_start = None
        for x in (*xs, None):
            if x is not None and (x, y) in squares:
                if run_start is None:
                    run_start = x
                continue
            if run_start is not None:
                end = x if x is not None else xs.stop
                painter.fillRect(
                    QRectF(run_start * SQUARE, y * SQUARE, (end - run_start) * SQUARE, SQUARE),
                    opts.land,
                )
                run_start = None
    if opts.outside_grid:
        painter.setPen(QPen(QColor(255, 255, 255, 70), 0))
        for x in range(xs.start, xs.stop + 1):
            painter.drawLine(QLineF(x * SQUARE, ys.start * SQUARE, x * SQUARE, ys.stop * SQUARE))
        for y in range(ys.start, ys.stop + 1):
            painter.drawLine(QLineF(xs.start * SQUARE, y * SQUARE, xs.stop * SQUARE, y * SQUARE))


def _paint_clouds(painter: QPainter, m: MapDef, opts: PaintOptions, visible: Visible) -> None:
    """Clouds on every outside square beyond a land border: the neutral border that is not sea."""
    squares = {e.outer_square for e in m.land_borders if e.outer_square not in m.land}
    puff = QColor(255, 255, 255)
    edge = QColor(170, 178, 190)
    for x, y in sorted(squares):
        rect = square_rect((x, y))
        if not visible(rect) or not m.in_grid((x, y)):
            continue
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillRect(rect, opts.clouds)
        painter.setBrush(puff)
        painter.setPen(QPen(edge, 1.2))
        s = SQUARE
        for cx, cy, r in ((0.30, 0.58, 0.20), (0.52, 0.42, 0.25), (0.74, 0.60, 0.18)):
            painter.drawEllipse(QPointF(rect.x() + cx * s, rect.y() + cy * s), r * s, r * s * 0.8)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRect(QRectF(rect.x() + 0.22 * s, rect.y() + 0.58 * s, 0.56 * s, 0.14 * s))


def _paint_grid(painter: QPainter, m: MapDef, opts: PaintOptions, xs: range, ys: range) -> None:
    land = m.land
    rects = [
        QRectF(x * SQUARE, y * SQUARE, SQUARE, SQUARE) for y in ys for x in xs if (x, y) in land
    ]
    if rects:
        painter.setPen(QPen(opts.grid_colour, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRects(rects)


def _paint_islands(painter: QPainter, m: MapDef, visible: Visible) -> None:
    for island in m.islands.values():
        if not island.squares:
            continue
        colour = COLOURS[island.colour] if island.colour else QColor("#7f9f5f")
        fill = _tint(colour, 0.55)
        for sq, info in island.squares.items():
            r = square_rect(sq)
            if not visible(r):
                continue
            painter.setPen(Qt.PenStyle.NoPen)
            painter.fillRect(r, fill)
            if info.role is IslandRole.STACK:
                # Two offset cards: the face-up stack lying here.
                painter.setPen(QPen(QColor("#3b3b3b"), 1.5))
                painter.setBrush(QColor("#f6f1de"))
                for i in (1, 0):
                    painter.drawRect(r.adjusted(14 + 5 * i, 14 - 5 * i, -14 + 5 * i, -14 - 5 * i))
            elif info.role is IslandRole.GATED:
                painter.setPen(QPen(colour.darker(140), 2.0, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(r.adjusted(5, 5, -5, -5))
            if info.coats_of_arms:
                shield(painter, r.topRight() + QPointF(-12, 12), info.coats_of_arms)
        if island.name:
            box = _squares_bbox(island.squares)
            if visible(box):
                draw_text(
                    painter,
                    QRectF(box.left(), box.bottom() - 16, box.width(), 14),
                    island.name,
                    10,
                    colour.darker(180),
                )


def _paint_tracks(painter: QPainter, m: MapDef, xs: range, ys: range, visible: Visible) -> None:
    for track in m.tracks.values():
        colour = COLOURS[track.colour]
        band = QColor(colour)
        band.setAlpha(70)
        for row in track.rows:
            if row not in ys:
                continue
            cols = [x for x in xs if (x, row) in m.land]
            if not cols:
                continue
            painter.setPen(Qt.PenStyle.NoPen)
            for x in cols:
                painter.fillRect(QRectF(x * SQUARE, row * SQUARE + SQUARE - 8, SQUARE, 8), band)
            first = min(x for x in range(m.width) if (x, row) in m.land)
            label = QRectF(first * SQUARE + 2, row * SQUARE + 2, 20, 18)
            if visible(label):
                painter.setBrush(colour)
                painter.setPen(QPen(colour.darker(150), 1))
                painter.drawRoundedRect(label, 4, 4)
                draw_text(painter, label, str(track.number), 11, QColor("white"), bold=True)


def _paint_waves(painter: QPainter, m: MapDef, xs: range, ys: range) -> None:
    pen = QPen(QColor("#2f6fa3"), 2.5)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    for y in ys:
        for x in xs:
            if (x, y) not in m.waves:
                continue
            r = square_rect((x, y))
            painter.fillRect(r, QColor("#8fc3e6"))
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for k in range(3):
                cy = r.top() + SQUARE * (0.3 + 0.2 * k)
                path = QPainterPath(QPointF(r.left() + 8, cy))
                for i in range(4):
                    x0 = r.left() + 8 + i * (SQUARE - 16) / 4
                    path.quadTo(
                        x0 + (SQUARE - 16) / 8, cy - 6 * (-1) ** i, x0 + (SQUARE - 16) / 4, cy
                    )
                painter.drawPath(path)


def _paint_designer_marks(
    painter: QPainter, m: MapDef, opts: PaintOptions, xs: range, ys: range
) -> None:
    """The squares carrying a mark of the map's rule set: the mark's colour (hatched when it
    takes no tile), a border in the square's own chip colour, the mark's name."""
    spec = m.rule_set.spec
    kinds = {k.id: k for k in spec.marks} if spec is not None else {}
    for y in ys:
        for x in xs:
            mark = m.marks.get((x, y))
            if mark is None:
                continue
            kind = kinds.get(mark.mark)
            r = square_rect((x, y))
            colour = QColor(kind.colour if kind is not None else "#9a9a9a")
            inner = r.adjusted(5, 5, -5, -5)
            painter.setPen(Qt.PenStyle.NoPen)
            fill = QColor(colour)
            fill.setAlpha(110)
            painter.setBrush(fill)
            painter.drawRoundedRect(inner, 6, 6)
            if kind is not None and not kind.takes_tile:
                painter.setBrush(QBrush(colour.darker(130), Qt.BrushStyle.BDiagPattern))
                painter.drawRoundedRect(inner, 6, 6)
            border = COLOURS[mark.colour] if mark.colour is not None else colour.darker(150)
            painter.setPen(QPen(border, 3.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(inner, 6, 6)
            if kind is not None:  # the designer's icon, under the name
                side = inner.height() * 0.5
                spot = QRectF(0, 0, side, side)
                spot.moveCenter(inner.center() + QPointF(0, inner.height() * 0.12))
                paint_icon(painter, kind.icon, kind.colour, spot)
            if opts.labels:
                name = kind.name if kind is not None else f"? {mark.mark}"
                if mark.value is not None:
                    name = f"{name} {mark.value}"
                top = QRectF(inner.left() + 2, inner.top() + 1, inner.width() - 4, 14)
                draw_text(painter, top, name, 8, QColor("#202020"), bold=True)


def _paint_cities(painter: QPainter, m: MapDef, opts: PaintOptions, visible: Visible) -> None:
    wall = QPen(QColor("#6b3f1f"), 4.0)
    wall.setCapStyle(Qt.PenCapStyle.SquareCap)
    for city in m.large_cities.values():
        if not city.squares:
            continue
        box = _squares_bbox(city.squares)
        if not visible(box.adjusted(-SQUARE, -SQUARE, SQUARE, SQUARE)):
            continue
        painter.setPen(Qt.PenStyle.NoPen)
        for sq in city.squares:
            painter.fillRect(square_rect(sq), opts.city)
        for edge in city.outer_edges():
            kind = city.edge_kind(edge)
            line = edge_line(edge)
            out = _outward(edge.side)
            inward = QPointF(-out.x(), -out.y())
            if kind is EdgeKind.CITY:
                # An open side: the city spills over the edge (a bulge into the neighbour).
                c = line.center()
                path = QPainterPath()
                path.moveTo(line.p1())
                path.quadTo(c + out * (SQUARE * 0.45), line.p2())
                path.closeSubpath()
                painter.setPen(QPen(QColor("#6b3f1f"), 1.5, Qt.PenStyle.DashLine))
                painter.setBrush(opts.city)
                painter.drawPath(path)
                continue
            # Field or road: a wall along the edge, slightly inside the city.
            painter.setPen(wall)
            painter.drawLine(line.translated(inward * 2))
            _merlons(painter, line.translated(inward * 5), kind is EdgeKind.ROAD)
            if kind is EdgeKind.ROAD:
                road_stub(painter, line.center(), out, SQUARE * 0.3)
        for sq in city.squares:
            r = square_rect(sq)
            # Roof pattern: a few small houses so city squares read as "city" at any scale.
            for dx, dy in ((0.27, 0.3), (0.73, 0.3), (0.5, 0.5), (0.27, 0.72), (0.73, 0.72)):
                house(
                    painter,
                    QPointF(r.left() + dx * SQUARE, r.top() + dy * SQUARE),
                    12,
                    QColor("#b5542e"),
                )
        if city.coats_of_arms:
            shield(painter, box.topLeft() + QPointF(14, 14), city.coats_of_arms, 16)
        if opts.labels and city.name:
            # Within the city's own squares, so it never covers a neighbouring town's name.
            label = QRectF(box.left() + 3, box.center().y() - 10, box.width() - 6, 20)
            size = fitted_size(city.name, label.width(), label.height(), 13, True)
            painter.setFont(_font(size, True))
            w = min(label.width(), painter.fontMetrics().horizontalAdvance(city.name) + 10)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 190))
            painter.drawRoundedRect(
                QRectF(box.center().x() - w / 2, label.center().y() - size * 0.7, w, size * 1.4),
                4,
                4,
            )
            draw_text(painter, label, city.name, 13, QColor("#3a1f0c"), bold=True)


_ROAD_EDGE = QColor("#7a6548")
_ROAD = QColor("#e2c98c")


def _merlons(painter: QPainter, line: QLineF, gate: bool) -> None:
    """Small battlements along a city wall (left open in the middle where a road goes out)."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#6b3f1f"))
    count = 7
    for k in range(count):
        t = (k + 0.5) / count
        if gate and abs(t - 0.5) < 0.1:
            continue
        p = line.pointAt(t)
        painter.drawRect(QRectF(p.x() - 2.0, p.y() - 2.0, 4.0, 4.0))


def road_stub(painter: QPainter, start: QPointF, direction: QPointF, length: float) -> None:
    """A road: sand between two darker verges, like a tile's road."""
    end = start + direction * length
    edge = QPen(_ROAD_EDGE, 12.0)
    edge.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(edge)
    painter.drawLine(QLineF(start, end))
    inner = QPen(_ROAD, 8.0)
    inner.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(inner)
    painter.drawLine(QLineF(start, end))


def puffs(painter: QPainter, centre: QPointF, radius: float) -> None:
    """A small cloud: where a road runs out of the map into the neutral land."""
    painter.setPen(QPen(QColor(170, 178, 190), 1.2))
    painter.setBrush(QColor(255, 255, 255))
    for dx, dy, k in ((-0.9, 0.2, 0.8), (0.0, -0.25, 1.0), (0.9, 0.2, 0.8)):
        painter.drawEllipse(
            centre + QPointF(dx * radius, dy * radius), radius * k, radius * k * 0.8
        )
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawRect(QRectF(centre.x() - radius * 1.3, centre.y(), radius * 2.6, radius * 0.55))


def boat(painter: QPainter, centre: QPointF, size: float) -> None:
    """A small sailing boat: what a ferry route means at a glance."""
    s = size
    hull = QPolygonF(
        [
            QPointF(centre.x() - s * 0.6, centre.y() + s * 0.1),
            QPointF(centre.x() + s * 0.6, centre.y() + s * 0.1),
            QPointF(centre.x() + s * 0.4, centre.y() + s * 0.4),
            QPointF(centre.x() - s * 0.4, centre.y() + s * 0.4),
        ]
    )
    sail = QPolygonF(
        [
            QPointF(centre.x() + s * 0.05, centre.y() - s * 0.6),
            QPointF(centre.x() + s * 0.05, centre.y() + s * 0.02),
            QPointF(centre.x() + s * 0.5, centre.y() + s * 0.02),
        ]
    )
    painter.setPen(QPen(QColor("#173f6b"), 1.2))
    painter.setBrush(QColor("#7a4a26"))
    painter.drawPolygon(hull)
    painter.setBrush(QColor("#fbf7ea"))
    painter.drawPolygon(sail)
    painter.drawLine(QLineF(centre.x(), centre.y() - s * 0.65, centre.x(), centre.y() + s * 0.1))


def _paint_borders(painter: QPainter, m: MapDef, opts: PaintOptions, visible: Visible) -> None:
    for edge, feature in m.border_features.items():
        outer = square_rect(edge.outer_square)
        inner = square_rect(edge.square)
        if not visible(outer.united(inner)):
            continue
        line = edge_line(edge)
        out = _outward(edge.side)
        c = line.center()
        if feature.kind is EdgeKind.CITY:
            path = QPainterPath()
            path.moveTo(line.p1())
            path.quadTo(c + out * (SQUARE * 0.5), line.p2())
            path.closeSubpath()
            painter.setPen(QPen(QColor("#6b3f1f"), 2.0))
            painter.setBrush(opts.city)
            painter.drawPath(path)
            house(painter, c + out * (SQUARE * 0.15), 10, QColor("#b5542e"))
        else:
            # The road runs out of the map; beyond a land border it fades into the clouds.
            road_stub(painter, c - out * (SQUARE * 0.5), out, SQUARE * 0.85)
            if edge in m.land_borders:
                puffs(painter, c + out * (SQUARE * 0.42), SQUARE * 0.15)
        if feature.coats_of_arms:
            shield(
                painter,
                c + out * (SQUARE * 0.3) + QPointF(out.y(), out.x()) * 14,
                feature.coats_of_arms,
            )
        if opts.labels and opts.neighbour_labels and feature.neighbour:
            colour = QColor("#24384d")
            if out.x() == 0:  # north or south: centred beyond the stub
                label_centre = c + out * (SQUARE * 0.72)
                rect = QRectF(
                    label_centre.x() - SQUARE * 0.75, label_centre.y() - 8, SQUARE * 1.5, 16
                )
                draw_text(painter, rect, feature.neighbour, 10, colour)
            else:  # east or west: beside the stub, opposite its shield, kept on the sheet
                label_centre = c + out * (SQUARE * 0.72)
                top = c.y() - 21 if out.x() > 0 else c.y() + 5  # the shield sits at out.x * 14
                rect = QRectF(label_centre.x() - SQUARE * 0.75, top, SQUARE * 1.5, 16)
                sheet = map_rect(m)
                if rect.left() < sheet.left():
                    rect.moveLeft(sheet.left() + 1)
                elif rect.right() > sheet.right():
                    rect.moveRight(sheet.right() - 1)
                draw_text(painter, rect, feature.neighbour, 10, colour)


def _paint_ferries(painter: QPainter, m: MapDef, visible: Visible) -> None:
    for ferry in m.ferries.values():
        a = edge_midpoint(ferry.a)
        b = edge_midpoint(ferry.b)
        box = QRectF(a, b).normalized().adjusted(-20, -20, 20, 20)
        if not visible(box):
            continue
        pen = QPen(QColor("#173f6b"), 3.0, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawLine(QLineF(a, b))
        painter.setPen(QPen(QColor("#173f6b"), 1.5))
        painter.setBrush(QColor("white"))
        for p in (a, b):
            painter.drawEllipse(p, 5, 5)
        # The boat sits a third of the way along, clear of a coat of arms in the middle.
        boat(painter, QLineF(a, b).pointAt(0.3) + QPointF(0, -4), 16)
        if ferry.coats_of_arms:
            shield(painter, QLineF(a, b).center(), ferry.coats_of_arms)


def _paint_squares_marks(
    painter: QPainter,
    m: MapDef,
    opts: PaintOptions,
    xs: range,
    ys: range,
    *,
    towns: bool = True,
    chips: bool = True,
) -> None:
    red = QPen(QColor("#d1201b"), 5.0)
    red.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    for y in ys:
        for x in xs:
            sq = (x, y)
            r = square_rect(sq)
            start = m.start_squares.get(sq) if towns else None
            if start is not None:
                painter.setPen(red)
                painter.setBrush(QColor("#f3e3c3"))
                painter.drawRect(r.adjusted(3.5, 3.5, -3.5, -3.5))
                house(painter, QPointF(r.center().x(), r.top() + 24), 18, QColor("#d1201b"))
                if opts.labels:
                    draw_text(
                        painter,
                        r.adjusted(4, 34, -4, -6),
                        start.name,
                        11,
                        QColor("#7a0f0c"),
                        bold=True,
                    )
            town = m.towns.get(sq) if towns else None
            if town is not None:
                # Start squares are towns: their red house and name already stand there, so only
                # the grapes (and a different town name) are added.
                if start is None:
                    house(painter, QPointF(r.center().x(), r.top() + 26), 20, QColor("#f0c27a"))
                if town.grape is not None:
                    painter.setPen(QPen(QColor("#333333"), 1))
                    painter.setBrush(COLOURS[town.grape])
                    for dx, dy in ((0, 0), (7, 0), (3.5, 6)):
                        painter.drawEllipse(QPointF(r.right() - 16 + dx, r.top() + 9 + dy), 4, 4)
                if opts.labels and town.name and (start is None or start.name != town.name):
                    draw_text(painter, r.adjusted(2, 40, -2, -2), town.name, 10, QColor("#3a2a10"))
            chip = m.chip_squares.get(sq) if chips else None
            if chip is not None:
                painter.setPen(QPen(COLOURS[chip].darker(160), 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(r.adjusted(2, 2, -2, -2))
                painter.setBrush(COLOURS[chip])
                painter.drawEllipse(QPointF(r.left() + 12, r.bottom() - 12), 7, 7)
            if m.isle_of_man == sq:
                painter.setPen(QPen(QColor("#7a1010"), 2))
                painter.setBrush(QBrush(QColor("#f7e7c0")))
                painter.drawEllipse(r.center(), SQUARE * 0.36, SQUARE * 0.36)
                # Triskelion hint: three spokes.
                painter.setPen(QPen(QColor("#7a1010"), 3))
                for k in range(3):
                    ang = math.radians(90 + 120 * k)
                    painter.drawLine(
                        QLineF(r.center(), r.center() + QPointF(math.cos(ang), -math.sin(ang)) * 15)
                    )
