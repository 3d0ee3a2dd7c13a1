"""Previews: what each side of an empty square would join, and what a placement would make."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.board.state import BoardState
from engine.board.vocab import (
    DELTAS,
    H_CLOSED,
    H_NORMAL,
    NO_NODES,
    PARTNER,
    SIDE_BORDER,
    SIDE_CLOSED,
    SIDE_CLOSED_T,
    SIDE_FIELD_CITY,
    SIDE_FIELD_CITY_T,
    SIDE_JOIN,
    SIDE_OPEN,
    SIDE_OPEN_T,
    SIDE_TILE,
    BorderSide,
    CitySide,
)
from engine.features import FIELD, MONASTERY
from engine.geometry import Square


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


class PreviewFeature:
    """A feature as it would be after a previewed placement (:meth:`Board.preview`).

    A record with slots rather than a named tuple: on the compiled build an extension type
    (``preview.pxd``), whose fields the greedy evaluator reads as C fields. Equal when all its
    fields are."""

    __slots__ = ("kind", "roots", "open", "tiles", "coa", "meeples", "cities", "own_cities")

    def __init__(
        self,
        kind: int,
        roots: tuple[int, ...],
        open: int,
        tiles: int,
        coa: int,
        meeples: tuple[int, ...],
        cities: frozenset[int],
        own_cities: tuple[int, ...],
    ) -> None:
        self.kind = kind
        self.roots = roots
        """The features on the board it would join (their roots now)."""
        self.open = open
        """Open edges (cities and roads; complete at 0)."""
        self.tiles = tiles
        """Tiles (cities and roads)."""
        self.coa = coa
        self.meeples = meeples
        """Ids of the meeples it would carry."""
        self.cities = cities
        """Fields: the city nodes on the board it would touch."""
        self.own_cities = own_cities
        """Fields: the groups of the placed tile's cities it would touch."""

    def fields(self) -> tuple[Any, ...]:
        """``(kind, roots, open, tiles, coa, meeples, cities, own_cities)``."""
        return (
            self.kind,
            self.roots,
            self.open,
            self.tiles,
            self.coa,
            self.meeples,
            self.cities,
            self.own_cities,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PreviewFeature):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        names = ("kind", "roots", "open", "tiles", "coa", "meeples", "cities", "own_cities")
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, self.fields(), strict=True))
        return f"PreviewFeature({shown})"


_ALL_OPEN = (SIDE_OPEN_T, SIDE_OPEN_T, SIDE_OPEN_T, SIDE_OPEN_T)
"""The sides of a square with no tile or border around it: a preview there joins nothing."""

_FRESH: dict[Any, tuple[PreviewFeature, ...]] = {}
"""An oriented tile (``CompiledTiles.oriented``) -> its preview where it joins nothing
(:data:`_ALL_OPEN`), per group: what a preview gives a group of one segment that joins no
feature and keeps its open edges (about half of a preview's groups, shared, not made anew)."""


PREVIEW_MEMO_SIZE = 16_384
"""Previews a memo (:meth:`Previews.remember_previews`) holds at most (all are forgotten when
full): about the frontier squares times the tile kinds times 4 rotations of a Deutschland
game."""


