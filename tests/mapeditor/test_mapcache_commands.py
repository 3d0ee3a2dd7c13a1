"""Tables derived from a map (engine.mapcache) follow every in-place edit the editor makes:
each command kind of mapeditor.commands, done and undone, leaves a layout equal to one built
from scratch."""

from __future__ import annotations

from typing import Any

import pytest

from engine import mapcache
from engine.board import MapLayout, MapOptions, map_layout
from engine.geometry import Edge
from engine.mapdef import BorderFeature, EdgeKind, MapDef, NamedRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.commands import ChangeAttribute, ChangeEntries, ReplaceMap, SetRuleSet
from mapeditor.document import MapDocument

OPTIONS = MapOptions()


def facts(layout: MapLayout) -> tuple[Any, ...]:
    return (
        layout.placeable,
        layout.gated,
        layout.city_of,
        layout.city_names,
        layout.handlers,
        layout.static_req,
        layout.city_neighbours,
    )


def fresh(m: MapDef) -> tuple[Any, ...]:
    """The layout of ``m`` built from scratch (a copy has no cached tables)."""
    return facts(MapLayout(m.copy(), OPTIONS))


def border_road(m: MapDef) -> Edge:
    return next(e for e, b in sorted(m.border_features.items()) if b.kind is EdgeKind.ROAD)


def to_city(doc: MapDocument) -> ChangeEntries:
    """The issue's case: a border road made a border city in place (same number of elements)."""
    edge = border_road(doc.map)
    old = doc.map.border_features[edge]
    city = BorderFeature(EdgeKind.CITY, old.coats_of_arms, old.neighbour)
    return ChangeEntries(doc, "border_features", {edge: city}, "Make a border city")


def rename(doc: MapDocument) -> ChangeAttribute:
    return ChangeAttribute(doc, "name", "Renamed")


def new_rule_set(doc: MapDocument) -> SetRuleSet:
    return SetRuleSet(doc, NamedRuleSet("iberica"), "Play Iberica")


def replace(doc: MapDocument) -> ReplaceMap:
    other = doc.map.copy()
    other.land.discard(max(other.placeable_squares()))
    return ReplaceMap(doc, other, "Replace the map")


@pytest.mark.parametrize("command", [to_city, rename, new_rule_set, replace])
def test_every_command_kind_leaves_no_stale_layout(qapp: object, command: Any) -> None:
    doc = MapDocument(load_map(bundled_map("example-small")))
    before = map_layout(doc.map, OPTIONS)
    tables = mapcache.derived(doc.map)
    assert facts(before) == fresh(doc.map)
    doc.undo_stack.push(command(doc))
    assert mapcache.derived(doc.map) is not tables  # nothing derived before the edit is reused
    assert facts(map_layout(doc.map, OPTIONS)) == fresh(doc.map)
    doc.undo_stack.undo()
    assert facts(map_layout(doc.map, OPTIONS)) == fresh(doc.map) == facts(before)
    doc.undo_stack.redo()
    assert facts(map_layout(doc.map, OPTIONS)) == fresh(doc.map)


def test_a_border_road_made_a_city_in_place_changes_the_layout(qapp: object) -> None:
    doc = MapDocument(load_map(bundled_map("example-small")))
    edge = border_road(doc.map)
    road = map_layout(doc.map, OPTIONS)
    side = ["N", "E", "S", "W"].index(edge.side.value)
    assert road.static_req[edge.square][side] == "R"
    doc.undo_stack.push(to_city(doc))
    assert map_layout(doc.map, OPTIONS).static_req[edge.square][side] == "C"
    doc.undo_stack.undo()
    assert map_layout(doc.map, OPTIONS).static_req[edge.square][side] == "R"
