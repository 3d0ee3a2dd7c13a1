"""Draw a land tile from its definition (:class:`engine.tiles.TileType`), not from artwork.

:func:`paint_tile` paints fields, cities (with walls, coats of arms and expansion markers), roads
(through roads, roads ending at a junction, monastery, city gate or house, bridges) and the
monastery of a tile at any rotation into any rectangle of any paint device. :func:`feature_anchor`
gives a good meeple spot for each segment (for clickable meeple placement) and
:func:`meeple_path` the meeple silhouette.

All geometry is built once per ``(tile, rotation)`` in unit coordinates (the tile is the square
``0..1``; x east, y south) and cached; painting maps it onto the target rectangle. Anchors come
from a small label raster of that geometry, so they always fall on the visible feature, and the
same raster lets :func:`geometry_problems` check that the drawing shows exactly the fields the
definition has (every field its own region, no region shared by two fields).

Inns, cathedrals and goods are drawn as small markers; they score nothing on Maps.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as _dc_field
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
    QTransform,
)

from engine.tiles import SIDES, Segment, TileType

__all__ = [
    "TileStyle",
    "feature_anchor",
    "geometry_problems",
    "meeple_path",
    "paint_tile",
    "segment_at",
    "tile_image",
]

Point = tuple[float, float]

# Unit-square geometry: corners clockwise from NW; side i runs from corner i to corner i+1.
_CORNERS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
_MID: dict[str, Point] = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
_INWARD: dict[str, Point] = {"N": (0.0, 1.0), "E": (-1.0, 0.0), "S": (0.0, -1.0), "W": (1.0, 0.0)}
# Midpoints of the half-edges (JCZ notation: L/R seen from the centre looking out).
_HALF_MID: dict[str, Point] = {
    "NL": (0.25, 0.0), "NR": (0.75, 0.0), "EL": (1.0, 0.25), "ER": (1.0, 0.75),
    "SL": (0.75, 1.0), "SR": (0.25, 1.0), "WL": (0.0, 0.75), "WR": (0.0, 0.25),
}  # fmt: skip
# The two half-edges meeting at each corner (NW, NE, SE, SW).
_CORNER_HALVES = (("WR", "NL"), ("NR", "EL"), ("ER", "SL"), ("SR", "WL"))
_CENTRE: Point = (0.5, 0.5)

ROAD_WIDTH = 0.1
"""Road width as a fraction of the tile side."""
_ROAD_OUTLINE = 0.145
_CAP_DEPTH = 0.3  # a lone city cap reaches 30 % into the tile
_CAP_DEPTH_SHARED = 0.22  # shallower when the tile has other cities, to leave a field between
_BAND_DEPTH_NEXT_TO_CITY = 0.45  # a band's wall bows further in when another city faces it
_LANE = 0.05  # width of a path from a village to a city gate
_JUNCTION = 0.085  # half-size of the village square where roads meet
_MONASTERY = QRectF(0.34, 0.33, 0.32, 0.33)  # the monastery's footprint
_MONASTERY_SPOT: Point = (0.52, 0.56)  # on the nave, clear of the door and the tower

_UNIT = QPainterPath()
_UNIT.addRect(QRectF(0, 0, 1, 1))

_RASTER = 64  # label raster size for anchors and self-checks
_L_JUNCTION = 250
_L_BLOCK = 251


@dataclass(frozen=True)
class TileStyle:
    """Colours and options of :func:`paint_tile` (all optional)."""

    field: QColor = _dc_field(default_factory=lambda: QColor("#7fb24a"))
    city: QColor = _dc_field(default_factory=lambda: QColor("#d6a766"))
    wall: QColor = _dc_field(default_factory=lambda: QColor("#7a4a22"))
    road: QColor = _dc_field(default_factory=lambda: QColor("#f2ead6"))
    road_edge: QColor = _dc_field(default_factory=lambda: QColor("#8d7b57"))
    monastery: QColor = _dc_field(default_factory=lambda: QColor("#efe3c4"))
    roof: QColor = _dc_field(default_factory=lambda: QColor("#b53a2e"))
    shield: QColor = _dc_field(default_factory=lambda: QColor("#1f4e9c"))
    village: QColor = _dc_field(default_factory=lambda: QColor("#c9b48a"))
    border: QColor | None = _dc_field(default_factory=lambda: QColor(40, 50, 30, 160))
    """Thin frame around the tile; ``None`` for none (e.g. tiles drawn edge to edge)."""
    markers: bool = True
    """Draw inns, cathedrals and goods (they have no effect on Maps scoring)."""


DEFAULT_STYLE = TileStyle()

_GOODS_COLOURS = {"wine": "#7a2d6e", "grain": "#e2b23a", "cloth": "#3f73c4"}


# --------------------------------------------------------------------------- geometry


@dataclass
class _City:
    index: int
    fill: QPainterPath
    target: Point  # where roads to this city head for


@dataclass
class _Road:
    index: int
    path: QPainterPath
    ends: str | None
    end: Point


@dataclass
class _Geometry:
    segments: tuple[Segment, ...]
    cities: list[_City]
    roads: list[_Road]
    monastery: bool
    junction: bool
    lanes: list[QPainterPath]  # paths from the village to city gates (I&C I)
    houses: list[Point]
    gates: list[tuple[Point, Point]]  # (position, direction of travel into the city)
    inns: list[tuple[Point, int]]  # (position, road index)


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _towards(a: Point, b: Point, k: float) -> Point:
    return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)


def _qp(p: Point) -> QPointF:
    return QPointF(p[0], p[1])


def _city_target(sides: Sequence[str]) -> Point:
    xs = [_MID[s][0] for s in sides]
    ys = [_MID[s][1] for s in sides]
    centre = (sum(xs) / len(xs), sum(ys) / len(ys))
    if len(sides) == 1:
        return _add(_MID[sides[0]], _INWARD[sides[0]], 0.1)
    return centre


def _city_shape(sides: set[str], other_city_sides: set[str], shared: bool) -> QPainterPath:
    """The area of a city segment covering ``sides``; its inner outline is the wall."""
    fill = QPainterPath()
    idx = {SIDES.index(s) for s in sides}
    if len(idx) == 4:
        fill.addRect(QRectF(0, 0, 1, 1))
        return fill
    start = next(i for i in range(4) if i in idx and (i - 1) % 4 not in idx)
    fill.moveTo(_qp(_CORNERS[start]))
    i = start
    while True:
        if i in idx:
            fill.lineTo(_qp(_CORNERS[(i + 1) % 4]))
            i = (i + 1) % 4
        else:
            run = 0
            while (i + run) % 4 not in idx:
                run += 1
            b = _CORNERS[(i + run) % 4]
            if run == 1:  # one open side between city sides: a band or a three-sided city
                side = SIDES[i]
                depth = _BAND_DEPTH_NEXT_TO_CITY if side in other_city_sides else _CAP_DEPTH
                ctrl = _add(_MID[side], _INWARD[side], 2 * depth)
            elif run == 2:  # corner city: a near-diagonal wall, bowed back when shared
                corner = _CORNERS[(i + 3) % 4]
                ctrl = _towards(corner, _CENTRE, 0.6 if shared else 0.85)
            else:  # a cap on the single city side
                side = SIDES[(i + 3) % 4]
                depth = _CAP_DEPTH_SHARED if shared else _CAP_DEPTH
                ctrl = _add(_MID[side], _INWARD[side], 2 * depth)
            fill.quadTo(_qp(ctrl), _qp(b))
            i = (i + run) % 4
        if i == start:
            break
    fill.closeSubpath()
    return fill


def _quad_points(a: Point, c: Point, b: Point, n: int = 48) -> list[Point]:
    out = []
    for k in range(n + 1):
        t = k / n
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def _polyline(points: Sequence[Point]) -> QPainterPath:
    path = QPainterPath(_qp(points[0]))
    for p in points[1:]:
        path.lineTo(_qp(p))
    return path


def _gate_city(tile_segs: tuple[Segment, ...], road: Segment, cities: list[_City]) -> _City:
    """The city a road ending 'at city' runs into: the one both fields beside it touch."""
    side = road.edges[0]
    beside = [
        set(s.cities)
        for s in tile_segs
        if s.kind == "field" and {side + "L", side + "R"} & set(s.edges)
    ]
    common = set.intersection(*beside) if beside else set()
    either = set.union(*beside) if beside else set()
    for choice in (common, either):
        for city in cities:
            if city.index in choice:
                return city
    mid = _MID[side]
    return min(cities, key=lambda c: math.dist(mid, c.target))


@lru_cache(maxsize=2048)
def _geometry(tile: TileType, rotation: int) -> _Geometry:
    segs = tile.segments_at(rotation)
    city_segs = [(i, s) for i, s in enumerate(segs) if s.kind == "city"]
    shared = len(city_segs) > 1
    cities: list[_City] = []
    for i, s in city_segs:
        others = {e for j, o in city_segs if j != i for e in o.edges}
        fill = _city_shape(set(s.edges), others, shared)
        cities.append(_City(i, fill, _city_target(s.edges)))
    _add_corner_walls(segs, cities)

    roads: list[_Road] = []
    houses: list[Point] = []
    gates: list[tuple[Point, Point]] = []
    junction = False
    has_monastery = any(s.kind == "monastery" for s in segs)
    for i, s in enumerate(segs):
        if s.kind != "road":
            continue
        a = _MID[s.edges[0]]
        if len(s.edges) == 2:
            b = _MID[s.edges[1]]
            opposite = (SIDES.index(s.edges[0]) - SIDES.index(s.edges[1])) % 2 == 0
            points = [a, b] if opposite else _quad_points(a, _CENTRE, b)
            roads.append(_Road(i, _polyline(points), None, b))
            continue
        inward = _INWARD[s.edges[0]]
        if s.ends == "city" and cities:
            city = _gate_city(segs, s, cities)
            curve = _quad_points(a, _add(a, inward, 0.3), city.target)
            cut = next(
                (k for k, p in enumerate(curve) if city.fill.contains(_qp(p))), len(curve) - 1
            )
            points = curve[: cut + 1]
            end = points[-1]
            prev = points[-2] if len(points) > 1 else a
            gates.append((end, (end[0] - prev[0], end[1] - prev[1])))
        elif s.ends == "house":
            end = _add(_CENTRE, inward, 0.17)
            houses.append(end)
            points = [a, end]
        elif s.ends == "monastery" and has_monastery:
            end = _CENTRE
            points = [a, end]
        else:  # a junction (or an unlabelled dead end in a designer's tile)
            end = _CENTRE
            junction = True
            points = [a, end]
        roads.append(_Road(i, _polyline(points), s.ends, end))
    lanes = _lanes(segs, cities, gates) if junction else []
    inns = _inn_spots(segs, roads, cities)
    return _Geometry(segs, cities, roads, has_monastery, junction, lanes, houses, gates, inns)


def _to_gate(start: Point, city: _City, gates: list[tuple[Point, Point]]) -> list[Point]:
    """A path from ``start`` to the wall of ``city``, ending at a new gate."""
    line = [_towards(start, city.target, k / 40) for k in range(41)]
    cut = next((k for k, p in enumerate(line) if city.fill.contains(_qp(p))), len(line) - 1)
    points = line[: cut + 1]
    end = points[-1]
    gates.append((end, (city.target[0] - start[0], city.target[1] - start[1])))
    return points


def _lanes(
    segs: tuple[Segment, ...], cities: list[_City], gates: list[tuple[Point, Point]]
) -> list[QPainterPath]:
    """Paths from the central village to a city that two separate fields border.

    On I&C I the village between two city caps has short paths to both gates, which is why the
    fields beside each cap are separate; the definition says so by giving each cap two fields.
    """
    lanes = []
    for city in cities:
        touching = [s for s in segs if s.kind == "field" and city.index in s.cities and s.edges]
        if len(touching) >= 2:
            lanes.append(_polyline(_to_gate(_CENTRE, city, gates)))
    return lanes


def _add_corner_walls(segs: tuple[Segment, ...], cities: list[_City]) -> None:
    """Extend a city with a wall to a corner where the definition splits the fields there.

    Two field halves meeting at a corner belong to different fields only when something runs into
    that corner: on the JCZ ``!`` tiles the city wall does (I&C G, T&B I, O, W).
    """
    field_of = {h: i for i, s in enumerate(segs) if s.kind == "field" for h in s.edges}
    for k, (h1, h2) in enumerate(_CORNER_HALVES):
        if h1 not in field_of or h2 not in field_of or field_of[h1] == field_of[h2] or not cities:
            continue
        touching = set(segs[field_of[h1]].cities) & set(segs[field_of[h2]].cities)
        corner = _CORNERS[k]
        city = next(
            (c for c in cities if c.index in touching),
            min(cities, key=lambda c: math.dist(corner, c.target)),
        )
        p = city.target
        dx, dy = corner[0] - p[0], corner[1] - p[1]
        length = math.hypot(dx, dy) or 1.0
        w = 0.14  # a broad wall: the city runs down to the corner, as on the artwork
        px, py = -dy / length * w, dx / length * w
        # The wall tapers but keeps some width past the corner, so it really closes the corner.
        beyond = (corner[0] + dx / length * 0.05, corner[1] + dy / length * 0.05)
        wedge = QPainterPath(_qp((p[0] + px, p[1] + py)))
        wedge.lineTo(_qp((beyond[0] + px / 5, beyond[1] + py / 5)))
        wedge.lineTo(_qp((beyond[0] - px / 5, beyond[1] - py / 5)))
        wedge.lineTo(_qp((p[0] - px, p[1] - py)))
        wedge.closeSubpath()
        wedge = wedge.intersected(_UNIT)
        city.fill = city.fill.united(wedge).simplified()


def _stroke(path: QPainterPath, width: float) -> QPainterPath:
    stroker = QPainterPathStroker()
    stroker.setWidth(width)
    stroker.setCapStyle(Qt.PenCapStyle.FlatCap)
    return stroker.createStroke(path)


def _inn_spots(
    segs: tuple[Segment, ...], roads: list[_Road], cities: list[_City]
) -> list[tuple[Point, int]]:
    """A spot beside each inn road that is clear of cities and other roads."""
    spots = []
    strokes = [_stroke(r.path, _ROAD_OUTLINE + 0.1) for r in roads]
    for road in roads:
        if not segs[road.index].inn:
            continue
        for pct in (0.5, 0.35, 0.65, 0.25, 0.75):
            p = road.path.pointAtPercent(pct)
            angle = math.radians(road.path.angleAtPercent(pct))
            normal = (-math.sin(angle), -math.cos(angle))  # Qt angles run counter-clockwise
            found = None
            for sign in (-1, 1):  # left of the way in first: I&C C's inn is NE
                q = (p.x() + sign * normal[0] * 0.13, p.y() + sign * normal[1] * 0.13)
                qp = _qp(q)
                if not (0.1 < q[0] < 0.9 and 0.1 < q[1] < 0.9):
                    continue
                if any(c.fill.contains(qp) for c in cities) or any(s.contains(qp) for s in strokes):
                    continue
                if any(s.kind == "monastery" for s in segs) and _MONASTERY.contains(qp):
                    continue
                found = q
                break
            if found:
                spots.append((found, road.index))
                break
    return spots


# --------------------------------------------------------------------------- label raster


@dataclass
class _Analysis:
    labels: list[int]  # _RASTER * _RASTER, row-major: 0 field, i+1 segment i, 250/251 other
    components: list[int]  # field component id per pixel (-1 where not field)
    field_components: dict[int, set[int]]  # field segment index -> component ids
    seeds_missing: list[str]


def _label_image(geo: _Geometry) -> list[int]:
    img = QImage(_RASTER, _RASTER, QImage.Format.Format_RGB32)
    img.fill(QColor(0, 0, 0))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    p.scale(_RASTER, _RASTER)
    p.setPen(Qt.PenStyle.NoPen)
    for city in geo.cities:
        p.setBrush(QColor(city.index + 1, 0, 0))
        p.drawPath(city.fill)
    p.setBrush(Qt.BrushStyle.NoBrush)
    for road in geo.roads:
        pen = QPen(QColor(road.index + 1, 0, 0), _ROAD_OUTLINE)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.drawPath(road.path)
    for lane in geo.lanes:
        pen = QPen(QColor(_L_JUNCTION, 0, 0), _LANE + 0.04)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.drawPath(lane)
    p.setPen(Qt.PenStyle.NoPen)
    if geo.junction:
        p.setBrush(QColor(_L_JUNCTION, 0, 0))
        p.drawRect(_square(_CENTRE, _JUNCTION))
    for house in geo.houses:
        p.setBrush(QColor(_L_BLOCK, 0, 0))
        p.drawRect(_square(house, 0.07))
    if geo.monastery:
        idx = next(i for i, s in enumerate(geo.segments) if s.kind == "monastery")
        p.setBrush(QColor(idx + 1, 0, 0))
        p.drawRect(_MONASTERY)
    for spot, _ in geo.inns:
        p.setBrush(QColor(_L_BLOCK, 0, 0))
        p.drawRect(_square(spot, 0.075))
    p.end()
    data = bytes(img.constBits())
    stride = img.bytesPerLine()
    # Format_RGB32 is 0xffRRGGBB in native (little-endian) order: red is byte 2.
    return [data[y * stride + 4 * x + 2] for y in range(_RASTER) for x in range(_RASTER)]


def _square(centre: Point, half: float) -> QRectF:
    return QRectF(centre[0] - half, centre[1] - half, 2 * half, 2 * half)


def _pixel(p: Point) -> tuple[int, int]:
    return (
        min(_RASTER - 1, max(0, int(p[0] * _RASTER))),
        min(_RASTER - 1, max(0, int(p[1] * _RASTER))),
    )


@lru_cache(maxsize=2048)
def _analysis(tile: TileType, rotation: int) -> _Analysis:
    geo = _geometry(tile, rotation)
    labels = _label_image(geo)
    n = _RASTER
    comp = [-1] * (n * n)
    next_id = 0
    for start in range(n * n):
        if labels[start] != 0 or comp[start] != -1:
            continue
        comp[start] = next_id
        queue = deque([start])
        while queue:
            k = queue.popleft()
            x, y = k % n, k // n
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < n and 0 <= ny < n:
                    j = ny * n + nx
                    if labels[j] == 0 and comp[j] == -1:
                        comp[j] = next_id
                        queue.append(j)
        next_id += 1
    field_components: dict[int, set[int]] = {}
    missing: list[str] = []
    seeded: set[int] = set()
    for i, s in enumerate(geo.segments):
        if s.kind != "field":
            continue
        found: set[int] = set()
        for half in s.edges:
            mid = _HALF_MID[half]
            inward = _INWARD[half[0]]
            c = -1
            for step in range(1, 8):  # walk in from the edge until we reach field pixels
                x, y = _pixel(_add(mid, inward, step / n))
                c = comp[y * n + x]
                if c != -1:
                    break
            if c == -1:
                missing.append(f"field {i} half {half}")
            else:
                found.add(c)
        field_components[i] = found
        seeded |= found
    # An inner field owns the components no half-edge reaches.
    inner = [i for i, s in enumerate(geo.segments) if s.kind == "field" and not s.edges]
    unseeded = set(range(next_id)) - seeded
    for i in inner:
        field_components[i] = set(unseeded)
    return _Analysis(labels, comp, field_components, missing)


def _distance(mask: list[bool]) -> list[int]:
    """Chessboard distance of each mask pixel to the nearest non-mask pixel or the border."""
    n = _RASTER
    big = 10**6
    d = [big if m else 0 for m in mask]
    for y in range(n):
        for x in range(n):
            k = y * n + x
            if not d[k]:
                continue
            best = min(x + 1, y + 1)
            for nx, ny in ((x - 1, y), (x, y - 1), (x - 1, y - 1), (x + 1, y - 1)):
                if 0 <= nx < n and 0 <= ny < n:
                    best = min(best, d[ny * n + nx] + 1)
            d[k] = min(d[k], best)
    for y in range(n - 1, -1, -1):
        for x in range(n - 1, -1, -1):
            k = y * n + x
            if not d[k]:
                continue
            best = min(n - x, n - y)
            for nx, ny in ((x + 1, y), (x, y + 1), (x + 1, y + 1), (x - 1, y + 1)):
                if 0 <= nx < n and 0 <= ny < n:
                    best = min(best, d[ny * n + nx] + 1)
            d[k] = min(d[k], best)
    return d


def _best_pixel(mask: list[bool], avoid: Point | None = None, min_gap: float = 0.0) -> Point | None:
    """The centre of the mask pixel farthest from the mask's boundary (ties: nearest centroid)."""
    n = _RASTER
    pixels = [k for k, m in enumerate(mask) if m]
    if not pixels:
        return None
    d = _distance(mask)
    cx = sum(k % n for k in pixels) / len(pixels)
    cy = sum(k // n for k in pixels) / len(pixels)

    def centre(k: int) -> Point:
        return ((k % n + 0.5) / n, (k // n + 0.5) / n)

    if avoid is not None:
        pixels = [k for k in pixels if math.dist(centre(k), avoid) >= min_gap] or pixels
    best = max(pixels, key=lambda k: (d[k], -math.hypot(k % n - cx, k // n - cy)))
    return centre(best)


def _turn(p: Point, rotation: int) -> Point:
    """A unit-square point after turning the tile clockwise by ``rotation`` degrees."""
    for _ in range((rotation // 90) % 4):
        p = (1.0 - p[1], p[0])
    return p


def _anchor_unit(tile: TileType, rotation: int, index: int) -> Point:
    # Computed at rotation 0 and turned, so a feature's spot turns with the tile exactly; the
    # monastery building is drawn upright at every rotation, and so is its spot.
    if tile.segments[index].kind == "monastery":
        return _MONASTERY_SPOT
    return _turn(_anchor0(tile, index), rotation)


@lru_cache(maxsize=4096)
def _anchor0(tile: TileType, index: int) -> Point:
    rotation = 0
    geo = _geometry(tile, rotation)
    seg = geo.segments[index]
    if seg.kind == "monastery":
        return _MONASTERY_SPOT
    an = _analysis(tile, rotation)
    if seg.kind == "road":
        road = next(r for r in geo.roads if r.index == index)
        earlier = [_anchor_unit(tile, rotation, r.index) for r in geo.roads if r.index < index]
        for pct in (0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6):
            q = road.path.pointAtPercent(pct)
            p = (q.x(), q.y())
            x, y = _pixel(p)
            if an.labels[y * _RASTER + x] == index + 1 and all(
                math.dist(p, e) >= 0.15 for e in earlier
            ):
                return p
        q = road.path.pointAtPercent(0.5)
        return (q.x(), q.y())
    if seg.kind == "city":
        mask = [v == index + 1 for v in an.labels]
        return _best_pixel(mask) or _city_target(seg.edges)
    comps = an.field_components.get(index, set())
    mask = [c in comps for c in an.components]
    spot = _best_pixel(mask)
    if spot is None:  # the drawing shows no region for it (see geometry_problems)
        return _HALF_MID[seg.edges[0]] if seg.edges else _CENTRE
    return spot


def _marker_spot(tile: TileType, rotation: int, index: int) -> Point:
    """Where a city's coat of arms / cathedral / goods go: clear of the meeple anchor."""
    return _turn(_marker0(tile, index), rotation)


@lru_cache(maxsize=2048)
def _marker0(tile: TileType, index: int) -> Point:
    an = _analysis(tile, 0)
    mask = [v == index + 1 for v in an.labels]
    anchor = _anchor0(tile, index)
    return _best_pixel(mask, avoid=anchor, min_gap=0.2) or anchor


def geometry_problems(tile: TileType, rotation: int = 0) -> list[str]:
    """Places where the drawing cannot show the definition's fields (empty when all is well).

    Each field segment must own at least one drawn field region, and no region may belong to two
    field segments. Used by the tests for all 114 tiles and usable on a designer's tile set.
    """
    an = _analysis(tile, rotation)
    problems = list(an.seeds_missing)
    owner: dict[int, int] = {}
    for i, comps in an.field_components.items():
        if not comps:
            problems.append(f"field {i} has no drawn region")
        for c in comps:
            if c in owner and owner[c] != i:
                problems.append(f"fields {owner[c]} and {i} share one drawn region")
            owner[c] = i
    return problems


# --------------------------------------------------------------------------- public API


def _to_rect(p: Point, rect: QRectF) -> QPointF:
    return QPointF(rect.x() + p[0] * rect.width(), rect.y() + p[1] * rect.height())


def feature_anchor(tile: TileType, rotation: int, segment_index: int, rect: QRectF) -> QPointF:
    """A good meeple spot for segment ``segment_index`` of ``tile`` turned by ``rotation``.

    The point lies inside ``rect`` on the visible feature (city, road, field or monastery).
    Segment indices are those of ``tile.segments``; raises IndexError for a bad index.
    """
    if not 0 <= segment_index < len(tile.segments):
        raise IndexError(
            f"tile {tile.id} has segments 0..{len(tile.segments) - 1}, not {segment_index}"
        )
    return _to_rect(_anchor_unit(tile, rotation % 360, segment_index), rect)


def segment_at(tile: TileType, rotation: int, rect: QRectF, point: QPointF) -> int | None:
    """The index of the segment drawn under ``point`` (for clicks), or ``None``.

    Fields count where their area is drawn; village squares, houses and inn markers belong to no
    segment. ``None`` also outside ``rect``.
    """
    if rect.width() <= 0 or rect.height() <= 0:
        return None
    u = (point.x() - rect.x()) / rect.width()
    v = (point.y() - rect.y()) / rect.height()
    if not (0 <= u < 1 and 0 <= v < 1):
        return None
    an = _analysis(tile, rotation % 360)
    x, y = _pixel((u, v))
    label = an.labels[y * _RASTER + x]
    if 0 < label <= len(tile.segments):
        return label - 1
    if label == 0:
        comp = an.components[y * _RASTER + x]
        for i, comps in an.field_components.items():
            if comp in comps:
                return i
    return None


_IMAGE_CACHE: dict[tuple[TileType, int, int], QImage] = {}


def tile_image(
    tile: TileType, rotation: int, size: int, *, style: TileStyle = DEFAULT_STYLE
) -> QImage:
    """``tile`` drawn into a ``size`` x ``size`` image (cached for the default style).

    Board views blit these instead of painting every tile on every repaint.
    """
    key = (tile, rotation % 360, size)
    if style is DEFAULT_STYLE and key in _IMAGE_CACHE:
        return _IMAGE_CACHE[key]
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    paint_tile(painter, tile, rotation, QRectF(0, 0, size, size), style=style)
    painter.end()
    if style is DEFAULT_STYLE:
        if len(_IMAGE_CACHE) > 2000:  # a few board zoom levels of every tile at 4 rotations
            _IMAGE_CACHE.clear()
        _IMAGE_CACHE[key] = image
    return image


def meeple_path(rect: QRectF) -> QPainterPath:
    """The meeple silhouette filling ``rect`` (head, arms, legs), as one closed path."""
    body = QPolygonF(
        [
            QPointF(x, y)
            for x, y in (
                (0.36, 0.30), (0.10, 0.40), (0.02, 0.50), (0.08, 0.56), (0.32, 0.54),
                (0.16, 0.94), (0.19, 1.0), (0.41, 1.0), (0.5, 0.76), (0.59, 1.0),
                (0.81, 1.0), (0.84, 0.94), (0.68, 0.54), (0.92, 0.56), (0.98, 0.50),
                (0.90, 0.40), (0.64, 0.30),
            )
        ]
    )  # fmt: skip
    path = QPainterPath()
    path.addPolygon(body)
    path.closeSubpath()
    head = QPainterPath()
    head.addEllipse(QPointF(0.5, 0.19), 0.17, 0.17)
    unit = path.united(head).simplified()
    transform = QTransform()
    transform.translate(rect.x(), rect.y())
    transform.scale(rect.width(), rect.height())
    return transform.map(unit)


def paint_tile(
    painter: QPainter,
    tile: TileType,
    rotation: int,
    rect: QRectF,
    *,
    style: TileStyle = DEFAULT_STYLE,
) -> None:
    """Draw ``tile`` turned clockwise by ``rotation`` degrees into ``rect``.

    Drawn from the definition: fields green, cities with walls and coats of arms, roads, the
    monastery, and (with ``style.markers``) inns, cathedrals and goods. The painter's state is
    restored afterwards.
    """
    geo = _geometry(tile, rotation % 360)
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
        painter.translate(rect.topLeft())
        painter.scale(rect.width(), rect.height())
        _paint_unit(painter, tile, rotation % 360, geo, style)
    finally:
        painter.restore()
    if style.border is not None:
        painter.save()
        painter.setPen(QPen(style.border, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
        painter.restore()


def _paint_unit(
    p: QPainter, tile: TileType, rotation: int, geo: _Geometry, style: TileStyle
) -> None:
    p.fillRect(QRectF(0, 0, 1, 1), style.field)
    # Cities and their walls (walls only inside the tile, not along its edges).
    p.setPen(Qt.PenStyle.NoPen)
    for city in geo.cities:
        p.setBrush(style.city)
        p.drawPath(city.fill)
    p.save()
    p.setClipRect(QRectF(0.02, 0.02, 0.96, 0.96), Qt.ClipOperation.IntersectClip)
    wall = QPen(style.wall, 0.035)
    wall.setCapStyle(Qt.PenCapStyle.FlatCap)
    wall.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setBrush(Qt.BrushStyle.NoBrush)
    for city in geo.cities:
        p.setPen(wall)
        p.drawPath(city.fill)
    p.restore()
    # Roads: each drawn whole (edge then surface), so a later road passes over an earlier one.
    for road in geo.roads:
        for colour, width in ((style.road_edge, _ROAD_OUTLINE), (style.road, ROAD_WIDTH)):
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(road.path)
    for lane in geo.lanes:
        for colour, width in ((style.road_edge, _LANE + 0.04), (style.road, _LANE)):
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.setPen(pen)
            p.drawPath(lane)
    for pos, direction in geo.gates:
        _gate(p, pos, direction, style)
    if geo.junction:
        p.setPen(QPen(style.road_edge, 0.015))
        p.setBrush(style.village)
        p.drawRect(_square(_CENTRE, _JUNCTION))
        p.setBrush(style.roof)
        p.drawRect(_square((0.47, 0.47), 0.035))
    for house in geo.houses:
        _small_house(p, house, 0.12, style.monastery, style.roof)
    if geo.monastery:
        _monastery(p, style)
    for i, seg in enumerate(geo.segments):
        if seg.kind == "city" and (
            seg.coats_of_arms or (style.markers and (seg.cathedral or seg.goods))
        ):
            spot = _marker_spot(tile, rotation, i)
            if seg.coats_of_arms:
                _shield(p, spot, seg.coats_of_arms, style)
            elif seg.cathedral:
                _cathedral(p, spot)
            elif seg.goods:
                _goods(p, spot, seg.goods)
    if style.markers:
        for spot, _ in geo.inns:
            _small_house(p, spot, 0.13, QColor("#f4e9cf"), QColor("#2f5f9e"))


def _gate(p: QPainter, pos: Point, direction: Point, style: TileStyle) -> None:
    length = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / length, direction[1] / length
    half = ROAD_WIDTH * 0.75
    a = QPointF(pos[0] - uy * half, pos[1] + ux * half)
    b = QPointF(pos[0] + uy * half, pos[1] - ux * half)
    pen = QPen(style.wall, 0.05)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    p.setPen(pen)
    p.drawLine(a, b)


def _small_house(p: QPainter, c: Point, s: float, wall: QColor, roof: QColor) -> None:
    x, y = c
    p.setPen(QPen(QColor("#4a2c1a"), 0.012))
    p.setBrush(wall)
    p.drawRect(QRectF(x - s / 2, y - s / 6, s, s * 0.6))
    p.setBrush(roof)
    p.drawPolygon(
        QPolygonF(
            [
                QPointF(x - s * 0.6, y - s / 6),
                QPointF(x, y - s * 0.6),
                QPointF(x + s * 0.6, y - s / 6),
            ]
        )
    )


def _monastery(p: QPainter, style: TileStyle) -> None:
    outline = QPen(QColor("#4a2c1a"), 0.014)
    p.setPen(outline)
    p.setBrush(style.monastery)
    p.drawRect(QRectF(0.36, 0.45, 0.28, 0.2))  # nave
    p.drawRect(QRectF(0.56, 0.35, 0.08, 0.3))  # tower
    p.setBrush(style.roof)
    p.drawPolygon(QPolygonF([QPointF(0.34, 0.46), QPointF(0.46, 0.36), QPointF(0.58, 0.46)]))
    p.drawPolygon(QPolygonF([QPointF(0.55, 0.36), QPointF(0.6, 0.29), QPointF(0.65, 0.36)]))
    p.setPen(QPen(QColor("#4a2c1a"), 0.02))
    p.drawLine(QPointF(0.46, 0.51), QPointF(0.46, 0.6))  # door / cross
    p.drawLine(QPointF(0.43, 0.54), QPointF(0.49, 0.54))


def _shield(p: QPainter, c: Point, count: int, style: TileStyle) -> None:
    s = 0.15
    x, y = c
    path = QPainterPath(QPointF(x - s / 2, y - s / 2))
    path.lineTo(x + s / 2, y - s / 2)
    path.lineTo(x + s / 2, y)
    path.quadTo(x + s / 2, y + s / 2, x, y + s * 0.65)
    path.quadTo(x - s / 2, y + s / 2, x - s / 2, y)
    path.closeSubpath()
    p.setPen(QPen(QColor("#f4f4f4"), 0.015))
    p.setBrush(style.shield)
    p.drawPath(path)
    # More than one coat of arms: white pips rather than text (no fonts needed).
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#f4f4f4"))
    if count > 1:
        for k in range(count):
            px = x + (k - (count - 1) / 2) * 0.035
            p.drawEllipse(QPointF(px, y + 0.01), 0.012, 0.012)
    else:
        p.drawRect(QRectF(x - 0.008, y - s * 0.35, 0.016, s * 0.7))
        p.drawRect(QRectF(x - s * 0.3, y - 0.008, s * 0.6, 0.016))


def _cathedral(p: QPainter, c: Point) -> None:
    x, y = c
    p.setPen(QPen(QColor("#3c3c3c"), 0.012))
    p.setBrush(QColor("#b9b9c4"))
    p.drawRect(QRectF(x - 0.09, y - 0.02, 0.18, 0.1))
    p.drawRect(QRectF(x - 0.03, y - 0.1, 0.06, 0.18))
    p.setBrush(QColor("#5b5b6b"))
    p.drawPolygon(
        QPolygonF([QPointF(x - 0.04, y - 0.1), QPointF(x, y - 0.16), QPointF(x + 0.04, y - 0.1)])
    )


def _goods(p: QPainter, c: Point, goods: str) -> None:
    x, y = c
    colour = QColor(_GOODS_COLOURS.get(goods, "#555555"))
    p.setPen(QPen(colour.darker(150), 0.01))
    p.setBrush(QBrush(colour))
    if goods == "wine":
        for dx, dy in ((-0.025, -0.03), (0.025, -0.03), (0, 0.012), (-0.045, 0.01), (0.045, 0.01)):
            p.drawEllipse(QPointF(x + dx, y + dy), 0.022, 0.022)
        p.drawEllipse(QPointF(x, y + 0.05), 0.022, 0.022)
    elif goods == "grain":
        for dx in (-0.03, 0.0, 0.03):
            p.drawEllipse(QPointF(x + dx, y - 0.02), 0.016, 0.045)
        p.drawRect(QRectF(x - 0.04, y + 0.02, 0.08, 0.02))
    else:
        p.drawRect(QRectF(x - 0.055, y - 0.04, 0.11, 0.08))
        p.setPen(QPen(colour.lighter(160), 0.01))
        p.drawLine(QPointF(x - 0.045, y), QPointF(x + 0.045, y))
