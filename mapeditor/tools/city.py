"""Large cities: drag a rectangle of a city's squares, click an outer edge to cycle what is printed."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.geometry import Square
from engine.mapdef import EdgeKind, LargeCity
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, not_land_notice, rectangle

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
        "Drag a rectangle over map squares to draw a large city (starting on a city extends it); "
        "Esc cancels the drag; Ctrl+click a city's outer edge to cycle field → city → road; "
        "right-click removes a square."
    )
    _start: Square | None = None
    _city: str | None = None

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
            self.notice = not_land_notice("Large cities", event.square)
            return
        self._start = event.square
        self._city = hit.id if hit is not None else None
        self.preview = self._squares(event.square)

    def _squares(self, corner: Square) -> set[Square]:
        """The map squares of the dragged rectangle that are free (or already this city's)."""
        if self._start is None:
            return set()
        m = self.document.map
        taken = m.city_squares()
        return {
            sq
            for sq in rectangle(self._start, corner)
            if sq in m.land and taken.get(sq, self._city) == self._city
        }

    def move(self, event: ToolEvent) -> None:
        if self._start is not None and event.button != "":
            self.preview = self._squares(event.square)

    def release(self, event: ToolEvent) -> None:
        if self._start is None:
            return
        squares = self._squares(event.square)
        city_id, self._start, self._city = self._city, None, None
        self.preview = set()
        m = self.document.map
        if not squares:
            return
        if city_id is None or city_id not in m.large_cities:
            n = 1
            while f"city-{n}" in m.large_cities:
                n += 1
            city = LargeCity(f"city-{n}", f"City {n}", squares)
            change_entries(self.document, "large_cities", {city.id: city}, "Draw large city")
        else:
            city = m.large_cities[city_id]
            if squares <= city.squares:
                self.document.select([event.square], city=city.id)
                return
            grown = dataclasses.replace(city, squares=city.squares | squares)
            grown.edges = {e: k for e, k in city.edges.items() if e in set(grown.outer_edges())}
            change_entries(self.document, "large_cities", {city.id: grown}, "Extend large city")
            city = grown
        self.document.select(sorted(city.squares), city=city.id)

    def cancel(self) -> None:
        super().cancel()
        self._start = None
        self._city = None

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
