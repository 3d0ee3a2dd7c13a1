"""Land brush and eraser: drag strokes, gap-free, one undo step per stroke."""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Square
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, line, new_stroke_id


@dataclass
class _StrokeTool(Tool):
    _stroke: int = 0
    _last: Square | None = None

    paint_value: object = True  # True adds land, ABSENT removes it

    def _value(self, event: ToolEvent) -> object:
        erase = event.button == "right"
        if self.paint_value is True:
            return ABSENT if erase else True
        return True if erase else ABSENT

    def _paint(self, squares: list[Square], event: ToolEvent) -> None:
        m = self.document.map
        value = self._value(event)
        changes = {sq: value for sq in squares if m.in_grid(sq)}
        verb = "Paint land" if value is True else "Erase land"
        change_entries(self.document, "land", changes, verb, merge_key=("stroke", self._stroke))

    def press(self, event: ToolEvent) -> None:
        self._stroke = new_stroke_id()
        self._last = event.square
        self._paint([event.square], event)

    def move(self, event: ToolEvent) -> None:
        if self._last is None or event.button == "":
            self.preview = {event.square}
            return
        self._paint(line(self._last, event.square), event)
        self._last = event.square

    def release(self, event: ToolEvent) -> None:
        self._last = None


@dataclass
class BrushTool(_StrokeTool):
    name = "Land brush"
    shortcut = "B"
    hint = "Drag to paint map squares; right-drag erases."


@dataclass
class EraserTool(_StrokeTool):
    name = "Eraser"
    shortcut = "E"
    hint = "Drag to remove map squares; right-drag paints."
    paint_value: object = ABSENT
