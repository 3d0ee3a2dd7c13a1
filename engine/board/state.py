"""The board's state: placed tiles, features, the frontier, copies and trials."""

from __future__ import annotations

from collections.abc import KeysView
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from engine.board.layout import MapLayout, MapOptions, map_layout
from engine.board.tiletables import OrientedTile, compiled
from engine.board.vocab import (
    DELTAS,
    FREE,
    LOG_CITY,
    LOG_DONE,
    LOG_FERRY,
    LOG_MON,
    LOG_REQ,
    CitySide,
    FerrySide,
    SideHandler,
)
from engine.errors import EngineError
from engine.features import CITY, LOG_ROOT, ROAD, FeatureStore
from engine.geometry import Square
from engine.mapdef import MapDef

if TYPE_CHECKING:
    from engine.tiles import TileSet


class BoardTrial(NamedTuple):
    """What :meth:`Board.end_trial` needs besides the log: sizes and the containers it swapped."""

    log_len: int
    nodes: int
    placed: int
    front: dict[Square, str]
    groups: dict[str, dict[Square, None]]
    meeples: dict[int, tuple[int, ...]]
    sides: dict[Square, tuple[tuple[Any, ...], ...]]
    """The side cache before the trial (valid again once it is undone)."""
    contacts: dict[Square, tuple[Any, ...]]
    """The contact patterns before the trial (valid again once it is undone)."""


