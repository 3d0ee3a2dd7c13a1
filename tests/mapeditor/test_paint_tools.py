"""The painting tools (brush, rectangle fill, flood fill) with real mouse input."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.geometry import Edge, Side
from mapeditor.tools import (
    BrushTool,
    FloodFillTool,
    RectFillTool,
)
from mapeditor.tools.base import line
from tests.mapeditor._editor_input import blank, click, drag, square_point

EDGE = Edge(0, 0, Side.N)


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


def test_line_has_no_gaps() -> None:
    squares = line((0, 0), (5, 2))
    assert squares[0] == (0, 0) and squares[-1] == (5, 2)
    assert all(
        abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
        for a, b in zip(squares, squares[1:], strict=False)
    )
