"""The board: placing a tile.

:meth:`Board.place` runs in named steps: the tile's segments become feature nodes
(:meth:`~Board._add_nodes`); its square leaves the frontier (:meth:`~Board._leave_frontier`);
each side meets what lies across it (:meth:`~Board._connect_sides`): a tile, an empty square
(:meth:`~Board._meet_empty`) or something printed on the map (:meth:`~Board._meet_print`);
then what the tile finished is collected (:meth:`~Board._completed`,
:meth:`~Board._count_monasteries`). While a trial is open (``self._log``), every step logs what
it changes, so :meth:`~engine.board.state.BoardState.end_trial` can undo it.
"""

from __future__ import annotations

from engine.board.counting import MoveCounting
from engine.board.tiletables import OrientedTile
from engine.board.vocab import (
    DELTAS,
    FREE,
    H_NORMAL,
    HALF_PARTNERS,
    LOG_CITY,
    LOG_DONE,
    LOG_FERRY,
    LOG_MON,
    LOG_REQ,
    LOG_WATCH,
    PARTNER,
    BorderSide,
    CitySide,
    FerrySide,
    SideHandler,
)
from engine.features import CITY, MONASTERY, ROAD
from engine.geometry import Square


class Board(MoveCounting):
    """Placed tiles and their features, on a map or (``map is None``) on an unbounded table.

    Mutating methods are unchecked; :meth:`why_illegal` / :meth:`is_legal` check a placement.
    """

    # -- placing -------------------------------------------------------------------------------

    def place(self, square: Square, tile_id: str, rotation: int) -> tuple[list[int], list[Square]]:
        """Put a tile down (unchecked). Returns the city/road roots it completed and the
        monastery squares it completed (with any neighbour count left at 0)."""
        o = self.compiled.oriented[tile_id][rotation // 90]
        sides = self._side_cache
        if sides:
            # only the square and its neighbours change their sides' shape; a root merged
            # away is noticed when read (Previews._sides). A copy: copies and open trials
            # share the old dict
            x, y = square
            sides = self._side_cache = sides.copy()
            for q in (square, (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                sides.pop(q, None)
        # copies and open trials may share the dict (even an empty one, which the patterns
        # found later would fill): this board's changes go to its own
        src = self._contact_src = self._contact_src.copy()
        src.pop(square, None)
        nodes = self._add_nodes(square, o)
        self._leave_frontier(square)
        self._connect_sides(square, o, nodes)
        return self._completed(o, nodes), self._count_monasteries(square, o)

    def _add_nodes(self, square: Square, o: OrientedTile) -> list[int]:
        """A feature node per segment of ``o`` (its monastery has none: -1), the tile recorded
        on ``square``; returns the nodes by segment."""
        f = self.features
        parent = f.parent
        nid = len(parent)
        k = len(o.heads)
        parent += range(nid, nid + k)
        f.kind += o.node_kinds
        f.open += o.node_open
        f.tiles += (frozenset((square,)),) * k
        f.coa += o.node_coa
        nodes = (
            list(range(nid, nid + k))
            if k == len(o.kinds)
            else [nid + d if d >= 0 else -1 for d in o.dense]  # -1: the monastery
        )
        if o.city_links:
            fcities = f.cities
            for i, cs in o.city_links:
                fcities[nodes[i]] = frozenset([nodes[c] for c in cs])
        self.tiles[square] = o
        self.nodes[square] = tuple(nodes)
        self.order.append(square)
        return nodes

    def _leave_frontier(self, square: Square) -> None:
        """``square`` has a tile now: it is no longer a frontier square, nor needs a pattern."""
        fp = self._front.pop(square, None)
        if fp is not None:
            del self._group(fp)[square]
        old = self.req.pop(square, None)
        if self._log is not None and old is not None:
            self._log.append((LOG_REQ, square, old))

    def _connect_sides(self, square: Square, o: OrientedTile, nodes: list[int]) -> None:
        """Each side of the tile just placed on ``square`` meets what lies across it."""
        layout = self.layout
        hs = layout.handlers.get(square) if layout is not None else None
        placeable = layout.placeable if layout is not None else None
        tiles, all_nodes, src = self.tiles, self.nodes, self._contact_src
        f = self.features
        parent, union, join_across = f.parent, f.union, f.join_across
        side_seg, half_seg, edges = o.side_seg, o.half_seg, o.edges
        x, y = square
        for s in range(4):
            dx, dy = DELTAS[s]
            q = (x + dx, y + dy)
            h = hs[s] if hs is not None else None
            if h is not None and h[0] != H_NORMAL:
                if src:
                    src.pop(q, None)
                self._meet_print(square, s, h, o, nodes)
                continue
            other = tiles.get(q)
            if other is not None:  # meet a tile: the features across join (inline: hot)
                onodes = all_nodes[q]
                k = side_seg[s]
                if k >= 0:
                    join_across(nodes[k], onodes[other.side_seg[(s + 2) & 3]])
                if edges[s] != "C":  # field halves on both sides of a road, or a field edge
                    ohalf = other.half_seg
                    for hh, partner in HALF_PARTNERS[s]:
                        a = nodes[half_seg[hh]]
                        b = onodes[ohalf[partner]]
                        while parent[a] != a:
                            a = parent[a]
                        while parent[b] != b:
                            b = parent[b]
                        if a != b:
                            union(a, b)
            elif placeable is None or q in placeable:
                self._meet_empty(square, s, o, nodes, q)
            elif src:
                src.pop(q, None)

    def _meet_empty(
        self, square: Square, s: int, o: OrientedTile, nodes: list[int], q: Square
    ) -> None:
        """Side ``s`` of the new tile faces the empty placeable square ``q``: its contact nodes
        and pattern take this side, and it joins the frontier (a ferry-gated square only from
        a gated square)."""
        entry = self._contact_src.get(q) if self._contact_src else None
        if entry is not None:
            # the contact nodes of q across from this tile (as _contact_nodes): the other
            # sides' stay, its pattern is made again on use
            t = (s + 2) & 3
            handlers = self.layout.handlers if self.layout is not None else None
            hq = handlers.get(q) if handlers is not None else None
            if hq is None or hq[t][0] == H_NORMAL:
                half_seg = o.half_seg
                cn = list(entry[0])
                k = o.side_seg[s]
                cn[t] = nodes[k] if k >= 0 else -1
                k = half_seg[PARTNER[2 * t]]
                cn[4 + 2 * t] = nodes[k] if k >= 0 else -1
                k = half_seg[PARTNER[2 * t + 1]]
                cn[5 + 2 * t] = nodes[k] if k >= 0 else -1
                self._contact_src[q] = (tuple(cn), None, None, 0)
        req = self.req
        np = o.with_edge[s][req.get(q, FREE)]
        if self._log is not None:
            self._log.append((LOG_REQ, q, req.get(q)))
        req[q] = np
        front, groups, owned = self._front, self._groups, self._owned
        fp = front.get(q)
        if fp is not None:
            group = groups[fp]
            if fp not in owned:  # shared with a copy: unshare first
                groups[fp] = group = group.copy()
                owned.add(fp)
            del group[q]
        elif not (self.layout is None or q not in self.layout.gated or square in self.layout.gated):
            return
        front[q] = np
        grp = groups.get(np)
        if grp is None or np not in owned:
            groups[np] = grp = {} if grp is None else grp.copy()
            owned.add(np)
        grp[q] = None

    def _meet_print(
        self, square: Square, s: int, h: SideHandler, o: OrientedTile, nodes: list[int]
    ) -> None:
        """Side ``s`` of the new tile meets what the map prints there (handler ``h``): the
        outside, a border road or city, a large city, or a ferry."""
        f = self.features
        a = o.side_seg[s]
        if isinstance(h, BorderSide):
            # a printed border road/city: one more tile (and its coats of arms), closed abroad
            b = f.new(CITY if h.letter == "C" else ROAD, 1, frozenset((h.key,)), h.coats_of_arms)
            f.join_across(nodes[a], b)
        elif isinstance(h, CitySide):
            self._join_large_city(square, s, h, nodes, o)
        elif isinstance(h, FerrySide):
            f.join_across(nodes[a], self.ferry_node[h.ferry])
            if h.ferry not in self.opened_ferries:
                self.opened_ferries.add(h.ferry)
                if self._log is not None:
                    self._log.append((LOG_FERRY, h.ferry))
            other_end = h.other_end
            if other_end not in self.tiles and other_end in self.layout.placeable:  # type: ignore[union-attr]
                self._front_add(other_end)
        elif a >= 0:  # closed: outside the map, a wave or a stack square
            r = f.find(nodes[a])
            if self._log is not None:
                f.save(r)
            f.open[r] -= 1

    def _completed(self, o: OrientedTile, nodes: list[int]) -> list[int]:
        """The city and road roots of the new tile that have no open edge left (once each)."""
        f = self.features
        parent, fopen, done = f.parent, f.open, f.done
        log = self._log
        completed: list[int] = []
        for i, kind in enumerate(o.kinds):
            if kind <= ROAD:
                a = nodes[i]
                while parent[a] != a:
                    a = parent[a]
                if fopen[a] == 0 and a not in done:
                    done.add(a)
                    completed.append(a)
                    if log is not None:
                        log.append((LOG_DONE, a))
        return completed

    def _count_monasteries(self, square: Square, o: OrientedTile) -> list[Square]:
        """Monasteries around ``square`` (and its own) count the squares they still wait for;
        returns those surrounded now."""
        tiles, mon, log = self.tiles, self.monasteries, self._log
        placeable = self.layout.placeable if self.layout is not None else None
        monks: list[Square] = []
        watchers = self._mon_watch.pop(square, None)
        if watchers is not None:
            if log is not None:
                log.append((LOG_WATCH, square, watchers))
            for q in watchers:
                left = mon[q] - 1
                if log is not None:
                    log.append((LOG_MON, q, left + 1))
                mon[q] = left
                if left == 0:
                    monks.append(q)
        if MONASTERY in o.kinds:
            x, y = square
            left = 0
            watch = self._mon_watch
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    q = (x + dx, y + dy)
                    if (dx or dy) and q not in tiles and (placeable is None or q in placeable):
                        left += 1
                        if log is not None:
                            log.append((LOG_WATCH, q, watch.get(q)))
                        watch[q] = watch.get(q, ()) + (square,)
            if log is not None:
                log.append((LOG_MON, square, None))
            mon[square] = left
            if left == 0:
                monks.append(square)
        return monks

    def _join_large_city(
        self, square: Square, s: int, h: CitySide, nodes: list[int], o: OrientedTile
    ) -> None:
        layout = self.layout
        assert layout is not None
        f = self.features
        cid, letter = h.city, h.letter
        log = self._log
        if letter == "C" or letter == "R":
            b = self.city_node[cid] if letter == "C" else self.stub_node[(cid, square, s)]
            f.join_across(nodes[o.side_seg[s]], b)
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
                log.append((LOG_CITY, cid))
            for q in layout.city_neighbours[cid]:
                if q not in self.tiles and q not in layout.gated:
                    self._front_add(q)

    def open_start(self, square: Square) -> None:
        """Make ``square`` placeable now (used for start squares before any tile is down)."""
        self._front_add(square)
