"""Land borders: click an edge facing the outside to switch it between sea and land border
(clouds); drag along the border to set a run of edges in one undo step."""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Edge
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent


@dataclass
class LandBorderTool(Tool):
    name = "Land border"
    shortcut = "G"
    hint = "Click or drag along edges facing the outside: sea ↔ land border (clouds). Ferries cross the sea only."
    _value: object = None
    _stroke: int = 0

    def _outside(self, edge: Edge) -> bool:
        m = self.document.map
        return edge.square in m.land and m.faces_outside(edge)

    def press(self, event: ToolEvent) -> None:
        if not self._outside(event.edge):
            self._value = None
            return
        m = self.document.map
        # The first edge decides what the stroke does: clouds on sea, sea on clouds.
        self._value = ABSENT if event.edge in m.land_borders else True
        self._stroke += 1
        self._set(event.edge)

    def move(self, event: ToolEvent) -> None:
        ok = self._outside(event.edge)
        self.preview_edges = [event.edge] if ok else []
        if ok and self._value is not None and event.button:
            self._set(event.edge)

    def release(self, event: ToolEvent) -> None:
        self._value = None

    def _set(self, edge: Edge) -> None:
        text = "Mark land border" if self._value is True else "Mark sea"
        change_entries(
            self.document,
            "land_borders",
            {edge: self._value},
            text,
            merge_key=("land", self._stroke),
        )
