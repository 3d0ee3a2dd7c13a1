"""Large cities: drag to paint a city's squares, click an outer edge to cycle what is printed."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.geometry import Square
from engine.mapdef import EdgeKind, LargeCity
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, line, new_stroke_id

_CYCLE = {
    EdgeKind.FIELD: EdgeKind.CITY,
    EdgeKind.CITY: EdgeKind.ROAD,
    EdgeKind.ROAD: EdgeKind.FIELD,
}


@dataclass
class LargeCityTool(Tool):
    name = "Large city"
    shortcut = "L"
    hint = (
        "Drag over map squares to draw a large city (starting on a city extends it); "
        "Ctrl+click a city's outer edge to cycle field → city → road; right-click removes a square."
    )
    _stroke: int = 0
    _city: str | None = None
    _last: Square | None = None

    def press(self, event: ToolEvent) -> None:
        m = self.document.map
        if event.ctrl:
            self._cycle_edge(event)
            return
        hit = m.city_at(event.square)
        if event.button == "right":
            if hit is not None:
                self._remove_square(hit, event.square)
            return
        if event.square not in m.land:
            return
        self._stroke = new_stroke_id()
        if hit is None:
            n = 1
            while f"city-{n}" in m.large_cities:
                n += 1
            city = LargeCity(f"city-{n}", f"City {n}", {event.square})
            change_entries(
                self.document,
                "large_cities",
                {city.id: city},
                "Draw large city",
                merge_key=("city", self._stroke),
            )
            self._city = city.id
        else:
            self._city = hit.id
        self._last = event.square
        self.document.select([event.square], city=self._city)

    def move(self, event: ToolEvent) -> None:
        if self._city is None or self._last is None or event.button == "":
            return
        m = self.document.map
        city = m.large_cities.get(self._city)
        if city is None:
            return
        taken = m.city_squares()
        add = {
            sq
            for sq in line(self._last, event.square)
            if sq in m.land and taken.get(sq, city.id) == city.id
        }
        self._last = event.square
        if add - city.squares:
            grown = dataclasses.replace(city, squares=city.squares | add)
            grown.edges = {e: k for e, k in city.edges.items() if e in set(grown.outer_edges())}
            change_entries(
                self.document,
                "large_cities",
                {city.id: grown},
                "Draw large city",
                merge_key=("city", self._stroke),
            )

    def release(self, event: ToolEvent) -> None:
        self._city = None
        self._last = None

    def _remove_square(self, city: LargeCity, square: Square) -> None:
        rest = city.squares - {square}
        if not rest:
            change_entries(self.document, "large_cities", {city.id: ABSENT}, "Remove large city")
            return
        shrunk = dataclasses.replace(city, squares=rest)
        outer = set(shrunk.outer_edges())
        shrunk.edges = {e: k for e, k in city.edges.items() if e in outer}
        change_entries(self.document, "large_cities", {city.id: shrunk}, "Shrink large city")

    def _cycle_edge(self, event: ToolEvent) -> None:
        m = self.document.map
        edge = event.edge
        city = m.city_at(edge.square)
        if city is None or edge not in set(city.outer_edges()):
            return
        kind = _CYCLE[city.edge_kind(edge)]
        edges = dict(city.edges)
        if kind is EdgeKind.FIELD:
            edges.pop(edge, None)
        else:
            edges[edge] = kind
        change_entries(
            self.document,
            "large_cities",
            {city.id: dataclasses.replace(city, edges=edges)},
            f"Set city edge to {kind.value}",
        )
        self.document.select([edge.square], edge=edge, city=city.id)
