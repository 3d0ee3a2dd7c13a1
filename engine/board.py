"""The board: placed tiles on a map (or on an unbounded classic table), features and the frontier.

Speed matters here (bots play thousands of games), so the board works on precomputed tables:

- every tile type is compiled once per rotation into an :class:`OrientedTile` (edge letters and
  the segment on each side / half-edge, in board orientation);
- every empty square that has a constraint keeps a 4-letter *pattern* of the edges a tile there
  must show (``C``/``R``/``F``, ``?`` for free), updated as neighbours are placed; which rotations
  of a tile fit a pattern is cached per tile type;
- a *frontier* holds the empty squares where a tile may go now, grouped by pattern, so listing
  the placements of a tile asks the rotation cache once per pattern, not once per square;
- features are a union-find forest (:mod:`engine.features`) with open-edge counters, so completion
  is a counter reaching 0, never a board scan.

A map's printed parts are static per map (:class:`MapLayout`) and shared by every copy of a board.
"""

from __future__ import annotations

import weakref
from collections.abc import Container, Iterator, KeysView, Sequence
from dataclasses import dataclass
from itertools import islice, product
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.errors import EngineError
from engine.features import CITY, FIELD, LOG_ROOT, MONASTERY, ROAD, FeatureStore
from engine.geometry import Edge, Side, Square
from engine.mapdef import EdgeKind, MapDef

if TYPE_CHECKING:
    from engine.tiles import TileSet, TileType

SIDE_NAMES = ("N", "E", "S", "W")
HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
INNER_FIELD = "I"
"""Meeple location of a field that touches no edge (some I&C / T&B tiles have one)."""
_FIELD_NAMES = frozenset((*HALF_NAMES, INNER_FIELD))
MONASTERY_LOCATION = "C"
DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))
_SIDE_ENUM = (Side.N, Side.E, Side.S, Side.W)
_KIND_OF = {"city": CITY, "road": ROAD, "field": FIELD, "monastery": MONASTERY}
_LETTER = {EdgeKind.CITY: "C", EdgeKind.ROAD: "R", EdgeKind.FIELD: "F"}
_LETTER_NAME = {"C": "city", "R": "road", "F": "field", "?": "anything"}
_FREE = "????"
_MAX_PATTERN_IDS = 1 << 20
"""Contact patterns given an int id per tile set (a game meets a few hundred)."""
_MoveTable = dict[int, tuple[tuple[tuple[str, ...], ...], int]]
"""Pattern id -> meeple locations per rotation and moves per square (see move_tables)."""
# tags of the board's own undo-log entries (beside features.LOG_ROOT)
_LOG_DONE = 1  # (tag, root): completed now
_LOG_REQ = 2  # (tag, square, old pattern or None)
_LOG_MON = 3  # (tag, square, old count or None)
_LOG_WATCH = 4  # (tag, square, old watchers or None)
_LOG_CITY = 5  # (tag, city id): connected now
_LOG_FERRY = 6  # (tag, ferry id): opened now
# what a side of an empty square joins (Board.preview_sides)
_SIDE_OPEN = 0
_SIDE_TILE = 1
_SIDE_CLOSED = 2
_SIDE_BORDER = 3
_SIDE_JOIN = 4
SIDE_TILE = _SIDE_TILE
"""Public tags of :meth:`Board.preview_sides` entries that carry feature roots."""
SIDE_JOIN = _SIDE_JOIN
_SIDE_FIELD_CITY = 5  # a field against a large city that fields may touch (no preview)
_SIDE_OPEN_T = (_SIDE_OPEN,)
_SIDE_FIELD_CITY_T = (_SIDE_FIELD_CITY,)
_SIDE_CLOSED_T = (_SIDE_CLOSED,)
_EMPTY: frozenset[int] = frozenset()
_WITH_EDGE: dict[tuple[int, str], dict[str, str]] = {
    (s, letter): {
        p: p[: (s + 2) & 3] + letter + p[((s + 2) & 3) + 1 :]
        for p in map("".join, product("CRF?", repeat=4))
    }
    for s in range(4)
    for letter in "CRF"
}
"""(side s of the tile placed next to a square, that side's letter) -> pattern of the square ->
the square's pattern with the facing side (s + 2) set to the letter."""


def partner_half(h: int) -> int:
    """The half-edge of the neighbouring tile that touches half-edge ``h`` (NL<->SR, NR<->SL, ...)."""
    side = h >> 1
    return (((side + 2) & 3) << 1) | (1 - (h & 1))


_PARTNER = tuple(partner_half(h) for h in range(8))
_HALF_PARTNERS = tuple(tuple((h, _PARTNER[h]) for h in (2 * s, 2 * s + 1)) for s in range(4))
"""Per side, its two half-edges, each with the neighbour's half-edge it touches."""


# -- compiled tiles ------------------------------------------------------------------------------


class OrientedTile:
    """One tile type at one rotation, in board orientation.

    Segment ``i`` has ``kinds[i]``, ``sides[i]`` (side indices 0..3 for cities and roads),
    ``halves[i]`` (half-edge indices 0..7 for fields), ``coa[i]`` and ``cities[i]`` (for fields, the
    indices of the city segments it touches). ``side_seg[s]`` is the city/road segment on side
    ``s`` (-1 on a field edge); ``half_seg[h]`` the field segment on half-edge ``h`` (-1 on city).
    """

    __slots__ = (
        "tile_id",
        "rotation",
        "edges",
        "kinds",
        "sides",
        "halves",
        "coa",
        "cities",
        "side_seg",
        "half_seg",
        "locations",
        "aliases",
        "names",
        "shape",
        "open_edges",
        "dense",
        "heads",
        "dense_cities",
        "pos_seg",
        "node_kinds",
        "node_open",
        "node_coa",
        "city_links",
        "with_edge",
    )

    def __init__(self, tile: TileType, rotation: int) -> None:
        steps = rotation // 90
        self.tile_id: str = tile.id
        self.rotation = rotation
        letters = tile.edges
        self.edges: str = "".join(letters[(s - steps) % 4] for s in range(4))
        kinds: list[int] = []
        sides: list[tuple[int, ...]] = []
        halves: list[tuple[int, ...]] = []
        coa: list[int] = []
        cities: list[tuple[int, ...]] = []
        side_seg = [-1] * 4
        half_seg = [-1] * 8
        for i, seg in enumerate(tile.segments):
            kind = _KIND_OF[seg.kind]
            kinds.append(kind)
            coa.append(seg.coats_of_arms)
            cities.append(tuple(seg.cities) if kind == FIELD else ())
            if kind in (CITY, ROAD):
                ss = tuple(sorted((SIDE_NAMES.index(e) + steps) % 4 for e in seg.edges))
                sides.append(ss)
                halves.append(())
                for s in ss:
                    side_seg[s] = i
            elif kind == FIELD:
                hs = tuple(sorted((HALF_NAMES.index(e) + 2 * steps) % 8 for e in seg.edges))
                sides.append(())
                halves.append(hs)
                for h in hs:
                    half_seg[h] = i
            else:
                sides.append(())
                halves.append(())
        self.kinds = tuple(kinds)
        self.sides = tuple(sides)
        self.halves = tuple(halves)
        self.coa = tuple(coa)
        self.cities = tuple(cities)
        self.side_seg = tuple(side_seg)
        self.half_seg = tuple(half_seg)
        self.pos_seg: tuple[int, ...] = self.side_seg + self.half_seg
        """The segment on each position of a contact pattern (sides, then half-edges)."""
        # Meeple locations: the canonical name of each segment, and every alias that names it.
        locations: list[tuple[str, int]] = []
        aliases: dict[str, int] = {}
        for i, kind in enumerate(self.kinds):
            if kind == MONASTERY:
                names = [MONASTERY_LOCATION]
            elif kind == FIELD:
                names = [HALF_NAMES[h] for h in self.halves[i]] or [INNER_FIELD]
            else:
                names = [SIDE_NAMES[s] for s in self.sides[i]]
            locations.append((names[0], i))
            for name in names:
                aliases[name] = i
        self.locations: tuple[tuple[str, int], ...] = tuple(locations)
        self.names: tuple[str, ...] = tuple(name for name, _ in locations)
        """Canonical meeple location of each segment."""

        self.aliases: dict[str, int] = aliases
        self.shape: tuple[Any, ...] = tuple(
            sorted(
                (k, sd, hv, c, tuple(sorted(self.sides[j] for j in cs)))
                for k, sd, hv, c, cs in zip(
                    self.kinds, self.sides, self.halves, self.coa, self.cities, strict=True
                )
            )
        )
        """The tile's geometry without segment numbers: two rotations of a symmetric tile with
        the same shape play the same."""
        self.open_edges: tuple[int, ...] = tuple(len(sd) for sd in self.sides)
        self.heads: tuple[int, ...] = tuple(i for i, k in enumerate(self.kinds) if k != MONASTERY)
        """The segments that are features (all but a monastery)."""
        self.dense: tuple[int, ...] = tuple(
            self.heads.index(i) if k != MONASTERY else -1 for i, k in enumerate(self.kinds)
        )
        """Each segment's index in ``heads`` (-1: the monastery)."""
        self.dense_cities: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted({self.dense[c] for c in cs})) for cs in self.cities
        )
        """For a field segment, the ``dense`` indices of the city segments it touches."""
        # what :meth:`Board.place` appends to the feature store for the new nodes, in one go
        self.node_kinds: tuple[int, ...] = tuple(self.kinds[i] for i in self.heads)
        self.node_open: tuple[int, ...] = tuple(self.open_edges[i] for i in self.heads)
        self.node_coa: tuple[int, ...] = tuple(self.coa[i] for i in self.heads)
        self.city_links: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (i, cs) for i, cs in enumerate(self.cities) if cs
        )
        """Each field segment that touches cities, with the city segments."""
        self.with_edge: tuple[dict[str, str], ...] = tuple(
            _WITH_EDGE[s, self.edges[s]] for s in range(4)
        )
        """For each side, the pattern of the empty square across it -> that pattern once this
        tile is there (the tables are shared)."""

    def segment_at(self, location: str) -> int | None:
        """The segment a meeple location names, or ``None``."""
        return self.aliases.get(location)

    def location_of(self, segment: int) -> str:
        """The canonical meeple location of ``segment``."""
        return self.names[segment]


