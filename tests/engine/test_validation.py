"""engine.validation: one test per issue code, each with a case that finds it and one that must not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from test_mapio import map_defs  # the MapDef strategy (tests/engine is on sys.path)

from engine.chips import feasibility
from engine.geometry import Edge, Side
from engine.mapdef import (
    BorderFeature,
    Colour,
    EdgeKind,
    Ferry,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    NamedRuleSet,
    Setup,
    StartSquare,
    Town,
    Track,
)
from engine.mapio import dumps_map, map_to_dict, read_map
from engine.resources import shipped_maps
from engine.validation import (
    CODES,
    Issue,
    Severity,
    Where,
    land_parts,
    reachable_squares,
    validate_map,
)

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def base() -> MapDef:
    """An 8x6 all-land map with two start squares: valid, no issues."""
    return MapDef(
        id="base",
        name="Base",
        width=8,
        height=6,
        setup=Setup(start_squares_used=2, chip_count=0, tile_pool_min=10, tile_pool_max=20),
        land={(x, y) for x in range(8) for y in range(6)},
        start_squares={(1, 1): StartSquare("A"), (6, 4): StartSquare("B")},
    )


def with_city(m: MapDef, squares: set[tuple[int, int]], edges: dict[Edge, EdgeKind]) -> MapDef:
    m.large_cities["c"] = LargeCity("c", "Citta", set(squares), 1, dict(edges))
    return m


def codes(m: MapDef, **kw: object) -> list[str]:
    return [i.code for i in validate_map(m, **kw)]  # type: ignore[arg-type]


def only(m: MapDef, code: str, **kw: object) -> list[Issue]:
    return [i for i in validate_map(m, **kw) if i.code == code]  # type: ignore[arg-type]


def test_base_map_is_clean() -> None:
    assert validate_map(base()) == []


# -- load time -------------------------------------------------------------------------------


def test_duplicate_key(tmp_path: Path) -> None:
    text = dumps_map(base())
    p = tmp_path / "dup.json"
    p.write_text(text.replace('"name": "Base",', '"name": "First",\n  "name": "Base",'), "utf-8")
    m, issues = read_map(p)
    assert m.name == "Base"
    assert [(i.code, i.severity) for i in issues] == [("duplicate-key", Severity.WARNING)]
    assert "'name'" in issues[0].message
    p.write_text(text, encoding="utf-8")
    assert read_map(p)[1] == []


@pytest.mark.parametrize("code", ["duplicate-square", "duplicate-edge", "duplicate-id"])
def test_duplicate_codes(tmp_path: Path, code: str) -> None:
    m = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    m.border_features[Edge(0, 0, Side.N)] = BorderFeature(EdgeKind.ROAD)
    data = map_to_dict(m)
    clean = tmp_path / "clean.json"
    clean.write_text(dumps_map(m), encoding="utf-8")
    assert read_map(clean)[1] == []
    if code == "duplicate-square":
        data["start_squares"].append(dict(data["start_squares"][0]))
    elif code == "duplicate-edge":
        data["border_features"].append(dict(data["border_features"][0]))
    else:
        data["large_cities"].append(dict(data["large_cities"][0]))
    p = tmp_path / "dup.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    _, issues = read_map(p)
    assert [i.code for i in issues] == [code]
    assert CODES[code].severity is Severity.WARNING


# -- grid and squares --------------------------------------------------------------------------


def test_no_squares() -> None:
    m = base()
    m.land = set()
    m.start_squares = {}
    assert "no-squares" in codes(m)
    assert "no-squares" not in codes(base())


def test_outside_grid() -> None:
    m = base()
    m.land.add((9, 2))
    m.towns[(-1, 0)] = Town("Far")
    m.border_features[Edge(20, 0, Side.N)] = BorderFeature(EdgeKind.ROAD)
    m.tracks[1] = Track(1, (0, 7))
    m.isle_of_man = (30, 30)
    found = only(m, "outside-grid")
    assert len(found) == 5
    assert found[0].where.squares == ((9, 2),)
    assert any(i.where.edges == (Edge(20, 0, Side.N),) for i in found)
    assert any("track 1" in i.message and "7" in i.message for i in found)
    ok = base()
    ok.isle_of_man = (7, 5)
    assert "outside-grid" not in codes(ok)


def test_not_a_map_square() -> None:
    m = base()
    m.land.discard((4, 4))
    m.towns[(4, 4)] = Town("Sunk")
    found = only(m, "not-a-map-square")
    assert [i.where.squares for i in found] == [((4, 4),)]
    assert "town 'Sunk'" in found[0].message
    ok = base()
    ok.towns[(4, 4)] = Town("Dry")
    assert "not-a-map-square" not in codes(ok)


def test_element_on_blocked_square() -> None:
    m = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    m.towns[(3, 2)] = Town("Inside")
    m.waves.add((5, 5))
    m.chip_squares[(5, 5)] = Colour.ORANGE
    found = only(m, "element-on-blocked-square")
    assert {i.where.squares for i in found} == {((3, 2),), ((5, 5),)}
    ok = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    ok.towns[(2, 2)] = Town("Beside")
    assert "element-on-blocked-square" not in codes(ok)


def test_element_conflict() -> None:
    m = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    m.waves.add((3, 2))
    found = only(m, "element-conflict")
    assert found[0].where.squares == ((3, 2),)
    assert "large city 'c' and wave" in found[0].message
    ok = base()
    ok.waves.add((3, 2))
    assert "element-conflict" not in codes(ok)


# -- setup -----------------------------------------------------------------------------------


def test_too_few_start_squares() -> None:
    m = base()
    del m.start_squares[(6, 4)]
    assert "too-few-start-squares" in codes(m)
    m = base()
    m.setup.start_squares_used = 3
    found = only(m, "too-few-start-squares")
    assert "setup uses 3" in found[0].message
    assert "too-few-start-squares" not in codes(base())


def test_setup_start_squares_used() -> None:
    m = base()
    m.start_squares.update({(3, 3): StartSquare("C"), (5, 1): StartSquare("D")})
    m.setup.start_squares_used = 4
    assert only(m, "setup-start-squares-used")[0].severity is Severity.WARNING
    assert "setup-start-squares-used" not in codes(base())


def test_setup_tile_pool_range() -> None:
    m = base()
    m.setup.tile_pool_min = 30
    assert "setup-tile-pool-range" in codes(m)
    assert "setup-tile-pool-range" not in codes(base())


def test_tile_pool_too_large() -> None:
    m = base()
    m.setup.tile_pool_max = 49  # 48 placeable squares
    assert "48 placeable squares" in only(m, "tile-pool-too-large")[0].message
    m.setup.tile_pool_max = 48
    assert "tile-pool-too-large" not in codes(m)


def test_rule_set_setup() -> None:
    m = base()
    m.rule_set = NamedRuleSet("deutschland")
    m.setup.chip_count = 5
    assert only(m, "rule-set-setup")[0].severity is Severity.WARNING
    m.start_squares[(3, 3)] = StartSquare("C")
    m.setup.chip_count = 30
    m.width = m.height = 12
    m.land = {(x, y) for x in range(12) for y in range(12)}
    m.setup.tile_pool_max = 100
    assert "rule-set-setup" not in codes(m)


# -- border features and ferries ---------------------------------------------------------------


def test_border_feature_not_on_border() -> None:
    m = base()
    m.border_features[Edge(3, 3, Side.N)] = BorderFeature(EdgeKind.ROAD, 1, "Inland")
    found = only(m, "border-feature-not-on-border")
    assert found[0].where.edges == (Edge(3, 3, Side.N),)
    ok = base()
    ok.land.discard((3, 2))
    ok.border_features[Edge(3, 3, Side.N)] = BorderFeature(EdgeKind.ROAD, 1, "Lake")
    ok.border_features[Edge(0, 3, Side.W)] = BorderFeature(EdgeKind.CITY, 2, "Westland")
    assert "border-feature-not-on-border" not in codes(ok)


def test_border_feature_kind() -> None:
    m = base()
    m.border_features[Edge(0, 3, Side.W)] = BorderFeature(EdgeKind.FIELD)
    assert "border-feature-kind" in codes(m)
    m.border_features[Edge(0, 3, Side.W)] = BorderFeature(EdgeKind.ROAD)
    assert "border-feature-kind" not in codes(m)


def lake_map() -> MapDef:
    """Base map with a 2x2 lake at (3..4, 2..3) for ferries."""
    m = base()
    m.land -= {(3, 2), (4, 2), (3, 3), (4, 3)}
    return m


def test_ferry_endpoint_not_on_border() -> None:
    m = lake_map()
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(6, 2, Side.E))
    found = only(m, "ferry-endpoint-not-on-border")
    assert found[0].where.ferry == "f"
    assert found[0].where.edges == (Edge(6, 2, Side.E),)
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(5, 2, Side.W))
    assert "ferry-endpoint-not-on-border" not in codes(m)


def test_ferry_endpoint_on_land_border() -> None:
    m = base()
    m.ferries["f"] = Ferry("f", Edge(0, 2, Side.W), Edge(7, 2, Side.E))
    m.land_borders = {Edge(7, 2, Side.E), Edge(7, 3, Side.E)}
    found = only(m, "ferry-endpoint-on-land-border")
    assert [(i.severity, i.where.ferry, i.where.edges) for i in found] == [
        (Severity.ERROR, "f", (Edge(7, 2, Side.E),))
    ]
    assert "'f'" in found[0].message and str(Edge(7, 2, Side.E)) in found[0].message
    # the same ferry to an edge facing the sea is fine, and the sea edge is not flagged
    m.ferries["f"] = Ferry("f", Edge(0, 2, Side.W), Edge(7, 4, Side.E))
    assert "ferry-endpoint-on-land-border" not in codes(m)


def test_shipped_ferries_cross_the_sea() -> None:
    checked = 0
    for path in shipped_maps():
        m, _ = read_map(path)
        if m.ferries and m.land_borders:  # France and Ibérica have both
            checked += 1
            assert "ferry-endpoint-on-land-border" not in codes(m), path.name
    assert checked >= 2


def test_ferry_endpoints_coincide() -> None:
    m = lake_map()
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(2, 2, Side.E))
    assert "ferry-endpoints-coincide" in codes(m)
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(2, 3, Side.E))
    assert "ferry-endpoints-coincide" not in codes(m)


def test_ferry_endpoint_shared() -> None:
    m = lake_map()
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(5, 2, Side.W))
    m.ferries["g"] = Ferry("g", Edge(2, 2, Side.E), Edge(5, 3, Side.W))
    found = only(m, "ferry-endpoint-shared")
    assert found[0].where.ferry == "g"
    m.ferries["g"] = Ferry("g", Edge(2, 3, Side.E), Edge(5, 3, Side.W))
    assert "ferry-endpoint-shared" not in codes(m)


def test_ferry_crosses_land() -> None:
    m = base()
    m.land -= {(2, 2), (5, 2)}  # two ponds with land between them
    m.ferries["f"] = Ferry("f", Edge(1, 2, Side.E), Edge(6, 2, Side.W))
    found = only(m, "ferry-crosses-land")
    assert found[0].severity is Severity.WARNING
    m2 = lake_map()
    m2.ferries["f"] = Ferry("f", Edge(2, 2, Side.E), Edge(5, 3, Side.W))
    assert "ferry-crosses-land" not in codes(m2)


# -- large cities ----------------------------------------------------------------------------


def test_city_empty() -> None:
    m = with_city(base(), set(), {})
    assert "city-empty" in codes(m)
    assert "city-empty" not in codes(
        with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    )


def test_city_not_contiguous() -> None:
    m = with_city(base(), {(3, 2), (5, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    assert only(m, "city-not-contiguous")[0].where.city == "c"
    ok = with_city(base(), {(3, 2), (4, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    assert "city-not-contiguous" not in codes(ok)


def test_city_edge_not_outer() -> None:
    m = with_city(
        base(),
        {(3, 2), (4, 2)},
        {Edge(3, 2, Side.E): EdgeKind.CITY, Edge(3, 2, Side.W): EdgeKind.CITY},
    )
    found = only(m, "city-edge-not-outer")
    assert found[0].where.edges == (Edge(3, 2, Side.E),)
    assert "internal edge" in found[0].message
    m2 = with_city(
        base(),
        {(3, 2)},
        {Edge(0, 0, Side.E): EdgeKind.ROAD, Edge(3, 2, Side.W): EdgeKind.CITY},
    )
    assert "not one of its squares" in only(m2, "city-edge-not-outer")[0].message
    ok = with_city(base(), {(3, 2), (4, 2)}, {Edge(4, 2, Side.E): EdgeKind.CITY})
    assert "city-edge-not-outer" not in codes(ok)


def test_city_edges_disagree() -> None:
    m = with_city(
        base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY, Edge(3, 2, Side.E): EdgeKind.CITY}
    )
    m.large_cities["d"] = LargeCity("d", "Other", {(4, 2)}, 0, {Edge(4, 2, Side.E): EdgeKind.CITY})
    found = only(m, "city-edges-disagree")
    assert found[0].where.edges == (Edge(3, 2, Side.E), Edge(4, 2, Side.W))
    assert "city on edge" in found[0].message and "field" in found[0].message
    m.large_cities["d"].edges[Edge(4, 2, Side.W)] = EdgeKind.CITY
    assert "city-edges-disagree" not in codes(m)


def test_city_unconnectable() -> None:
    m = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.ROAD})
    assert only(m, "city-unconnectable")[0].where.city == "c"
    m = base()
    m.land.discard((2, 2))  # the open side faces the outside
    m = with_city(m, {(3, 2)}, {Edge(3, 2, Side.W): EdgeKind.CITY})
    assert "city-unconnectable" in codes(m)
    ok = with_city(base(), {(3, 2)}, {Edge(3, 2, Side.N): EdgeKind.CITY})
    assert "city-unconnectable" not in codes(ok)


# -- reachability ----------------------------------------------------------------------------


def test_unreachable_square() -> None:
    m = base()
    m.land -= {(x, 3) for x in range(8)}  # cut the map in two
    m.start_squares = {(1, 1): StartSquare("A"), (6, 1): StartSquare("B")}
    found = only(m, "unreachable-square")
    assert len(found) == 1
    assert set(found[0].where.squares) == {(x, y) for x in range(8) for y in (4, 5)}
    # A ferry across the cut makes them reachable.
    m.ferries["f"] = Ferry("f", Edge(2, 2, Side.S), Edge(2, 4, Side.N))
    assert "unreachable-square" not in codes(m)


def test_reachability_through_a_large_city() -> None:
    m = base()
    # A wall of waves with a city in it: the far side is reachable only through the city.
    m.waves |= {(x, 3) for x in range(8) if x != 4}
    m.start_squares = {(1, 1): StartSquare("A"), (6, 1): StartSquare("B")}
    m.setup.tile_pool_max = 10
    m = with_city(m, {(4, 3)}, {Edge(4, 3, Side.N): EdgeKind.CITY})
    assert "unreachable-square" not in codes(m)
    assert (4, 5) in reachable_squares(m)
    del m.large_cities["c"]
    m.waves.add((4, 3))
    assert "unreachable-square" in codes(m)


def gated_map(with_ferry: bool) -> MapDef:
    m = base()
    m.land -= {(x, 4) for x in range(8)}
    m.land -= {(x, 5) for x in range(3, 8)}
    m.islands["bal"] = Island(
        "bal",
        "Balearics",
        Colour.PURPLE,
        {(0, 5): IslandSquare(IslandRole.GATED, 2), (1, 5): IslandSquare(IslandRole.GATED)},
    )
    m.start_squares = {(1, 1): StartSquare("A"), (6, 1): StartSquare("B")}
    m.land.add((2, 5))  # plain land next to the gated squares: reached only through them
    if with_ferry:
        m.ferries["f"] = Ferry("f", Edge(0, 3, Side.S), Edge(0, 5, Side.N), 1)
    return m


def test_gated_without_ferry() -> None:
    m = gated_map(with_ferry=False)
    found = only(m, "gated-without-ferry")
    assert found[0].where.island == "bal"
    assert set(found[0].where.squares) == {(0, 5), (1, 5)}
    # (2, 5) can only be reached through the gated squares: unreachable, reported once.
    assert [i.where.squares for i in only(m, "unreachable-square")] == [((2, 5),)]
    ok = gated_map(with_ferry=True)
    assert "gated-without-ferry" not in codes(ok)
    assert "unreachable-square" not in codes(ok)


def test_gated_squares_are_not_entered_by_land() -> None:
    m = base()
    m.islands["bal"] = Island("bal", "B", None, {(4, 5): IslandSquare(IslandRole.GATED)})
    assert (4, 5) not in reachable_squares(m)
    assert "gated-without-ferry" in codes(m)


# -- tiles -------------------------------------------------------------------------------------


def test_unsatisfiable_square_with_injected_signatures() -> None:
    m = base()
    m.border_features[Edge(3, 0, Side.N)] = BorderFeature(EdgeKind.ROAD)
    fields_only = {"FFFF"}
    found = only(m, "unsatisfiable-square", tile_signatures=fields_only)
    assert found[0].where.squares == ((3, 0),)
    assert "N=R" in found[0].message
    assert "unsatisfiable-square" not in codes(m, tile_signatures={"RFFF", "FRFF", "FFRF", "FFFR"})
    assert "unsatisfiable-square" not in codes(m)  # the real tile pool has roads


def test_unsatisfiable_square_with_the_real_pool() -> None:
    from engine.tiles import default_tileset

    # (4, 2) is boxed in by four one-square cities: N city, W road, E and S field (unlisted
    # edges are fields). No tile of base+ic+tb shows CFFR (city N, road W, fields between).
    pattern = "CFFR"
    sigs = default_tileset().edge_signatures("base+ic+tb")
    assert pattern not in sigs and "CFFF" in sigs
    m = base()
    m.large_cities["n"] = LargeCity("n", "N", {(4, 1)}, 0, {Edge(4, 1, Side.S): EdgeKind.CITY})
    m.large_cities["w"] = LargeCity("w", "W", {(3, 2)}, 0, {Edge(3, 2, Side.E): EdgeKind.ROAD})
    m.large_cities["e"] = LargeCity("e", "E", {(5, 2)}, 0, {})
    m.large_cities["s"] = LargeCity("s", "S", {(4, 3)}, 0, {})
    found = only(m, "unsatisfiable-square")
    assert [i.where.squares for i in found] == [((4, 2),)]
    assert "N=C, E=F, S=F, W=R" in found[0].message
    m.large_cities["w"].edges = {}
    assert "unsatisfiable-square" not in codes(m)


def test_conflicting_constraints_on_one_side() -> None:
    m = base()
    m.land.discard((0, 3))
    m.ferries["x"] = Ferry("x", Edge(1, 3, Side.W), Edge(0, 2, Side.S))
    # A ferry endpoint (road) also used as a border city: both on edge (1, 3) W.
    m.border_features[Edge(1, 3, Side.W)] = BorderFeature(EdgeKind.CITY)
    found = only(m, "unsatisfiable-square")
    assert "conflicting" in found[0].message
    assert found[0].where.squares == ((1, 3),)


def test_tile_constraints_unchecked() -> None:
    m = base()
    m.border_features[Edge(3, 0, Side.N)] = BorderFeature(EdgeKind.ROAD)
    found = only(m, "tile-constraints-unchecked", tile_pool="no-such-pool")
    assert found[0].severity is Severity.WARNING
    assert "no-such-pool" in found[0].message
    assert "tile-constraints-unchecked" not in codes(m, tile_pool="base")


# -- tracks and rule sets ----------------------------------------------------------------------


def test_track_invalid() -> None:
    m = base()
    m.tracks = {1: Track(1, (0, 1)), 2: Track(2, (1,)), 13: Track(13, (2,)), 3: Track(3, ())}
    messages = [i.message for i in only(m, "track-invalid")]
    assert len(messages) == 3
    assert any("row 1 is in track 1 and track 2" in t for t in messages)
    m.tracks = {1: Track(1, (0, 1)), 2: Track(2, (2,))}
    assert "track-invalid" not in codes(m)


def france() -> MapDef:
    m = MapDef(
        id="fr",
        name="France",
        width=14,
        height=14,
        rule_set=NamedRuleSet("france"),
        setup=Setup(2, 30, 100, 120),
        land={(x, y) for x in range(14) for y in range(14)},
        start_squares={(1, 1): StartSquare("Nancy"), (12, 12): StartSquare("Le Mans")},
    )
    m.start_squares[(1, 12)] = StartSquare("Limoges")
    m.towns = {(1, 1): Town("Nancy", Colour.ORANGE), (7, 7): Town("Bordeaux", Colour.PURPLE)}
    return m


def test_france_town_without_grape() -> None:
    assert validate_map(france()) == []
    m = france()
    m.towns[(5, 5)] = Town("Dry")
    assert only(m, "france-town-without-grape")[0].where.squares == ((5, 5),)
    m.rule_set = NamedRuleSet("none")
    assert "france-town-without-grape" not in codes(m)


def benelux() -> MapDef:
    m = france()
    m.rule_set = NamedRuleSet("benelux")
    m.setup.chip_count = 20
    m.towns = {}
    m.waves = {(3, 3), (4, 8), (9, 2)}
    for i, colour in enumerate(Colour):
        m.islands[f"i{i}"] = Island(
            f"i{i}",
            f"Isle {i}",
            colour,
            {
                (10 + i, 0): IslandSquare(IslandRole.STACK),
                (10 + i, 1): IslandSquare(IslandRole.STACK),
            },
        )
    m.setup.tile_pool_max = 100
    return m


def test_benelux_waves() -> None:
    assert validate_map(benelux()) == []
    m = benelux()
    m.waves.add((5, 5))
    assert "4 wave square" in only(m, "benelux-waves")[0].message


def test_benelux_islands() -> None:
    m = benelux()
    m.islands["i0"].colour = Colour.ORANGE
    m.islands["i1"].squares[(11, 2)] = IslandSquare(IslandRole.STACK)
    message = only(m, "benelux-islands")[0].message
    assert "3 stack squares" in message and "colours" in message
    m = benelux()
    del m.islands["i2"]
    assert "2 island(s)" in only(m, "benelux-islands")[0].message
    assert "benelux-islands" not in codes(benelux())


def britain() -> MapDef:
    m = france()
    m.rule_set = NamedRuleSet("great_britain")
    m.towns = {}
    m.setup = Setup(3, 30, 90, 100)
    for i, colour in enumerate(Colour):
        for k in range(10):
            m.chip_squares[(k + 2, 3 + 3 * i)] = colour
    m.isle_of_man = (0, 7)
    return m


def test_gb_chip_squares_isle_of_man_and_start_squares() -> None:
    assert validate_map(britain()) == []
    m = britain()
    del m.chip_squares[(2, 3)]
    m.isle_of_man = None
    m.setup.start_squares_used = 2
    found = codes(m)
    assert "gb-chip-squares" in found and "gb-isle-of-man" in found and "gb-start-squares" in found
    assert "9 purple chip square" in only(m, "gb-chip-squares")[0].message


def iberica() -> MapDef:
    m = MapDef(
        id="ib",
        name="Iberica",
        width=14,
        height=12,
        rule_set=NamedRuleSet("iberica"),
        setup=Setup(3, 30, 100, 120),
        land={(x, y) for x in range(14) for y in range(12)},
        start_squares={
            (1, 1): StartSquare("Leon"),
            (12, 1): StartSquare("Pamplona"),
            (1, 10): StartSquare("Evora"),
            (12, 10): StartSquare("Murcia"),
        },
        tracks={n: Track(n, (n - 1,)) for n in range(1, 13)},
    )
    return m


def test_iberica_tracks() -> None:
    assert validate_map(iberica()) == []
    m = iberica()
    del m.tracks[12]
    assert "missing track(s) 12" in only(m, "iberica-tracks")[0].message
    m = iberica()
    m.tracks[1] = Track(1, (5,))
    m.tracks[6] = Track(6, (0,))
    assert "orange (1-4) band is not above" in only(m, "iberica-tracks")[0].message


def test_chips_infeasible() -> None:
    m = france()
    m.width = m.height = 8
    m.land = {(x, y) for x in range(8) for y in range(8)}
    m.start_squares = {(1, 1): StartSquare("Nancy"), (6, 6): StartSquare("Le Mans")}
    m.start_squares[(1, 6)] = StartSquare("Limoges")
    m.towns = {(1, 1): Town("Nancy", Colour.ORANGE)}
    m.setup.tile_pool_min, m.setup.tile_pool_max = 40, 60
    found = only(m, "chips-infeasible")
    proof = feasibility(m, "open_sides")  # type: ignore[arg-type]
    short = {choice: best for choice, best in proof.items() if best < 30}
    assert len(proof) == 3 and 1 <= len(short) < 3  # the proof depends on the start choice
    assert [i.where.squares for i in found] == list(short)
    for issue, (choice, best) in zip(found, short.items(), strict=True):
        assert f"at most {best} chips can be placed (setup lays out 30" in issue.message
        names = ", ".join(f"{m.start_squares[sq].name} ({sq[0]}, {sq[1]})" for sq in choice)
        assert f"with start squares {names} used" in issue.message
    m.setup.chip_count = min(proof.values())
    assert "chips-infeasible" not in codes(m, chip_reading="open_sides")
    # The stricter reading forbids more squares next to a large city.
    m = with_city(m, {(4, 3), (4, 4)}, {Edge(4, 3, Side.N): EdgeKind.CITY})
    m.setup.chip_count = min(feasibility(m, "open_sides").values())  # type: ignore[arg-type]
    assert "chips-infeasible" not in codes(m, chip_reading="open_sides")
    assert "chips-infeasible" in codes(m, chip_reading="any_city_square")


def test_chips_not_checked_for_rule_sets_without_random_chips() -> None:
    m = britain()
    m.setup.chip_count = 1000
    assert "chips-infeasible" not in codes(m)


# -- robustness and documentation ----------------------------------------------------------------


def test_validator_failure_is_reported_not_raised() -> None:
    m = base()
    m.setup = None  # type: ignore[assignment]
    found = only(m, "validator-failure")
    assert found and "setup" in found[0].message
    # The other checks still ran.
    m2 = base()
    m2.setup = None  # type: ignore[assignment]
    m2.land.add((20, 20))
    assert "outside-grid" in codes(m2)


def test_issue_where_and_serialisation() -> None:
    issue = Issue(
        Severity.ERROR,
        "x-y",
        "msg",
        Where(squares=((1, 2),), edges=(Edge(1, 2, Side.N),), city="c"),
    )
    assert issue.to_dict() == {
        "severity": "error",
        "code": "x-y",
        "message": "msg",
        "where": {
            "squares": [[1, 2]],
            "edges": [{"x": 1, "y": 2, "side": "N"}],
            "city": "c",
            "ferry": None,
            "island": None,
        },
    }
    assert str(issue) == "error x-y at city 'c', (1, 2) N: msg"


def test_every_code_is_kebab_case_used_and_documented() -> None:
    sources = "".join(
        p.read_text(encoding="utf-8")
        for p in (ENGINE / "validation.py", ENGINE / "mapio.py", *(ENGINE / "rules").rglob("*.py"))
    )
    used = set(
        re.findall(
            r'(?:(?:c|issues)\.(?:err|warn)\(|_load_issue\(|Severity\.\w+,)\s*"([a-z-]+)"',
            sources,
        )
    )
    from engine.rules.data.prints import ISSUE_CODES, check_prints
    from engine.rules.registry import rule_set_classes

    # a data rule set reports ruleset-missing-<print> for each print name (check_prints)
    assert "ruleset-invalid" in sources
    used |= {
        c
        for c in ISSUE_CODES
        if c == "ruleset-invalid" or c[16:].replace("-", "_") in check_prints.__code__.co_consts
    }
    test_only = {
        code
        for cls in rule_set_classes()
        if not cls.__module__.startswith("engine.")
        for code in cls.issue_codes
    }  # rule sets registered by tests (their codes join CODES when imported first)
    assert used == set(CODES) - test_only
    for code in set(CODES) - test_only:
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", code), code
    doc = (ENGINE / "VALIDATION.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `([a-z0-9-]+)` \| (error|warning) \|", doc, flags=re.M))
    assert table == {
        code: info.severity.value for code, info in CODES.items() if code not in test_only
    }


def test_land_parts_use_corners_as_separators() -> None:
    parts = land_parts({(0, 0), (1, 0), (2, 1), (5, 5)})
    assert parts == [{(0, 0), (1, 0)}, {(2, 1)}, {(5, 5)}]


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.name)
def test_every_shipped_map_loads_and_has_no_errors(path: Path) -> None:
    m, load_issues = read_map(path)
    assert load_issues == []
    errors = [str(i) for i in validate_map(m) if i.severity is Severity.ERROR]
    assert errors == []


def test_example_map_uses_every_element_and_is_clean() -> None:
    from engine.resources import bundled_map

    m, _ = read_map(bundled_map("example-small"))
    assert len(m.start_squares) >= 2 and any(t.grape for t in m.towns.values())
    city = next(iter(m.large_cities.values()))
    assert len(city.squares) == 2 and city.open_sides()
    assert EdgeKind.ROAD in city.edges.values()
    assert {f.kind for f in m.border_features.values()} == {EdgeKind.ROAD, EdgeKind.CITY}
    assert all(f.coats_of_arms and f.neighbour for f in m.border_features.values())
    assert m.ferries and m.gated_squares() and m.stack_squares()
    assert any(s.coats_of_arms for i in m.islands.values() for s in i.squares.values())
    assert m.waves and m.chip_squares and m.tracks and m.isle_of_man is not None
    assert m.rule_set.name == "none"
    assert validate_map(m) == []


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_defs())
def test_property_validator_never_fails_and_uses_documented_codes(m: MapDef) -> None:
    issues = validate_map(m)
    assert [i for i in issues if i.code == "validator-failure"] == []
    assert {i.code for i in issues} <= set(CODES)
    assert all(i.severity is CODES[i.code].severity for i in issues)
    assert validate_map(m) == issues  # deterministic


def _touching_cities() -> MapDef:
    """Two walls of waves; city c in the upper wall touches city d in the lower one, and d's
    only free neighbour (4, 5) lies beyond both walls."""
    m = base()
    m.waves |= {(x, 3) for x in range(8) if x != 4} | {(x, 4) for x in range(8) if x != 4}
    m.start_squares = {(4, 1): StartSquare("A"), (1, 1): StartSquare("B")}
    m.setup.tile_pool_max = 10
    m.large_cities["c"] = LargeCity("c", "Upper", {(4, 3)}, 0, {Edge(4, 3, Side.N): EdgeKind.CITY})
    m.large_cities["d"] = LargeCity("d", "Lower", {(4, 4)}, 0, {Edge(4, 4, Side.S): EdgeKind.CITY})
    return m


def test_touching_large_cities_do_not_open_together() -> None:
    """Correction 1 (engine/RULES.md "Touching large cities open one at a time"): "As soon as
    you place a tile next to a city tile it is connected" -- a tile next to c connects c only;
    d needs a tile of its own next to it, which no square can take, so row 5 is unreachable."""
    m = _touching_cities()
    assert (4, 2) in reachable_squares(m)
    assert (4, 5) not in reachable_squares(m)
    [issue] = only(m, "unreachable-square")
    assert set(issue.where.squares) == {(x, 5) for x in range(8)}


def test_the_engine_agrees_touching_large_cities_stay_apart() -> None:
    from engine.game import Game, GameOptions
    from engine.moves import Move

    m = _touching_cities()
    tiles = ("E", "E", "E", "E", "E", "E")  # a city edge and fields: fits below c's city edge
    g = Game(m, options=GameOptions(start_squares=((4, 1),), start_tile="E", draw_order=tiles))
    reached: set[tuple[int, int]] = set()
    while not g.is_over():
        moves = [mv for mv in g.legal_moves() if isinstance(mv, Move)]
        reached |= {mv.square for mv in moves}
        g.play(next((mv for mv in moves if mv.square == (4, 2)), moves[0]))
    assert (4, 2) in {sq for sq, _t, _r in g.placed_tiles()}  # c was connected
    assert not reached & {(x, 5) for x in range(8)}
