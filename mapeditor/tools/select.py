"""Selection: click, rectangle, Shift to add; drag a selection to move it; delete it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engine.geometry import Edge, Square
from engine.mapdef import MapDef
from mapeditor.commands import ReplaceMap
from mapeditor.document import MapDocument
from mapeditor.tools.base import Tool, ToolEvent, rectangle


def _shift(sq: Square, dx: int, dy: int) -> Square:
    return (sq[0] + dx, sq[1] + dy)


def _shift_edge(edge: Edge, dx: int, dy: int) -> Edge:
    return Edge(edge.x + dx, edge.y + dy, edge.side)


def moved_map(m: MapDef, squares: set[Square], dx: int, dy: int) -> MapDef:
    """A copy of ``m`` with the selected squares and what is printed on them moved by (dx, dy).

    Large cities and islands move when all their squares are selected; ferries move the ends
    that are selected. Squares the selection leaves become outside the map.
    """
    out = m.copy()
    sel = squares & m.land

    def move_keys(d: dict[Any, Any]) -> dict[Any, Any]:
        return {(_shift(k, dx, dy) if k in sel else k): v for k, v in d.items() if k not in sel} | {
            _shift(k, dx, dy): v for k, v in d.items() if k in sel
        }

    out.land = (m.land - sel) | {_shift(s, dx, dy) for s in sel}
    out.start_squares = move_keys(m.start_squares)
    out.towns = move_keys(m.towns)
    out.chip_squares = move_keys(m.chip_squares)
    out.waves = (m.waves - sel) | {_shift(s, dx, dy) for s in m.waves & sel}
    out.border_features = {
        (_shift_edge(e, dx, dy) if e.square in sel else e): v for e, v in m.border_features.items()
    }
    for cid, city in m.large_cities.items():
        if city.squares <= sel:
            out.large_cities[cid] = dataclasses.replace(
                city,
                squares={_shift(s, dx, dy) for s in city.squares},
                edges={_shift_edge(e, dx, dy): k for e, k in city.edges.items()},
            )
    for iid, island in m.islands.items():
        out.islands[iid] = dataclasses.replace(
            island,
            squares={(_shift(s, dx, dy) if s in sel else s): v for s, v in island.squares.items()},
        )
    for fid, ferry in m.ferries.items():
        out.ferries[fid] = dataclasses.replace(
            ferry,
            a=_shift_edge(ferry.a, dx, dy) if ferry.a.square in sel else ferry.a,
            b=_shift_edge(ferry.b, dx, dy) if ferry.b.square in sel else ferry.b,
        )
    return out


def cleared_map(m: MapDef, squares: set[Square]) -> MapDef:
    """A copy of ``m`` without the selected squares and everything printed on them."""
    out = m.copy()
    out.land -= squares
    out.waves -= squares
    for d in (out.start_squares, out.towns, out.chip_squares):
        for sq in squares & set(d):
            del d[sq]
    out.border_features = {e: v for e, v in out.border_features.items() if e.square not in squares}
    out.ferries = {
        fid: f
        for fid, f in out.ferries.items()
        if f.a.square not in squares and f.b.square not in squares
    }
    for cid in [cid for cid, c in out.large_cities.items() if c.squares & squares]:
        del out.large_cities[cid]
    for iid, island in list(out.islands.items()):
        rest = {s: v for s, v in island.squares.items() if s not in squares}
        if rest:
            out.islands[iid] = dataclasses.replace(island, squares=rest)
        else:
            del out.islands[iid]
    if out.isle_of_man in squares:
        out.isle_of_man = None
    return out


def delete_selection(document: MapDocument) -> bool:
    """Remove the selected squares and what is on them (one undo step)."""
    if not document.selection:
        return False
    document.undo_stack.push(
        ReplaceMap(document, cleared_map(document.map, document.selection), "Delete selection")
    )
    document.select([])
    return True


@dataclass
class SelectTool(Tool):
    name = "Select"
    shortcut = "V"
    hint = "Click or drag a rectangle to select (Shift adds); drag a selection to move it; Delete removes it."
    _start: Square | None = None
    _moving: bool = False
    _add: bool = False

    def press(self, event: ToolEvent) -> None:
        doc = self.document
        self._start = event.square
        self._add = event.shift
        self._moving = event.square in doc.selection and not event.shift
        if not self._moving:
            self._select_at(event)

    def _select_at(self, event: ToolEvent) -> None:
        m = self.document.map
        sq = event.square
        city = m.city_at(sq)
        island = m.island_square(sq)
        ferry = next((f.id for f in m.ferries.values() if sq in (f.a.square, f.b.square)), None)
        edge = event.edge if event.edge in m.border_features else None
        self.document.select(
            [sq] if m.in_grid(sq) else [],
            edge=edge,
            city=city.id if city else None,
            ferry=ferry,
            island=island[0].id if island else None,
            add=self._add,
        )

    def move(self, event: ToolEvent) -> None:
        if self._start is None or event.button == "":
            return
        if self._moving:
            dx, dy = event.square[0] - self._start[0], event.square[1] - self._start[1]
            self.preview = {_shift(s, dx, dy) for s in self.document.selection}
        else:
            self.preview = set(rectangle(self._start, event.square))

    def cancel(self) -> None:
        super().cancel()
        self._start = None
        self._moving = False

    def release(self, event: ToolEvent) -> None:
        doc, start = self.document, self._start
        self._start = None
        self.preview = set()
        if start is None:
            return
        if self._moving:
            dx, dy = event.square[0] - start[0], event.square[1] - start[1]
            if (dx, dy) != (0, 0):
                moved = moved_map(doc.map, doc.selection, dx, dy)
                doc.undo_stack.push(ReplaceMap(doc, moved, "Move selection"))
                doc.select({_shift(s, dx, dy) for s in doc.selection})
        elif event.square != start:
            squares = [s for s in rectangle(start, event.square) if doc.map.in_grid(s)]
            doc.select(squares, add=self._add)
