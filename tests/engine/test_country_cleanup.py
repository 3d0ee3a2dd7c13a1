"""New map from country, cleaned up: native and common names, a cropped grid, islands never lost
silently, city candidates without districts or foreign cities, each on its own land."""

from __future__ import annotations

import pytest

from engine.geo.country import (
    GeoDataError,
    _find_country,
    import_country,
    is_district,
    is_district_of,
    km_for_squares,
    natural_earth_outline,
    snap_to_land,
)
from engine.geo.draft import default_roles
from engine.geometry import orthogonal_neighbours
from engine.islands import land_parts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Italia", "Italy"),
        ("España", "Spain"),
        ("espana", "Spain"),
        ("Polska", "Poland"),
        ("Danmark", "Denmark"),
        ("Suisse", "Switzerland"),
        ("Schweiz", "Switzerland"),
        ("Nippon", "Japan"),
        ("UK", "United Kingdom"),
        ("Holland", "Netherlands"),
        ("Deutschland", "Germany"),
        ("IT", "Italy"),
        ("JPN", "Japan"),
        ("dk", "Denmark"),
    ],
)
def test_native_and_common_names_and_iso_codes(name: str, expected: str) -> None:
    assert _find_country(name).name == expected


def test_unknown_name_still_suggests() -> None:
    with pytest.raises(GeoDataError, match="did you mean"):
        _find_country("Itallie")


def test_import_is_cropped_to_the_land_with_one_square_margin() -> None:
    full = import_country("Japan", km=43.4, cities=0, neighbours=False)
    cropped = import_country("Japan", km=43.4, cities=0, neighbours=False, crop=1)
    m = cropped.map
    xs = [x for x, _ in m.land]
    ys = [y for _, y in m.land]
    assert (min(xs), min(ys), max(xs), max(ys)) == (1, 1, m.width - 2, m.height - 2)
    assert len(m.land) == len(full.map.land)
    assert m.width * m.height < full.map.width * full.map.height
    # The projection moved with the grid: Tokyo is on the same land in both.
    tokyo_full = full.projection.square(139.69, 35.69)
    tokyo = cropped.projection.square(139.69, 35.69)
    assert tokyo in m.land and tokyo_full in full.map.land


def test_bornholm_is_kept_and_small_islands_are_listed() -> None:
    outline = natural_earth_outline("Denmark")
    assert any(p.centroid.x > 14.5 for p in outline.geoms)  # no longer dropped as "overseas"
    result = import_country("Denmark", km=25.0, crop=1, keep_small_parts=True)
    bornholm = result.projection.square(14.9, 55.12)
    parts = land_parts(result.map)
    assert any(bornholm in p for p in parts)
    assert any("too small; left out" in n or "kept as square" in n for n in result.notes)


def test_city_candidates_are_cleaned() -> None:
    ch = import_country("Switzerland", km=14.8, crop=1)
    names = [c.name for c in ch.cities]
    assert "Konstanz" not in names and not any("Kreis" in n for n in names)
    assert any(n.startswith("Konstanz: a city of DE") for n in ch.notes)
    assert any("Kreis" in n and "district" in n for n in ch.notes)
    assert {"Zürich", "Geneva", "Basel", "Bern"} <= set(names)
    it = import_country("Italy", km=30.0, crop=1, cities=150)
    by_name = {c.name: c for c in it.cities}
    parts = land_parts(it.map)
    sicily = next(p for p in parts if by_name["Palermo"].square in p)
    assert by_name["Messina"].square in sicily  # not snapped across the strait
    assert all(c.square in it.map.land for c in it.cities)
    assert len({c.square for c in it.cities}) == len(it.cities)
    # Two cities on one square: one moves next to it or is said to be left out.
    for note in it.notes:
        if note.startswith("city names in the local language (Italian)"):
            continue
        assert "moved to" in note or "left out" in note or "island" in note
    assert not any(n.startswith("Acilia") for n in by_name)  # a suburb of Rome
    assert by_name["Venezia"].square != by_name["Padova"].square  # neither lost silently
    assert any(n.startswith("Venezia: square") and "moved to" in n for n in it.notes)


def test_is_district() -> None:
    assert is_district("Zürich (Kreis 11)") and is_district("Suginami-ku")
    assert not is_district("Kreuzlingen") and not is_district("Bern")


def test_snap_to_land() -> None:
    land = {(2, 2), (5, 5)}
    assert snap_to_land((2.5, 2.5), land) == (2, 2)
    assert snap_to_land((3.9, 3.9), land) == (2, 2)
    assert snap_to_land((40.0, 40.0), land) is None


