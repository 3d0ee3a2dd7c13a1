"""What lies around and under a map's squares on the print: neighbouring land, sea, lakes, coasts.

A printed Carcassonne Maps board is an illustrated map: the country's squares, the neighbouring
countries in a muted colour beyond the clouds, sea only where there is sea. :func:`backdrop_of`
works that out in grid units (square ``(x, y)`` spans ``x..x+1``, ``y..y+1``), from the best data
there is:

* **geography** — a map made by "New map from country" keeps its projection
  (``editor["projection"]``); with the ``geo`` extra installed, the Natural Earth countries over the
  grid give the land (own and neighbours), the water between (sea and the lakes the data has) and
  the real coastline, drawn under the grid;
* **squares** — otherwise every outside square takes the kind of the nearest outside-facing map
  edge: beyond a land border it is neighbouring land, else sea. A landlocked map (every edge a
  land border) is surrounded by land, never printed as an island.

Neighbour names are placed outside the map's squares, on the neighbour's land. Pure Python and
shapely (no Qt), so it is tested without a display; the editor's print
(``mapeditor.print_painting``) and the reports' maps (:mod:`engine.analysis.mapfigure`) both draw
it, in the colours here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from engine.geo.country import GeoDataError, countries_in_grid, local_country_names
from engine.geo.countrynames import LANGUAGE_KEY
from engine.geo.neighbours import label_runs, neighbour_names
from engine.geo.places import projection_of
from engine.geometry import Edge, Side, Square
from engine.mapdef import MapDef

SEA_COLOUR = "#a9cde0"
"""The sea, as the print and the reports' maps draw it."""
NEIGHBOUR_LAND_COLOUR = "#dcd8c4"
"""Neighbouring land, muted: the neighbours are scenery, not play."""
COAST_COLOUR = "#3f6f96"
"""The coastline under the grid."""
_SMOOTH = 0.3
"""Squares-mode neighbouring land is rounded by this much (grid units)."""
MIN_LABEL_AREA = 0.6
"""A neighbour needs this much land (square units) outside the map to be named there."""


@dataclass(frozen=True)
class NeighbourLabel:
    """A neighbour's name and where it is printed (grid units, the centre of the text)."""

    name: str
    x: float
    y: float


@dataclass(frozen=True)
class Backdrop:
    """The geography around a map, in grid units, clipped to the grid."""

    source: str
    """``"geography"`` (real outlines) or ``"squares"`` (worked out from the map's edges)."""
    land: BaseGeometry
    """All land over the grid, the map's own and its neighbours'; the rest is water."""
    coast: BaseGeometry
    """Where land meets water (lines); empty in squares mode, where the squares are the coast."""
    neighbour_squares: frozenset[Square]
    """Outside squares (in the grid) that are mostly neighbouring land."""
    labels: tuple[NeighbourLabel, ...]

    def is_land(self, square: Square) -> bool:
        """Whether an outside square prints as land (a neighbour) rather than water."""
        return square in self.neighbour_squares


def _squares_geometry(squares: set[Square] | frozenset[Square]) -> BaseGeometry:
    if not squares:
        return shapely.Polygon()
    boxes = [shapely.box(x, y, x + 1, y + 1) for x, y in squares]
    return shapely.union_all(boxes)


def cloud_squares(m: MapDef) -> set[Square]:
    """Outside squares beyond a land border (printed as clouds)."""
    return {
        e.outer_square
        for e in m.land_borders
        if e.outer_square not in m.land and m.in_grid(e.outer_square)
    }


def _outside_edges(m: MapDef) -> list[Edge]:
    return sorted(
        Edge(x, y, side)
        for x, y in m.land
        for side in Side
        if Edge(x, y, side).outer_square not in m.land
    )


def _by_nearest_edge(m: MapDef) -> frozenset[Square]:
    """Outside grid squares whose nearest outside-facing map edge is a land border."""
    edges = _outside_edges(m)
    if not edges or not m.land_borders:
        return frozenset()
    mids = np.array(
        [(e.x + 0.5 + e.side.delta[0] / 2, e.y + 0.5 + e.side.delta[1] / 2) for e in edges]
    )
    border = np.array([e in m.land_borders for e in edges])
    outside = [(x, y) for y in range(m.height) for x in range(m.width) if (x, y) not in m.land]
    if not outside:
        return frozenset()
    centres = np.array(outside, dtype=np.float64) + 0.5
    d = ((centres[:, None, :] - mids[None, :, :]) ** 2).sum(axis=2)
    best = d.min(axis=1)
    # A tie (a square as near to a land border as to the sea) goes to the land: clouds are land.
    near_border = np.where(border[None, :], d, np.inf).min(axis=1) <= best + 1e-9
    return frozenset(sq for sq, yes in zip(outside, near_border, strict=True) if yes)


