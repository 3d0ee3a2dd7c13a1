"""Tools that toggle something printed on one square: start squares, towns, waves, chip
squares, the rule set's own marks, track rows and the Isle of Man."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.geometry import Square
from engine.mapdef import Colour, MarkSquare, StartSquare, Town, Track
from mapeditor.commands import change_attribute, change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, line, new_stroke_id, not_land_notice

_WHAT = {
    "start_squares": "Start squares",
    "towns": "Towns",
    "waves": "Waves",
    "chip_squares": "Chip squares",
    "marks": "Marks",
}


def toggle_on_square(
    tool: Tool, event: ToolEvent, attr: str, make: Callable[[], object], text: str
) -> None:
    """Put ``make()`` on the clicked map square, or take away what is there (one undo step)."""
    m, sq = tool.document.map, event.square
    if sq not in m.land:
        tool.notice = not_land_notice(_WHAT[attr], sq)
        return
    current = tool.document._entry(attr, sq)
    value = make()
    value = ABSENT if current is not ABSENT and (current == value or value is True) else value
    change_entries(tool.document, attr, {sq: value}, text)
    tool.document.select([sq])


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

        def make() -> object:
            if sq in m.start_squares:
                return m.start_squares[sq]  # the same again: toggled off
            taken = {s.name for s in m.start_squares.values()}
            return StartSquare(m.towns[sq].name if sq in m.towns else _next_name("Start", taken))

        toggle_on_square(self, event, "start_squares", make, "Toggle start square")


@dataclass
class TownTool(Tool):
    name = "Town"
    shortcut = "T"
    hint = "Click a map square to add a town (name and grape colour in the properties); click again to remove."
    grape: Colour | None = None

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square

        def make() -> object:
            if sq in m.towns:
                return m.towns[sq]  # the same again: toggled off
            return Town(_next_name("Town", {t.name for t in m.towns.values()}), self.grape)

        toggle_on_square(self, event, "towns", make, "Toggle town")


@dataclass
class WaveTool(Tool):
    name = "Waves"
    shortcut = "W"
    hint = "Click a map square to mark it with waves (no tile may go there); click again to clear."

    def press(self, event: ToolEvent) -> None:
        toggle_on_square(self, event, "waves", lambda: True, "Toggle waves")


@dataclass
class ChipSquareTool(Tool):
    name = "Chip square"
    shortcut = "C"
    hint = "Click a map square to mark it with the chosen chip colour (Great Britain); click again to clear."
    colour: Colour = Colour.LIGHT_BLUE

    def press(self, event: ToolEvent) -> None:
        toggle_on_square(self, event, "chip_squares", lambda: self.colour, "Mark chip square")


@dataclass
class DesignerMarkTool(Tool):
    name = "Designer mark"
    shortcut = "J"
    hint = (
        "Click or drag over map squares to print the chosen mark of the map's rule set, with the "
        "chosen chip colour and value, on each (one undo step a drag); starting on the same mark "
        "clears instead. Right-click chooses the next mark."
    )
    mark: str | None = None
    """The mark printed (``None``: the rule set's first)."""
    colour: Colour | None = None
    """The chip colour each square painted carries (``None``: the mark's own)."""
    value: int | None = None
    """The value each square painted carries (``None``: none)."""
    _stroke: int = 0
    _last: Square | None = None
    _paint: object = ABSENT
    """What the stroke puts on each square: the mark, or ``ABSENT`` (it clears)."""

    def marks(self) -> list[tuple[str, str]]:
        """The rule set's marks: ``(id, name)``."""
        spec = self.document.map.rule_set.spec
        return [(k.id, k.name) for k in spec.marks] if spec is not None else []

    def press(self, event: ToolEvent) -> None:
        marks = self.marks()
        if not marks:
            self.notice = "The map's rule set declares no marks (docs/rule-language.md)."
            return
        ids = [mid for mid, _name in marks]
        if self.mark not in ids:
            self.mark = ids[0]
        if event.button == "right":
            self.mark = ids[(ids.index(self.mark) + 1) % len(ids)]
            self.notice = f"Mark: {dict(marks)[self.mark]}"
            return
        m, sq = self.document.map, event.square
        if sq not in m.land:
            self.notice = not_land_notice(_WHAT["marks"], sq)
            return
        value = MarkSquare(self.mark, self.colour, self.value)
        self._paint = ABSENT if m.marks.get(sq) == value else value
        self._stroke = new_stroke_id()
        self._last = sq
        self._put([sq])

    def move(self, event: ToolEvent) -> None:
        if self._last is None or event.button != "left":
            return
        self._put(line(self._last, event.square))
        self._last = event.square

    def release(self, event: ToolEvent) -> None:
        self._last = None

    def _put(self, squares: list[Square]) -> None:
        land = self.document.map.land
        changes = {sq: self._paint for sq in squares if sq in land}
        text = "Clear marks" if self._paint is ABSENT else "Print marks"
        change_entries(self.document, "marks", changes, text, merge_key=("stroke", self._stroke))


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
