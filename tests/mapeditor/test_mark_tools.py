"""Tools that mark one square (start squares, towns, waves, chip squares, tracks, the Isle of Man)."""

from __future__ import annotations

from engine.geometry import Edge, Side
from engine.mapdef import Colour, EmbeddedRuleSet, MapDef, MarkSquare
from mapeditor.document import MapDocument
from mapeditor.tools import (
    ChipSquareTool,
    IsleOfManTool,
    StartSquareTool,
    TownTool,
    TrackTool,
    WaveTool,
)
from mapeditor.tools.base import ToolEvent
from tests.mapeditor._editor_input import blank, click, square_point

EDGE = Edge(0, 0, Side.N)


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


def doc() -> MapDocument:
    m = MapDef("t", "T", 6, 6)
    m.land = {(x, y) for x in range(6) for y in range(5)}
    return MapDocument(m)


def tool_click(tool, square, button="left") -> None:
    tool.press(ToolEvent("press", square, EDGE, button))
    tool.release(ToolEvent("release", square, EDGE, button))


def test_square_marks_toggle_and_only_on_map_squares(qapp) -> None:
    d = doc()
    for tool_cls, attr in (
        (StartSquareTool, "start_squares"),
        (TownTool, "towns"),
        (WaveTool, "waves"),
    ):
        tool = tool_cls(d)
        tool_click(tool, (5, 5))  # outside the map: nothing
        tool_click(tool, (1, 1))
        assert (1, 1) in getattr(d.map, attr)
        tool_click(tool, (1, 1))
        assert (1, 1) not in getattr(d.map, attr)
    chips = ChipSquareTool(d, colour=Colour.ORANGE)
    tool_click(chips, (2, 2))
    assert d.map.chip_squares == {(2, 2): Colour.ORANGE}
    chips.colour = Colour.PURPLE
    tool_click(chips, (2, 2))  # another colour replaces it
    assert d.map.chip_squares == {(2, 2): Colour.PURPLE}
    tool_click(chips, (2, 2))
    assert d.map.chip_squares == {}


def test_start_square_on_a_town_takes_its_name(qapp) -> None:
    d = doc()
    tool_click(TownTool(d), (3, 3))
    name = d.map.towns[(3, 3)].name
    tool_click(StartSquareTool(d), (3, 3))
    assert d.map.start_squares[(3, 3)].name == name


def test_tracks_and_isle_of_man(qapp) -> None:
    d = doc()
    track = TrackTool(d, number=5)
    tool_click(track, (0, 2))
    tool_click(track, (3, 3))
    assert d.map.tracks[5].rows == (2, 3) and d.map.tracks[5].colour is Colour.LIGHT_BLUE
    track.number = 9
    tool_click(track, (0, 3))  # a row belongs to one track
    assert d.map.tracks[5].rows == (2,) and d.map.tracks[9].rows == (3,)
    tool_click(track, (0, 3), "right")
    assert 9 not in d.map.tracks
    isle = IsleOfManTool(d)
    tool_click(isle, (5, 5))
    assert d.map.isle_of_man == (5, 5)
    d.undo_stack.undo()
    assert d.map.isle_of_man is None


def test_designer_marks_come_from_the_rule_set_and_undo(make_editor) -> None:
    from PySide6.QtCore import Qt

    from engine.rules.data import preset_spec
    from mapeditor.tools import DesignerMarkTool

    m = blank(land=True)
    spec = preset_spec("nordics")
    m.rule_set = EmbeddedRuleSet(spec)
    window = make_editor(m)
    window.set_tool(DesignerMarkTool)
    click(window, square_point(window, (2, 2)))  # the rule set's first mark
    click(window, square_point(window, (4, 2)), Qt.MouseButton.RightButton)  # the next mark
    click(window, square_point(window, (4, 2)))
    marks = window.document.map.marks
    assert {sq: mk.mark for sq, mk in marks.items()} == {(2, 2): "chip_city", (4, 2): "highlight"}
    window.document.undo_stack.undo()
    assert list(window.document.map.marks) == [(2, 2)]


