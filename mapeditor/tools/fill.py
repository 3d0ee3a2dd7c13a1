"""Rectangle fill and flood fill of map squares."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.geometry import Square, orthogonal_neighbours
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, rectangle


@dataclass
class RectFillTool(Tool):
    name = "Rectangle fill"
    shortcut = "R"
    hint = "Drag a rectangle of map squares; right-drag clears one; Esc cancels the drag."
    _start: Square | None = None

    def press(self, event: ToolEvent) -> None:
        self._start = event.square
        self.preview = {event.square}

    def move(self, event: ToolEvent) -> None:
        if self._start is not None:
            self.preview = set(rectangle(self._start, event.square))

    def release(self, event: ToolEvent) -> None:
        if self._start is None:
            return
        m = self.document.map
        value = ABSENT if event.button == "right" else True
        squares = [sq for sq in rectangle(self._start, event.square) if m.in_grid(sq)]
        text = "Fill rectangle" if value is True else "Clear rectangle"
        change_entries(self.document, "land", dict.fromkeys(squares, value), text)
        self._start = None
        self.preview = set()

    def cancel(self) -> None:
        super().cancel()
        self._start = None


def flood_region(m_land: set[Square], start: Square, width: int, height: int) -> set[Square]:
    """The squares 4-connected to ``start`` that share its state (map square or not)."""
    inside = start in m_land
    seen = {start}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        for n in orthogonal_neighbours(sq):
            if (
                n not in seen
                and 0 <= n[0] < width
                and 0 <= n[1] < height
                and (n in m_land) == inside
            ):
                seen.add(n)
                queue.append(n)
    return seen


@dataclass
class FloodFillTool(Tool):
    name = "Flood fill"
    shortcut = "F"
    hint = (
        "Click outside the map to fill that whole region with map squares; click land to clear it."
    )

    def press(self, event: ToolEvent) -> None:
        m = self.document.map
        if not m.in_grid(event.square):
            return
        region = flood_region(m.land, event.square, m.width, m.height)
        value = ABSENT if event.square in m.land else True
        text = "Flood fill" if value is True else "Flood clear"
        change_entries(self.document, "land", dict.fromkeys(region, value), text)
