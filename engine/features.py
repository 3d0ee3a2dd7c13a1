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
of shallow list copies: that is what keeps bots' ``copy()`` cheap.
"""

from __future__ import annotations

CITY = 0
ROAD = 1
FIELD = 2
MONASTERY = 3

KIND_NAMES = ("city", "road", "field", "monastery")
KIND_CODES = {name: code for code, name in enumerate(KIND_NAMES)}

TileKey = object
"""A square ``(x, y)``, or a tuple naming a printed border segment or a ferry."""


_EMPTY: frozenset[int] = frozenset()


class FeatureStore:
    """The union-find forest of every feature node of one board.

    Dense per-node lists: ``parent``, ``kind``, ``open``, ``tiles``, ``coa``. Sparse per-root
    dicts (most nodes never need them): ``meeples``, ``cities``, ``label``; ``done`` is a set.
    """

    __slots__ = ("parent", "kind", "open", "tiles", "coa", "meeples", "cities", "label", "done")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.open: list[int] = []
        self.tiles: list[frozenset] = []
        self.coa: list[int] = []
        self.meeples: dict[int, tuple[int, ...]] = {}
        """Root -> ids of the meeples on the feature (absent: none)."""
        self.cities: dict[int, frozenset[int]] = {}
        """Field root -> city nodes it touches (absent: none)."""
        self.label: dict[int, str] = {}
        """Root -> a printed name carried by the feature (a large city's), for explanations."""
        self.done: set[int] = set()
        """Roots of features completed during the game."""

    def new(
        self,
        kind: int,
        open_edges: int,
        tiles: frozenset,
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
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(self, a: int, b: int) -> int:
        """Merge the features of roots ``a`` and ``b`` (already roots); return the new root.

        ``open`` becomes the sum; the caller subtracts the edges the join closed.
        """
        if a == b:
            return a
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
        return other
