"""The select tool: select, move and delete squares."""

from __future__ import annotations

from engine.mapdef import MapDef
from mapeditor.tools import SelectTool
from tests.mapeditor._editor_input import drag, square_point


def small_map() -> MapDef:
    m = MapDef("t", "T", 8, 6)
    m.land = {(x, y) for x in range(8) for y in range(6)}
    return m


def test_select_drag_moves_the_selection(make_editor) -> None:
    window = make_editor(small_map())
    window.document.map.towns.clear()
    window.set_tool(SelectTool)
    drag(window, [square_point(window, (1, 1)), square_point(window, (2, 1))])
    assert window.document.selection == {(1, 1), (2, 1)}
    window.delete_selection()
    assert not {(1, 1), (2, 1)} & window.document.map.land
    window.undo_action.trigger()
    assert {(1, 1), (2, 1)} <= window.document.map.land
