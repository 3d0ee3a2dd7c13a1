"""Map-Chips setup: where face-down chips may go, a checker, an even generator and an exact bound.

The rules (France, Benelux, Península Ibérica, Deutschland setup; see ``engine/RULES.md``):

* one chip per square, only on map squares where a tile may go;
* none on large-city, town, wave or stack squares (every start square is a town, used or not);
* none on the squares the map's rule set excludes from chips (``Rules.chip_layout``: the Balearic,
  ferry-gated island squares of a Península Ibérica map);
* none orthogonally adjacent to a **used** start square or to an open side of a large city
  (:class:`ChipReading` selects what "open side" means);
* no two chips orthogonally adjacent (diagonal is fine).

The squares left by the first four rules are the *allowed squares*. The last rule makes a layout an
independent set of the allowed squares' orthogonal-adjacency graph, which is bipartite (colour a
square by the parity of ``x + y``), so the largest possible layout is computed exactly with a
maximum matching (Hopcroft–Karp) and König's theorem: ``max_chips = |V| - |maximum matching|``.
:func:`feasibility` matches the squares every start-square choice allows once and repairs that
matching per choice; big maps use compiled augmenting-path searches (:class:`_GridMatcher`).

**Evenness.** ``evenness(m, layout)`` compares the root-mean-square Euclidean distance (in squares)
from every placeable square of the map to its nearest chip with that of an ideal square lattice of
the same density: a chip per cell of area ``A / k`` (``A`` placeable squares, ``k`` chips) has an
RMS distance of ``sqrt(A / (6 k))`` to the points of its cell. ``evenness = ideal / actual``, so
1.0 is as even as a perfect lattice, higher is more even, and clumped or lopsided layouts score
lower (uniformly random valid layouts typically score about 0.7). The generator minimises the
mean squared distance (the k-means objective), which maximises this score.

**Generator.** Mitchell's best-candidate sampling with a seeded RNG (each new chip is the farthest
from the chips so far among a few random free allowed squares), then Lloyd passes (each chip moves
to the free allowed square nearest the centroid of the placeable squares it serves) while the
score improves. If sampling gets stuck before ``count`` chips, it restarts from an exact maximum
independent set, so a valid layout is returned whenever ``count <= max_chips``. Uses numpy (a
dependency of shapely 2).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import sys
from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engine.draws import inlinable
from engine.errors import EngineError
from engine.geometry import Square, orthogonal_neighbours
from engine.mapcache import derived
from engine.mapdef import MapDef
from engine.rules.spec import ChipLayout

if TYPE_CHECKING:  # numpy is imported where used: commands that need none start faster
    import numpy as np

__all__ = [
    "RULE_CODES",
    "ChipReading",
    "ChipViolation",
    "allowed_squares",
    "candidate_squares",
    "matching_size",
    "near_city",
    "check_layout",
    "evenness",
    "feasibility",
    "forbidden_squares",
    "generate_layout",
    "max_chips",
    "maximum_layout",
    "start_choices",
]


class ChipReading(StrEnum):
    """What "adjacent to an open side of a large city" forbids."""

    OPEN_SIDES = "open_sides"
    """The square across each CITY outer edge of a large city (default)."""
    ANY_CITY_SQUARE = "any_city_square"
    """Every square orthogonally adjacent to any large-city square (older wiki wording)."""


RULE_CODES: dict[str, str] = {
    "chip-count": "the layout does not have the expected number of chips",
    "chip-duplicate": "more than one chip on a square",
    "chip-off-map": "a chip outside the grid or on a square that is not part of the map",
    "chip-on-large-city": "a chip on a large-city square",
    "chip-on-town": "a chip on a town square (start squares are towns, used or not)",
    "chip-on-wave": "a chip on a wave square",
    "chip-on-stack": "a chip on an island stack square",
    "chip-next-to-start": "a chip orthogonally adjacent to a used start square",
    "chip-next-to-open-side": "a chip across an open (city) side of a large city",
    "chip-next-to-large-city": "a chip orthogonally adjacent to a large-city square",
    "chip-adjacent": "two chips orthogonally adjacent",
}
"""Every :class:`ChipViolation` rule code with its meaning (stable, kebab-case); the rule sets'
exclusion codes (``ChipLayout.excluded_code``) join them in
:func:`engine.rules.registry.chip_rule_codes`."""


@dataclass(frozen=True)
class ChipViolation:
    """A broken chip rule: its code (see :data:`RULE_CODES`), the square and a readable message.

    ``square`` is ``None`` only for ``chip-count``.
    """

    rule: str
    square: Square | None
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


# -- the fixed rules -------------------------------------------------------------------------


def _check_starts(m: MapDef, used_starts: Iterable[Square]) -> set[Square]:
    used: set[Square] = {(int(sq[0]), int(sq[1])) for sq in used_starts}
    unknown = sorted(sq for sq in used if sq not in m.start_squares)
    if unknown:
        names = ", ".join(f"{s.name} {sq}" for sq, s in sorted(m.start_squares.items()))
        raise EngineError(
            f"{unknown[0]} is not a start square of map {m.id!r} (start squares: {names or 'none'})"
        )
    return used


def near_city(m: MapDef, reading: ChipReading) -> set[Square]:
    """Squares a chip may not take because of a large city next to them."""
    near: set[Square] = set()
    for city in m.large_cities.values():
        if reading is ChipReading.ANY_CITY_SQUARE:
            for sq in city.squares:
                near.update(orthogonal_neighbours(sq))
        else:
            for edge in city.open_sides():
                # An edge between two of the city's own squares is not an outer edge.
                if edge.square in city.squares and edge.outer_square not in city.squares:
                    near.add(edge.outer_square)
    return near - set(m.city_squares())


def _near_starts(used: set[Square]) -> set[Square]:
    return {n for sq in used for n in orthogonal_neighbours(sq)}


def candidate_squares(m: MapDef, chip_layout: ChipLayout | None = None) -> set[Square]:
    """Placeable squares inside the grid that are not towns/start squares or squares the rule
    set's ``chip_layout`` excludes (``None``: no rule set, nothing excluded)."""
    w, h = m.width, m.height
    inside = {sq for sq in m.placeable_squares() if 0 <= sq[0] < w and 0 <= sq[1] < h}
    excluded = chip_layout.excluded_squares(m) if chip_layout is not None else set()
    return inside - m.towns.keys() - m.start_squares.keys() - excluded


