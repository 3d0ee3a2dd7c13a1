"""New map from country, cleaned up: native and common names, a cropped grid, islands never lost
silently, city candidates without districts or foreign cities, each on its own land."""

from __future__ import annotations

import pytest

from engine.geo.country import (
    GeoDataError,
    _find_country,
    import_country,
    is_district,
    km_for_squares,
    natural_earth_outline,
    snap_to_land,
)
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
    assert [it.neighbours[e] for e in sea] == ["France"]
    assert {it.neighbours[e] for e in it.land_borders} == {
        "France",
        "Switzerland",
        "Austria",
        "Slovenia",
    }
    dk = import_country("Denmark", km=15.0, crop=1, cities=0)
    assert {dk.neighbours[e] for e in dk.land_borders} == {"Germany"}  # Sweden is over the sea