class Previews(BoardState):
    """What a placement would do, without placing."""

    def contacts(self, square: Square) -> tuple[list[int], list[int], bool]:
        """What an empty square touches: the feature root across each side (-1: none), across
        each half-edge (-1: none), and whether any of them has a meeple."""
        side_roots = [-1, -1, -1, -1]
        half_roots = [-1, -1, -1, -1, -1, -1, -1, -1]
        for s, side in enumerate(self._sides(square)):
            tag = side[0]
            if tag == SIDE_TILE:
                side_roots[s] = side[1]
                half_roots[s << 1], half_roots[(s << 1) | 1] = side[2]
            elif tag == SIDE_JOIN:
                side_roots[s] = side[1]
        meeples = self.features.meeples
        occupied = bool(meeples) and any(
            r in meeples for roots in (side_roots, half_roots) for r in roots if r >= 0
        )
        return side_roots, half_roots, occupied

    # -- previews -----------------------------------------------------------------------------

    def preview_sides(self, square: Square) -> tuple[tuple[Any, ...], ...] | None:
        """What each side of the empty ``square`` would join, as :meth:`place` sees it (shared
        by every rotation previewed there): ``(SIDE_TILE, side root, half roots)``,
        ``(SIDE_OPEN,)``, ``(SIDE_CLOSED,)``, ``(SIDE_BORDER, coats of arms, tile key)`` or
        ``(SIDE_JOIN, root)`` (a large city, its road stub, a ferry). ``None``: a side
        :meth:`preview` cannot tell (a field against a large city that fields may touch)."""
        sides = self._sides(square)
        # by the tag, not ``SIDE_FIELD_CITY_T in sides``: that compares each side's tuple
        # with it (only that tuple has the tag)
        for side in sides:
            if side[0] == SIDE_FIELD_CITY:
                return None
        return sides

    def _sides(self, square: Square) -> tuple[tuple[Any, ...], ...]:
        parent = self.features.parent
        cached = self._side_cache.get(square)
        if cached is not None:
            # kept across placements (see Board.place): a root that is still a root is still
            # the root of every node that reached it (no path compression; an undone trial
            # puts back the cache from before it)
            for side in cached:
                tag = side[0]
                if tag == SIDE_TILE:
                    r = side[1]
                    if r >= 0 and parent[r] != r:
                        break
                    h0, h1 = side[2]
                    if (h0 >= 0 and parent[h0] != h0) or (h1 >= 0 and parent[h1] != h1):
                        break
                elif tag == SIDE_JOIN and parent[side[1]] != side[1]:
                    break
            else:
                return cached
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
                    out.append(SIDE_OPEN_T)
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
                    k = other.half_seg[PARTNER[hh]]
                    if k >= 0:
                        r = qnodes[k]
                        while parent[r] != r:
                            r = parent[r]
                        halves[j] = r
                out.append((SIDE_TILE, side_root, tuple(halves)))
                continue
            kind_h = h[0]
            if kind_h == H_CLOSED:
                out.append(SIDE_CLOSED_T)
            elif isinstance(h, BorderSide):
                out.append((SIDE_BORDER, h.coats_of_arms, h.key))
            elif isinstance(h, CitySide) and h.letter == "F":
                fields_touch = layout.options.fields_touch_large_city  # type: ignore[union-attr]
                out.append(SIDE_FIELD_CITY_T if fields_touch else SIDE_OPEN_T)
            else:
                r = self._printed_node(square, s, h)
                while parent[r] != r:
                    r = parent[r]
                out.append((SIDE_JOIN, r))
        sides = self._side_cache[square] = tuple(out)
        return sides

    def preview(
        self, square: Square, tile_id: str, rotation: int, sides: tuple[tuple[Any, ...], ...]
    ) -> tuple[Sequence[int], list[PreviewFeature], dict[int, int]]:
        """The features the tile's segments would belong to if it were placed so, without
        placing it (``sides`` from :meth:`preview_sides` for ``square``): the group of each
        segment (-1 for a monastery), per group a :class:`PreviewFeature`, and the group each
        board root it joins goes to (``{root: group}``, in the order of the groups and their
        ``roots``; shared with the memo below: read it, do not change it). Equal to what
        :meth:`place` would build (a test compares them on whole games); bots use it to judge
        a placement without playing it.

        Remembered per square, tile and rotation after :meth:`remember_previews`: the preview
        depends only on the tile, ``sides`` and, for each feature joined, its open edges, coats
        of arms, meeples and tiles (a field: the cities it touches). A remembered preview is
        given again when ``sides`` are equal and each of those is the same (the tile and city
        sets and meeple tuples are replaced, never changed, when a feature grows: the same
        object is the same set)."""
        memo = self._preview_memo
        if memo is None:
            return self._preview(square, tile_id, rotation, sides)
        f = self.features
        key = (square, tile_id, rotation)
        got = memo.get(key)
        if got is not None and (got[0] is sides or got[0] == sides):
            fopen = f.open
            fcoa = f.coa
            fmeeples = f.meeples
            ftiles = f.tiles
            cities_of = f.cities
            for r, open_edges, coa, mids, held, field in got[1]:
                if (
                    fopen[r] != open_edges
                    or fcoa[r] != coa
                    or fmeeples.get(r) is not mids
                    or (cities_of.get(r) if field else ftiles[r]) is not held
                ):
                    break
            else:
                # kept as one tuple: no new one per preview given again
                made: tuple[Sequence[int], list[PreviewFeature], dict[int, int]] = got[2]
                return made
        group_of, out, joined = self._preview(square, tile_id, rotation, sides)
        fopen = f.open
        fcoa = f.coa
        fmeeples = f.meeples
        ftiles = f.tiles
        cities_of = f.cities
        check = []
        for pv in out:
            field = pv.kind == FIELD
            for r in pv.roots:
                held = cities_of.get(r) if field else ftiles[r]
                check.append((r, fopen[r], fcoa[r], fmeeples.get(r), held, field))
        if len(memo) >= PREVIEW_MEMO_SIZE:
            memo.clear()
        made = (group_of, out, joined)
        memo[key] = (sides, check, made)
        return made

    def remember_previews(self, memo: dict[Any, Any] | None) -> None:
        """Remember :meth:`preview` results in ``memo`` (``None``: stop), shared with this
        board's later copies and any board given the same dict: a search judges the same
        placements again and again in positions that differ elsewhere (about 70 % of a
        Monte-Carlo move's previews). Each entry is checked by the board that reads it."""
        self._preview_memo = memo

    def _preview(
        self, square: Square, tile_id: str, rotation: int, sides: tuple[tuple[Any, ...], ...]
    ) -> tuple[Sequence[int], list[PreviewFeature], dict[int, int]]:
        """:meth:`preview`, worked out."""
        o = self.compiled.oriented[tile_id][rotation // 90]
        fresh = _FRESH.get(o)
        if fresh is None:
            if len(_FRESH) >= 4096:  # tile sets of edited rule sets come and go
                _FRESH.clear()
            _FRESH[o] = ()  # none while its own preview is worked out
            fresh = _FRESH[o] = tuple(self._preview(square, tile_id, rotation, _ALL_OPEN)[1])
        f = self.features
        kinds = o.kinds
        o_open = o.open_edges
        opens = list(o_open)  # open edges of each segment, less what joins close
        joins: list[tuple[int, int]] = []  # (segment, feature root)
        borders: list[tuple[int, int, object]] = []  # (segment, coats of arms, tile key)
        edges = o.edges
        side_seg = o.side_seg
        half_seg = o.half_seg
        for s in range(4):
            side = sides[s]
            tag = side[0]
            if tag == SIDE_OPEN:
                continue
            a = side_seg[s]
            if tag == SIDE_TILE:
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
            elif tag == SIDE_CLOSED:
                opens[a] -= 1
            elif tag == SIDE_BORDER:
                opens[a] -= 1  # a border node of one open edge, joined: 1 - 2
                borders.append((a, side[1], side[2]))
            else:  # SIDE_JOIN
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
        # tuples: most groups join no feature or one (``() + (r,)`` is ``(r,)`` itself)
        g_roots: list[tuple[int, ...]] = [()] * count
        for r, seg in owner.items():
            g_roots[group_of[seg]] += (r,)
        fopen = f.open
        ftiles = f.tiles
        fcoa = f.coa
        fmeeples = f.meeples
        cities_of = f.cities
        ocoa = o.coa
        ocities = o.cities
        out: list[PreviewFeature] = []
        # the root -> group table the evaluator reads, made once per preview worked out (a
        # remembered preview gives it again) rather than once per preview asked for
        joined: dict[int, int] = {}
        for g in range(count):
            rs = g_roots[g]
            for r in rs:
                joined[r] = g
            if members is None:  # one segment per group (most placements)
                head = heads[g]
                if not rs and opens[head] == o_open[head] and fresh:
                    # joins nothing, no side closed or at a border: as where nothing is around
                    out.append(fresh[g])
                    continue
                kind = kinds[head]
                coa = ocoa[head]
                open_edges = opens[head]
            else:
                segs = members[g]
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
                cities = NO_NODES
                for r in rs:
                    cs = cities_of.get(r)
                    if cs:  # frozensets: the first is shared, not copied
                        cities = cs if cities is NO_NODES else cities | cs
                own = (
                    o.dense_cities[head]
                    if members is None
                    else tuple({group_of[c] for i in segs for c in ocities[i]})
                )
                out.append(PreviewFeature(FIELD, rs, 0, 0, coa, meeples, cities, own))
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
            out.append(PreviewFeature(kind, rs, open_edges, tiles, coa, meeples, NO_NODES, ()))
        return group_of, out, joined
