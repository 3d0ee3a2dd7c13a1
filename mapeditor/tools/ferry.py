"""Ferry routes: drag from one coastal edge to another."""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Edge
from engine.mapdef import Ferry
from mapeditor.commands import change_entries
from mapeditor.tools.base import Tool, ToolEvent


@dataclass
class FerryTool(Tool):
    name = "Ferry route"
    shortcut = "Y"
    hint = "Drag from one coastal edge (a map square's side facing the sea) to another."
    _start: Edge | None = None

    def _coastal(self, edge: Edge) -> bool:
        m = self.document.map
        return edge.square in m.land and m.faces_sea(edge)  # ferries cross the sea only

    def press(self, event: ToolEvent) -> None:
        self._start = event.edge if self._coastal(event.edge) else None
        self.preview_edges = [event.edge] if self._start else []

    def move(self, event: ToolEvent) -> None:
        ends = [self._start] if self._start else []
        if self._coastal(event.edge):
            ends.append(event.edge)
        self.preview_edges = ends

    def release(self, event: ToolEvent) -> None:
        start, self._start = self._start, None
        self.preview_edges = []
        end = event.edge
        if start is None or not self._coastal(end) or end == start:
            return
        m = self.document.map
        n = 1
        while f"ferry-{n}" in m.ferries:
            n += 1
        ferry = Ferry(f"ferry-{n}", start, end)
        change_entries(self.document, "ferries", {ferry.id: ferry}, "Draw ferry route")
        self.document.select([start.square, end.square], ferry=ferry.id)