def test_size_from_a_target_number_of_squares() -> None:
    outline = natural_earth_outline("Poland")
    km = km_for_squares(outline, 184)
    n = len(import_country("Poland", km=km, cities=0, neighbours=False).map.land)
    assert abs(n - 184) <= 8


def test_land_borders_only_where_the_countries_meet() -> None:
    it = import_country("Italy", km=40.4, crop=1, cities=0)
    sea = {e for e in it.neighbours if e not in it.land_borders}
    # Sardinia's edge facing Corsica names France but faces the sea; the Alps are land borders.
    assert [it.neighbours[e] for e in sea] == ["Francia"]  # named in the map's language
    assert {it.neighbours[e] for e in it.land_borders} == {
        "Francia",
        "Svizzera",
        "Austria",
        "Slovenia",
    }
    dk = import_country("Denmark", km=15.0, crop=1, cities=0)
    assert {dk.neighbours[e] for e in dk.land_borders} == {"Tyskland"}  # Sweden is over the sea


@pytest.fixture(scope="module")
def sweden():
    return import_country("Sverige", squares=184, crop=1, keep_small_parts=True)


@pytest.fixture(scope="module")
def czechia():
    return import_country("Czechia", squares=184, crop=1, keep_small_parts=True, cities=60)


def test_separate_towns_near_a_big_city_are_kept_and_districts_are_not(czechia, sweden) -> None:
    cz = {c.name for c in czechia.cities}
    se = {c.name for c in sweden.cities}
    # Towns of their own, 7-30 km from a bigger city (issue #27): no longer "districts".
    assert {"Kladno", "Orlová"} <= cz and "Södertälje" in se
    for imp in (czechia, sweden):
        assert not any(
            n.startswith(("Kladno", "Orlová", "Södertälje")) and "left out" in n for n in imp.notes
        )
    # Districts inside the bigger city's area still go, and the note says whose and how far.
    assert not {"Žižkov", "Smíchov"} & cz and not {"Södermalm", "Solna"} & se
    note = next(n for n in czechia.notes if n.startswith("Žižkov:"))
    assert "within Praha's built-up area" in note and "km from its centre" in note


def test_is_district_of_uses_the_bigger_citys_size() -> None:
    assert is_district_of(3.0, 58_000, 1_165_000)  # Žižkov, Praha
    assert not is_district_of(24.0, 70_000, 1_165_000)  # Kladno
    assert not is_district_of(3.0, 500_000, 1_165_000)  # a big neighbour stays a city
    assert not is_district_of(7.0, 27_500, 82_768)  # Orlová beside Havířov (a 4 km core)


def test_an_island_along_the_coast_gets_a_square_of_its_own(sweden) -> None:
    # Öland (137 km long) only added a little land to the mainland's squares and vanished.
    note = next(n for n in sweden.notes if n.startswith("island at 56.") and "16." in n)
    assert "kept as square" in note
    sq = tuple(int(v) for v in note.rsplit("(", 1)[1].rstrip(")").split(", "))
    assert sq in sweden.map.land
    west, north = sweden.projection.lonlat(sq[0], sq[1])
    east, south = sweden.projection.lonlat(sq[0] + 1, sq[1] + 1)
    # Over Öland (16.4-17.1°E, 56.2-57.4°N) and east of the mainland's coast (16.4°E at Kalmar).
    assert 16.3 < west < 17.1 and south < 57.3 and north > 56.3


@pytest.mark.parametrize("name", ["Sverige", "Nederland", "Japan", "Norge"])
def test_roles_follow_population(name: str) -> None:
    imp = import_country(name, squares=184, crop=1, keep_small_parts=True)
    roles = default_roles(imp.map, imp.cities)
    large = [c.population for c, r in zip(imp.cities, roles, strict=True) if r == "large city"]
    towns = [
        c
        for c, r in zip(imp.cities, roles, strict=True)
        if r == "town" and any(n in imp.map.land for n in orthogonal_neighbours(c.square))
    ]
    assert len(large) >= 2
    # No town is bigger than a large city (Malmö, Sweden's third city, was a town).
    assert all(t.population < min(large) for t in towns), [t.name for t in towns][:3]
    if name == "Sverige":
        assert roles[[c.name for c in imp.cities].index("Malmö")] == "large city"
    if name == "Nederland":  # beside Rotterdam's large city: a start square, not a town
        assert roles[[c.name for c in imp.cities].index("Den Haag")] == "start square"