def _free_locations(
    o: OrientedTile, side_roots: Sequence[int], half_roots: Sequence[int], meeples: Container[int]
) -> list[str]:
    """The canonical locations of ``o`` whose feature, once placed against these roots (-1:
    none), would carry no meeple (``meeples``: the roots that have one)."""
    joined: list[set[int]] = []
    for i, kind in enumerate(o.kinds):
        if kind == FIELD:
            joined.append({half_roots[h] for h in o.halves[i] if half_roots[h] >= 0})
        elif kind == MONASTERY:
            joined.append(set())
        else:
            joined.append({side_roots[x] for x in o.sides[i] if side_roots[x] >= 0})
    # segments that share a joined feature become one feature: pool their roots (to a
    # fixpoint; a tile has at most a handful of segments)
    n = len(joined)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            for k in range(i + 1, n):
                a, b = joined[i], joined[k]
                if a and b and a != b and not a.isdisjoint(b):
                    joined[i] = joined[k] = a | b
                    changed = True
    return [name for name, i in o.locations if not any(r in meeples for r in joined[i])]


def _pattern_free(o: OrientedTile, pattern: tuple[int, ...]) -> tuple[str, ...]:
    """The canonical locations of ``o`` left free on a square with this contact pattern
    (:meth:`Board.contact_pattern`: ``2 * label + has_meeple`` or -1 per position): what
    :func:`_free_locations` gives for the features the labels stand for."""
    pos_seg = o.pos_seg
    taken: set[int] = set()
    shared: dict[int, set[int]] = {}
    for p, v in enumerate(pattern):
        if v >= 0:
            seg = pos_seg[p]
            if seg < 0:
                continue
            if v & 1:
                # a feature with a meeple: the segment is taken, so pooling it adds nothing
                taken.add(seg)
            else:
                segs = shared.get(v)
                if segs is None:
                    shared[v] = {seg}
                else:
                    segs.add(seg)
    if not taken:
        return o.names
    # segments that join one feature become one: taken together (to a fixpoint; rare)
    pools = [segs for segs in shared.values() if len(segs) > 1]
    changed = bool(pools)
    while changed:
        changed = False
        for segs in pools:
            if not segs <= taken and not segs.isdisjoint(taken):
                taken |= segs
                changed = True
    return tuple([name for name, i in o.locations if i not in taken])


