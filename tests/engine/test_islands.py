"""Land parts and ferries: parts listed by size, ferries suggested over the shortest sea
crossings between coastal edges, never across a land border."""

from __future__ import annotations

import pytest

from engine.geometry import Edge, Side
from engine.islands import coastal_edges, ferry_between, land_parts, suggest_ferries
from engine.mapdef import BorderFeature, EdgeKind, MapDef, StartSquare
from engine.validation import reachable_squares


def _archipelago() -> MapDef:
    m = MapDef(id="a", name="A", width=14, height=10)
    m.land = {(x, y) for x in range(1, 5) for y in range(1, 5)}  # mainland 16
    m.land |= {(7, 2), (8, 2)}  # island 2 squares east
    m.land |= {(11, 2)}  # a farther island, nearest to the first island
    m.land |= {(2, 8)}  # south, three rows of sea off
    m.start_squares[(1, 1)] = StartSquare("S")
    return m


def test_land_parts_biggest_first() -> None:
    assert [len(p) for p in land_parts(_archipelago())] == [16, 2, 1, 1]


def test_suggested_ferries_reach_everything_over_the_shortest_crossings() -> None:
    m = _archipelago()
    ferries = suggest_ferries(m)
    assert [(f.a, f.b) for f in ferries] == [
        (Edge(4, 2, Side.E), Edge(7, 2, Side.W)),
        (Edge(8, 2, Side.E), Edge(11, 2, Side.W)),
        (Edge(2, 4, Side.S), Edge(2, 8, Side.N)),
    ]
    for f in ferries:
        m.ferries[f.id] = f
    assert reachable_squares(m) == m.placeable_squares()
    assert len({f.id for f in ferries}) == 3


def test_ferries_never_land_on_a_land_border_or_a_border_feature() -> None:
    m = _archipelago()
    m.land_borders = {Edge(4, 2, Side.E)}
    m.border_features[Edge(4, 3, Side.E)] = BorderFeature(EdgeKind.ROAD, 1, "X")
    first = suggest_ferries(m)[0]
    assert first.a not in (Edge(4, 2, Side.E), Edge(4, 3, Side.E))
    assert Edge(4, 2, Side.E) not in coastal_edges(m)
    assert not m.faces_sea(Edge(4, 2, Side.E)) and m.faces_sea(Edge(4, 1, Side.E))


def test_ferry_between_checks_its_edges() -> None:
    m = _archipelago()
    f = ferry_between(m, Edge(7, 2, Side.W), Edge(4, 2, Side.E), coats_of_arms=1)
    assert (f.a, f.b, f.coats_of_arms) == (Edge(4, 2, Side.E), Edge(7, 2, Side.W), 1)
    with pytest.raises(ValueError, match=r"\(3, 2\) E is not a free coastal edge"):
        ferry_between(m, Edge(3, 2, Side.E), Edge(7, 2, Side.W))
    m.land_borders = {Edge(4, 2, Side.E)}
    with pytest.raises(ValueError, match="not a free coastal edge"):
        ferry_between(m, Edge(4, 2, Side.E), Edge(7, 2, Side.W))
