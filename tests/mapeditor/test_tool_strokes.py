"""Drags as a user makes them: the large-city rectangle, Esc cancels, Ctrl+Z waits for the end of
a stroke, land-only tools say why they did nothing, a stable tool bar, a stale chip layout hides."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolBar

from engine.geometry import Edge, Side
from mapeditor.tools import (
    BrushTool,
    FerryTool,
    IslandTool,
    LargeCityTool,
    RectFillTool,
    WaveTool,
)
from tests.mapeditor._editor_input import blank, click, drag, edge_point, square_point


def _active(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # window shortcuts (Ctrl+Z) need it
    window.view.setFocus()
    return window


def test_a_diagonal_drag_draws_one_rectangular_large_city(make_editor) -> None:
    window = make_editor(blank(land=True))
    window.set_tool(LargeCityTool)
    drag(window, [square_point(window, (2, 2)), square_point(window, (4, 3))])
    (city,) = window.document.map.large_cities.values()
    assert city.squares == {(x, y) for x in range(2, 5) for y in range(2, 4)}
    assert window.document.undo_stack.count() == 1
    # starting on the city extends it
    drag(window, [square_point(window, (4, 3)), square_point(window, (5, 3))])
    (city,) = window.document.map.large_cities.values()
    assert (5, 3) in city.squares and len(city.squares) == 7


def test_esc_cancels_a_rectangle_drag(make_editor, qtbot) -> None:
    for tool in (RectFillTool, LargeCityTool):
        window = make_editor(blank(land=tool is LargeCityTool))
        _active(qtbot, window)
        window.set_tool(tool)
        before = window.document.map.copy()
        viewport = window.view.viewport()
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=square_point(window, (1, 1)))
        QTest.mouseMove(viewport, square_point(window, (4, 4)))
        assert window.scene.tool.preview, "the rectangle is previewed"
        QTest.keyClick(window.view, Qt.Key.Key_Escape)
        assert not window.scene.tool.preview
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=square_point(window, (4, 4)))
        assert window.document.map == before
        assert window.document.undo_stack.count() == 0


def test_ctrl_z_during_a_stroke_does_not_split_it(make_editor, qtbot) -> None:
    window = _active(qtbot, make_editor(blank()))
    window.set_tool(BrushTool)
    viewport = window.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=square_point(window, (0, 0)))
    QTest.mouseMove(viewport, square_point(window, (2, 0)))
    QTest.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.mouseMove(viewport, square_point(window, (4, 0)))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=square_point(window, (4, 0)))
    assert window.document.map.land == {(x, 0) for x in range(5)}
    assert window.document.undo_stack.count() == 1
    QTest.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.document.map.land == set()  # after the stroke, Ctrl+Z undoes all of it


def test_land_only_tools_say_why_they_do_nothing_on_water(make_editor) -> None:
    m = blank()
    m.land = {(5, 5)}
    window = make_editor(m)
    for tool, words in (
        (IslandTool, "Islands go on map squares"),
        (WaveTool, "Waves go on map squares"),
        (LargeCityTool, "Large cities go on map squares"),
    ):
        window.set_tool(tool)
        click(window, square_point(window, (1, 1)))
        assert words in window.statusBar().currentMessage(), tool
    window.set_tool(FerryTool)
    click(window, square_point(window, (1, 1)))
    assert "coastal edge" in window.statusBar().currentMessage()
    # from a coast into the middle of the sea: the end is named
    drag(window, [edge_point(window, Edge(5, 5, Side.W)), square_point(window, (1, 1))])
    assert "must end on a coastal edge" in window.statusBar().currentMessage()
    assert window.document.map.ferries == {}


def test_the_tool_bar_keeps_its_place_after_edits(make_editor) -> None:
    window = make_editor(blank())
    bar = window.findChild(QToolBar, "toolbar-edit")
    button = bar.widgetForAction(window.undo_action)
    width = button.sizeHint().width()
    window.set_tool(BrushTool)
    drag(window, [square_point(window, (1, 1)), square_point(window, (3, 1))])
    assert window.undo_action.text() == "&Undo"
    assert window.undo_action.isEnabled()
    assert (
        window.undo_action.toolTip().startswith("Undo ") and len(window.undo_action.toolTip()) > 5
    )
    assert button.sizeHint().width() == width


def test_a_shown_chip_layout_hides_after_an_edit(make_editor) -> None:
    window = make_editor(blank(land=True))
    window.chips.layoutChanged.emit([(1, 1), (6, 6)])
    assert window.scene.chips
    window.set_tool(BrushTool)
    click(window, square_point(window, (1, 1)), Qt.MouseButton.RightButton)  # (1, 1) is water now
    assert window.scene.chips == []
    assert "Chip layout hidden" in window.statusBar().currentMessage()