class BoardState:
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
        """:meth:`_sides` of empty squares, kept across placements (see :meth:`place`)."""
        self._contact_src: dict[Square, tuple[Any, ...]] = {}
        """Empty square -> ``(nodes, pattern, roots, id)``: the 12 feature nodes of
        :meth:`contact_pattern` (side then half-edge order, -1: none), its last pattern, the
        distinct roots it was made from, each as ``r`` without a meeple or ``~r`` (negative)
        with one (``None``: not made yet; one tuple of ints, which the collector soon stops
        tracking, instead of a pair per root) and the pattern's
        :meth:`CompiledTiles.pattern_id`. The nodes change when a tile is placed next to the
        square (:meth:`place` sets that side's); the pattern is checked on use (see
        :meth:`contact_pattern`). An entry is a tuple, replaced when it changes, never changed
        in place. Copies of a board share the dict until one of them places a tile (it takes
        a copy first): boards that share it have the same features and nodes, so an entry
        stands on all of them. An undone trial puts back the dict from before it."""
        self._preview_memo: dict[tuple[Square, str, int], tuple[Any, ...]] | None = None
        """:meth:`Previews.preview` results by square, tile and rotation, each with what it
        depends on (checked on use), when asked for (:meth:`Previews.remember_previews`);
        shared by the board's copies."""
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
                    if isinstance(h, CitySide) and h.city == cid and h.letter == "C":
                        open_city += 1
            self.city_node[cid] = f.new(
                CITY, open_city, frozenset(city.squares), city.coats_of_arms, layout.city_names[cid]
            )
            if open_city == 0:  # every city side faces the border: complete as printed
                f.done.add(self.city_node[cid])
            for sq in layout.city_neighbours[cid]:
                for s, h in enumerate(layout.handlers[sq]):
                    if isinstance(h, CitySide) and h.city == cid and h.letter == "R":
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

    def copy(self) -> Self:
        """An independent copy (shares only immutable tables and caches that either board copies
        before changing or checks on use). Not while a trial is open."""
        if self._log is not None:
            raise EngineError("a board cannot be copied while a trial is open (end_trial first)")
        cls = type(self)
        b = cls.__new__(cls)
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
        # shared until either board places a tile (then copied, see Board.place): while both
        # have the same features and nodes, a pattern either finds stands on both
        b._contact_src = self._contact_src
        b._preview_memo = self._preview_memo  # an entry is checked by the board reading it
        return b

    def compact(self) -> None:
        """Drop the frontier patterns no square has any more, as :meth:`copy` does for its
        copy. The order of the legal moves follows the patterns' order, so a bot that judges
        on a trial where it used to push a copy (which :meth:`Game.pop` left in the game)
        compacts to keep every later move in its place. Not while a trial is open."""
        if self._log is not None:
            raise EngineError("a board cannot be compacted while a trial is open")
        groups = self._groups
        if all(groups.values()):
            return  # nothing to drop: the patterns keep their dict (and its fit lists)
        self._groups = {p: g for p, g in groups.items() if g}

    # -- trials -------------------------------------------------------------------------------

    def begin_trial(self) -> BoardTrial:
        """Start recording changes so that :meth:`end_trial` can undo them: a bot judges a
        placement in place instead of on a copy. Trials nest; end them in reverse order."""
        f = self.features
        log = self._log
        if log is None:
            self._log = f.log = log = []
        mark = BoardTrial(
            len(log),
            len(f.parent),
            len(self.order),
            self._front,
            self._groups,
            f.meeples,
            self._side_cache,
            self._contact_src,
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
            elif op == LOG_DONE:
                f.done.discard(entry[1])
            elif op == LOG_CITY:
                self.active_cities.discard(entry[1])
            elif op == LOG_FERRY:
                self.opened_ferries.discard(entry[1])
            else:
                table = (
                    self.req
                    if op == LOG_REQ
                    else self.monasteries
                    if op == LOG_MON
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
        self._side_cache = mark.sides
        self._contact_src = mark.contacts
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
            p = self.req.get(q, FREE)
            self._front[q] = p
            self._group(p)[q] = None

    def _front_remove(self, q: Square) -> None:
        p = self._front.pop(q, None)
        if p is not None:
            del self._group(p)[q]

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

    def monk_neighbour_count(self, square: Square) -> int:
        """:meth:`neighbour_count` of a square holding a monastery tile, without looking at
        its 8 neighbours: the squares around it that take a tile or are a large city's
        (:meth:`_around`, once per map square) less the ones it still waits for
        (``monasteries``, kept up to date by :meth:`place` and trials). Tiles go on placeable
        squares only, and a large-city square is never placeable (``MapDef.blocked_squares``):
        those filled are exactly the placeable ones not waited for. Any other square: asked
        the long way. A test compares the two over whole games of every map."""
        left = self.monasteries.get(square)
        if left is None:
            return self.neighbour_count(square)
        layout = self.layout
        if layout is None:  # every square takes a tile, and there are no large cities
            return 8 - left
        around = layout.around.get(square)
        if around is None:
            around = layout.around[square] = self._around(square)
        return around - left

    def _around(self, square: Square) -> int:
        """The squares around ``square`` (8) that are placeable or a large city's."""
        layout = self.layout
        assert layout is not None
        placeable = layout.placeable
        city_of = layout.city_of
        x, y = square
        n = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    q = (x + dx, y + dy)
                    if q in placeable or q in city_of:
                        n += 1
        return n

    def monastery_neighbours_left(self, square: Square) -> int:
        """Neighbouring squares (8) still to be filled before a monastery on ``square`` is
        complete: empty squares that take a tile (what :meth:`place` starts it with)."""
        x, y = square
        tiles = self.tiles
        placeable = self.layout.placeable if self.layout else None
        # a loop, not sum() over a generator: asked for every monk a bot's judge previews
        n = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    q = (x + dx, y + dy)
                    if q not in tiles and (placeable is None or q in placeable):
                        n += 1
        return n

    def _printed_node(self, square: Square, s: int, h: SideHandler) -> int:
        """The feature node printed across side ``s`` of ``square`` (-1: none to join)."""
        if isinstance(h, CitySide):
            if h.letter == "C":
                return self.city_node[h.city]
            if h.letter == "R":
                return self.stub_node[(h.city, square, s)]
        elif isinstance(h, FerrySide):
            return self.ferry_node[h.ferry]
        return -1

    def root_of(self, square: Square, segment: int) -> int:
        return self.features.find(self.nodes[square][segment])
