"""Tools that toggle something printed on one square: start squares, towns, waves, chip
squares, track rows and the Isle of Man."""

from __future__ import annotations

from dataclasses import dataclass

from engine.mapdef import Colour, StartSquare, Town, Track
from mapeditor.commands import change_attribute, change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent


def _next_name(prefix: str, taken: set[str]) -> str:
    n = 1
    while f"{prefix} {n}" in taken:
        n += 1
    return f"{prefix} {n}"


@dataclass
class StartSquareTool(Tool):
    name = "Start square"
    shortcut = "S"
    hint = "Click a map square to make it a start square (a town with red edging); click again to remove."

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square
        if sq not in m.land:
            return
        if sq in m.start_squares:
            change_entries(self.document, "start_squares", {sq: ABSENT}, "Remove start square")
        else:
            taken = {s.name for s in m.start_squares.values()}
            name = m.towns[sq].name if sq in m.towns else _next_name("Start", taken)
            change_entries(
                self.document, "start_squares", {sq: StartSquare(name)}, "Add start square"
            )
        self.document.select([sq])


@dataclass
class TownTool(Tool):
    name = "Town"
    shortcut = "T"
    hint = "Click a map square to add a town (name and grape colour in the properties); click again to remove."
    grape: Colour | None = None

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square
        if sq not in m.land:
            return
        if sq in m.towns:
            change_entries(self.document, "towns", {sq: ABSENT}, "Remove town")
        else:
            name = _next_name("Town", {t.name for t in m.towns.values()})
            change_entries(self.document, "towns", {sq: Town(name, self.grape)}, "Add town")
        self.document.select([sq])


@dataclass
class WaveTool(Tool):
    name = "Waves"
    shortcut = "W"
    hint = "Click a map square to mark it with waves (no tile may go there); click again to clear."

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square
        if sq not in m.land:
            return
        value = ABSENT if sq in m.waves else True
        change_entries(self.document, "waves", {sq: value}, "Toggle waves")


@dataclass
class ChipSquareTool(Tool):
    name = "Chip square"
    shortcut = "C"
    hint = "Click a map square to mark it with the chosen chip colour (Great Britain); click again to clear."
    colour: Colour = Colour.LIGHT_BLUE

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square
        if sq not in m.land:
            return
        value = ABSENT if m.chip_squares.get(sq) == self.colour else self.colour
        change_entries(self.document, "chip_squares", {sq: value}, "Mark chip square")


@dataclass
class TrackTool(Tool):
    name = "Track"
    shortcut = "K"
    hint = "Click a row to add it to the chosen track number (Península Ibérica); right-click removes it."
    number: int = 1

    def press(self, event: ToolEvent) -> None:
        m = self.document.map
        row = event.square[1]
        if not 0 <= row < m.height:
            return
        changes = {}
        for number, track in m.tracks.items():
            if row in track.rows and (number != self.number or event.button == "right"):
                rows = tuple(r for r in track.rows if r != row)
                changes[number] = Track(number, rows) if rows else ABSENT
        if event.button != "right":
            current = m.tracks.get(self.number)
            rows = tuple(sorted(set(current.rows if current else ()) | {row}))
            changes[self.number] = Track(self.number, rows)
        change_entries(self.document, "tracks", changes, "Edit tracks")


@dataclass
class IsleOfManTool(Tool):
    name = "Isle of Man"
    shortcut = "M"
    hint = "Click where the Isle of Man holding area is printed (Great Britain); click it again to remove."

    def press(self, event: ToolEvent) -> None:
        m = self.document.map
        if not m.in_grid(event.square):
            return
        value = None if m.isle_of_man == event.square else event.square
        change_attribute(self.document, "isle_of_man", value, "Place the Isle of Man")
