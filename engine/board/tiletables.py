"""Compiled tiles: every tile type once per rotation, fit tables and move tables per tile set."""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING, Any

from engine.board.vocab import (
    FIELD_NAMES,
    HALF_NAMES,
    INNER_FIELD,
    KIND_OF,
    MONASTERY_LOCATION,
    SIDE_NAMES,
    WITH_EDGE,
    MoveTable,
)
from engine.features import CITY, FIELD, MONASTERY, ROAD

if TYPE_CHECKING:
    from engine.tiles import TileSet, TileType


# -- compiled tiles ------------------------------------------------------------------------------


_MAX_PATTERN_IDS = 1 << 20
"""Contact patterns given an int id per tile set (a game meets a few hundred)."""


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
            kind = KIND_OF[seg.kind]
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
            WITH_EDGE[s, self.edges[s]] for s in range(4)
        )
        """For each side, the pattern of the empty square across it -> that pattern once this
        tile is there (the tables are shared)."""

    def segment_at(self, location: str) -> int | None:
        """The segment a meeple location names, or ``None``."""
        return self.aliases.get(location)

    def location_of(self, segment: int) -> str:
        """The canonical meeple location of ``segment``."""
        return self.names[segment]


def free_locations(
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
    :func:`free_locations` gives for the features the labels stand for."""
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
        self._move_tables: dict[tuple[str, bool], dict[tuple[int, ...], MoveTable]] = {}
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
                    names = tuple([loc for loc in names if loc not in FIELD_NAMES])
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

    def move_tables(self, tile_id: str, farmers: bool) -> dict[tuple[int, ...], MoveTable]:
        """Rotations of ``tile_id`` -> pattern id (:meth:`pattern_id`) -> :meth:`move_options`
        of the tile at those rotations on a square with that pattern: filled on use
        (:meth:`fill_move_table`)."""
        key = (tile_id, farmers)
        tables = self._move_tables.get(key)
        if tables is None:
            tables = self._move_tables[key] = {}
        return tables

    def fill_move_table(
        self, table: MoveTable, tile_id: str, rotations: tuple[int, ...], pid: int, farmers: bool
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
