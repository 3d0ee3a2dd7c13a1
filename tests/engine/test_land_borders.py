"""Map format 2: land borders (clouds) are recorded apart from the sea; version 1 files migrate;
the shipped maps carry theirs where they face a neighbour."""

from __future__ import annotations

import json

import pytest

from engine.geometry import Edge, Side
from engine.mapdef import FORMAT_VERSION, MapDef
from engine.mapio import MIGRATIONS, dumps_map, load_map, loads_map, map_from_dict
from engine.resources import bundled_map


def test_version_1_migrates_with_no_land_borders() -> None:
    assert FORMAT_VERSION == 2 and 1 in MIGRATIONS
    data = json.loads(dumps_map(MapDef(id="v", name="V", width=2, height=1, land={(0, 0)})))
    data["format_version"] = 1
    del data["land_borders"]
    m = map_from_dict(data)
    assert m.land_borders == set()
    assert json.loads(dumps_map(m))["format_version"] == 2


def test_land_borders_round_trip_sorted() -> None:
    m = MapDef(id="v", name="V", width=3, height=1, land={(0, 0), (1, 0)})
    m.land_borders = {Edge(1, 0, Side.E), Edge(0, 0, Side.N)}
    text = dumps_map(m)
    assert '"land_borders": [\n    {"x": 0, "y": 0, "side": "N"},' in text
    assert loads_map(text) == m
    assert not m.faces_sea(Edge(1, 0, Side.E)) and m.faces_sea(Edge(1, 0, Side.S))
    assert not m.faces_sea(Edge(0, 0, Side.E))  # leads to a map square: not outside at all


def test_bad_land_border_names_the_path() -> None:
    data = json.loads(dumps_map(MapDef(id="v", name="V", width=2, height=1, land={(0, 0)})))
    data["land_borders"] = [{"x": 0, "y": 0, "side": "Q"}]
    with pytest.raises(Exception, match=r"land_borders\[0\]"):
        map_from_dict(data)


def test_neighbours_across_the_sea_are_not_land_borders() -> None:
    fr = load_map(bundled_map("france"))
    gb = load_map(bundled_map("great-britain"))
    across = [i for i in fr.editor["neighbours"] if i["name"] == "United Kingdom"]
    assert across and all(
        Edge(i["x"], i["y"], Side(i["side"])) not in fr.land_borders for i in across
    )
    assert gb.land_borders == set()  # Britain and Ireland: no land border with France


@pytest.mark.parametrize(
    ("cid", "neighbours"),
    [
        ("deutschland", {"Poland", "France", "Denmark", "Austria"}),
        ("france", {"Spain", "Germany", "Switzerland", "Italy"}),
        ("benelux", {"France", "Germany"}),
        ("iberica", {"France"}),
    ],
)
def test_shipped_maps_have_land_borders_where_neighbours_are(cid: str, neighbours: set) -> None:
    m = load_map(bundled_map(cid))
    names = {
        Edge(i["x"], i["y"], Side(i["side"])): i["name"] for i in m.editor.get("neighbours", [])
    }
    # Every named edge is a land border except those facing a neighbour across the sea.
    assert m.land_borders <= set(names)
    assert neighbours <= {names[e] for e in m.land_borders}
    assert all(m.faces_outside(e) for e in m.land_borders)
    assert all(m.faces_sea(e) for f in m.ferries.values() for e in (f.a, f.b))
    assert all(e in m.land_borders for e in m.border_features)