def test_a_tool_per_mark_paints_colour_and_value_on_many_squares_in_one_drag(make_editor) -> None:
    from PySide6.QtCore import Qt

    from engine.mapdef import MarkSquare
    from engine.rules.data import preset_spec
    from mapeditor import ruleset_edits
    from mapeditor.tools import DesignerMarkTool
    from tests.mapeditor._editor_input import drag

    m = blank(land=True)
    spec = preset_spec("nordics")
    m.rule_set = EmbeddedRuleSet(spec)
    window = make_editor(m)
    bar = window.marks_bar
    assert [a.text() for a in bar.mark_actions.values()] == [k.name for k in spec.marks]
    bar.mark_actions["highlight"].trigger()
    assert isinstance(window.scene.tool, DesignerMarkTool)
    bar.colour.setCurrentIndex(bar.colour.findData(Colour.ORANGE))
    bar.colour.activated.emit(bar.colour.currentIndex())
    bar.value.setValue(3)
    stack = window.document.undo_stack
    steps = stack.count()
    row = [square_point(window, (x, 4)) for x in range(1, 7)]
    drag(window, row)
    painted = MarkSquare("highlight", Colour.ORANGE, 3)
    assert window.document.map.marks == {(x, 4): painted for x in range(1, 7)}
    assert stack.count() == steps + 1  # one drag, one undo step
    drag(window, row[:3], Qt.MouseButton.LeftButton)  # starting on the same mark clears
    assert sorted(window.document.map.marks) == [(x, 4) for x in range(4, 7)]
    stack.undo()
    stack.undo()
    assert window.document.map.marks == {}

    ruleset_edits.use_preset(window.document, "ukraine")  # the tools follow the rule set
    assert list(bar.mark_actions) == ["chumak"]
    ruleset_edits.use_module(window.document, "none")
    assert bar.mark_actions == {} and bar.note.isVisible()


def test_the_options_and_the_marks_share_a_row_while_they_fit(make_editor, qtbot) -> None:
    """The tool options bar (often empty) and the designer marks bar sit on one row; marks too
    many for the window's width move to a row of their own, and back when they go."""
    from engine.rules.data import preset_spec
    from mapeditor import ruleset_edits
    from mapeditor.cartography import legend_entries
    from mapeditor.ruleset_data import get

    m = blank(land=True)
    spec = preset_spec("nordics")
    m.rule_set = EmbeddedRuleSet(spec)
    window = make_editor(m)
    bars = (window.tool_options, window.marks_bar)

    def shared() -> bool:
        return bars[0].y() == bars[1].y() and not window.toolBarBreak(window.marks_bar)

    def apart() -> bool:
        return bars[1].y() > bars[0].y() and window.toolBarBreak(window.marks_bar)

    qtbot.waitUntil(shared)  # arranged once the bars' fields are shown
    action = window.marks_bar.mark_actions["highlight"]
    assert not action.icon().isNull()  # the mark's icon, not a swatch
    content = ruleset_edits.content(window.document)
    marks = get(content, ("marks",))
    wide = [
        {**marks[0], "id": f"mark_{k}", "name": f"A mark with a very long name number {k}"}
        for k in range(8)
    ]
    ruleset_edits.set_field(window.document, ("marks",), wide)
    assert window.document.map.rule_set.spec is not None
    assert window.marks_bar.sizeHint().width() > window.width()
    qtbot.waitUntil(apart)
    window.document.undo_stack.undo()
    qtbot.waitUntil(shared)

    window.document.map.marks[(2, 2)] = MarkSquare("highlight")
    (entry,) = [e for e in legend_entries(window.document.map) if e.key == "mark"]
    kind = spec.marks[[k.id for k in spec.marks].index("highlight")]
    assert (entry.text, entry.drawn) == (kind.name, (kind.icon, kind.colour))
