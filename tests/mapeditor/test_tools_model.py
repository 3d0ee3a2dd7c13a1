"""Tools on a document without any widget: plain ToolEvents in, commands out."""

from __future__ import annotations

from engine.geometry import Edge, Side
from engine.mapdef import Colour, MapDef
from mapeditor.document import MapDocument
from mapeditor.tools import (
    ChipSquareTool,
    IsleOfManTool,
    StartSquareTool,
    TownTool,
    TrackTool,
    WaveTool,
)
from mapeditor.tools.base import ToolEvent, line

EDGE = Edge(0, 0, Side.N)


def doc() -> MapDocument:
    m = MapDef("t", "T", 6, 6)
    m.land = {(x, y) for x in range(6) for y in range(5)}
    return MapDocument(m)


def click(tool, square, button="left") -> None:
    tool.press(ToolEvent("press", square, EDGE, button))
    tool.release(ToolEvent("release", square, EDGE, button))


def test_line_has_no_gaps() -> None:
    squares = line((0, 0), (5, 2))
    assert squares[0] == (0, 0) and squares[-1] == (5, 2)
    assert all(
        abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
        for a, b in zip(squares, squares[1:], strict=False)
    )


def test_square_marks_toggle_and_only_on_map_squares(qapp) -> None:
    d = doc()
    for tool_cls, attr in (
        (StartSquareTool, "start_squares"),
        (TownTool, "towns"),
        (WaveTool, "waves"),
    ):
        tool = tool_cls(d)
        click(tool, (5, 5))  # outside the map: nothing
        click(tool, (1, 1))
        assert (1, 1) in getattr(d.map, attr)
        click(tool, (1, 1))
        assert (1, 1) not in getattr(d.map, attr)
    chips = ChipSquareTool(d, colour=Colour.ORANGE)
    click(chips, (2, 2))
    assert d.map.chip_squares == {(2, 2): Colour.ORANGE}
    chips.colour = Colour.PURPLE
    click(chips, (2, 2))  # another colour replaces it
    assert d.map.chip_squares == {(2, 2): Colour.PURPLE}
    click(chips, (2, 2))
    assert d.map.chip_squares == {}


def test_start_square_on_a_town_takes_its_name(qapp) -> None:
    d = doc()
    click(TownTool(d), (3, 3))
    name = d.map.towns[(3, 3)].name
    click(StartSquareTool(d), (3, 3))
    assert d.map.start_squares[(3, 3)].name == name


def test_tracks_and_isle_of_man(qapp) -> None:
    d = doc()
    track = TrackTool(d, number=5)
    click(track, (0, 2))
    click(track, (3, 3))
    assert d.map.tracks[5].rows == (2, 3) and d.map.tracks[5].colour is Colour.LIGHT_BLUE
    track.number = 9
    click(track, (0, 3))  # a row belongs to one track
    assert d.map.tracks[5].rows == (2,) and d.map.tracks[9].rows == (3,)
    click(track, (0, 3), "right")
    assert 9 not in d.map.tracks
    isle = IsleOfManTool(d)
    click(isle, (5, 5))
    assert d.map.isle_of_man == (5, 5)
    d.undo_stack.undo()
    assert d.map.isle_of_man is None
