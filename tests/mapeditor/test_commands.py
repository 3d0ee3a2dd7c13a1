"""Every edit is a command on the undo stack: undo and redo all of them."""

from __future__ import annotations

from engine.geometry import Edge, Side
from mapeditor.tools import (
    BorderFeatureTool,
    FerryTool,
    LargeCityTool,
    RectFillTool,
    StartSquareTool,
)
from tests.mapeditor._editor_input import blank, click, drag, edge_point, square_point


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


def test_changes_with_one_merge_key_are_one_undo_step(qapp) -> None:
    from mapeditor.commands import change_entries
    from mapeditor.document import MapDocument

    doc = MapDocument(blank())
    for x in range(4):
        change_entries(doc, "land", {(x, 0): True}, "Paint", merge_key=("stroke", 1))
    change_entries(doc, "land", {(9, 9): True}, "Paint", merge_key=("stroke", 2))
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    assert doc.map.land == {(x, 0) for x in range(4)}
    doc.undo_stack.undo()
    assert doc.map.land == set()


def test_a_change_to_the_same_value_pushes_nothing(qapp) -> None:
    from mapeditor.commands import change_attribute
    from mapeditor.document import MapDocument

    doc = MapDocument(blank())
    assert change_attribute(doc, "name", "T") is False
    assert doc.undo_stack.count() == 0


def test_several_fields_change_as_one_undo_step(qapp) -> None:
    import dataclasses

    from mapeditor.commands import change_attributes
    from mapeditor.document import MapDocument

    doc = MapDocument(blank())
    before = dataclasses.replace(doc.map.setup)
    wanted = {"setup.tile_pool_max": 80, "setup.start_squares_used": 3, "name": doc.map.name}
    assert change_attributes(doc, wanted, "Apply tuning")
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Apply tuning"
    assert (doc.map.setup.tile_pool_max, doc.map.setup.start_squares_used) == (80, 3)
    doc.undo_stack.undo()
    assert doc.map.setup == before and doc.undo_stack.isClean()
    doc.undo_stack.redo()
    assert doc.map.setup.tile_pool_max == 80
    assert change_attributes(doc, {"name": doc.map.name}, "Nothing") is False  # no change
    assert doc.undo_stack.count() == 1
