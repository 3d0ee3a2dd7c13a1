"""Grid shaping: crop a map to its content, resize it, shift it; size guidance for new maps.

Every operation is one :func:`reshape`: a new grid of ``width`` x ``height`` whose square
``(x, y)`` is the old square ``(x - dx, y - dy)``. Every element moves with its squares; what no
longer fits in the grid is dropped, and :func:`reshape_losses` lists it first so the editor and the
CLI can say so before it goes. Editor settings that refer to squares move too (the neighbour names
and the underlay's alignment). Pure functions on :class:`~engine.mapdef.MapDef`; the originals are
never changed.

>>> from engine.mapdef import MapDef
>>> m = MapDef(id="m", name="M", width=6, height=5, land={(2, 2), (3, 2)})
>>> c = crop_to_content(m)
>>> (c.width, c.height, sorted(c.land))
(4, 3, [(1, 1), (2, 1)])
>>> reshape_losses(m, 3, 5)
['1 map square(s): (3, 2)']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import EngineError
from engine.geometry import Edge, Square
from engine.mapdef import MAX_GRID, MapDef, Track

__all__ = [
    "MAX_GRID",
    "POOL_RATIO",
    "ANCHORS",
    "GridShapeError",
    "Reshape",
    "SizeAdvice",
    "content_bounds",
    "crop_arguments",
    "crop_to_content",
    "default_tile_pool",
    "reshape",
    "reshape_losses",
    "resize",
    "resize_arguments",
    "shift",
    "size_advice",
    "target_squares",
]

Reshape = tuple[int, int, int, int]
"""``(width, height, dx, dy)``: the arguments of :func:`reshape`."""
POOL_RATIO = 1.6
"""Placeable squares per tile of the middle of the tile pool, as on the shipped maps (1.5-1.7)."""
TOO_MANY_RATIO = 3.0
"""A map with more placeable squares than this many times its target is far too big to fill."""


class GridShapeError(EngineError):
    """A reshape that cannot be done (grid too small, too large, or empty)."""


def _check_size(width: int, height: int) -> None:
    if not (1 <= width <= MAX_GRID and 1 <= height <= MAX_GRID):
        raise GridShapeError(f"grid {width}x{height} is outside 1x1..{MAX_GRID}x{MAX_GRID}")


def content_bounds(m: MapDef) -> tuple[int, int, int, int] | None:
    """``(min_x, min_y, max_x, max_y)`` of every map square and element, or None if empty."""
    squares = set(m.land) | set(m.start_squares) | set(m.towns) | m.waves | set(m.chip_squares)
    for city in m.large_cities.values():
        squares |= city.squares
    for island in m.islands.values():
        squares |= set(island.squares)
    for edge in m.border_features:
        squares.add(edge.square)
    for ferry in m.ferries.values():
        squares |= {ferry.a.square, ferry.b.square}
    if m.isle_of_man is not None:
        squares.add(m.isle_of_man)
    if not squares:
        return None
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(sq: Square, width: int, height: int) -> bool:
    return 0 <= sq[0] < width and 0 <= sq[1] < height


def reshape_losses(m: MapDef, width: int, height: int, dx: int = 0, dy: int = 0) -> list[str]:
    """What :func:`reshape` with these arguments would drop, one line per element, map order."""
    _check_size(width, height)

    def gone(sq: Square) -> bool:
        return not _inside((sq[0] + dx, sq[1] + dy), width, height)

    out: list[str] = []
    lost_land = sorted((sq for sq in m.land if gone(sq)), key=lambda s: (s[1], s[0]))
    if lost_land:
        shown = ", ".join(f"({x}, {y})" for x, y in lost_land[:12])
        more = f" and {len(lost_land) - 12} more" if len(lost_land) > 12 else ""
        out.append(f"{len(lost_land)} map square(s): {shown}{more}")
    out += [
        f"start square {s.name} at {sq}" for sq, s in sorted(m.start_squares.items()) if gone(sq)
    ]
    out += [f"town {t.name} at {sq}" for sq, t in sorted(m.towns.items()) if gone(sq)]
    for city in m.large_cities.values():
        if any(gone(sq) for sq in city.squares):
            out.append(f"large city {city.name} ({city.id})")
    for edge, feature in sorted(m.border_features.items()):
        if gone(edge.square):
            out.append(f"border {feature.kind.value} at {edge}")
    for ferry in m.ferries.values():
        if gone(ferry.a.square) or gone(ferry.b.square):
            out.append(f"ferry {ferry.id}")
    for island in m.islands.values():
        lost = [sq for sq in island.squares if gone(sq)]
        if lost:
            out.append(f"{len(lost)} square(s) of island {island.name}")
    out += [f"wave at {sq}" for sq in sorted(m.waves) if gone(sq)]
    out += [f"chip square at {sq}" for sq in sorted(m.chip_squares) if gone(sq)]
    for track in m.tracks.values():
        if any(not 0 <= r + dy < height for r in track.rows):
            out.append(f"row(s) of track {track.number}")
    if m.isle_of_man is not None and gone(m.isle_of_man):
        out.append(f"Isle of Man holding area at {m.isle_of_man}")
    return out


def reshape(m: MapDef, width: int, height: int, dx: int = 0, dy: int = 0) -> MapDef:
    """A copy of ``m`` on a ``width`` x ``height`` grid, every square moved by ``(dx, dy)``.

    Elements that leave the grid are dropped (a large city or ferry as a whole; see
    :func:`reshape_losses`). Raises :class:`GridShapeError` for a grid outside the format's limits.
    """
    _check_size(width, height)
    out = m.copy()
    out.width, out.height = width, height

    def mv(sq: Square) -> Square:
        return (sq[0] + dx, sq[1] + dy)

    def ok(sq: Square) -> bool:
        return _inside(mv(sq), width, height)

    def mv_edge(e: Edge) -> Edge:
        return Edge(e.x + dx, e.y + dy, e.side)

    out.land = {mv(sq) for sq in m.land if ok(sq)}
    out.start_squares = {mv(sq): v for sq, v in out.start_squares.items() if ok(sq)}
    out.towns = {mv(sq): v for sq, v in out.towns.items() if ok(sq)}
    cities = out.large_cities
    out.large_cities = {}
    for cid, city in cities.items():
        if all(ok(sq) for sq in city.squares):
            city.squares = {mv(sq) for sq in city.squares}
            city.edges = {mv_edge(e): k for e, k in city.edges.items()}
            out.large_cities[cid] = city
    out.border_features = {mv_edge(e): f for e, f in out.border_features.items() if ok(e.square)}
    out.land_borders = {mv_edge(e) for e in m.land_borders if ok(e.square)}
    out.ferries = {
        fid: replace(f, a=mv_edge(f.a), b=mv_edge(f.b))
        for fid, f in out.ferries.items()
        if ok(f.a.square) and ok(f.b.square)
    }
    for island in out.islands.values():
        island.squares = {mv(sq): v for sq, v in island.squares.items() if ok(sq)}
    out.islands = {iid: i for iid, i in out.islands.items() if i.squares}
    out.waves = {mv(sq) for sq in m.waves if ok(sq)}
    out.chip_squares = {mv(sq): c for sq, c in m.chip_squares.items() if ok(sq)}
    tracks: dict[int, Track] = {}
    for number, track in out.tracks.items():
        rows = tuple(r + dy for r in track.rows if 0 <= r + dy < height)
        if rows:
            tracks[number] = Track(number, rows)
    out.tracks = tracks
    if m.isle_of_man is not None:
        out.isle_of_man = mv(m.isle_of_man) if ok(m.isle_of_man) else None
    out.editor = _move_editor(out.editor, dx, dy, width, height)
    return out


def _move_editor(
    editor: dict[str, Any], dx: int, dy: int, width: int, height: int
) -> dict[str, Any]:
    """Editor settings tied to squares, moved: neighbour names and the underlay alignment."""
    out = dict(editor)
    names = out.get("neighbours")
    if isinstance(names, list):
        moved = []
        for item in names:
            if (
                isinstance(item, dict)
                and isinstance(item.get("x"), int)
                and isinstance(item.get("y"), int)
            ):
                x, y = item["x"] + dx, item["y"] + dy
                if _inside((x, y), width, height):
                    moved.append({**item, "x": x, "y": y})
            else:
                moved.append(item)
        out["neighbours"] = moved
    underlay = out.get("underlay")
    if isinstance(underlay, dict):
        t = underlay.get("transform")
        if isinstance(t, list) and len(t) == 6 and all(isinstance(v, int | float) for v in t):
            out["underlay"] = {**underlay, "transform": [*t[:4], t[4] + dx, t[5] + dy]}
    projection = out.get("projection")
    if isinstance(projection, dict) and {"km", "x0", "y0"} <= set(projection):
        km = float(projection["km"])
        out["projection"] = {
            **projection,
            "x0": float(projection["x0"]) - dx * km,
            "y0": float(projection["y0"]) - dy * km,
        }
    return out


def shift(m: MapDef, dx: int, dy: int) -> MapDef:
    """``m`` with every square moved by ``(dx, dy)`` on the same grid."""
    return reshape(m, m.width, m.height, dx, dy)


ANCHORS = ("nw", "n", "ne", "w", "c", "e", "sw", "s", "se")
"""Which part of the old grid :func:`resize` keeps in place (``c``: the middle)."""


def resize_arguments(m: MapDef, width: int, height: int, anchor: str = "nw") -> Reshape:
    """The :func:`reshape` arguments of :func:`resize`."""
    anchor = anchor.lower()
    if anchor not in ANCHORS:
        raise GridShapeError(f"unknown anchor {anchor!r} ({', '.join(ANCHORS)})")
    dx = 0 if "w" in anchor else (width - m.width) if "e" in anchor else (width - m.width) // 2
    dy = 0 if "n" in anchor else (height - m.height) if "s" in anchor else (height - m.height) // 2
    return width, height, dx, dy


def resize(m: MapDef, width: int, height: int, anchor: str = "nw") -> MapDef:
    """``m`` on a ``width`` x ``height`` grid; ``anchor`` (``nw``, ``n``, ``c``, ``se``, …) says
    which part of the old grid stays put (``c``: the content stays centred)."""
    return reshape(m, *resize_arguments(m, width, height, anchor))


def crop_arguments(m: MapDef, margin: int = 1) -> Reshape:
    """The :func:`reshape` arguments of :func:`crop_to_content`."""
    bounds = content_bounds(m)
    if bounds is None:
        raise GridShapeError("the map has no squares to crop to")
    x0, y0, x1, y1 = bounds
    return x1 - x0 + 1 + 2 * margin, y1 - y0 + 1 + 2 * margin, margin - x0, margin - y0


def crop_to_content(m: MapDef, margin: int = 1) -> MapDef:
    """``m`` cut down (or grown) to its content plus ``margin`` outside squares all round."""
    return reshape(m, *crop_arguments(m, margin))


# -- size guidance ---------------------------------------------------------------------------------


def target_squares(tile_pool: tuple[int, int] = (110, 120), ratio: float = POOL_RATIO) -> int:
    """Placeable squares that suit a tile pool: ``ratio`` x its middle (the shipped maps' 1.6)."""
    return round(ratio * (tile_pool[0] + tile_pool[1]) / 2)


FULL_POOL = (110, 120)
"""The recommendation of the shipped maps for the whole tile pool."""


def default_tile_pool(placeable: int, ratio: float = POOL_RATIO) -> tuple[int, int]:
    """The tile pool (min, max) a map of ``placeable`` squares is made for: the inverse of
    :func:`target_squares`, a range of 10 as on the shipped maps, at least 10-20 tiles and at
    most the whole pool (:data:`FULL_POOL`)."""
    middle = min(max(15, round(placeable / ratio)), sum(FULL_POOL) // 2)
    return middle - 5, middle + 5


@dataclass(frozen=True)
class SizeAdvice:
    """How well a number of placeable squares suits a tile pool."""

    squares: int
    target: int
    too_many: bool
    too_few: bool

    @property
    def message(self) -> str:
        if self.too_many:
            return (
                f"{self.squares} squares is far more than a tile pool can fill (about "
                f"{self.target} suit it); use larger squares"
            )
        if self.too_few:
            return f"{self.squares} squares is few for the tile pool (about {self.target} suit it)"
        return f"{self.squares} squares (about {self.target} suit the tile pool)"


def size_advice(squares: int, tile_pool: tuple[int, int] = (110, 120)) -> SizeAdvice:
    """Advice on ``squares`` placeable squares for ``tile_pool``."""
    target = target_squares(tile_pool)
    return SizeAdvice(
        squares, target, squares > TOO_MANY_RATIO * target, squares * TOO_MANY_RATIO < target
    )


def km_for_area(area_km2: float, target: int) -> float:
    """First guess of the square size giving ``target`` squares on ``area_km2`` of land."""
    return math.sqrt(max(area_km2, 1e-9) / max(target, 1))