def _label_point(area: BaseGeometry) -> tuple[float, float] | None:
    """The middle of the biggest part of ``area`` (pole of inaccessibility), if big enough."""
    parts = [p for p in shapely.get_parts(area) if p.area >= MIN_LABEL_AREA]
    if not parts:
        return None
    biggest = max(parts, key=lambda p: p.area)
    point = polylabel(biggest, tolerance=0.05)
    return float(point.x), float(point.y)


def _grid_box(m: MapDef) -> BaseGeometry:
    return shapely.box(0, 0, m.width, m.height)


def _geography(m: MapDef) -> Backdrop | None:
    """The backdrop from the real outlines, or ``None`` when the map has no projection or the geo
    data is not installed."""
    try:
        proj = projection_of(m)
        countries = countries_in_grid(proj, m.width, m.height)
    except GeoDataError:
        return None
    if not countries:
        return None
    own_squares = _squares_geometry(m.land)
    # The map's own countries: those mostly under its squares (Benelux has three).
    own = [g for _, g in countries if g.intersection(own_squares).area >= 0.5 * g.area]
    land = shapely.union_all([g for _, g in countries])
    outside = [(x, y) for y in range(m.height) for x in range(m.width) if (x, y) not in m.land]
    neighbours_only = shapely.union_all(
        [g for g in (c for _, c in countries) if not any(g is o for o in own)]
    )
    if outside and not neighbours_only.is_empty:
        boxes = shapely.box(*np.array([(x, y, x + 1, y + 1) for x, y in outside]).T)
        share = shapely.area(shapely.intersection(boxes, neighbours_only))
        neighbour_squares = frozenset(sq for sq, a in zip(outside, share, strict=True) if a >= 0.5)
    else:
        neighbour_squares = frozenset()
    keep_clear = own_squares.union(_squares_geometry(cloud_squares(m))).buffer(0.1)
    labels = []
    language = m.editor.get(LANGUAGE_KEY)
    shown = local_country_names(
        [n for n, _ in countries], language if isinstance(language, str) else None
    )
    for name, geom in countries:
        if any(geom is o for o in own):
            continue
        point = _label_point(geom.difference(keep_clear))
        if point is not None:
            labels.append(NeighbourLabel(shown[name], *point))
    coast = shapely.intersection(land.boundary, _grid_box(m).buffer(-1e-6))
    return Backdrop("geography", land, coast, neighbour_squares, tuple(labels))


def _squares(m: MapDef) -> Backdrop:
    neighbour_squares = _by_nearest_edge(m)
    # The neighbours' corners rounded off (an opening: never more land than the squares), so
    # they read as coast, not as squares; the map's own squares are land whole.
    # A frame of land around the grid keeps the corners at the grid's edge square: the land goes
    # on beyond the sheet there.
    land = _squares_geometry(m.land)
    if neighbour_squares:
        grid = _grid_box(m)
        frame = grid.buffer(1, join_style="mitre").difference(grid)
        neighbours = _squares_geometry(neighbour_squares).union(frame)
        rounded = neighbours.buffer(-_SMOOTH, join_style="round").buffer(
            _SMOOTH, join_style="round"
        )
        land = rounded.intersection(grid).union(land)
    keep_clear = _squares_geometry(set(m.land) | cloud_squares(m))
    names = neighbour_names(m)
    for edge, feature in m.border_features.items():
        if feature.neighbour:
            names.setdefault(edge, feature.neighbour)
    labels = []
    seen: set[str] = set()
    for name, run in label_runs(names):
        if name in seen:
            continue  # one label per neighbour: its longest run of border
        seen.add(name)
        beyond = _squares_geometry(
            {(e.x + k * e.side.delta[0], e.y + k * e.side.delta[1]) for e in run for k in (1, 2, 3)}
        )
        area = beyond.intersection(_grid_box(m)).difference(keep_clear)
        point = _label_point(area)
        if point is None:
            continue
        labels.append(NeighbourLabel(name, *point))
    return Backdrop("squares", land, shapely.LineString(), neighbour_squares, tuple(labels))


def backdrop_of(m: MapDef) -> Backdrop:
    """The geography around ``m``: from the real outlines when the map came from a country and the
    geo data is installed, else from its land borders (see the module's docstring)."""
    return _geography(m) or _squares(m)
