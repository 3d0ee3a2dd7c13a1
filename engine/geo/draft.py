"""A playable first draft from a country import: roles, border features, ferries, tile pool.

:func:`default_roles` gives each city candidate a role (large city, start square, town or none):
large cities are the biggest cities not next to one another, start squares are spread over the
main land, towns follow. :func:`make_draft` then puts everything on the imported map:

* large cities (one square, open towards the land around them) and towns;
* start squares, spread over the biggest part (as far from one another as the candidates allow);
* border roads (a city for a big city abroad) where the country's biggest neighbouring cities lie
  close to the border: the road goes out at the border edge nearest to that city. No installable
  data has roads (Natural Earth's roads layer ships in no PyPI, npm or Debian package), so this
  stands in for the real crossings; :func:`engine.geo.places.border_feature_at` puts one at a named
  crossing;
* ferries from the reached land to every island part (shortest sea crossings);
* a tile pool that suits the number of placeable squares (:func:`engine.gridshape.default_tile_pool`);
* the land borders (clouds) and the neighbour names along them.

Whatever the validator still rejects is taken out again (a border feature no tile can meet) so the
result validates without errors; :class:`Draft` lists every such choice in ``notes``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.geo.country import (
    DISTRICT_KM,
    CityCandidate,
    CountryImport,
    is_district,
    neighbours_to_editor,
    world_cities,
)
from engine.geo.countrynames import LANGUAGE_KEY
from engine.geo.places import set_projection
from engine.geometry import Edge, Side, Square, all_neighbours, orthogonal_neighbours
from engine.gridshape import default_tile_pool
from engine.islands import land_parts, suggest_ferries
from engine.mapdef import BorderFeature, EdgeKind, LargeCity, MapDef, StartSquare, Town
from engine.validation import Severity, validate_map

__all__ = [
    "ROLES",
    "Draft",
    "border_crossings",
    "default_roles",
    "keep_import_settings",
    "make_draft",
]

ROLES = ("large city", "start square", "town", "ignore")
BORDER_CITY_POPULATION = 500_000
"""A city abroad this big gets a border city rather than a border road."""
BORDER_REACH_KM = 80.0
"""Neighbouring cities farther than this from the border get no border feature."""
START_GAP = 4.0
"""Start squares given to cities beside a bigger large city stay this many squares apart."""


@dataclass
class Draft:
    """A drafted map and what was decided on the way."""

    map: MapDef
    notes: list[str] = field(default_factory=list)


def _slug(name: str) -> str:
    return "".join(c for c in name.casefold() if c.isalnum()) or "city"


def _open_sides(m: MapDef, sq: Square) -> int:
    return sum(1 for n in orthogonal_neighbours(sq) if n in m.land)


def default_roles(
    m: MapDef,
    cities: Sequence[CityCandidate],
    *,
    large: int | None = None,
    starts: int = 3,
    towns: int | None = None,
) -> list[str]:
    """A role (see :data:`ROLES`) for each candidate, in order (biggest city first).

    ``large`` defaults to one per 35 squares (2..6), ``towns`` to one per 8 squares (at most 25).
    Roles follow population: the biggest cities become large cities, in order, unless one would
    touch a bigger large city (diagonals included). Such a city, bigger than the large cities
    after it, becomes a start square rather than a town (Den Haag beside Rotterdam); the other
    start squares are picked among the biggest remaining candidates on the biggest part, the set
    whose closest two are farthest apart. A large city needs one land square beside it (Malmö on
    its cape), a start square two.
    """
    n = len(m.land)
    large = max(2, min(6, round(n / 35))) if large is None else large
    towns = min(25, max(3, round(n / 8))) if towns is None else towns
    roles = ["ignore"] * len(cities)
    parts = land_parts(m)
    main = parts[0] if parts else set()

    def can_start(i: int) -> bool:
        return cities[i].square in main and _open_sides(m, cities[i].square) >= 2

    chosen: set[Square] = set()
    forced: list[int] = []  # start squares for cities kept from being large by a bigger one
    for i, c in enumerate(cities):
        if len(chosen) >= large:
            break
        if c.square not in m.land or _open_sides(m, c.square) < 1:
            continue
        if not any(nb in chosen for nb in all_neighbours(c.square)):
            roles[i] = "large city"
            chosen.add(c.square)
        elif (
            can_start(i)
            and len(forced) < starts
            and all(math.dist(c.square, cities[f].square) >= START_GAP for f in forced)
        ):
            forced.append(i)
        elif len(chosen) >= 2:
            break  # no smaller city becomes large while this one would be a town
    pool = [
        i for i in range(len(cities)) if roles[i] == "ignore" and i not in forced and can_start(i)
    ][: max(starts, 12)]
    wanted = starts - len(forced)
    if len(pool) >= wanted and starts > 0:

        def spread(combo: tuple[int, ...]) -> tuple[float, int]:
            pts = [cities[i].square for i in (*forced, *combo)]
            closest = min((math.dist(a, b) for a, b in itertools.combinations(pts, 2)), default=0.0)
            return (closest, -sum(combo))

        for i in (*forced, *max(itertools.combinations(pool, wanted), key=spread)):
            roles[i] = "start square"
    left = towns
    for i in range(len(cities)):
        if left <= 0:
            break
        if roles[i] == "ignore" and cities[i].square in m.land:
            roles[i] = "town"
            left -= 1
    return roles


def _apply_roles(m: MapDef, cities: Sequence[CityCandidate], roles: Sequence[str]) -> None:
    for city, role in zip(cities, roles, strict=True):
        sq = city.square
        if sq not in m.land or m.city_at(sq) or sq in m.start_squares or sq in m.towns:
            continue
        if role == "large city":
            cid = _slug(city.name)
            while cid in m.large_cities:
                cid += "-2"
            edges = {
                e: EdgeKind.CITY
                for e in LargeCity(cid, city.name, {sq}).outer_edges()
                if e.outer_square in m.land and m.city_at(e.outer_square) is None
            }
            m.large_cities[cid] = LargeCity(cid, city.name, {sq}, 2, edges)
        elif role == "start square":
            m.start_squares[sq] = StartSquare(city.name)
        elif role == "town":
            m.towns[sq] = Town(city.name)


def border_crossings(
    imp: CountryImport, *, reach_km: float = BORDER_REACH_KM
) -> list[tuple[Edge, str, str, int]]:
    """Where roads run abroad: ``(edge, neighbour, city abroad, its population)``, biggest first.

    For each neighbouring country, its biggest cities within ``reach_km`` of the map's land
    border with it; each is given the land-border edge facing that neighbour nearest to it
    (one per edge, at least three squares apart).
    Needs the geo extra (city data).
    """
    if not imp.neighbours:
        return []
    coords, info = world_cities()
    proj = imp.projection
    px, py = proj.project(coords[:, 0], coords[:, 1])
    fx, fy = (px - proj.x0) / proj.km, (py - proj.y0) / proj.km
    by_name: dict[str, list[Edge]] = {}
    for e, name in imp.neighbours.items():
        if e in imp.land_borders:  # roads cross land borders, not the sea
            by_name.setdefault(name, []).append(e)
    reach = reach_km / proj.km
    out: list[tuple[Edge, str, str, int]] = []
    used: set[Edge] = set()
    own = {c.upper() for c in imp.countries}
    seen_km: list[tuple[float, float]] = []
    for name, edges in sorted(by_name.items()):
        mids = [
            (e, e.x + 0.5 + e.side.delta[0] / 2, e.y + 0.5 + e.side.delta[1] / 2) for e in edges
        ]
        xs = [x for _, x, _ in mids]
        ys = [y for _, _, y in mids]
        x0, x1, y0, y1 = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
        for k in range(len(info)):  # biggest first
            x, y = float(fx[k]), float(fy[k])
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                continue
            sq = (math.floor(x), math.floor(y))
            if sq in imp.map.land or info[k].country.upper() in own:
                continue
            if imp.outside.get(sq) != name or is_district(info[k].name):
                continue
            if any(math.hypot(x - a, y - b) * proj.km < DISTRICT_KM for a, b in seen_km):
                continue  # a suburb of a bigger city abroad already considered
            seen_km.append((x, y))
            free = [
                (math.hypot(mx - x, my - y), e)
                for e, mx, my in mids
                if not any(abs(e.x - u.x) + abs(e.y - u.y) <= 2 for u in used)
            ]
            if not free:
                break
            d, edge = min(free)
            if d > reach:
                continue
            used.add(edge)
            out.append((edge, name, info[k].shown(), info[k].population))
    out.sort(key=lambda t: (-t[3], t[0]))
    return out


def keep_import_settings(m: MapDef, imp: CountryImport) -> None:
    """What an import leaves on its map: land borders where neighbours are, their names, the
    language of its names (for the print's neighbour labels) and the projection (editor settings, for the place helpers of :mod:`engine.geo.places`)."""
    m.land_borders = set(imp.land_borders)
    if imp.language:
        m.editor[LANGUAGE_KEY] = imp.language
    if imp.neighbours:
        m.editor["neighbours"] = neighbours_to_editor(imp.neighbours)
    set_projection(m, imp.projection)


def make_draft(
    imp: CountryImport,
    *,
    roles: Sequence[str] | None = None,
    starts: int = 3,
    border_features: int | None = None,
) -> Draft:
    """A playable draft map from an import (see the module docstring). ``roles`` overrides
    :func:`default_roles`; ``border_features`` caps the border roads/cities (default: one per
    four border edges of each neighbour, at least one, at most 4 per neighbour)."""
    m = imp.map.copy()
    notes = list(imp.notes)
    keep_import_settings(m, imp)
    cities = imp.cities
    roles = list(roles) if roles is not None else default_roles(m, cities, starts=starts)
    _apply_roles(m, cities, roles)
    for city in m.large_cities.values():
        sq = next(iter(city.squares))
        sea = [s for s in Side if m.faces_outside(Edge(*sq, s))]
        if sea:
            notes.append(
                f"large city {city.name}: side(s) {', '.join(sea)} face the outside, left closed"
            )
    # Border roads and cities.
    per_name: dict[str, int] = {}
    for name in imp.neighbours.values():
        per_name[name] = per_name.get(name, 0) + 1
    placed: dict[str, int] = {}
    crossings = border_crossings(imp) if imp.neighbours else []
    for edge, name, abroad, population in crossings:
        cap = border_features or max(1, min(4, per_name[name] // 4))
        if placed.get(name, 0) >= cap:
            continue
        sq = edge.square
        if sq not in m.placeable_squares() or sq in m.start_squares:
            continue
        if any(e.square == sq for e in m.border_features):
            continue
        kind = EdgeKind.CITY if population >= BORDER_CITY_POPULATION else EdgeKind.ROAD
        m.border_features[edge] = BorderFeature(kind, 1, name)
        placed[name] = placed.get(name, 0) + 1
        notes.append(f"border {kind.value} to {abroad} ({name}) at {edge}")
    # Ferries to every part not reached by land.
    for ferry in suggest_ferries(m):
        m.ferries[ferry.id] = ferry
        notes.append(f"ferry {ferry.id} from {ferry.a} to {ferry.b}")
    lo, hi = default_tile_pool(len(m.placeable_squares()))
    m.setup.tile_pool_min, m.setup.tile_pool_max = lo, hi
    m.setup.chip_count = 0
    # Take out what the validator cannot accept, element by element.
    for _ in range(20):
        errors = [i for i in validate_map(m) if i.severity is Severity.ERROR]
        if not errors:
            break
        if not _repair(m, errors, notes):
            notes += [f"still an error: {e}" for e in errors]
            break
    return Draft(m, notes)


def _repair(m: MapDef, errors: Sequence[object], notes: list[str]) -> bool:
    """Remove an element named by one of ``errors``; False when none can be."""
    for issue in errors:
        where = getattr(issue, "where", None)
        squares = set(getattr(where, "squares", ()) or ())
        for edge in list(m.border_features):
            if edge.square in squares:
                del m.border_features[edge]
                notes.append(f"border feature at {edge} taken out: {issue}")
                return True
        for fid, ferry in list(m.ferries.items()):
            if ferry.a.square in squares or ferry.b.square in squares:
                del m.ferries[fid]
                notes.append(f"ferry {fid} taken out: {issue}")
                return True
        for cid, city in list(m.large_cities.items()):
            near = {n for sq in city.squares for n in orthogonal_neighbours(sq)}
            if city.squares & squares or near & squares:
                del m.large_cities[cid]
                notes.append(f"large city {city.name} taken out: {issue}")
                return True
    return False
