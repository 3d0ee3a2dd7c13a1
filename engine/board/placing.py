"""The board: placing a tile."""

from __future__ import annotations

from typing import Any

from engine.board.counting import MoveCounting
from engine.board.tiletables import OrientedTile
from engine.board.vocab import (
    DELTAS,
    FREE,
    H_BORDER,
    H_CITY,
    H_CLOSED,
    H_FERRY,
    H_NORMAL,
    HALF_PARTNERS,
    LOG_CITY,
    LOG_DONE,
    LOG_FERRY,
    LOG_MON,
    LOG_REQ,
    LOG_WATCH,
    PARTNER,
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
        x, y = square
        sides = self._side_cache
        if sides:
            # only the square and its neighbours change their sides' shape; a root merged
            # away is noticed when read (Previews._sides). A copy: copies and open trials
            # share the old dict
            sides = self._side_cache = sides.copy()
            for q in (square, (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                sides.pop(q, None)
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
            log.append((LOG_REQ, square, old))
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
                        for hh, partner in HALF_PARTNERS[s]:
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
                            k = half_seg[PARTNER[2 * t]]
                            cn[4 + 2 * t] = nodes[k] if k >= 0 else -1
                            k = half_seg[PARTNER[2 * t + 1]]
                            cn[5 + 2 * t] = nodes[k] if k >= 0 else -1
                            entry[0] = tuple(cn)
                            entry[2] = None
                    np = with_edge[s][req.get(q, FREE)]
                    if log is not None:
                        log.append((LOG_REQ, q, req.get(q)))
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
                        log.append((LOG_FERRY, h[1]))
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
                        log.append((LOG_DONE, a))
        monks: list[Square] = []
        mon = self.monasteries
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
        if MONASTERY in kinds:
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
                log.append((LOG_CITY, cid))
            for q in layout.city_neighbours[cid]:
                if q not in self.tiles and q not in layout.gated:
                    self._front_add(q)

    def open_start(self, square: Square) -> None:
        """Make ``square`` placeable now (used for start squares before any tile is down)."""
        self._front_add(square)
