"""Islands: drag squares into an island; Ctrl+click cycles a square's role."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.geometry import Square
from engine.mapdef import Colour, Island, IslandRole, IslandSquare
from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.tools.base import Tool, ToolEvent, line, new_stroke_id, not_land_notice

_ROLES = [IslandRole.LAND, IslandRole.GATED, IslandRole.STACK]


@dataclass
class IslandTool(Tool):
    name = "Island"
    shortcut = "I"
    hint = (
        "Drag over map squares to group them into an island (starting on an island extends it); "
        "Ctrl+click cycles a square's role land → ferry-gated → stack; right-click removes a square."
    )
    colour: Colour | None = None
    _stroke: int = 0
    _island: str | None = None
    _last: Square | None = None

    def press(self, event: ToolEvent) -> None:
        m, sq = self.document.map, event.square
        self._stroke = new_stroke_id()
        hit = m.island_square(sq)
        if event.ctrl and hit is not None:
            island, info = hit
            role = _ROLES[(_ROLES.index(info.role) + 1) % len(_ROLES)]
            squares = dict(island.squares)
            squares[sq] = IslandSquare(role, info.coats_of_arms)
            self._push(dataclasses.replace(island, squares=squares), "Set island square role")
            self.document.select([sq], island=island.id)
            return
        if event.button == "right":
            if hit is not None:
                island = hit[0]
                squares = {k: v for k, v in island.squares.items() if k != sq}
                if squares:
                    self._push(dataclasses.replace(island, squares=squares), "Remove island square")
                else:
                    change_entries(self.document, "islands", {island.id: ABSENT}, "Remove island")
            return
        if sq not in m.land:
            self.notice = not_land_notice("Islands", sq)
            return
        if hit is None:
            n = 1
            while f"island-{n}" in m.islands:
                n += 1
            island = Island(f"island-{n}", f"Island {n}", self.colour, {sq: IslandSquare()})
            self._push(island, "Draw island")
            self._island = island.id
        else:
            self._island = hit[0].id
        self._last = sq
        self.document.select([sq], island=self._island)

    def move(self, event: ToolEvent) -> None:
        if self._island is None or self._last is None or event.button == "":
            return
        m = self.document.map
        island = m.islands.get(self._island)
        if island is None:
            return
        squares = dict(island.squares)
        for sq in line(self._last, event.square):
            other = m.island_square(sq)
            if sq in m.land and (other is None or other[0].id == island.id):
                squares.setdefault(sq, IslandSquare())
        self._last = event.square
        if len(squares) != len(island.squares):
            self._push(dataclasses.replace(island, squares=squares), "Draw island")

    def release(self, event: ToolEvent) -> None:
        self._island = None
        self._last = None

    def _push(self, island: Island, text: str) -> None:
        change_entries(
            self.document, "islands", {island.id: island}, text, merge_key=("island", self._stroke)
        )
