"""Tools for features across squares and edges: large cities, border features, ferries."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.geometry import Edge, Side
from engine.mapdef import EdgeKind
from mapeditor.tools import (
    BorderFeatureTool,
    FerryTool,
    LargeCityTool,
)
from tests.mapeditor._editor_input import blank, click, drag, edge_point, square_point


def test_draw_a_large_city_and_set_its_edges(make_editor) -> None:
    window = make_editor(blank(land=True))
    window.set_tool(LargeCityTool)
    drag(window, [square_point(window, (4, 4)), square_point(window, (5, 4))])
    (city,) = window.document.map.large_cities.values()
    assert city.squares == {(4, 4), (5, 4)}
    assert window.document.undo_stack.count() == 1
    west = Edge(4, 4, Side.W)
    click(window, edge_point(window, west), modifier=Qt.KeyboardModifier.ControlModifier)
    city = window.document.map.large_cities[city.id]
    assert city.edges == {west: EdgeKind.CITY}
    assert city.open_sides() == [west]
    click(window, edge_point(window, west), modifier=Qt.KeyboardModifier.ControlModifier)
    assert window.document.map.large_cities[city.id].edges == {west: EdgeKind.ROAD}


def test_border_road_on_an_edge_facing_outside_only(make_editor) -> None:
    m = blank()
    m.land = {(x, y) for x in range(2, 6) for y in range(2, 6)}
    window = make_editor(m)
    window.set_tool(BorderFeatureTool)
    inner = Edge(3, 3, Side.N)  # faces another map square: refused
    click(window, edge_point(window, inner))
    assert window.document.map.border_features == {}
    coast = Edge(2, 3, Side.W)
    click(window, edge_point(window, coast))
    assert window.document.map.border_features[coast].kind is EdgeKind.ROAD
    click(window, edge_point(window, coast))
    assert window.document.map.border_features[coast].kind is EdgeKind.CITY


def test_drag_a_ferry_between_two_coastal_edges(make_editor) -> None:
    m = blank()
    m.land = {(1, 1), (1, 2), (8, 1), (8, 2)}
    window = make_editor(m)
    window.set_tool(FerryTool)
    a, b = Edge(1, 1, Side.E), Edge(8, 2, Side.W)
    drag(window, [edge_point(window, a), square_point(window, (4, 1)), edge_point(window, b)])
    (ferry,) = window.document.map.ferries.values()
    assert (ferry.a, ferry.b) == (a, b)


def test_a_new_border_feature_takes_the_imported_neighbour_name(make_editor) -> None:
    from engine.geo.neighbours import neighbours_to_editor

    m = blank()
    m.land = {(x, y) for x in range(2, 6) for y in range(2, 6)}
    coast = Edge(2, 3, Side.W)
    m.editor["neighbours"] = neighbours_to_editor({coast: "Denmark"})
    window = make_editor(m)
    window.set_tool(BorderFeatureTool)
    click(window, edge_point(window, coast))
    assert window.document.map.border_features[coast].neighbour == "Denmark"
