"""The static layout of a map: what lies across each side of each square, built once per map."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from engine.board.vocab import (
    CLOSED_SIDE,
    DELTAS,
    FREE,
    H_BORDER,
    H_CITY,
    H_FERRY,
    H_NORMAL,
    LETTER,
    NORMAL_SIDE,
    SIDE_ENUM,
    BorderSide,
    CitySide,
    FerrySide,
    SideHandler,
)
from engine.geometry import Edge, Square
from engine.mapcache import derived
from engine.mapdef import EdgeKind, MapDef


@dataclass
class MapOptions:
    """Readings of the map rules that the game options select (see engine/RULES.md)."""

    large_city_connect: str = "any_edge"
    """``any_edge``: any tile placed against a large city (edges match) connects it;
    ``city_edge``: only a tile joining one of its city edges does."""
    large_city_road_tile: bool = True
    """A road that ends at a large city's printed road edge counts the large-city square as a
    road tile."""
    fields_touch_large_city: bool = False
    """A field against a large city's printed field edge also borders that city for farmers."""
    gated_islands: bool = True
    """Ferry-gated island squares can only be reached by ferry (and then from each other)."""


class MapLayout:
    """Everything about a map the board needs, computed once and shared by board copies."""

    def __init__(self, m: MapDef, options: MapOptions) -> None:
        # weak: layouts are cached per map (engine.mapcache), and the cache must not keep the
        # map alive; every board that uses a layout holds its map
        self._map = weakref.ref(m)
        self.options = options
        self.placeable: frozenset[Square] = frozenset(m.placeable_squares())
        self.gated: frozenset[Square] = (
            frozenset(m.gated_squares()) if options.gated_islands else frozenset()
        )
        self.city_of: dict[Square, str] = m.city_squares()
        self.city_names = {cid: c.name or cid for cid, c in m.large_cities.items()}
        ferry_end: dict[Edge, tuple[str, Square]] = {}
        for f in m.ferries.values():
            ferry_end[f.a] = (f.id, f.b.square)
            ferry_end[f.b] = (f.id, f.a.square)
        self.handlers: dict[Square, tuple[SideHandler, ...]] = {}
        """Per square with anything but placeable squares around it: what lies across each side."""
        self.static_req: dict[Square, str] = {}
        self.around: dict[Square, int] = {}
        """Square -> how many of its 8 neighbours are placeable or a large city's
        (``BoardState.monk_neighbour_count``, filled as asked)."""
        self.contacts = {}
        # squares next to a large city, per city: opened when the city connects
        self.city_neighbours: dict[str, list[Square]] = {cid: [] for cid in m.large_cities}
        for sq in sorted(self.placeable):
            x, y = sq
            hs: list[SideHandler] = []
            req = ["?"] * 4
            for s in range(4):
                side = SIDE_ENUM[s]
                edge = Edge(x, y, side)
                dx, dy = DELTAS[s]
                outer = (x + dx, y + dy)
                bf = m.border_features.get(edge)
                if bf is not None and outer not in m.land and bf.kind is not EdgeKind.FIELD:
                    letter = LETTER[bf.kind]
                    key = ("border", x, y, s)
                    hs.append(BorderSide(H_BORDER, letter, bf.coats_of_arms, key, bf.neighbour))
                    req[s] = letter
                elif edge in ferry_end:
                    fid, other = ferry_end[edge]
                    hs.append(FerrySide(H_FERRY, fid, other))
                    req[s] = "R"
                elif outer in self.city_of:
                    cid = self.city_of[outer]
                    letter = LETTER[m.large_cities[cid].edge_kind(edge.mirror())]
                    hs.append(CitySide(H_CITY, cid, letter))
                    req[s] = letter
                    if sq not in self.city_neighbours[cid]:
                        self.city_neighbours[cid].append(sq)
                elif outer in self.placeable:
                    hs.append(NORMAL_SIDE)
                else:
                    hs.append(CLOSED_SIDE)
            if any(h[0] != H_NORMAL for h in hs):
                self.handlers[sq] = tuple(hs)
            pattern = "".join(req)
            if pattern != FREE:
                self.static_req[sq] = pattern

    printed: (
        tuple[
            list[tuple[int, int, frozenset[tuple[Any, ...]], int, str | None]],
            dict[str, int],
            dict[tuple[str, Square, int], int],
            dict[str, int],
            set[int],
        ]
        | None
    ) = None
    """The feature nodes of the printed parts (large cities, their road stubs, ferries) as
    every new board makes them, filled in by the first board (see Board._make_printed_nodes)."""

    contacts: dict[Square, tuple[tuple[int, ...], tuple[tuple[int, Square, int, int, int], ...]]]
    """Per square, filled on use by boards of this layout: its printed contact nodes and the
    sides a placed tile may lie across (see Board._contact_nodes)."""

    @property
    def map(self) -> MapDef:
        """The map this layout was made from."""
        m = self._map()
        assert m is not None, "a MapLayout outlived its map"
        return m


def map_layout(m: MapDef, options: MapOptions) -> MapLayout:
    """The :class:`MapLayout` of ``m`` under ``options``, built once per map object (see
    :mod:`engine.mapcache`); boards only read it."""
    tables = derived(m)
    key = (
        "board.MapLayout",
        options.large_city_connect,
        options.large_city_road_tile,
        options.fields_touch_large_city,
        options.gated_islands,
    )
    layout = tables.get(key)
    if layout is None:
        layout = tables[key] = MapLayout(m, options)
    return layout
