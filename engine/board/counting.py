"""Move listing and counting: placements by frontier group, contact patterns, meeple options."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from engine.board.preview import Previews
from engine.board.tiletables import free_locations
from engine.board.vocab import (
    DELTAS,
    FREE,
    H_NORMAL,
    LETTER_NAME,
    PARTNER,
    SIDE_NAMES,
    BorderSide,
    CitySide,
    FerrySide,
)
from engine.geometry import Square

_NO_CONTACTS: tuple[int, ...] = (-1,) * 12
"""No feature node on any side or half-edge (see Board._contact_nodes)."""


class MoveCounting(Previews):
    """Listing and counting placements and meeple options."""

    def fits(self, tile_id: str, square: Square) -> tuple[int, ...]:
        """Rotations of ``tile_id`` that may go on ``square`` (empty if it is not on the frontier)."""
        if square not in self._front:
            return ()
        return self.compiled.fits(tile_id, self.req.get(square, FREE))

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
            tile_id, self.req.get(square, FREE)
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
        pattern = self.req.get(square, FREE)
        edges = self.compiled.oriented[tile_id][rotation // 90].edges
        for s in range(4):
            need = pattern[s]
            if need != "?" and need != edges[s]:
                return (
                    f"tile {tile_id} at rotation {rotation} shows {LETTER_NAME[edges[s]]} on its "
                    f"{SIDE_NAMES[s]} edge but {where} needs {LETTER_NAME[need]} there "
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
            if isinstance(h, BorderSide):
                into = f" into {h.neighbour}" if h.neighbour else ""
                return f"printed border {LETTER_NAME[h.letter]}{into}"
            if isinstance(h, CitySide):
                return f"large city {self.layout.city_names[h.city]}"  # type: ignore[union-attr]
            if isinstance(h, FerrySide):
                return f"ferry route {h.ferry}"
        return "a neighbour"

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
        src = self._contact_src
        entry = src.get(square)
        if entry is None:
            nodes = self._contact_nodes(square)
        elif entry[2] is not None:
            # a root that is still a root is still every root its nodes reach (no path
            # compression; an undone trial puts back the entries from before it); one that
            # was merged since reaches its new root. The pattern depends only on which
            # positions share a root and which roots have a meeple: while the roots found stay
            # distinct and keep their meeple or lack of one, it stands (merges far away are
            # most turns' changes).
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
                    src[square] = (entry[0], pattern, tuple(now), entry[3])
                    return pattern
            nodes = entry[0]
        else:
            nodes = entry[0]
        roots = []
        for r in nodes:
            if r >= 0:
                while parent[r] != r:
                    r = parent[r]
            roots.append(r)
        distinct = set(roots)
        distinct.discard(-1)
        found = tuple([~r if r in meeples else r for r in distinct])
        if meeples.keys().isdisjoint(roots):  # -1 is never a key
            src[square] = (nodes, None, found, 0)
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
        pattern = tuple(out)
        src[square] = (nodes, pattern, found, self.compiled.pattern_id(pattern))
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
                            entry = src[sq]
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
                out.append((s, (x + dx, y + dy), (s + 2) & 3, PARTNER[2 * s], PARTNER[2 * s + 1]))
        return tuple(out)

    def _printed_contacts(self, square: Square) -> tuple[int, ...]:
        """:meth:`_contact_nodes` of ``square`` from the printed map alone (large cities and
        their road stubs, ferries): the same for every board of a layout, whose printed
        feature nodes are made in one order (see :meth:`_make_printed_nodes`)."""
        nodes = [-1] * 12
        hs = self.layout.handlers.get(square) if self.layout is not None else None
        for s, h in enumerate(hs or ()):
            if isinstance(h, FerrySide) or (isinstance(h, CitySide) and h.letter != "F"):
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
            return free_locations(o, side_roots, half_roots, meeples)
        pattern = self.contact_pattern(square)
        if pattern is None:
            return list(o.names)
        return list(self.compiled.pattern_options(tile_id, rotation, pattern))
