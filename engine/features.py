"""Features (cities, roads, fields) as a union-find forest with open-edge counters.

Every city, road or field segment of a placed tile is a *node*. Printed map parts are nodes too: a
large city, a road stub of a large city, a printed border road or city, a ferry. Connecting two
segments across an edge unions their nodes; the root carries the merged data:

- ``open``: how many feature edges are still open (a city or road is complete at 0);
- ``tiles``: the distinct squares (plus keys for border segments and ferries) the feature covers,
  so a tile that a feature passes twice counts once;
- ``coa``: coats of arms;
- ``meeples``: ids of the meeples on the feature;
- ``cities``: for fields, the city nodes the field touches (resolved to roots when scored).

All per-node data is immutable (ints, tuples, frozensets), so :meth:`FeatureStore.copy` is a handful
of shallow list copies: that is what keeps bots' ``copy()`` cheap. A bot judging a placement does
not even copy: while a board trial is open (``Board.begin_trial``), ``log`` collects each root's
data before it changes, and the board puts it back (no path compression in :meth:`find`, so a
trial never changes a node it does not log).
"""

from __future__ import annotations

from typing import Any

CITY = 0
ROAD = 1
FIELD = 2
MONASTERY = 3

KIND_NAMES = ("city", "road", "field", "monastery")
KIND_CODES = {name: code for code, name in enumerate(KIND_NAMES)}

TileKey = object
"""A square ``(x, y)``, or a tuple naming a printed border segment or a ferry."""


_EMPTY: frozenset[int] = frozenset()
LOG_ROOT = 0
"""Tag of a root's saved data in a trial's undo log (the board logs other tags of its own)."""


class FeatureStore:
    """The union-find forest of every feature node of one board.

    Dense per-node lists: ``parent``, ``kind``, ``open``, ``tiles``, ``coa``. Sparse per-root
    dicts (most nodes never need them): ``meeples``, ``cities``, ``label``; ``done`` is a set.
    """

    __slots__ = (
        "parent",
        "kind",
        "open",
        "tiles",
        "coa",
        "meeples",
        "cities",
        "label",
        "done",
        "log",
    )

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.open: list[int] = []
        self.tiles: list[frozenset[tuple[Any, ...]]] = []
        self.coa: list[int] = []
        self.meeples: dict[int, tuple[int, ...]] = {}
        """Root -> ids of the meeples on the feature (absent: none)."""
        self.cities: dict[int, frozenset[int]] = {}
        """Field root -> city nodes it touches (absent: none)."""
        self.label: dict[int, str] = {}
        """Root -> a printed name carried by the feature (a large city's), for explanations."""
        self.done: set[int] = set()
        """Roots of features completed during the game."""
        self.log: list[tuple[Any, ...]] | None = None
        """The undo log of an open board trial (``None``: no trial); see :meth:`save`."""

    def new(
        self,
        kind: int,
        open_edges: int,
        tiles: frozenset[tuple[Any, ...]],
        coa: int = 0,
        label: str | None = None,
    ) -> int:
        """Add a node and return its id."""
        i = len(self.parent)
        self.parent.append(i)
        self.kind.append(kind)
        self.open.append(open_edges)
        self.tiles.append(tiles)
        self.coa.append(coa)
        if label is not None:
            self.label[i] = label
        return i

    def find(self, i: int) -> int:
        # no path compression: union by size keeps trees shallow, and a find during a board
        # trial must not change what the trial's undo does not know about
        parent = self.parent
        while parent[i] != i:
            i = parent[i]
        return i

    def save(self, root: int) -> None:
        """Log ``root``'s data before it changes (only while a trial is open: ``log`` set)."""
        self.log.append(  # type: ignore[union-attr]
            (
                LOG_ROOT,
                root,
                self.open[root],
                self.tiles[root],
                self.coa[root],
                self.cities.get(root),
                self.label.get(root),
            )
        )

    def restore(self, entry: tuple[Any, ...]) -> None:
        """Undo one :meth:`save` entry (the root becomes a root again with its old data)."""
        _op, root, open_edges, tiles, coa, cities, label = entry
        self.parent[root] = root
        self.open[root] = open_edges
        self.tiles[root] = tiles
        self.coa[root] = coa
        if cities is None:
            self.cities.pop(root, None)
        else:
            self.cities[root] = cities
        if label is None:
            self.label.pop(root, None)
        else:
            self.label[root] = label

    def union(self, a: int, b: int) -> int:
        """Merge the features of roots ``a`` and ``b`` (already roots); return the new root.

        ``open`` becomes the sum; the caller subtracts the edges the join closed.
        """
        if a == b:
            return a
        if self.log is not None:
            self.save(a)
            self.save(b)
        tiles = self.tiles
        if len(tiles[a]) < len(tiles[b]):
            a, b = b, a
        self.parent[b] = a
        tiles[a] = tiles[a] | tiles[b]
        self.open[a] += self.open[b]
        self.coa[a] += self.coa[b]
        meeples = self.meeples
        if b in meeples:
            mb = meeples.pop(b)
            ma = meeples.get(a)
            meeples[a] = ma + mb if ma else mb
        cities = self.cities
        if b in cities:
            cb = cities.pop(b)
            ca = cities.get(a)
            cities[a] = ca | cb if ca else cb
        label = self.label
        if b in label and a not in label:
            label[a] = label[b]
        return a

    def join_across(self, a: int, b: int) -> None:
        """Join the features of nodes ``a`` and ``b`` that meet across one edge: the edge closes
        on both sides (two open edges fewer), whether they were one feature already or two."""
        parent = self.parent
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        if a == b:
            if self.log is not None:
                self.save(a)
            self.open[a] -= 2
        else:
            self.open[self.union(a, b)] -= 2

    def meeples_of(self, root: int) -> tuple[int, ...]:
        return self.meeples.get(root, ())

    def cities_of(self, root: int) -> frozenset[int]:
        return self.cities.get(root, _EMPTY)

    def roots(self) -> list[int]:
        return [i for i, p in enumerate(self.parent) if p == i]

    def tile_count(self, root: int) -> int:
        return len(self.tiles[root])

    def copy(self) -> FeatureStore:
        other = FeatureStore.__new__(FeatureStore)
        other.parent = self.parent[:]
        other.kind = self.kind[:]
        other.open = self.open[:]
        other.tiles = self.tiles[:]
        other.coa = self.coa[:]
        other.meeples = self.meeples.copy()
        other.cities = self.cities.copy()
        other.label = self.label.copy()
        other.done = self.done.copy()
        other.log = None
        return other
