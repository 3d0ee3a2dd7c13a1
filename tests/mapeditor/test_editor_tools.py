"""Each tool driven with real mouse events on the view; undo and redo of all of it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.geometry import Edge, Side
from engine.mapdef import EdgeKind, MapDef
from mapeditor.tools import (
    BorderFeatureTool,
    BrushTool,
    FerryTool,
    FloodFillTool,
    LargeCityTool,
    RectFillTool,
    StartSquareTool,
    TownTool,
)
from tests.mapeditor._editor_input import click, drag, edge_point, square_point


def blank(width: int = 12, height: int = 10, land: bool = False) -> MapDef:
    m = MapDef("t", "T", width, height)
    if land:
        m.land = {(x, y) for x in range(width) for y in range(height)}
    return m


def test_brush_stroke_leaves_no_gaps_and_is_one_undo_step(make_editor) -> None:
    window = make_editor(blank())
    window.set_tool(BrushTool)
    # Press on (1, 2) and jump straight to (7, 2): the squares between are painted too.
    drag(window, [square_point(window, (1, 2)), square_point(window, (7, 2))])
    assert {(x, 2) for x in range(1, 8)} <= window.document.map.land
    assert len(window.document.map.land) == 7
    assert window.document.undo_stack.count() == 1
    window.undo_action.trigger()
    assert window.document.map.land == set()
    window.redo_action.trigger()
    assert len(window.document.map.land) == 7


def test_right_drag_with_the_brush_erases(make_editor) -> None:
    window = make_editor(blank(land=True))
    window.set_tool(BrushTool)
    drag(
        window,
        [square_point(window, (0, 0)), square_point(window, (0, 3))],
        Qt.MouseButton.RightButton,
    )
    assert not {(0, y) for y in range(4)} & window.document.map.land


def test_rectangle_fill(make_editor) -> None:
    window = make_editor(blank())
    window.set_tool(RectFillTool)
    drag(
        window,
        [square_point(window, (1, 1)), square_point(window, (2, 2)), square_point(window, (3, 4))],
    )
    assert window.document.map.land == {(x, y) for x in range(1, 4) for y in range(1, 5)}


def test_flood_fill_fills_and_clears_a_region(make_editor) -> None:
    m = blank(6, 5)
    m.land = {(2, y) for y in range(5)}  # a wall splitting the grid in two
    window = make_editor(m)
    window.set_tool(FloodFillTool)
    click(window, square_point(window, (0, 0)))
    assert window.document.map.land == {(x, y) for x in range(3) for y in range(5)}
    click(window, square_point(window, (1, 1)))
    assert window.document.map.land == set()


def test_start_square_and_town(make_editor) -> None:
    window = make_editor(blank(land=True))
    window.set_tool(StartSquareTool)
    click(window, square_point(window, (3, 3)))
    window.set_tool(TownTool)
    click(window, square_point(window, (5, 5)))
    m = window.document.map
    assert list(m.start_squares) == [(3, 3)]
    assert list(m.towns) == [(5, 5)]
    click(window, square_point(window, (5, 5)))
    assert m.towns == {}


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


def test_undo_and_redo_everything(make_editor) -> None:
    window = make_editor(blank())
    before = window.document.snapshot()
    window.set_tool(RectFillTool)
    drag(window, [square_point(window, (0, 0)), square_point(window, (5, 5))])
    window.set_tool(StartSquareTool)
    click(window, square_point(window, (1, 1)))
    window.set_tool(LargeCityTool)
    drag(window, [square_point(window, (3, 3)), square_point(window, (4, 3))])
    window.set_tool(BorderFeatureTool)
    click(window, edge_point(window, Edge(5, 2, Side.E)))
    window.set_tool(FerryTool)
    drag(window, [edge_point(window, Edge(5, 0, Side.E)), edge_point(window, Edge(0, 5, Side.S))])
    after = window.document.snapshot()
    assert after != before and len(after.ferries) == 1 and after.border_features
    stack = window.document.undo_stack
    steps = stack.count()
    assert steps == 5
    for _ in range(steps):
        window.undo_action.trigger()
    assert window.document.map == before
    for _ in range(steps):
        window.redo_action.trigger()
    assert window.document.map == after


def test_a_new_border_feature_takes_the_imported_neighbour_name(make_editor) -> None:
    from mapeditor.neighbours import neighbours_to_editor

    m = blank()
    m.land = {(x, y) for x in range(2, 6) for y in range(2, 6)}
    coast = Edge(2, 3, Side.W)
    m.editor["neighbours"] = neighbours_to_editor({coast: "Denmark"})
    window = make_editor(m)
    window.set_tool(BorderFeatureTool)
    click(window, edge_point(window, coast))
    assert window.document.map.border_features[coast].neighbour == "Denmark"


def test_a_start_square_that_is_a_town_is_drawn_once(qapp) -> None:
    """The town's house and name must not be painted over the start square's own."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from engine.mapdef import StartSquare, Town
    from mapeditor.painting import SQUARE, paint_map

    def render(m: MapDef) -> QImage:
        image = QImage(int(SQUARE), int(SQUARE), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        paint_map(painter, m, region=QRectF(0, 0, SQUARE, SQUARE))
        painter.end()
        return image

    start_only, both = blank(1, 1, land=True), blank(1, 1, land=True)
    start_only.start_squares[(0, 0)] = StartSquare("Nancy")
    both.start_squares[(0, 0)] = StartSquare("Nancy")
    both.towns[(0, 0)] = Town("Nancy")  # no grape: nothing of the town should show
    assert render(both) == render(start_only)
