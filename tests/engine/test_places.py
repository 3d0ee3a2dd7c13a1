"""Place helpers on an imported map: find a real place, snap it to land, put a border road at a
named crossing or nearest a longitude/latitude."""

from __future__ import annotations

import pytest

from engine.geo.country import GeoDataError, import_country
from engine.geo.draft import keep_import_settings
from engine.geo.places import border_feature_at, find_place, projection_of, snap_place
from engine.mapdef import EdgeKind, MapDef


@pytest.fixture(scope="module")
def italy() -> MapDef:
    imp = import_country("Italy", km=40.0, crop=1, cities=0)
    m = imp.map
    keep_import_settings(m, imp)
    return m


def test_find_place_by_local_or_english_name() -> None:
    # found by any of its names, given back under its local one
    assert find_place("München")[0] == "München"
    assert find_place("Munich")[0] == "München"
    assert find_place("Milan")[0] == "Milano"
    assert find_place("Roma", ("IT",))[0] == "Roma"
    with pytest.raises(GeoDataError, match="no place called"):
        find_place("Atlantisstadt")


def test_border_road_at_a_named_crossing_faces_that_neighbour(italy: MapDef) -> None:
    edge, feature = border_feature_at(italy, "Innsbruck")
    assert feature.neighbour == "Austria" and feature.kind is EdgeKind.ROAD
    assert edge in italy.land_borders
    edge2, city = border_feature_at(italy, (7.0, 45.9), kind=EdgeKind.CITY, neighbour="Francia")
    assert city.neighbour == "Francia" and city.kind is EdgeKind.CITY and edge2 != edge


def test_snap_place_to_land(italy: MapDef) -> None:
    venice = snap_place(italy, 12.33, 45.44)  # on the lagoon
    assert venice in italy.placeable_squares()
    assert snap_place(italy, 40.0, 10.0) is None  # nowhere near


def test_a_map_without_projection_says_so() -> None:
    with pytest.raises(GeoDataError, match="no saved projection"):
        projection_of(MapDef(id="x", name="X", width=1, height=1))