class CompiledTiles:
    """Every tile type of a tile set at every rotation, plus the cache of fitting rotations."""

    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.oriented: dict[str, tuple[OrientedTile, ...]] = {
            tid: tuple(OrientedTile(t, r) for r in (0, 90, 180, 270))
            for tid, t in tileset.types.items()
        }
        by_edges: dict[tuple[str, ...], dict[str, tuple[int, ...]]] = {}
        self._fit: dict[str, dict[str, tuple[int, ...]]] = {
            tid: by_edges.setdefault(tuple(o.edges for o in os), _fit_table(os))
            for tid, os in self.oriented.items()
        }
        """Tile -> every pattern some rotation fits -> those rotations (absent: none fits).
        Tiles with the same edges share one table: a fit class (a Deutschland set has 65 tiles
        but 28 edge sequences); the board keeps its fitting lists per class."""
        classes: dict[int, int] = {}
        self._fit_class: dict[str, int] = {}
        """Tile -> its fit class: tiles with the same edges (one shared :attr:`_fit` table)."""
        self._fit_class_items: list[dict[str, tuple[str, tuple[int, ...]]]] = []
        """Per fit class, ``pattern -> (pattern, rotations)``: the items of the boards' fitting
        lists, made once instead of for every board."""
        for tid, fit in self._fit.items():
            c = classes.get(id(fit))
            if c is None:
                c = classes[id(fit)] = len(self._fit_class_items)
                self._fit_class_items.append({p: (p, rots) for p, rots in fit.items()})
            self._fit_class[tid] = c
        self._fitters: dict[str, tuple[tuple[int, tuple[str, tuple[int, ...]]], ...]] = {}
        """Pattern -> the fit classes that fit it, with their items (see :meth:`fitters`)."""
        geometries: dict[tuple[Any, ...], int] = {}
        self._geo: dict[str, tuple[int, ...]] = {
            tid: tuple(geometries.setdefault((o.pos_seg, o.names), len(geometries)) for o in os)
            for tid, os in self.oriented.items()
        }
        """Tile -> a geometry id per rotation: what its meeple options depend on (the segment
        on each contact position, each segment's location name). Tiles that differ only in
        coats of arms or printing share the option caches below."""
        self._options: dict[tuple[int, tuple[int, ...]], tuple[str, ...]] = {}
        """(geometry, contact pattern) -> free meeple locations (see pattern_options)."""
        self._moves: dict[
            tuple[tuple[int, ...], tuple[int, ...], bool],
            tuple[tuple[tuple[str, ...], ...], int],
        ] = {}
        """See :meth:`move_options`."""
        self._pattern_ids: dict[tuple[int, ...], int] = {}
        self._id_patterns: list[tuple[int, ...]] = [()]
        """Contact pattern <-> small int (0: no meeple nearby), see :meth:`pattern_id`."""
        self._move_tables: dict[tuple[str, bool], dict[tuple[int, ...], _MoveTable]] = {}
        """See :meth:`move_tables`."""
        self._move_entries = 0

    def fitters(self, pattern: str) -> tuple[tuple[int, tuple[str, tuple[int, ...]]], ...]:
        """The fit classes some rotation of whose tiles fits ``pattern``, each with its item
        ``(pattern, rotations)`` (cached: at most 256 patterns exist)."""
        got = self._fitters.get(pattern)
        if got is None:
            got = self._fitters[pattern] = tuple(
                [
                    (c, items[pattern])
                    for c, items in enumerate(self._fit_class_items)
                    if pattern in items
                ]
            )
        return got

    def pattern_options(
        self, tile_id: str, rotation: int, pattern: tuple[int, ...]
    ) -> tuple[str, ...]:
        """The free meeple locations of ``tile_id`` at ``rotation`` on a square with this
        :meth:`Board.contact_pattern` (cached: a game meets a few thousand patterns)."""
        key = (self._geo[tile_id][rotation // 90], pattern)
        cache = self._options
        names = cache.get(key)
        if names is None:
            if len(cache) > 200_000:  # bound the memory of very long runs
                cache.clear()
            names = cache[key] = _pattern_free(self.oriented[tile_id][rotation // 90], pattern)
        return names

    def move_options(
        self, tile_id: str, rotations: tuple[int, ...], pattern: tuple[int, ...], farmers: bool
    ) -> tuple[tuple[tuple[str, ...], ...], int]:
        """For each of ``rotations``, the free meeple locations of ``tile_id`` on a square with
        this contact pattern (``()``: no meeple nearby, every location free; fields left out
        unless ``farmers``), and the number of moves they make (each rotation with no meeple,
        plus one per location). Cached."""
        geo = self._geo[tile_id]
        key = (tuple([geo[r // 90] for r in rotations]), pattern, farmers)
        cache = self._moves
        out = cache.get(key)
        if out is None:
            if len(cache) > 200_000:
                cache.clear()
            own: list[tuple[str, ...]] = []
            total = len(rotations)
            for r in rotations:
                names = (
                    self.pattern_options(tile_id, r, pattern)
                    if pattern
                    else self.oriented[tile_id][r // 90].names
                )
                if not farmers:
                    names = tuple([loc for loc in names if loc not in _FIELD_NAMES])
                own.append(names)
                total += len(names)
            out = cache[key] = (tuple(own), total)
        return out

    def pattern_id(self, pattern: tuple[int, ...] | None) -> int:
        """A small int for a :meth:`Board.contact_pattern`, the same for equal patterns in
        every game of this tile set (0: ``None``), so that the moves of a square are looked up
        by an int instead of hashing its pattern again every turn; -1 once
        ``_MAX_PATTERN_IDS`` patterns have ids (the pattern itself is used then)."""
        if pattern is None:
            return 0
        pid = self._pattern_ids.get(pattern)
        if pid is None:
            ids = self._id_patterns
            if len(ids) >= _MAX_PATTERN_IDS:
                return -1
            pid = self._pattern_ids[pattern] = len(ids)
            ids.append(pattern)
        return pid

    def move_tables(self, tile_id: str, farmers: bool) -> dict[tuple[int, ...], _MoveTable]:
        """Rotations of ``tile_id`` -> pattern id (:meth:`pattern_id`) -> :meth:`move_options`
        of the tile at those rotations on a square with that pattern: filled on use
        (:meth:`fill_move_table`)."""
        key = (tile_id, farmers)
        tables = self._move_tables.get(key)
        if tables is None:
            tables = self._move_tables[key] = {}
        return tables

    def fill_move_table(
        self, table: _MoveTable, tile_id: str, rotations: tuple[int, ...], pid: int, farmers: bool
    ) -> tuple[tuple[tuple[str, ...], ...], int]:
        """:meth:`move_options` for pattern id ``pid`` (>= 0), kept in ``table`` (of
        :meth:`move_tables` for the same tile, rotations and farmers)."""
        out = self.move_options(tile_id, rotations, self._id_patterns[pid], farmers)
        self._move_entries += 1
        if self._move_entries > 200_000:  # bound the memory of very long runs
            self._move_tables.clear()
            self._move_entries = 1
        table[pid] = out
        return out

    def fits(self, tile_id: str, pattern: str) -> tuple[int, ...]:
        """Rotations of ``tile_id`` whose edges match ``pattern`` (``?`` matches anything)."""
        return self._fit[tile_id].get(pattern, ())


def _fit_table(oriented: tuple[OrientedTile, ...]) -> dict[str, tuple[int, ...]]:
    """Every pattern that some rotation of a tile fits, with those rotations in order: a
    rotation fits the 16 patterns that keep or free (``?``) each of its four edges."""
    table: dict[str, list[int]] = {}
    for o in oriented:
        e = o.edges
        for mask in range(16):
            p = "".join("?" if mask >> s & 1 else e[s] for s in range(4))
            table.setdefault(p, []).append(o.rotation)
    return {p: tuple(rots) for p, rots in table.items()}


_COMPILED: dict[int, CompiledTiles] = {}


def compiled(tileset: TileSet) -> CompiledTiles:
    """The (cached) compiled form of a tile set."""
    c = _COMPILED.get(id(tileset))
    if c is None or c.tileset is not tileset:
        c = CompiledTiles(tileset)
        _COMPILED[id(tileset)] = c
    return c


# -- the printed map --------------------------------------------------------------------------

# Side handlers of a square: what lies across each side.
H_NORMAL = 0  # another placeable square (or unbounded board)
H_CLOSED = 1  # outside the map, a wave or a stack square: anything goes, features close there
H_BORDER = 2  # a printed border road/city: (H_BORDER, letter, coa, key, neighbour name)
H_CITY = 3  # a large-city edge: (H_CITY, city id, letter)
H_FERRY = 4  # a ferry end: (H_FERRY, ferry id, other end square)


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
        self.handlers: dict[Square, tuple[Any, ...]] = {}
        self.static_req: dict[Square, str] = {}
        self.contacts = {}
        # squares next to a large city, per city: opened when the city connects
        self.city_neighbours: dict[str, list[Square]] = {cid: [] for cid in m.large_cities}
        for sq in sorted(self.placeable):
            x, y = sq
            hs: list[tuple[Any, ...]] = []
            req = ["?"] * 4
            for s in range(4):
                side = _SIDE_ENUM[s]
                edge = Edge(x, y, side)
                dx, dy = DELTAS[s]
                outer = (x + dx, y + dy)
                bf = m.border_features.get(edge)
                if bf is not None and outer not in m.land and bf.kind is not EdgeKind.FIELD:
                    letter = _LETTER[bf.kind]
                    hs.append(
                        (H_BORDER, letter, bf.coats_of_arms, ("border", x, y, s), bf.neighbour)
                    )
                    req[s] = letter
                elif edge in ferry_end:
                    fid, other = ferry_end[edge]
                    hs.append((H_FERRY, fid, other))
                    req[s] = "R"
                elif outer in self.city_of:
                    cid = self.city_of[outer]
                    letter = _LETTER[m.large_cities[cid].edge_kind(edge.mirror())]
                    hs.append((H_CITY, cid, letter))
                    req[s] = letter
                    if sq not in self.city_neighbours[cid]:
                        self.city_neighbours[cid].append(sq)
                elif outer in self.placeable:
                    hs.append((H_NORMAL,))
                else:
                    hs.append((H_CLOSED,))
            if any(h[0] != H_NORMAL for h in hs):
                self.handlers[sq] = tuple(hs)
            pattern = "".join(req)
            if pattern != _FREE:
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
    from engine.mapcache import derived

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


# -- the board ----------------------------------------------------------------------------------


def _segment_groups(
    kinds: tuple[int, ...], link: list[int]
) -> tuple[list[int], list[int], list[list[int]]]:
    """Group the segments of a tile joined in ``link`` (a union-find): each segment's group
    (-1: a monastery), each group's first segment and its members."""
    group_of = [-1] * len(kinds)
    heads: list[int] = []
    members: list[list[int]] = []
    index: dict[int, int] = {}
    for i, kind in enumerate(kinds):
        if kind == MONASTERY:
            continue
        g = i
        while link[g] != g:
            g = link[g]
        k = index.get(g)
        if k is None:
            index[g] = k = len(heads)
            heads.append(i)
            members.append([])
        group_of[i] = k
        members[k].append(i)
    return group_of, heads, members


class PreviewFeature(NamedTuple):
    """A feature as it would be after a previewed placement (:meth:`Board.preview`)."""

    kind: int
    roots: tuple[int, ...]
    """The features on the board it would join (their roots now)."""
    open: int
    """Open edges (cities and roads; complete at 0)."""
    tiles: int
    """Tiles (cities and roads)."""
    coa: int
    meeples: tuple[int, ...]
    """Ids of the meeples it would carry."""
    cities: frozenset[int]
    """Fields: the city nodes on the board it would touch."""
    own_cities: tuple[int, ...]
    """Fields: the groups of the placed tile's cities it would touch."""


class BoardTrial(NamedTuple):
    """What :meth:`Board.end_trial` needs besides the log: sizes and the containers it swapped."""

    log_len: int
    nodes: int
    placed: int
    front: dict[Square, str]
    groups: dict[str, dict[Square, None]]
    meeples: dict[int, tuple[int, ...]]


_NO_CONTACTS: tuple[int, ...] = (-1,) * 12
"""No feature node on any side or half-edge (see Board._contact_nodes)."""


class Board:
    """Placed tiles and their features, on a map or (``map is None``) on an unbounded table.

    Mutating methods are unchecked; :meth:`why_illegal` / :meth:`is_legal` check a placement.
    """

    def __init__(
        self, m: MapDef | None, tileset: TileSet, options: MapOptions | None = None
    ) -> None:
        self.map = m
        self.tileset = tileset
        self.compiled = compiled(tileset)
        self.layout: MapLayout | None = map_layout(m, options or MapOptions()) if m else None
        self.tiles: dict[Square, OrientedTile] = {}
        """Placed tiles by square."""
        self.nodes: dict[Square, tuple[int, ...]] = {}
        """Feature node of each segment of each placed tile (-1 for a monastery)."""
        self.order: list[Square] = []
        """Squares in the order their tiles were placed."""
        self.req: dict[Square, str] = dict(self.layout.static_req) if self.layout else {}
        self._front: dict[Square, str] = {}
        """Frontier square -> its pattern (insertion-ordered: iteration is deterministic)."""
        self._groups: dict[str, dict[Square, None]] = {}
        """Pattern -> the frontier squares that have it."""
        self._owned: set[str] = set()
        """Patterns whose square dict this board may change in place; the others may be shared
        with a copy (copy-on-write: bots copy boards thousands of times a game)."""
        self._fit_src: dict[str, dict[Square, None]] | None = None
        self._fit_lists: dict[int, list[tuple[str, tuple[int, ...]]]] = {}
        """Fit class -> its fitting patterns in ``_fit_src``, for the classes asked for (see
        :meth:`_fitting`)."""
        self._fit_seen = 0
        """How many of ``_fit_src``'s patterns the lists in ``_fit_lists`` have seen."""
        self.monasteries: dict[Square, int] = {}
        """Monastery squares -> how many neighbouring squares still have to be filled."""
        self._mon_watch: dict[Square, tuple[Square, ...]] = {}
        """Empty square -> the monasteries waiting for it to be filled."""
        self.features = FeatureStore()
        self.city_node: dict[str, int] = {}
        self.stub_node: dict[tuple[str, Square, int], int] = {}
        self.ferry_node: dict[str, int] = {}
        self.active_cities: set[str] = set()
        self.opened_ferries: set[str] = set()
        self._log: list[tuple[Any, ...]] | None = None
        """The undo log while a trial is open (:meth:`begin_trial`), shared with the features."""
        self._side_cache: dict[Square, tuple[tuple[Any, ...], ...]] = {}
        self._contact_src: dict[Square, list[Any]] = {}
        """Empty square -> ``[nodes, pattern, roots, id]``: the 12 feature nodes of
        :meth:`contact_pattern` (side then half-edge order, -1: none), its last pattern, the
        distinct roots it was made from, each as ``r`` without a meeple or ``~r`` (negative)
        with one (``None``: not made yet; one tuple of ints, which the collector soon stops
        tracking, instead of a pair per root) and the pattern's
        :meth:`CompiledTiles.pattern_id`. The nodes change when a tile is placed next to the
        square (:meth:`place` sets that side's) and go stale when a trial is undone (all
        dropped); the pattern is checked on use (see :meth:`contact_pattern`)."""
        """:meth:`_sides` of empty squares since the last change (moves listed, then judged)."""
        if self.layout is not None:
            self._make_printed_nodes()

    def _make_printed_nodes(self) -> None:
        layout = self.layout
        assert layout is not None
        printed = layout.printed
        if printed is not None:  # the same nodes for every board of this layout: replay them
            specs, self.city_node, self.stub_node, self.ferry_node, done = printed
            f = self.features
            for spec in specs:
                f.new(*spec)
            f.done.update(done)
            return
        self._build_printed_nodes()
        f = self.features
        specs = [
            (f.kind[i], f.open[i], f.tiles[i], f.coa[i], f.label.get(i))
            for i in range(len(f.parent))
        ]
        layout.printed = (specs, self.city_node, self.stub_node, self.ferry_node, set(f.done))

    def _build_printed_nodes(self) -> None:
        layout = self.layout
        assert layout is not None
        m = layout.map
        f = self.features
        for cid, city in sorted(m.large_cities.items()):
            open_city = 0
            for sq in layout.city_neighbours[cid]:
                for h in layout.handlers[sq]:
                    if h[0] == H_CITY and h[1] == cid and h[2] == "C":
                        open_city += 1
            self.city_node[cid] = f.new(
                CITY, open_city, frozenset(city.squares), city.coats_of_arms, layout.city_names[cid]
            )
            if open_city == 0:  # every city side faces the border: complete as printed
                f.done.add(self.city_node[cid])
            for sq in layout.city_neighbours[cid]:
                for s, h in enumerate(layout.handlers[sq]):
                    if h[0] == H_CITY and h[1] == cid and h[2] == "R":
                        dx, dy = DELTAS[s]
                        csq = (sq[0] + dx, sq[1] + dy)
                        tiles = (
                            frozenset((csq,))
                            if layout.options.large_city_road_tile
                            else frozenset()
                        )
                        self.stub_node[(cid, sq, s)] = f.new(
                            ROAD, 1, tiles, 0, layout.city_names[cid]
                        )
        for fid, ferry in sorted(m.ferries.items()):
            self.ferry_node[fid] = f.new(ROAD, 2, frozenset({("ferry", fid)}), ferry.coats_of_arms)

    # -- copying ------------------------------------------------------------------------------

    def copy(self) -> Board:
        """An independent copy (shares only immutable tables). Not while a trial is open."""
        if self._log is not None:
            raise EngineError("a board cannot be copied while a trial is open (end_trial first)")
        b = Board.__new__(Board)
        b.map = self.map
        b.tileset = self.tileset
        b.compiled = self.compiled
        b.layout = self.layout
        b.tiles = self.tiles.copy()
        b.nodes = self.nodes.copy()
        b.order = self.order[:]
        b.req = self.req.copy()
        b._front = self._front.copy()
        b._groups = {p: g for p, g in self._groups.items() if g}
        b._owned = set()
        b._fit_src = None
        b._fit_lists = {}
        b._fit_seen = 0
        self._owned = set()  # the square dicts are shared now: copy before changing
        b.monasteries = self.monasteries.copy()
        b._mon_watch = self._mon_watch.copy()
        b.features = self.features.copy()
        b.city_node = self.city_node
        b.stub_node = self.stub_node
        b.ferry_node = self.ferry_node
        b.active_cities = self.active_cities.copy()
        b.opened_ferries = self.opened_ferries.copy()
        b._log = None
        b._side_cache = self._side_cache  # read-only until either board changes (then replaced)
        b._contact_src = {}
        return b

    # -- trials -------------------------------------------------------------------------------

    def begin_trial(self) -> BoardTrial:
        """Start recording changes so that :meth:`end_trial` can undo them: a bot judges a
        placement in place instead of on a copy. Trials nest; end them in reverse order."""
        f = self.features
        log = self._log
        if log is None:
            self._log = f.log = log = []
        mark = BoardTrial(
            len(log), len(f.parent), len(self.order), self._front, self._groups, f.meeples
        )
        self._front = self._front.copy()
        self._groups = self._groups.copy()
        self._owned = set()  # the square dicts are the trial's to copy before changing
        f.meeples = f.meeples.copy()
        return mark

    def end_trial(self, mark: BoardTrial) -> None:
        """Undo everything since ``mark`` was taken by :meth:`begin_trial`."""
        f = self.features
        log = self._log
        assert log is not None, "no trial is open"
        restore = f.restore
        for k in range(len(log) - 1, mark.log_len - 1, -1):
            entry = log[k]
            op = entry[0]
            if op == LOG_ROOT:
                restore(entry)
            elif op == _LOG_DONE:
                f.done.discard(entry[1])
            elif op == _LOG_CITY:
                self.active_cities.discard(entry[1])
            elif op == _LOG_FERRY:
                self.opened_ferries.discard(entry[1])
            else:
                table = (
                    self.req
                    if op == _LOG_REQ
                    else self.monasteries
                    if op == _LOG_MON
                    else (self._mon_watch)
                )
                if entry[2] is None:
                    table.pop(entry[1], None)
                else:
                    table[entry[1]] = entry[2]
        del log[mark.log_len :]
        n = mark.nodes
        for node in range(n, len(f.parent)):
            f.cities.pop(node, None)
            f.label.pop(node, None)
        for lst in (f.parent, f.kind, f.open, f.tiles, f.coa):
            del lst[n:]
        order = self.order
        for sq in order[mark.placed :]:
            del self.tiles[sq]
            del self.nodes[sq]
        del order[mark.placed :]
        self._front = mark.front
        self._groups = mark.groups
        self._owned = set()
        self._side_cache = {}
        self._contact_src = {}
        f.meeples = mark.meeples
        if mark.log_len == 0:
            self._log = f.log = None

    # -- queries ------------------------------------------------------------------------------

    def oriented(self, tile_id: str, rotation: int) -> OrientedTile:
        """Tile ``tile_id`` at ``rotation`` in board orientation: its edges, its segments and
        the meeple locations that name them (``segment_at``, ``location_of``)."""
        return self.compiled.oriented[tile_id][rotation // 90]

    @property
    def frontier(self) -> KeysView[Square]:
        """The empty squares where a tile may go now (a read-only set-like view)."""
        return self._front.keys()

    def _group(self, p: str) -> dict[Square, None]:
        """The square dict of pattern ``p``, ready to change (created or unshared)."""
        groups = self._groups
        group = groups.get(p)
        if group is None:
            groups[p] = group = {}
        elif p in self._owned:
            return group
        else:
            groups[p] = group = group.copy()  # same key: the pattern order is kept
        self._owned.add(p)
        return group

    def _front_add(self, q: Square) -> None:
        if q not in self._front:
            p = self.req.get(q, _FREE)
            self._front[q] = p
            self._group(p)[q] = None

    def _front_remove(self, q: Square) -> None:
        p = self._front.pop(q, None)
        if p is not None:
            del self._group(p)[q]

    def fits(self, tile_id: str, square: Square) -> tuple[int, ...]:
        """Rotations of ``tile_id`` that may go on ``square`` (empty if it is not on the frontier)."""
        if square not in self._front:
            return ()
        return self.compiled.fits(tile_id, self.req.get(square, _FREE))

    def _fitting(self, tile_id: str) -> list[tuple[str, tuple[int, ...]]]:
        """The patterns of the frontier groups (empty ones too) that ``tile_id`` fits, in the
        groups' order, with its rotations: one list per fit class (tiles with the same edges),
        made by one scan when first asked for and then given each new pattern its class fits
        (a pattern never leaves a groups dict; a trial or a copy brings a new dict)."""
        groups = self._groups
        lists = self._fit_lists
        if self._fit_src is not groups:
            self._fit_src = groups
            self._fit_lists = lists = {}
            self._fit_seen = len(groups)
        elif self._fit_seen != len(groups):
            # new patterns go to the lists of the classes that fit them, if started
            fitters = self.compiled.fitters
            for p in islice(groups, self._fit_seen, None):
                for c, item in fitters(p):
                    started = lists.get(c)
                    if started is not None:
                        started.append(item)
            self._fit_seen = len(groups)
        compiled = self.compiled
        c = compiled._fit_class[tile_id]  # tiles with the same edges share the list
        fitting = lists.get(c)
        if fitting is None:
            items = compiled._fit_class_items[c]
            fitting = lists[c] = [items[p] for p in groups if p in items]
        return fitting

    def placements(self, tile_id: str) -> list[tuple[Square, int]]:
        """Every legal ``(square, rotation)`` for ``tile_id`` (in a deterministic order)."""
        groups = self._groups
        out: list[tuple[Square, int]] = []
        append = out.append
        for p, rots in self._fitting(tile_id):
            squares = groups[p]
            if not squares:
                continue
            if len(rots) == 1:
                r = rots[0]
                for sq in squares:
                    append((sq, r))
            else:
                for sq in squares:
                    for r in rots:
                        append((sq, r))
        return out

    def placement_groups(
        self, tile_id: str
    ) -> Iterator[tuple[dict[Square, None], tuple[int, ...]]]:
        """The frontier squares that share a pattern, with the rotations of ``tile_id`` that fit
        it (none skipped): :meth:`placements` is each square with each of its rotations, in
        this order. The square dicts are the board's own: read them, do not keep them."""
        groups = self._groups
        for p, rots in self._fitting(tile_id):
            squares = groups[p]
            if squares:
                yield squares, rots

    def placement_count(self, tile_id: str) -> int:
        """``len(placements(tile_id))`` without building the list."""
        return sum(len(squares) * len(rots) for squares, rots in self.placement_groups(tile_id))

    def placement_at(self, tile_id: str, i: int) -> tuple[Square, int]:
        """``placements(tile_id)[i]`` without building the list."""
        if i < 0:
            i += self.placement_count(tile_id)
        if i >= 0:
            for squares, rots in self.placement_groups(tile_id):
                n = len(rots)
                size = len(squares) * n
                if i < size:
                    k, r = divmod(i, n)
                    return next(islice(squares, k, None)), rots[r]
                i -= size
        raise IndexError("placement index out of range")

    def has_placement(self, tile_id: str) -> bool:
        """Whether ``tile_id`` fits anywhere on the frontier."""
        groups = self._groups
        # a loop, not any(): a generator costs a frame per draw on Python 3.11
        for p, _rots in self._fitting(tile_id):  # noqa: SIM110
            if groups[p]:
                return True
        return False

    def is_legal(self, square: Square, tile_id: str, rotation: int) -> bool:
        return square in self._front and rotation in self.compiled.fits(
            tile_id, self.req.get(square, _FREE)
        )

    def why_illegal(self, square: Square, tile_id: str, rotation: int) -> str | None:
        """``None`` when the placement is legal, else a sentence saying why not."""
        where = f"square ({square[0]}, {square[1]})"
        if tile_id not in self.compiled.oriented:
            return f"unknown tile {tile_id!r}"
        if rotation not in (0, 90, 180, 270):
            return f"rotation {rotation} is not one of 0, 90, 180, 270"
        if square in self.tiles:
            placed = self.tiles[square]
            return f"{where} already holds tile {placed.tile_id}"
        layout = self.layout
        if layout is not None and square not in layout.placeable:
            m = layout.map
            if square not in m.land:
                return f"{where} is not a square of the map"
            if square in layout.city_of:
                return (
                    f"{where} is part of the large city {layout.city_names[layout.city_of[square]]}"
                )
            if square in m.waves:
                return f"{where} is a wave square"
            return f"{where} is an island stack square"
        if square not in self._front:
            if layout is not None and square in layout.gated:
                return f"{where} is a ferry-gated island square that no ferry route reaches yet"
            return f"{where} is not next to a placed tile (or a connected large city or ferry)"
        pattern = self.req.get(square, _FREE)
        edges = self.compiled.oriented[tile_id][rotation // 90].edges
        for s in range(4):
            need = pattern[s]
            if need != "?" and need != edges[s]:
                return (
                    f"tile {tile_id} at rotation {rotation} shows {_LETTER_NAME[edges[s]]} on its "
                    f"{SIDE_NAMES[s]} edge but {where} needs {_LETTER_NAME[need]} there "
                    f"({self._describe_side(square, s)})"
                )
        return None

    def _describe_side(self, square: Square, s: int) -> str:
        dx, dy = DELTAS[s]
        outer = (square[0] + dx, square[1] + dy)
        if outer in self.tiles:
            return f"tile {self.tiles[outer].tile_id} on ({outer[0]}, {outer[1]})"
        hs = self.layout.handlers.get(square) if self.layout else None
        if hs:
            h = hs[s]
            if h[0] == H_BORDER:
                return f"printed border {_LETTER_NAME[h[1]]}" + (f" into {h[4]}" if h[4] else "")
            if h[0] == H_CITY:
                return f"large city {self.layout.city_names[h[1]]}"  # type: ignore[union-attr]
            if h[0] == H_FERRY:
                return f"ferry route {h[1]}"
        return "a neighbour"

    def neighbour_count(self, square: Square) -> int:
        """Neighbouring squares (8, diagonals included) holding a tile or a large-city square."""
        x, y = square
        n = 0
        city_of = self.layout.city_of if self.layout else {}
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    q = (x + dx, y + dy)
                    if q in self.tiles or q in city_of:
                        n += 1
        return n

    def monastery_neighbours_left(self, square: Square) -> int:
        """Neighbouring squares (8) still to be filled before a monastery on ``square`` is
        complete: empty squares that take a tile (what :meth:`place` starts it with)."""
        x, y = square
        tiles = self.tiles
        placeable = self.layout.placeable if self.layout else None
        return sum(
            1
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy)
            and (x + dx, y + dy) not in tiles
            and (placeable is None or (x + dx, y + dy) in placeable)
        )

    def contacts(self, square: Square) -> tuple[list[int], list[int], bool]:
        """What an empty square touches: the feature root across each side (-1: none), across
        each half-edge (-1: none), and whether any of them has a meeple."""
        side_roots = [-1, -1, -1, -1]
        half_roots = [-1, -1, -1, -1, -1, -1, -1, -1]
        for s, side in enumerate(self._sides(square)):
            tag = side[0]
            if tag == _SIDE_TILE:
                side_roots[s] = side[1]
                half_roots[s << 1], half_roots[(s << 1) | 1] = side[2]
            elif tag == _SIDE_JOIN:
                side_roots[s] = side[1]
        meeples = self.features.meeples
        occupied = bool(meeples) and any(
            r in meeples for roots in (side_roots, half_roots) for r in roots if r >= 0
        )
        return side_roots, half_roots, occupied

    def contact_pattern(self, square: Square) -> tuple[int, ...] | None:
        """What decides the meeple options of every tile on the empty ``square``, with the
        features made anonymous: for each side then each half-edge (as :meth:`contacts`), 1 (a
        feature with a meeple), ``2 * label`` (a feature without one touched more than once,
        labels 1, 2, ... in order of appearance) or -1 (nothing, or a feature without a meeple
        touched once). ``None`` when no feature touched has a meeple (every location is free).
        Equal patterns give equal options, so options are cached per tile, rotation and
        pattern."""
        f = self.features
        meeples = f.meeples
        if not meeples:
            return None
        parent = f.parent
        entry = self._contact_src.get(square)
        if entry is None:
            entry = self._contact_src[square] = [self._contact_nodes(square), None, None, 0]
        elif entry[2] is not None:
            # a root that is still a root is still every root its nodes reach (no path
            # compression; undone trials drop the entries); one that was merged since reaches
            # its new root. The pattern depends only on which positions share a root and
            # which roots have a meeple: while the roots found stay distinct and keep their
            # meeple or lack of one, it stands (merges far away are most turns' changes).
            moved = False
            now: list[int] = []
            for r in entry[2]:
                had = r < 0
                if had:
                    r = ~r
                if parent[r] != r:
                    moved = True
                    while parent[r] != r:
                        r = parent[r]
                if (r in meeples) is not had:
                    break
                now.append(~r if had else r)
            else:
                pattern: tuple[int, ...] | None = entry[1]
                if not moved:
                    return pattern
                if len(set(now)) == len(now):
                    entry[2] = tuple(now)
                    return pattern
        roots = []
        for r in entry[0]:
            if r >= 0:
                while parent[r] != r:
                    r = parent[r]
            roots.append(r)
        distinct = set(roots)
        distinct.discard(-1)
        entry[2] = tuple([~r if r in meeples else r for r in distinct])
        if meeples.keys().isdisjoint(roots):  # -1 is never a key
            entry[1] = None
            entry[3] = 0
            return None
        # Only what can change an option is kept, so that fewer patterns reach the caches:
        # every feature with a meeple is 1 (label 0: a segment touching one is taken whatever
        # else it pools with), a feature without one that is touched twice gets its own label
        # (it may pool two segments), one touched once is -1 like nothing.
        out: list[int] = []
        append = out.append
        labels: dict[int, int] = {}
        for r in roots:
            if r < 0:
                append(-1)
            elif r in meeples:
                append(1)
            elif roots.count(r) > 1:
                k = labels.get(r)
                if k is None:
                    k = labels[r] = 2 * len(labels) + 2
                append(k)
            else:
                append(-1)
        pattern = entry[1] = tuple(out)
        entry[3] = self.compiled.pattern_id(pattern)
        return pattern

    def move_blocks(self, tile_id: str, farmers: bool, starts: list[int], blocks: list[Any]) -> int:
        """The moves of placing ``tile_id`` with a meeple in supply, in :meth:`placements`
        order, counted by blocks (``Game._move_index``): each frontier group that fits is split
        into runs of squares with no meeple nearby, whose moves differ only in the square, and
        squares with a :meth:`contact_pattern` on their own. Appends each block's first move
        index to ``starts`` and ``(squares, rotations, meeple locations per rotation, moves per
        square)`` to ``blocks``; returns the number of moves. The cached contact pattern of a
        square is checked here as in :meth:`contact_pattern` (inlined: groups are small and
        this runs every turn) and looked up by its id."""
        compiled = self.compiled
        tables = compiled.move_tables(tile_id, farmers)
        fill = compiled.fill_move_table
        meeples = self.features.meeples
        parent = self.features.parent
        src = self._contact_src
        groups = self._groups
        total = 0
        for p, rots in self._fitting(tile_id):
            squares = groups[p]
            if not squares:
                continue
            table = tables.get(rots)
            if table is None:
                table = tables[rots] = {}
                fill(table, tile_id, rots, 0, farmers)
            locs, per_square = table[0]
            if not meeples:
                starts.append(total)
                blocks.append((squares, rots, locs, per_square))
                total += per_square * len(squares)
                continue
            run: list[Square] = []
            for sq in squares:
                entry = src.get(sq)
                if entry is not None and entry[2] is not None:
                    for r in entry[2]:
                        if (
                            (parent[r] != r or r in meeples)
                            if r >= 0
                            else (parent[~r] != ~r or ~r not in meeples)
                        ):
                            self.contact_pattern(sq)
                            break
                else:
                    self.contact_pattern(sq)
                    entry = src[sq]
                pid = entry[3]
                if pid == 0:
                    run.append(sq)
                    continue
                if run:
                    starts.append(total)
                    blocks.append((run, rots, locs, per_square))
                    total += per_square * len(run)
                    run = []
                got = table.get(pid)
                if got is None:
                    if pid > 0:
                        got = fill(table, tile_id, rots, pid, farmers)
                    else:  # no id (see CompiledTiles.pattern_id)
                        got = compiled.move_options(tile_id, rots, entry[1], farmers)
                own, n = got
                starts.append(total)
                blocks.append(((sq,), rots, own, n))
                total += n
            if run:
                starts.append(total)
                blocks.append((run, rots, locs, per_square))
                total += per_square * len(run)
        return total

    def _contact_nodes(self, square: Square) -> tuple[int, ...]:
        """The feature nodes (not roots) that a tile on the empty ``square`` would join: for
        each side, then each half-edge; -1 where nothing is joined (see :meth:`_sides`)."""
        layout = self.layout
        if layout is None:
            base, sides = _NO_CONTACTS, self._contact_sides(square)
        else:
            got = layout.contacts.get(square)
            if got is None:
                got = layout.contacts[square] = (
                    self._printed_contacts(square),
                    self._contact_sides(square),
                )
            base, sides = got
        nodes: list[int] | None = None
        tiles = self.tiles
        for s, q, back, half0, half1 in sides:
            other = tiles.get(q)
            if other is None:
                continue
            if nodes is None:
                nodes = list(base)
            qnodes = self.nodes[q]
            k = other.side_seg[back]
            if k >= 0:
                nodes[s] = qnodes[k]
            k = other.half_seg[half0]
            if k >= 0:
                nodes[4 + 2 * s] = qnodes[k]
            k = other.half_seg[half1]
            if k >= 0:
                nodes[5 + 2 * s] = qnodes[k]
        return base if nodes is None else tuple(nodes)

    def _contact_sides(self, square: Square) -> tuple[tuple[int, Square, int, int, int], ...]:
        """The sides of ``square`` across which a placed tile may lie: ``(side, neighbour,
        the neighbour's side back, its half-edges partnering this side's two)``."""
        hs = self.layout.handlers.get(square) if self.layout is not None else None
        x, y = square
        out = []
        for s in range(4):
            if hs is None or hs[s][0] == H_NORMAL:
                dx, dy = DELTAS[s]
                out.append((s, (x + dx, y + dy), (s + 2) & 3, _PARTNER[2 * s], _PARTNER[2 * s + 1]))
        return tuple(out)

    def _printed_contacts(self, square: Square) -> tuple[int, ...]:
        """:meth:`_contact_nodes` of ``square`` from the printed map alone (large cities and
        their road stubs, ferries): the same for every board of a layout, whose printed
        feature nodes are made in one order (see :meth:`_make_printed_nodes`)."""
        nodes = [-1] * 12
        hs = self.layout.handlers.get(square) if self.layout is not None else None
        for s, h in enumerate(hs or ()):
            if h[0] == H_FERRY or (h[0] == H_CITY and h[2] != "F"):
                nodes[s] = self._printed_node(square, s, h)
        return tuple(nodes)

    def touches_meeple(self, square: Square) -> bool:
        """Whether a feature that a tile on the empty ``square`` would join has a meeple."""
        return self.contact_pattern(square) is not None

    def meeple_options(
        self,
        square: Square,
        tile_id: str,
        rotation: int,
        contacts: tuple[list[int], list[int], bool] | None = None,
    ) -> list[str]:
        """Locations (canonical names) where a meeple could go if the tile were placed so.

        A segment is free when no feature it would join has a meeple, counting features it joins
        through another segment of the same tile (two fields of a tile that both touch one
        neighbouring field become one). Supply is not checked. ``contacts`` (from
        :meth:`contacts`) may be passed when asking for several rotations on one square.
        """
        o = self.compiled.oriented[tile_id][rotation // 90]
        meeples = self.features.meeples
        if not meeples:
            return list(o.names)
        if contacts is not None:
            side_roots, half_roots, occupied = contacts
            if not occupied:
                return list(o.names)
            return _free_locations(o, side_roots, half_roots, meeples)
        pattern = self.contact_pattern(square)
        if pattern is None:
            return list(o.names)
        return list(self.compiled.pattern_options(tile_id, rotation, pattern))

    def _printed_node(self, square: Square, s: int, h: tuple[Any, ...]) -> int:
        if h[0] == H_CITY:
            if h[2] == "C":
                return self.city_node[h[1]]
            if h[2] == "R":
                return self.stub_node[(h[1], square, s)]
        elif h[0] == H_FERRY:
            return self.ferry_node[h[1]]
        return -1

    def root_of(self, square: Square, segment: int) -> int:
        return self.features.find(self.nodes[square][segment])

    # -- placing -------------------------------------------------------------------------------

    def place(self, square: Square, tile_id: str, rotation: int) -> tuple[list[int], list[Square]]:
        """Put a tile down (unchecked). Returns the city/road roots it completed and the
        monastery squares it completed (with any neighbour count left at 0)."""
        o = self.compiled.oriented[tile_id][rotation // 90]
        f = self.features
        parent = f.parent
        fopen = f.open
        funion = f.union
        tiles = self.tiles
        all_nodes = self.nodes
        req = self.req
        front = self._front
        groups = self._groups
        group: dict[Square, None] | None
        owned = self._owned
        layout = self.layout
        log = self._log  # a trial is open: record what changes (see end_trial)
        self._side_cache = {}
        x, y = square
        src = self._contact_src
        if src:
            src.pop(square, None)
        handlers = layout.handlers if layout is not None else None
        # 1. a node per segment
        kinds = o.kinds
        n_segs = len(kinds)
        nid = len(parent)
        k = len(o.heads)
        parent += range(nid, nid + k)
        f.kind += o.node_kinds
        fopen += o.node_open
        f.tiles += (frozenset((square,)),) * k
        f.coa += o.node_coa
        nodes = (
            list(range(nid, nid + k))
            if k == n_segs
            else [nid + d if d >= 0 else -1 for d in o.dense]  # -1: the monastery
        )
        if o.city_links:
            fcities = f.cities
            for i, cs in o.city_links:
                fcities[nodes[i]] = frozenset([nodes[c] for c in cs])
        tiles[square] = o
        all_nodes[square] = tuple(nodes)
        self.order.append(square)
        fp = front.pop(square, None)
        if fp is not None:
            del self._group(fp)[square]
        old = req.pop(square, None)
        if log is not None and old is not None:
            log.append((_LOG_REQ, square, old))
        # 2. connect every side
        hs = layout.handlers.get(square) if layout is not None else None
        placeable = layout.placeable if layout is not None else None
        edges = o.edges
        with_edge = o.with_edge
        side_seg = o.side_seg
        half_seg = o.half_seg
        for s in range(4):
            dx, dy = DELTAS[s]
            q = (x + dx, y + dy)
            h = hs[s] if hs is not None else None
            if h is None or h[0] == H_NORMAL:
                other = tiles.get(q)
                if other is not None:  # (a square with a tile has no contact entry)
                    a = side_seg[s]
                    if a >= 0:
                        b = all_nodes[q][other.side_seg[(s + 2) & 3]]
                        a = nodes[a]
                        while parent[a] != a:
                            a = parent[a]
                        while parent[b] != b:
                            b = parent[b]
                        if a == b:
                            if log is not None:
                                f.save(a)
                            fopen[a] -= 2
                        else:
                            r = funion(a, b)
                            fopen[r] -= 2
                    if edges[s] != "C":  # field halves on both sides of a road, or a field edge
                        onodes = all_nodes[q]
                        ohalf = other.half_seg
                        for hh, partner in _HALF_PARTNERS[s]:
                            a = nodes[half_seg[hh]]
                            b = onodes[ohalf[partner]]
                            while parent[a] != a:
                                a = parent[a]
                            while parent[b] != b:
                                b = parent[b]
                            if a != b:
                                funion(a, b)
                elif placeable is None or q in placeable:
                    entry = src.get(q) if src else None
                    if entry is not None:
                        # the contact nodes of q across from this tile (as _contact_nodes):
                        # the other sides' stay, its pattern is made again on use
                        t = (s + 2) & 3
                        hq = handlers.get(q) if handlers is not None else None
                        if hq is None or hq[t][0] == H_NORMAL:
                            cn = list(entry[0])
                            k = side_seg[s]
                            cn[t] = nodes[k] if k >= 0 else -1
                            k = half_seg[_PARTNER[2 * t]]
                            cn[4 + 2 * t] = nodes[k] if k >= 0 else -1
                            k = half_seg[_PARTNER[2 * t + 1]]
                            cn[5 + 2 * t] = nodes[k] if k >= 0 else -1
                            entry[0] = tuple(cn)
                            entry[2] = None
                    np = with_edge[s][req.get(q, _FREE)]
                    if log is not None:
                        log.append((_LOG_REQ, q, req.get(q)))
                    req[q] = np
                    fp = front.get(q)
                    if fp is not None:
                        group = groups[fp]
                        if fp not in owned:  # shared with a copy: unshare first
                            groups[fp] = group = group.copy()
                            owned.add(fp)
                        del group[q]
                    elif not (layout is None or q not in layout.gated or square in layout.gated):
                        continue
                    front[q] = np
                    group = groups.get(np)
                    if group is None or np not in owned:
                        groups[np] = group = {} if group is None else group.copy()
                        owned.add(np)
                    group[q] = None
                elif src:
                    src.pop(q, None)
                continue
            if src:
                src.pop(q, None)
            kind_h = h[0]
            a = side_seg[s]
            if kind_h == H_CLOSED:
                if a >= 0:
                    a = nodes[a]
                    while parent[a] != a:
                        a = parent[a]
                    if log is not None:
                        f.save(a)
                    fopen[a] -= 1
            elif kind_h == H_BORDER:
                # a printed border road/city: one more tile (and its coats of arms), closed abroad
                b = f.new(CITY if h[1] == "C" else ROAD, 1, frozenset((h[3],)), h[2])
                a = nodes[a]
                while parent[a] != a:
                    a = parent[a]
                r = funion(a, b)
                fopen[r] -= 2
            elif kind_h == H_CITY:
                self._join_large_city(square, s, h, nodes, o)
            elif kind_h == H_FERRY:
                b = self.ferry_node[h[1]]
                while parent[b] != b:
                    b = parent[b]
                a = nodes[a]
                while parent[a] != a:
                    a = parent[a]
                if a == b:
                    if log is not None:
                        f.save(a)
                    fopen[a] -= 2
                else:
                    r = funion(a, b)
                    fopen[r] -= 2
                if h[1] not in self.opened_ferries:
                    self.opened_ferries.add(h[1])
                    if log is not None:
                        log.append((_LOG_FERRY, h[1]))
                other_end = h[2]
                if other_end not in tiles and other_end in layout.placeable:  # type: ignore[union-attr]
                    self._front_add(other_end)
        # 3. completions
        done = f.done
        completed: list[int] = []
        for i in range(n_segs):
            if kinds[i] <= ROAD:
                a = nodes[i]
                while parent[a] != a:
                    a = parent[a]
                if fopen[a] == 0 and a not in done:
                    done.add(a)
                    completed.append(a)
                    if log is not None:
                        log.append((_LOG_DONE, a))
        monks: list[Square] = []
        mon = self.monasteries
        watchers = self._mon_watch.pop(square, None)
        if watchers is not None:
            if log is not None:
                log.append((_LOG_WATCH, square, watchers))
            for q in watchers:
                left = mon[q] - 1
                if log is not None:
                    log.append((_LOG_MON, q, left + 1))
                mon[q] = left
                if left == 0:
                    monks.append(q)
        if MONASTERY in kinds:
            left = 0
            watch = self._mon_watch
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    q = (x + dx, y + dy)
                    if (dx or dy) and q not in tiles and (placeable is None or q in placeable):
                        left += 1
                        if log is not None:
                            log.append((_LOG_WATCH, q, watch.get(q)))
                        watch[q] = watch.get(q, ()) + (square,)
            if log is not None:
                log.append((_LOG_MON, square, None))
            mon[square] = left
            if left == 0:
                monks.append(square)
        return completed, monks

    def _join_large_city(
        self, square: Square, s: int, h: tuple[Any, ...], nodes: list[int], o: OrientedTile
    ) -> None:
        layout = self.layout
        assert layout is not None
        f = self.features
        cid, letter = h[1], h[2]
        log = self._log
        if letter == "C" or letter == "R":
            a = f.find(nodes[o.side_seg[s]])
            b = f.find(self.city_node[cid] if letter == "C" else self.stub_node[(cid, square, s)])
            if a == b:
                if log is not None:
                    f.save(a)
                r = a
            else:
                r = f.union(a, b)
            f.open[r] -= 2
        elif layout.options.fields_touch_large_city:
            city = self.city_node[cid]
            for hh in (s << 1, (s << 1) | 1):
                a = f.find(nodes[o.half_seg[hh]])
                if log is not None:
                    f.save(a)
                f.cities[a] = f.cities_of(a) | {city}
        if cid not in self.active_cities and (
            letter == "C" or layout.options.large_city_connect == "any_edge"
        ):
            self.active_cities.add(cid)
            if log is not None:
                log.append((_LOG_CITY, cid))
            for q in layout.city_neighbours[cid]:
                if q not in self.tiles and q not in layout.gated:
                    self._front_add(q)

    # -- previews -----------------------------------------------------------------------------

    def preview_sides(self, square: Square) -> tuple[tuple[Any, ...], ...] | None:
        """What each side of the empty ``square`` would join, as :meth:`place` sees it (shared
        by every rotation previewed there): ``(_SIDE_TILE, side root, half roots)``,
        ``(_SIDE_OPEN,)``, ``(_SIDE_CLOSED,)``, ``(_SIDE_BORDER, coats of arms, tile key)`` or
        ``(_SIDE_JOIN, root)`` (a large city, its road stub, a ferry). ``None``: a side
        :meth:`preview` cannot tell (a field against a large city that fields may touch)."""
        sides = self._sides(square)
        return None if _SIDE_FIELD_CITY_T in sides else sides

    def _sides(self, square: Square) -> tuple[tuple[Any, ...], ...]:
        cached = self._side_cache.get(square)
        if cached is not None:
            return cached
        parent = self.features.parent
        tiles = self.tiles
        all_nodes = self.nodes
        layout = self.layout
        hs = layout.handlers.get(square) if layout is not None else None
        x, y = square
        out: list[tuple[Any, ...]] = []
        for s in range(4):
            h = hs[s] if hs is not None else None
            if h is None or h[0] == H_NORMAL:
                dx, dy = DELTAS[s]
                q = (x + dx, y + dy)
                other = tiles.get(q)
                if other is None:
                    out.append(_SIDE_OPEN_T)
                    continue
                qnodes = all_nodes[q]
                k = other.side_seg[(s + 2) & 3]
                side_root = -1
                if k >= 0:
                    side_root = qnodes[k]
                    while parent[side_root] != side_root:
                        side_root = parent[side_root]
                halves = [-1, -1]  # a tuple once filled: cached sides are shared
                for j, hh in enumerate((s << 1, (s << 1) | 1)):
                    k = other.half_seg[_PARTNER[hh]]
                    if k >= 0:
                        r = qnodes[k]
                        while parent[r] != r:
                            r = parent[r]
                        halves[j] = r
                out.append((_SIDE_TILE, side_root, tuple(halves)))
                continue
            kind_h = h[0]
            if kind_h == H_CLOSED:
                out.append(_SIDE_CLOSED_T)
            elif kind_h == H_BORDER:
                out.append((_SIDE_BORDER, h[2], h[3]))
            elif kind_h == H_CITY and h[2] == "F":
                fields_touch = layout.options.fields_touch_large_city  # type: ignore[union-attr]
                out.append(_SIDE_FIELD_CITY_T if fields_touch else _SIDE_OPEN_T)
            else:
                r = self._printed_node(square, s, h)
                while parent[r] != r:
                    r = parent[r]
                out.append((_SIDE_JOIN, r))
        sides = self._side_cache[square] = tuple(out)
        return sides

    def preview(
        self, square: Square, tile_id: str, rotation: int, sides: tuple[tuple[Any, ...], ...]
    ) -> tuple[Sequence[int], list[PreviewFeature]]:
        """The features the tile's segments would belong to if it were placed so, without
        placing it (``sides`` from :meth:`preview_sides` for ``square``): the group of each
        segment (-1 for a monastery) and, per group, a :class:`PreviewFeature`. Equal to what
        :meth:`place` would build (a test compares them on whole games); bots use it to judge
        a placement without playing it."""
        o = self.compiled.oriented[tile_id][rotation // 90]
        f = self.features
        kinds = o.kinds
        opens = list(o.open_edges)  # open edges of each segment, less what joins close
        joins: list[tuple[int, int]] = []  # (segment, feature root)
        borders: list[tuple[int, int, object]] = []  # (segment, coats of arms, tile key)
        edges = o.edges
        side_seg = o.side_seg
        half_seg = o.half_seg
        for s in range(4):
            side = sides[s]
            tag = side[0]
            if tag == _SIDE_OPEN:
                continue
            a = side_seg[s]
            if tag == _SIDE_TILE:
                r = side[1]
                if a >= 0 and r >= 0:
                    joins.append((a, r))
                    opens[a] -= 2
                if edges[s] != "C":
                    h0, h1 = side[2]
                    if h0 >= 0:
                        joins.append((half_seg[s << 1], h0))
                    if h1 >= 0:
                        joins.append((half_seg[(s << 1) | 1], h1))
            elif a < 0:
                continue
            elif tag == _SIDE_CLOSED:
                opens[a] -= 1
            elif tag == _SIDE_BORDER:
                opens[a] -= 1  # a border node of one open edge, joined: 1 - 2
                borders.append((a, side[1], side[2]))
            else:  # _SIDE_JOIN
                joins.append((a, side[1]))
                opens[a] -= 2
        owner: dict[int, int] = {}  # feature root -> a segment joined to it
        link: list[int] | None = None  # segments joined through a feature (rare)
        for seg, r in joins:
            other = owner.get(r)
            if other is None:
                owner[r] = seg
            elif other != seg:
                if link is None:
                    link = list(range(len(kinds)))
                while link[seg] != seg:
                    seg = link[seg]
                while link[other] != other:
                    other = link[other]
                if seg != other:
                    link[other] = seg
        if link is None:
            group_of: list[int] | tuple[int, ...] = o.dense
            heads: tuple[int, ...] | list[int] = o.heads
            members: list[list[int]] | None = None
        else:
            group_of, heads, members = _segment_groups(kinds, link)
        count = len(heads)
        g_roots: list[list[int]] = [[] for _ in range(count)]
        for r, seg in owner.items():
            g_roots[group_of[seg]].append(r)
        fopen = f.open
        ftiles = f.tiles
        fcoa = f.coa
        fmeeples = f.meeples
        cities_of = f.cities
        ocoa = o.coa
        ocities = o.cities
        new = tuple.__new__
        out: list[PreviewFeature] = []
        for g in range(count):
            segs = members[g] if members is not None else (heads[g],)
            rs = g_roots[g]
            kind = kinds[segs[0]]
            coa = 0
            open_edges = 0
            for i in segs:
                coa += ocoa[i]
                open_edges += opens[i]
            meeples: tuple[int, ...] = ()
            for r in rs:
                coa += fcoa[r]
                open_edges += fopen[r]
                mids = fmeeples.get(r)
                if mids:
                    meeples += mids
            if kind == FIELD:
                cities = _EMPTY
                for r in rs:
                    cs = cities_of.get(r)
                    if cs:
                        cities = cities | cs
                own = (
                    o.dense_cities[segs[0]]
                    if members is None
                    else tuple({group_of[c] for i in segs for c in ocities[i]})
                )
                out.append(new(PreviewFeature, (FIELD, tuple(rs), 0, 0, coa, meeples, cities, own)))
                continue
            # the square is empty and its border keys are new: only joined features can share
            # a tile
            if not rs:
                tiles = 1
            elif len(rs) == 1:
                tiles = 1 + len(ftiles[rs[0]])
            else:
                tiles = 1 + len(ftiles[rs[0]].union(*[ftiles[r] for r in rs[1:]]))
            if borders:
                for i, c, _key in borders:
                    if group_of[i] == g:
                        coa += c
                        tiles += 1
            out.append(
                new(PreviewFeature, (kind, tuple(rs), open_edges, tiles, coa, meeples, _EMPTY, ()))
            )
        return group_of, out

    def open_start(self, square: Square) -> None:
        """Make ``square`` placeable now (used for start squares before any tile is down)."""
        self._front_add(square)
