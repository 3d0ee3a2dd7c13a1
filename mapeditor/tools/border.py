"""Border features: click an edge facing the outside to cycle road → city → nothing."""

from __future__ import annotations

from dataclasses import dataclass

from engine.geo.neighbours import neighbour_of
from engine.mapdef import BorderFeature, EdgeKind
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent


@dataclass
class BorderFeatureTool(Tool):
    name = "Border feature"
    shortcut = "D"
    hint = "Click a map square's edge that faces the outside: road → city → none. Name the neighbour in the properties."

    def press(self, event: ToolEvent) -> None:
        m = self.document.map
        edge = event.edge
        if edge.square not in m.land or not m.faces_outside(edge):
            return
        old = m.border_features.get(edge)
        if old is None:
            # Maps imported from a country know who lives beyond each border edge.
            value: object = BorderFeature(EdgeKind.ROAD, neighbour=neighbour_of(m, edge))
        elif old.kind is EdgeKind.ROAD:
            value = BorderFeature(EdgeKind.CITY, old.coats_of_arms, old.neighbour)
        else:
            value = ABSENT
        change_entries(self.document, "border_features", {edge: value}, "Edit border feature")
        self.document.select([edge.square], edge=edge)

    def move(self, event: ToolEvent) -> None:
        m = self.document.map
        ok = event.edge.square in m.land and m.faces_outside(event.edge)
        self.preview_edges = [event.edge] if ok else []
