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

    def _why_not(self, edge: Edge, which: str) -> str:
        m = self.document.map
        where = f"({edge.x}, {edge.y})"
        if edge.square not in m.land:
            problem = f"{where} is water or outside the map"
        else:
            problem = f"the {edge.side.value} side of {where} faces another map square"
        return (
            f"A ferry route must {which} on a coastal edge (a map square's side facing water): "
            f"{problem}. Press on a map square near its coast and drag to another coast."
        )

    def press(self, event: ToolEvent) -> None:
        self._start = event.edge if self._coastal(event.edge) else None
        self.preview_edges = [event.edge] if self._start else []
        if self._start is None:
            self.notice = self._why_not(event.edge, "start")

    def move(self, event: ToolEvent) -> None:
        ends = [self._start] if self._start else []
        if self._coastal(event.edge):
            ends.append(event.edge)
        self.preview_edges = ends

    def release(self, event: ToolEvent) -> None:
        start, self._start = self._start, None
        self.preview_edges = []
        end = event.edge
        if start is None:
            return
        if not self._coastal(end):
            self.notice = self._why_not(end, "end")
            return
        if end == start:
            return
        m = self.document.map
        n = 1
        while f"ferry-{n}" in m.ferries:
            n += 1
        ferry = Ferry(f"ferry-{n}", start, end)
        change_entries(self.document, "ferries", {ferry.id: ferry}, "Draw ferry route")
        self.document.select([start.square, end.square], ferry=ferry.id)