def allowed_squares(
    m: MapDef,
    used_starts: Iterable[Square],
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> set[Square]:
    """Squares where a chip may go, before the no-two-adjacent rule.

    Placeable squares in the grid, minus town/start squares, the squares the rule set's
    ``chip_layout`` excludes (Península Ibérica: the Balearic squares; pass the rule set's
    ``Rules.chip_layout``), and squares orthogonally next to a used start square or (per
    ``reading``) to a large city's open side. Raises :class:`EngineError` if a used start is not
    a start square.
    """
    used = _check_starts(m, used_starts)
    return (
        candidate_squares(m, chip_layout) - _near_starts(used) - near_city(m, ChipReading(reading))
    )


def forbidden_squares(
    m: MapDef,
    used_starts: Iterable[Square],
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> set[Square]:
    """Map squares (in the grid) where no chip may go: the map's squares minus :func:`allowed_squares`."""
    allowed = allowed_squares(m, used_starts, reading, chip_layout=chip_layout)
    return {sq for sq in m.land if m.in_grid(sq)} - allowed


# -- checker ---------------------------------------------------------------------------------


def check_layout(
    m: MapDef,
    chips: Iterable[Square],
    used_starts: Iterable[Square],
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    expected: int | None = None,
    chip_layout: ChipLayout | None = None,
) -> list[ChipViolation]:
    """Every broken chip rule of a layout, each naming its rule code and square (empty = valid).

    ``expected`` is the number of chips the layout should have (e.g. ``m.setup.chip_count``);
    ``None`` skips that check; ``chip_layout`` is the rule set's (``Rules.chip_layout``: the
    squares it excludes, ``None``: none). Raises :class:`EngineError` only if a used start is not a start
    square of ``m`` (a caller bug, not a layout fault).
    """
    reading = ChipReading(reading)
    used = _check_starts(m, used_starts)
    layout = [(int(x), int(y)) for x, y in chips]
    out: list[ChipViolation] = []

    if expected is not None and len(layout) != expected:
        out.append(
            ChipViolation("chip-count", None, f"{len(layout)} chips laid out, expected {expected}")
        )

    seen: set[Square] = set()
    for sq in layout:
        if sq in seen:
            out.append(ChipViolation("chip-duplicate", sq, f"more than one chip on {sq}"))
        seen.add(sq)

    city_of = m.city_squares()
    stacks = m.stack_squares()
    excluded = chip_layout.excluded_squares(m) if chip_layout is not None else set()
    near_start = _near_starts(used)
    near_large_city = near_city(m, reading)
    for sq in sorted(seen):
        if not m.in_grid(sq) or sq not in m.land:
            where = "outside the grid" if not m.in_grid(sq) else "not a square of the map"
            out.append(ChipViolation("chip-off-map", sq, f"chip on {sq}: {where}"))
            continue
        if sq in city_of:
            name = m.large_cities[city_of[sq]].name
            out.append(
                ChipViolation("chip-on-large-city", sq, f"chip on {sq}: large city {name!r}")
            )
        if sq in m.start_squares:
            name = m.start_squares[sq].name
            out.append(ChipViolation("chip-on-town", sq, f"chip on {sq}: start square {name!r}"))
        elif sq in m.towns:
            out.append(
                ChipViolation("chip-on-town", sq, f"chip on {sq}: town {m.towns[sq].name!r}")
            )
        if sq in m.waves:
            out.append(ChipViolation("chip-on-wave", sq, f"chip on {sq}: a wave square"))
        if sq in stacks:
            out.append(ChipViolation("chip-on-stack", sq, f"chip on {sq}: an island stack square"))
        if sq in excluded and chip_layout is not None:
            code, label = chip_layout.excluded_code, chip_layout.excluded_label
            out.append(ChipViolation(code, sq, f"chip on {sq}: {label}"))
        if sq in near_start:
            starts = [m.start_squares[n].name for n in orthogonal_neighbours(sq) if n in used]
            out.append(
                ChipViolation(
                    "chip-next-to-start",
                    sq,
                    f"chip on {sq} next to used start square {', '.join(starts)}",
                )
            )
        if sq in near_large_city:
            names = sorted(
                {m.large_cities[city_of[n]].name for n in orthogonal_neighbours(sq) if n in city_of}
            )
            if reading is ChipReading.OPEN_SIDES:
                out.append(
                    ChipViolation(
                        "chip-next-to-open-side",
                        sq,
                        f"chip on {sq} across an open side of large city {', '.join(names)}",
                    )
                )
            else:
                out.append(
                    ChipViolation(
                        "chip-next-to-large-city",
                        sq,
                        f"chip on {sq} next to large city {', '.join(names)}",
                    )
                )
        for other in orthogonal_neighbours(sq):
            if other in seen and other > sq:  # report each pair once, on its first square
                out.append(
                    ChipViolation("chip-adjacent", sq, f"chips on {sq} and {other} are adjacent")
                )
    return out


# -- exact maximum (bipartite matching) ------------------------------------------------------


def _bipartite(
    squares: Iterable[Square], *, ordered: bool = True
) -> tuple[list[Square], list[Square], list[list[int]]]:
    """Split squares by parity of x+y; adjacency lists from each even square to odd squares.

    ``ordered`` sorts both sides so that results built on the matching are reproducible.
    """
    left = [sq for sq in squares if (sq[0] + sq[1]) % 2 == 0]
    right = [sq for sq in squares if (sq[0] + sq[1]) % 2 == 1]
    if ordered:
        left.sort()
        right.sort()
    index = {sq: i for i, sq in enumerate(right)}
    adj = [[index[n] for n in orthogonal_neighbours(sq) if n in index] for sq in left]
    return left, right, adj


def _hopcroft_karp(
    adj: Sequence[Sequence[int]],
    n_right: int,
    warm: Iterable[tuple[int, int]] = (),
) -> tuple[list[int], list[int]]:
    """Maximum matching of a bipartite graph; iterative (no recursion limit). Returns both mates.

    ``warm`` is a starting matching as (left, right) pairs (e.g. of a subgraph), which saves
    phases when only a few vertices changed.
    """
    n_left = len(adj)
    mate_l = [-1] * n_left
    mate_r = [-1] * n_right
    for u, v in warm:
        mate_l[u] = v
        mate_r[v] = u
    # Greedy start: on grid graphs this already matches most vertices.
    for u in range(n_left):
        if mate_l[u] != -1:
            continue
        for v in adj[u]:
            if mate_r[v] == -1:
                mate_l[u] = v
                mate_r[v] = u
                break
    while True:
        # BFS layers from the free left vertices through alternating paths.
        dist = [-1] * n_left
        queue = [u for u in range(n_left) if mate_l[u] == -1]
        for u in queue:
            dist[u] = 0
        found = False
        head = 0
        while head < len(queue):
            u = queue[head]
            head += 1
            for v in adj[u]:
                w = mate_r[v]
                if w == -1:
                    found = True
                elif dist[w] == -1:
                    dist[w] = dist[u] + 1
                    queue.append(w)
        if not found:
            return mate_l, mate_r
        # Vertex-disjoint augmenting paths along the layers, by explicit-stack DFS.
        pos = [0] * n_left
        for root in range(n_left):
            if mate_l[root] != -1:
                continue
            stack = [root]
            while stack:
                u = stack[-1]
                nbrs = adj[u]
                if pos[u] < len(nbrs):
                    v = nbrs[pos[u]]
                    pos[u] += 1
                    w = mate_r[v]
                    if w == -1:
                        # Augment: each stack vertex takes the right vertex it last stepped over.
                        for s in stack:
                            t = adj[s][pos[s] - 1]
                            mate_l[s] = t
                            mate_r[t] = s
                        for s in stack:
                            dist[s] = -1  # used: keep paths vertex-disjoint in this phase
                        stack.clear()
                    elif dist[w] == dist[u] + 1:
                        stack.append(w)
                else:
                    dist[u] = -1  # dead end in this phase
                    stack.pop()


def _maximum_independent_set(squares: Iterable[Square]) -> list[Square]:
    """An exact maximum independent set of the orthogonal-adjacency graph (König's theorem)."""
    left, right, adj = _bipartite(squares)
    mate_l, mate_r = _hopcroft_karp(adj, len(right))
    # Z = vertices reachable from free left vertices by alternating paths.
    seen_l = [False] * len(left)
    seen_r = [False] * len(right)
    queue = [u for u in range(len(left)) if mate_l[u] == -1]
    for u in queue:
        seen_l[u] = True
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for v in adj[u]:
            if not seen_r[v] and mate_l[u] != v:
                seen_r[v] = True
                w = mate_r[v]
                if w != -1 and not seen_l[w]:
                    seen_l[w] = True
                    queue.append(w)
    # Minimum vertex cover = (L \ Z) ∪ (R ∩ Z); its complement is a maximum independent set.
    mis = [left[u] for u in range(len(left)) if seen_l[u]]
    mis += [right[v] for v in range(len(right)) if not seen_r[v]]
    return sorted(mis)


def matching_size(
    squares: set[Square], warm: dict[Square, Square] | None = None
) -> tuple[int, dict[Square, Square]]:
    """Size of a maximum matching of the squares' adjacency graph, and the matching (even→odd),
    by one Hopcroft-Karp run. ``warm`` is a matching of some of ``squares`` to start from.

    Without ``warm`` this is the plain computation :class:`_GridMatcher` is tested against.
    """
    left, right, adj = _bipartite(squares, ordered=False)
    pairs: list[tuple[int, int]] = []
    if warm:
        li = {sq: i for i, sq in enumerate(left)}
        ri = {sq: i for i, sq in enumerate(right)}
        pairs = [(li[a], ri[b]) for a, b in warm.items()]
    mate_l, _ = _hopcroft_karp(adj, len(right), pairs)
    matching = {left[u]: right[v] for u, v in enumerate(mate_l) if v != -1}
    return len(matching), matching


COMPILED_FROM = 10_000
"""Squares from which the proof uses :class:`_GridMatcher` even when scipy is not loaded yet:
below, importing numpy and scipy (about 0.3 s) would cost more than the pure-Python matching
(:class:`_PlainMatcher`), e.g. for a one-shot ``engine validate`` of a printed map."""


COMPILED_WHEN_LOADED_FROM = 0
"""The same once scipy is loaded: then the compiled matcher is the faster at every size."""


class _PlainMatcher:
    """:class:`_GridMatcher`'s queries by pure-Python Hopcroft-Karp runs, warm-started."""

    def __init__(self, universe: Iterable[Square]) -> None:
        self.universe = set(universe)
        self._warm: dict[Square, Square] | None = None
        self._warm_odd: set[Square] = set()

    def maximum(
        self, removed: Iterable[Square] = (), warm: Any = None
    ) -> tuple[int, dict[Square, Square]]:
        removed = set(removed)
        squares = self.universe - removed
        if warm and removed:
            if warm is not self._warm:
                self._warm, self._warm_odd = warm, set(warm.values())
            if any(sq in warm or sq in self._warm_odd for sq in removed):
                warm = {a: b for a, b in warm.items() if a in squares and b in squares}
        return matching_size(squares, warm)


def _matcher(
    universe: Collection[Square], compiled: bool | None = None
) -> _PlainMatcher | _GridMatcher:
    """A matcher for subsets of ``universe``; ``compiled`` forces the choice (tests)."""
    if compiled is None:
        loaded = "scipy.sparse.csgraph" in sys.modules
        compiled = len(universe) >= (COMPILED_WHEN_LOADED_FROM if loaded else COMPILED_FROM)
    if compiled:
        try:
            return _GridMatcher(universe)
        except _TooSparse:
            pass
    return _PlainMatcher(universe)


_MAX_CELLS = 4_000_000
"""Bounding-box cells above which :class:`_GridMatcher` is not built (a 2000 x 2000 grid)."""


class _TooSparse(Exception):
    """The squares' bounding box is too large for :class:`_GridMatcher`'s grid arrays."""


class _GridMatcher:
    """Maximum matchings of subsets of one fixed set of squares (the *universe*), warm-started.

    Built for many nearly equal graphs (one per choice of start squares): the universe's edges
    are indexed once (numpy); a query removes a few squares, keeps what it can of a warm
    matching and repairs it with augmenting paths. Each round is one compiled breadth-first
    search (``scipy.sparse.csgraph``) over the alternating graph from every free even square; the
    vertex-disjoint shortest augmenting paths it finds are applied, and a search that reaches no
    free odd square proves the matching maximum (Berge). Python-level Hopcroft-Karp phases cost
    a whole-graph pass each, which made large maps take seconds.
    """

    def __init__(self, universe: Iterable[Square]) -> None:
        # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
        import numpy as np

        squares = list(universe)
        arr = np.fromiter(itertools.chain.from_iterable(squares), np.int64, 2 * len(squares))
        arr = arr.reshape(-1, 2)
        arr = arr[np.lexsort((arr[:, 1], arr[:, 0]))]  # a reproducible order, whatever the set's
        xs, ys = arr[:, 0], arr[:, 1]
        if len(arr):
            self.x0, self.y0 = int(xs.min()) - 1, int(ys.min()) - 1
            self.w = int(xs.max()) - self.x0 + 2
            h = int(ys.max()) - self.y0 + 2
        else:
            self.x0 = self.y0 = 0
            self.w = h = 1
        if h * self.w > _MAX_CELLS:
            raise _TooSparse  # the grid arrays would take more memory than they save time
        flat = (ys - self.y0) * self.w + (xs - self.x0)
        even = (xs + ys) % 2 == 0
        self.lflat, self.rflat = flat[even], flat[~even]
        self.n_left, self.n_right = len(self.lflat), len(self.rflat)
        # index of each grid cell among the even (left) / odd (right) squares, -1 if none
        self.lindex = np.full(h * self.w, -1, dtype=np.int64)
        self.lindex[self.lflat] = np.arange(self.n_left)
        self.rindex = np.full(h * self.w, -1, dtype=np.int64)
        self.rindex[self.rflat] = np.arange(self.n_right)
        eu, ev = [], []
        for d in (1, -1, self.w, -self.w):
            nb = self.rindex[self.lflat + d]
            has = nb >= 0
            eu.append(np.flatnonzero(has))
            ev.append(nb[has])
        u, v = np.concatenate(eu), np.concatenate(ev)
        order = np.lexsort((v, u))  # sorted rows and columns: a canonical sparse matrix
        self.eu, self.ev = u[order], v[order]
        self.shape = (h, self.w)

    def _cell(self, sq: Square) -> int:
        x, y = sq[0] - self.x0, sq[1] - self.y0
        return y * self.w + x if 0 <= x < self.w and 0 <= y < self.shape[0] else -1

    def _greedy(self, on_l: np.ndarray, on_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dominoes along rows, then along columns for the squares left over."""
        # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
        import numpy as np

        h, w = self.shape
        on = np.zeros(h * w, dtype=bool)
        on[self.lflat[on_l]] = True
        on[self.rflat[on_r]] = True
        mate_l = np.full(self.n_left, -1, dtype=np.int64)
        mate_r = np.full(self.n_right, -1, dtype=np.int64)

        def pair_runs(cells: np.ndarray) -> np.ndarray:
            # first cell of each domino: an even position in its run, with a next cell in the run
            start = cells & ~np.concatenate(([False], cells[:-1]))
            idx = np.arange(len(cells))
            first = np.maximum.accumulate(np.where(start, idx, 0))
            nxt = np.concatenate((cells[1:], [False]))
            return np.flatnonzero(cells & ((idx - first) % 2 == 0) & nxt)

        def apply(a: np.ndarray, b: np.ndarray) -> None:
            la = self.lindex[a]
            left_first = la >= 0
            lcells = np.where(left_first, a, b)
            rcells = np.where(left_first, b, a)
            li, ri = self.lindex[lcells], self.rindex[rcells]
            mate_l[li] = ri
            mate_r[ri] = li

        a = pair_runs(on)  # the padding column ends every row's runs
        apply(a, a + 1)
        on[a] = False
        on[a + 1] = False
        cols = on.reshape(h, w).T.ravel()  # column-major: runs along columns
        a = pair_runs(cols)
        ac, ar = np.divmod(a, h)  # column, row of the first cell
        first = ar * w + ac
        apply(first, first + w)
        return mate_l, mate_r

    def maximum(
        self,
        removed: Iterable[Square] = (),
        warm: Any = None,
    ) -> tuple[int, tuple[np.ndarray, np.ndarray]]:
        """Size of a maximum matching of the universe minus ``removed``, and the matching
        (both mate arrays, -1 = free) to warm-start later queries with."""
        # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
        import numpy as np

        # deferred: scipy costs ~0.3 s to import and only these computations need it
        from scipy.sparse import csr_matrix

        # deferred: scipy costs ~0.3 s to import and only these computations need it
        from scipy.sparse.csgraph import breadth_first_order

        n_l, n_r = self.n_left, self.n_right
        on_l = np.ones(n_l, dtype=bool)
        on_r = np.ones(n_r, dtype=bool)
        for sq in removed:
            cell = self._cell(sq)
            if cell >= 0:
                if self.lindex[cell] >= 0:
                    on_l[self.lindex[cell]] = False
                elif self.rindex[cell] >= 0:
                    on_r[self.rindex[cell]] = False
        if warm is None:
            mate_l, mate_r = self._greedy(on_l, on_r)
        else:
            mate_l, mate_r = warm[0].copy(), warm[1].copy()
            # keep only the pairs whose squares are both still there
            paired = np.flatnonzero(mate_l >= 0)
            gone = paired[~on_l[paired] | ~on_r[mate_l[paired]]]
            mate_r[mate_l[gone]] = -1
            mate_l[gone] = -1
            gone_r = (mate_r >= 0) & ~on_r
            mate_l[mate_r[gone_r]] = -1
            mate_r[gone_r] = -1
        keep = on_l[self.eu] & on_r[self.ev]
        eu, ev = self.eu[keep], self.ev[keep]
        left_counts = np.bincount(eu, minlength=n_l)
        left_targets = ev + n_l
        source = n_l + n_r
        while True:
            free_l = np.flatnonzero(on_l & (mate_l < 0))
            free_r = on_r & (mate_r < 0)
            if not len(free_l) or not free_r.any():
                break
            # Alternating graph: even square -> each odd neighbour (its own mate is harmless:
            # it was reached first), odd square -> its mate, source -> every free even square.
            matched = mate_r >= 0
            counts = np.concatenate((left_counts, matched.astype(np.int64), [len(free_l)]))
            indptr = np.concatenate(([0], np.cumsum(counts)))
            indices = np.concatenate((left_targets, mate_r[matched], free_l))
            graph = csr_matrix(
                (np.ones(len(indices)), indices, indptr), shape=(source + 1, source + 1)
            )
            graph.has_sorted_indices = True  # each row's targets are ascending, no duplicates
            order, pred = breadth_first_order(
                graph, source, directed=True, return_predecessors=True
            )
            odd = order[order >= n_l]
            odd = odd[odd < source]
            targets = odd[free_r[odd - n_l]].tolist()
            if not targets:
                break
            # a few short paths are walked on the arrays; many are cheaper on lists
            many = len(targets) > 64
            pred_list = pred.tolist() if many else pred
            ml, mr = (mate_l.tolist(), mate_r.tolist()) if many else (mate_l, mate_r)
            used: set[int] = set()
            for t in targets:  # shortest first; vertex-disjoint ones this round
                path = [t]
                v = t
                while True:
                    u = int(pred_list[v])
                    path.append(u)
                    v = int(pred_list[u])
                    if v == source:
                        break
                    path.append(v)
                if used.intersection(path):
                    continue
                used.update(path)
                for i in range(0, len(path), 2):
                    v, u = path[i] - n_l, path[i + 1]
                    ml[u] = v
                    mr[v] = u
            if many:
                mate_l = np.array(ml, dtype=np.int64)
                mate_r = np.array(mr, dtype=np.int64)
        return int((mate_l >= 0).sum()), (mate_l, mate_r)


def max_chips(
    m: MapDef,
    used_starts: Iterable[Square],
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> int:
    """The largest number of chips that can legally be laid out (exact, not a heuristic).

    ``|allowed squares| - |maximum matching|`` of their orthogonal-adjacency graph (König).
    """
    squares = allowed_squares(m, used_starts, reading, chip_layout=chip_layout)
    return len(squares) - _matcher(squares).maximum()[0]


def maximum_layout(
    m: MapDef,
    used_starts: Iterable[Square],
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> list[Square]:
    """A valid layout with :func:`max_chips` chips (a witness of the bound), sorted."""
    return _maximum_independent_set(
        allowed_squares(m, used_starts, reading, chip_layout=chip_layout)
    )


def start_choices(m: MapDef) -> list[tuple[Square, ...]]:
    """Every choice of ``m.setup.start_squares_used`` start squares, each sorted; [] if too few."""
    k = m.setup.start_squares_used
    starts = sorted(m.start_squares)
    if k < 0 or k > len(starts):
        return []
    return list(itertools.combinations(starts, k))


def feasibility(
    m: MapDef,
    reading: ChipReading = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> dict[tuple[Square, ...], int]:
    """For every allowed choice of used start squares (:func:`start_choices`), the exact max_chips.

    The squares allowed whatever the choice are matched once; each choice then only augments
    that matching with the few squares next to its unused start squares.
    """
    reading = ChipReading(reading)
    choices = start_choices(m)
    if not choices:
        return {}
    candidates = candidate_squares(m, chip_layout) - near_city(m, reading)
    matcher = _matcher(candidates)
    _, warm = matcher.maximum(candidates & _near_starts(set(m.start_squares)))
    result: dict[tuple[Square, ...], int] = {}
    for choice in choices:
        removed = candidates & _near_starts(set(choice))
        result[choice] = len(candidates) - len(removed) - matcher.maximum(removed, warm)[0]
    return result


# -- evenness and the generator --------------------------------------------------------------


def _sorted_array(squares: Iterable[Square]) -> np.ndarray:
    """Squares as a float (n, 2) array in sorted order (so float sums never depend on set order)."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    arr = np.array(list(squares), dtype=np.int64).reshape(-1, 2)
    arr = arr[np.lexsort((arr[:, 1], arr[:, 0]))]
    return arr.astype(np.float64)


def _placeable_array(m: MapDef) -> np.ndarray:
    w, h = m.width, m.height
    return _sorted_array(sq for sq in m.placeable_squares() if 0 <= sq[0] < w and 0 <= sq[1] < h)


def _nearest_sq(points: np.ndarray, chips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every point: the squared distance to its nearest chip and that chip's index."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    # Float32 is exact here (integer coordinates) and halves the memory traffic.
    points = points.astype(np.float32)
    chips = chips.astype(np.float32)
    n = len(points)
    dist = np.empty(n)
    owner = np.empty(n, dtype=np.int64)
    step = max(1, 2_000_000 // max(1, len(chips)))  # bound memory to a few (chips x step) arrays
    for lo in range(0, n, step):
        p = points[lo : lo + step]
        dx = chips[:, 0:1] - p[None, :, 0]
        dy = chips[:, 1:2] - p[None, :, 1]
        d = dx * dx
        d += dy * dy
        o = d.argmin(axis=0)
        owner[lo : lo + step] = o
        dist[lo : lo + step] = d[o, np.arange(len(p))]
    return dist, owner


def _ideal_ms(n_points: int, k: int) -> float:
    """Mean squared distance to the centre for a square lattice cell of area n/k."""
    return n_points / (6.0 * k)


def evenness(m: MapDef, layout: Iterable[Square]) -> float:
    """How evenly ``layout`` covers the map's placeable squares: 1.0 = a perfect square lattice.

    ``sqrt(A / (6 k)) / RMS`` where RMS is the root-mean-square distance from every placeable
    square to its nearest chip (see the module docstring). Higher is more even; 0.0 for an empty
    layout or a map without placeable squares.
    """
    chips = _sorted_array({(x, y) for x, y in layout})
    points = _placeable_array(m)
    if len(chips) == 0 or len(points) == 0:
        return 0.0
    ms = float(_nearest_sq(points, chips)[0].mean())
    if ms == 0.0:
        return math.inf
    return math.sqrt(_ideal_ms(len(points), len(chips)) / ms)


_LLOYD_LIMIT = 2_000_000  # chips x placeable squares above which Lloyd passes are skipped
_BLOCKED = 1 << 20  # block count of a square that is not allowed: never free


class _Board:
    """The allowed squares' bounding box as a grid of block counts (chips at or next to a cell).

    A cell is free for a chip when its count is 0. Padded by one cell so the cross of a chip
    never leaves the grid. Plain Python lists: the grids are a few hundred cells and the
    generator touches a handful of cells per step, where numpy's per-call cost dominates.
    """

    def copy(self) -> _Board:
        b = _Board.__new__(_Board)
        b.x0, b.y0, b.shape, b.block = self.x0, self.y0, self.shape, self.block[:]
        return b

    def __init__(self, allowed: Iterable[Square]) -> None:
        cells = sorted(allowed)
        if cells:
            self.x0 = min(x for x, _ in cells) - 1
            self.y0 = min(y for _, y in cells) - 1
            w = max(x for x, _ in cells) - self.x0 + 2
            h = max(y for _, y in cells) - self.y0 + 2
        else:
            self.x0 = self.y0 = 0
            w = h = 1
        self.shape = (h, w)
        self.block = [_BLOCKED] * (w * h)
        """Block count of each cell, row-major (``block[r * width + c]``)."""
        for x, y in cells:
            self.block[(y - self.y0) * w + (x - self.x0)] = 0

    def place(self, cell: tuple[int, int]) -> None:
        r, c = cell
        w = self.shape[1]
        i = r * w + c
        block = self.block
        block[i - w] += 1
        block[i - 1] += 1
        block[i] += 1
        block[i + 1] += 1
        block[i + w] += 1

    def remove(self, cell: tuple[int, int]) -> None:
        r, c = cell
        w = self.shape[1]
        i = r * w + c
        block = self.block
        block[i - w] -= 1
        block[i - 1] -= 1
        block[i] -= 1
        block[i + 1] -= 1
        block[i + w] -= 1

    def square(self, cell: tuple[int, int]) -> Square:
        return (cell[1] + self.x0, cell[0] + self.y0)

    def cell(self, square: Square) -> tuple[int, int]:
        return (square[1] - self.y0, square[0] - self.x0)

    def nearest_free(
        self, tx: float, ty: float, radius: int, bound: float = math.inf
    ) -> tuple[int, int] | None:
        """The free cell nearest to board point (tx, ty) within ``radius`` cells, if any (the
        first in row-major order on a tie). ``bound``: a squared distance that some free cell
        is known to be within (cells farther away are not looked at)."""
        tx, ty = float(tx), float(ty)  # numpy scalars would make each step ~5x slower
        h, w = self.shape
        r0, r1 = max(0, int(ty) - radius), min(h, int(ty) + radius + 2)
        c0, c1 = max(0, int(tx) - radius), min(w, int(tx) + radius + 2)
        block = self.block
        best = math.inf
        found: tuple[int, int] | None = None
        # row-major scan keeping the first strict minimum; rows and the columns right of tx
        # that cannot beat it are skipped (their distance only grows), and so are cells
        # beyond the bound (a cell at the bound itself may still win a tie)
        for r in range(r0, r1):
            dy = r - ty
            dy2 = dy * dy
            if dy2 >= best or dy2 > bound:
                continue
            row = r * w
            start = c0
            if bound < math.inf:  # one cell early: rounding of the root cannot skip a cell
                start = max(c0, int(tx - math.sqrt(bound - dy2)) - 1)
            for c in range(start, c1):
                dx = c - tx
                d = dx * dx + dy2
                if d >= best or d > bound:
                    if dx > 0:
                        break
                    continue
                if block[row + c] == 0:
                    best = d
                    found = (r, c)
        return found


def _best_candidate(
    board: _Board,
    count: int,
    rng: random.Random,
    tries: int,
    free: list[int] | None = None,
) -> list[tuple[int, int]] | None:
    """Mitchell's best-candidate sampling; ``None`` if free squares run out first. ``free``:
    the board's free cells in ascending order, if known (a new list: it is used up)."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    h, width = board.shape
    block = board.block
    if free is None:
        free = [i for i, b in enumerate(block) if b == 0]  # ascending
    table = _cell_distances(h, width) if h * width <= _TABLE_CELLS else None
    if table is None:
        rows, cols = np.divmod(np.arange(h * width, dtype=np.float64), width)
    nearest = np.full(h * width, np.inf)  # squared distance to the nearest chip so far
    take = nearest.take
    chosen: list[tuple[int, int]] = []
    randbelow = rng._randbelow  # type: ignore[attr-defined]
    getrandbits = rng.getrandbits
    plain = inlinable(rng)
    for _ in range(count):
        if not free:
            return None
        n = len(free)
        # rng.randrange(n) is rng._randbelow(n) (the same draws), without its argument checks;
        # for random.Random that is getrandbits(n.bit_length()) until below n, inlined here
        if plain:
            bits = n.bit_length()
            picks = []
            for _ in range(min(tries, n)):
                j = getrandbits(bits)
                while j >= n:
                    j = getrandbits(bits)
                picks.append(free[j])
        else:
            picks = [free[randbelow(n)] for _ in range(min(tries, n))]
        # the farthest from the chips so far, the lowest index on a tie
        vals = take(picks).tolist()
        far = max(vals)
        if vals.count(far) == 1:
            flat = picks[vals.index(far)]
        else:  # a tie (all inf before the first chip): the lowest index
            flat = min([i for v, i in zip(vals, picks, strict=True) if v == far])
        cell = divmod(flat, width)
        chosen.append(cell)
        for j in (flat - width, flat - 1, flat, flat + 1, flat + width):  # board.place, inlined
            if block[j] == 0:  # free until now
                del free[bisect_left(free, j)]  # free is ascending: no scan from the start
            block[j] += 1
        if table is not None:
            np.minimum(nearest, table[flat], out=nearest)
        else:
            r, c = cell
            np.minimum(nearest, (cols - c) ** 2 + (rows - r) ** 2, out=nearest)
    return chosen


_TABLE_CELLS = 1600  # grids up to this many cells keep a table of squared cell distances


@functools.lru_cache(maxsize=4)
def _cell_distances(h: int, width: int) -> np.ndarray:
    """Squared distance between every two cells of an ``h`` x ``width`` grid (row-major), the
    same floats :func:`_best_candidate` computes one row at a time on bigger grids."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    rows, cols = np.divmod(np.arange(h * width, dtype=np.int64), width)
    return _small_ints((cols[None, :] - cols[:, None]) ** 2 + (rows[None, :] - rows[:, None]) ** 2)


def _small_ints(table: np.ndarray) -> np.ndarray:
    """An integer distance table in the smallest of int16 and int32 that holds it (the same
    values in a quarter or half of float64's memory: set-up runs between games, which push
    the tables out of the processor's caches). Compared with and folded into float64 arrays,
    the values are exact, so layouts do not change."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    if table.size and int(table.max()) > np.iinfo(np.int32).max:
        return table
    small = np.int16 if not table.size or int(table.max()) <= np.iinfo(np.int16).max else np.int32
    return table.astype(small)


def _spread_subset(
    board: _Board, pool: list[tuple[int, int]], count: int, rng: random.Random
) -> list[tuple[int, int]]:
    """Farthest-point selection of ``count`` of ``pool`` (an independent set, so always valid)."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    coords = np.array(pool, dtype=np.float64)
    nearest = np.full(len(pool), np.inf)
    picked = [rng.randrange(len(pool))]
    for _ in range(count - 1):
        d = coords - coords[picked[-1]]
        np.minimum(nearest, (d * d).sum(axis=1), out=nearest)
        nearest[picked] = -1.0
        picked.append(int(np.argmax(nearest)))
    chosen = [pool[j] for j in picked[:count]]
    for cell in chosen:
        board.place(cell)
    return chosen


_STAYS = 0.49  # a chip this close (per axis) to its centroid stays: no search needed
_TABLE_ENTRIES = 500_000  # board cells x placeable squares up to which Lloyd keeps a table


def _point_distances(board: _Board, points: np.ndarray) -> np.ndarray | None:
    """Squared distance from every board cell (row-major) to every point, the same floats
    :func:`_nearest_sq` computes; ``None`` when the table would be large."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    h, w = board.shape
    if h * w * len(points) > _TABLE_ENTRIES:
        return None
    rows, cols = np.divmod(np.arange(h * w, dtype=np.int64), w)
    pts = points.astype(np.int64) - np.array([board.x0, board.y0], dtype=np.int64)  # whole squares
    return _small_ints(
        (cols[:, None] - pts[None, :, 0]) ** 2 + (rows[:, None] - pts[None, :, 1]) ** 2
    )


def _lloyd(
    board: _Board,
    chosen: list[tuple[int, int]],
    points: np.ndarray,
    passes: int,
    table: np.ndarray | None = None,
) -> list[tuple[int, int]]:
    """Move each chip to the free cell nearest its Voronoi centroid while the cost improves.

    ``table``: :func:`_point_distances` of this board and these points, if kept (a layout then
    looks its chips' distances up instead of computing them)."""
    # deferred: numpy costs ~0.1 s to import and most commands (validate) never need it
    import numpy as np

    # Points in board cell coordinates (column, row).
    pts = points - np.array([board.x0, board.y0], dtype=np.float64)
    current = list(chosen)
    k = len(current)
    width = board.shape[1]
    across = np.arange(len(pts))

    def measure(cells: list[tuple[int, int]]) -> tuple[float, np.ndarray]:
        if table is not None:
            d = table.take([r * width + c for r, c in cells], axis=0)
            owner = d.argmin(axis=0)  # the first chip on a tie, as _nearest_sq
            # the mean of whole numbers: their exact sum over the count, as .mean() gives it
            return int(d[owner, across].sum()) / len(across), owner
        chips = np.array([(c, r) for r, c in cells], dtype=np.float64)
        dist, owner = _nearest_sq(pts, chips)
        return float(dist.mean()), owner

    best, (best_cost, owner) = list(current), measure(current)
    for _ in range(passes):
        # as Python numbers: the same divisions, without numpy's per-scalar cost
        weight = np.bincount(owner, minlength=k).tolist()
        cx = np.bincount(owner, weights=pts[:, 0], minlength=k).tolist()
        cy = np.bincount(owner, weights=pts[:, 1], minlength=k).tolist()
        moved = False
        for j, cell in enumerate(current):
            if weight[j] == 0:
                continue
            tx, ty = cx[j] / weight[j], cy[j] / weight[j]
            dx, dy = cell[1] - tx, cell[0] - ty
            if -_STAYS < dx < _STAYS and -_STAYS < dy < _STAYS:
                continue  # its own cell is nearer than any other cell (by far more than rounding)
            board.remove(cell)
            # The chip's own cell is free now (no other chip is next to it), so it is a candidate.
            radius = max(abs(cell[1] - int(tx)), abs(cell[0] - int(ty))) + 1
            new = board.nearest_free(tx, ty, radius, dx * dx + dy * dy) or cell
            board.place(new)
            if new != cell:
                current[j] = new
                moved = True
        if not moved:
            break
        cost, owner = measure(current)
        if cost < best_cost - 1e-12:
            best, best_cost = list(current), cost
        else:
            break
    return best


def generate_layout(
    m: MapDef,
    used_starts: Iterable[Square],
    count: int,
    *,
    seed: int = 0,
    reading: ChipReading = ChipReading.OPEN_SIDES,
    tries: int = 8,
    passes: int = 15,
    chip_layout: ChipLayout | None = None,
) -> list[Square]:
    """An evenly distributed valid layout of ``count`` chips, sorted; same seed, same layout.

    Raises :class:`EngineError` when ``count`` exceeds :func:`max_chips` (naming both numbers)
    or a used start is not a start square. ``chip_layout``: the rule set's (the squares it
    excludes). See the module docstring for the method.
    """
    if count < 0:
        raise EngineError(f"chip count must be >= 0, got {count}")
    tables = derived(m)
    starts = frozenset((int(sq[0]), int(sq[1])) for sq in used_starts)
    excluded = chip_layout.excluded if chip_layout is not None else ()
    key = ("chips.allowed", starts, ChipReading(reading), excluded)
    allowed = tables.get(key)
    if allowed is None:
        allowed = tables[key] = frozenset(
            allowed_squares(m, starts, reading, chip_layout=chip_layout)
        )
    if count == 0:
        return []
    rng = random.Random(seed)
    chosen = None
    if len(allowed) >= count:
        kept = tables.get((key, "board"))
        if kept is None:
            template = _Board(allowed)
            free = tuple(i for i, b in enumerate(template.block) if b == 0)
            kept = tables[(key, "board")] = (template, free)
        template, free = kept
        board = template.copy()
        chosen = _best_candidate(board, count, rng, tries, list(free))
    if chosen is None:
        # Sampling got stuck (dense request): start from an exact maximum independent set.
        mis = _maximum_independent_set(allowed)
        if len(mis) < count:
            raise EngineError(
                f"cannot lay out {count} chips on map {m.id!r}: at most {len(mis)} fit with these "
                f"start squares ({len(allowed)} allowed squares, no two adjacent)"
            )
        board = _Board(allowed)
        chosen = _spread_subset(board, [board.cell(sq) for sq in mis], count, rng)
    points = tables.get("chips.placeable")
    if points is None:
        points = tables["chips.placeable"] = _placeable_array(m)
    # Dense layouts are shaped by the no-two-adjacent rule, not by spreading: skip the costly
    # passes when chips x points gets large (bounded time for big counts).
    if len(points) and count * len(points) <= _LLOYD_LIMIT:
        table = tables.get((key, "distances"))
        if table is None:
            table = tables[(key, "distances")] = _point_distances(board, points)
        final = _lloyd(board, chosen, points, passes, table)
    else:
        final = chosen
    return sorted(board.square(cell) for cell in final)
