"""The worst choice of used start squares for the chip layout, without trying every choice.

A map with ``n`` start squares of which a game uses ``k`` has ``C(n, k)`` choices (40 choose 20
is 1.4e11), and each choice allows a different set of chip squares. Validation needs the worst
one: the choice leaving room for the fewest chips.

Write ``V`` for the squares a chip may take whatever the choice (see :mod:`engine.chips`), ``R(s)``
for the squares of ``V`` next to start square ``s`` and ``f(X)`` for the most chips that fit on
``V - X`` (exact: ``|V - X|`` minus a maximum matching, König). A choice ``C`` fits
``f(R(C))`` chips, where ``R(C)`` is the union of its ``R(s)``. Two facts bound every choice:

* **monotone**: removing squares never makes room for more chips, so ``f(R(C)) >= f(R(all))``
  for every choice, and ``f(X ∪ Y) <= f(X)``;
* **one per square**: removing a square costs at most one chip, so
  ``f(X ∪ Y) >= f(X) - |Y - X|``.

:func:`worst_choice` runs a depth-first branch and bound over the start squares (the ones that
remove the most squares first) with those two lower bounds, and stops as soon as a choice reaches
``f(R(all))``, which no choice can beat. The answer is exact when the search finishes; a search
cut short by its work budget (about a second of work, so validation stays under two seconds)
still returns an exact witness choice and a proved lower bound for every choice
(``exact=False``), so "every choice fits N chips" is only said when it is proved.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from engine.chips import (
    ChipReading,
    candidate_squares,
    feasibility,
    matching_size,
    near_city,
)
from engine.geometry import Square, orthogonal_neighbours
from engine.mapdef import MapDef
from engine.rules.spec import ChipLayout

WORK_BUDGET = 3_000_000
"""Work the search may spend, counted in squares visited by the matching repairs and start
squares looked at per search node (about a second of CPU on this project's machine)."""
ENUMERATE_UP_TO = 200
"""At most this many choices are all evaluated one by one (every map printed so far)."""


@dataclass(frozen=True)
class WorstCase:
    """The worst start-square choice found and how sure the answer is."""

    choice: tuple[Square, ...]
    """A choice of used start squares (sorted) leaving room for :attr:`chips` chips."""
    chips: int
    """The most chips that fit with :attr:`choice` used (exact for that choice)."""
    lower_bound: int
    """No choice fits fewer chips than this (proved); equals :attr:`chips` when exact."""
    exact: bool
    """Whether :attr:`choice` is proved to be a worst choice."""
    choices: int
    """How many choices there are (``C(n, k)``)."""


class _Evaluator:
    """``f(X)`` for removed sets ``X``, repaired from one maximum matching of all of ``V``.

    Removing ``X`` breaks the matching pairs touching it. Every augmenting path of what is left
    ends at a partner left alone by ``X`` (a path between two vertices the full matching left free
    would have augmented it), and a vertex without an augmenting path never gets one from later
    augmentations, so one alternating search from each such partner restores a maximum matching.
    The searches touch only the part of the grid they need, not all of ``V``.
    """

    def __init__(self, candidates: set[Square]) -> None:
        self.candidates = candidates
        _, matching = matching_size(candidates)
        self.mate: dict[Square, Square] = {}
        for a, b in matching.items():
            self.mate[a] = b
            self.mate[b] = a
        self.size = len(matching)
        self.neighbours = {
            sq: tuple(n for n in orthogonal_neighbours(sq) if n in candidates) for sq in candidates
        }
        self.cache: dict[frozenset[Square], int] = {}
        self.work = 0

    def __call__(self, removed: frozenset[Square]) -> int:
        got = self.cache.get(removed)
        if got is None:
            got = self._evaluate(removed)
            self.cache[removed] = got
        return got

    def _evaluate(self, removed: frozenset[Square]) -> int:
        base = self.mate
        changed: dict[Square, Square | None] = {}  # mates that differ from ``base``

        def mate_of(sq: Square) -> Square | None:
            return changed[sq] if sq in changed else base.get(sq)

        lonely: list[Square] = []
        broken = 0
        for x in removed:
            partner = base.get(x)
            if partner is None:
                continue
            if partner in removed:
                broken += 1 if x < partner else 0  # a pair inside X counts once
            else:
                broken += 1
                changed[partner] = None
                lonely.append(partner)
        matched = self.size - broken
        neighbours = self.neighbours
        self.work += 1 + len(removed)
        for start in sorted(lonely):
            if mate_of(start) is not None:
                continue  # matched by an earlier augmentation
            # BFS over alternating paths: start -n- mate(n) -n'- ... until a free square.
            parent: dict[Square, Square] = {start: start}
            queue = [start]
            head = 0
            end: Square | None = None
            while head < len(queue) and end is None:
                u = queue[head]
                head += 1
                for n in neighbours[u]:
                    if n in removed or n in parent:
                        continue
                    parent[n] = u
                    w = mate_of(n)
                    if w is None:
                        end = n
                        break
                    if w not in parent:
                        parent[w] = n
                        queue.append(w)
            self.work += len(parent)
            if end is None:
                continue
            # Flip the path: end - u - ... - start (pairs along it change partners).
            v = end
            while True:
                u = parent[v]  # same side as start
                previous = mate_of(u)
                changed[u] = v
                changed[v] = u
                if u == start:
                    break
                assert previous is not None
                v = previous
            matched += 1
        # The searches above restore a maximum matching in theory, but from some valid starting
        # matchings they were found to miss an augmenting path (a map where they counted 76
        # chips for a choice that takes 75). One warm-started Hopcroft-Karp pass over what is
        # left finds whatever they missed, so the count stays exact.
        left = self.candidates - removed
        warm = {}
        for sq in left:
            mate = mate_of(sq)
            if mate is not None and (sq[0] + sq[1]) % 2 == 0:
                warm[sq] = mate
        self.work += len(left)
        full, _ = matching_size(left, warm)
        return len(left) - max(full, matched)


def _removals(m: MapDef, candidates: set[Square]) -> dict[Square, frozenset[Square]]:
    return {
        s: frozenset(n for n in orthogonal_neighbours(s) if n in candidates)
        for s in sorted(m.start_squares)
    }


def every_choice(
    m: MapDef,
    reading: ChipReading | str = ChipReading.OPEN_SIDES,
    *,
    chip_layout: ChipLayout | None = None,
) -> dict[tuple[Square, ...], int] | None:
    """The exact chip count of every choice when there are at most :data:`ENUMERATE_UP_TO`
    choices (as :func:`engine.chips.feasibility`, ``chip_layout`` the rule set's); ``None`` when
    there are more."""
    n, k = len(m.start_squares), m.setup.start_squares_used
    if not 0 <= k <= n or math.comb(n, k) > ENUMERATE_UP_TO:
        return None
    return feasibility(m, ChipReading(reading), chip_layout=chip_layout)


def worst_choice(
    m: MapDef,
    reading: ChipReading | str = ChipReading.OPEN_SIDES,
    *,
    budget: int | None = None,
    enough: int | None = None,
    chip_layout: ChipLayout | None = None,
) -> WorstCase | None:
    """The choice of ``m.setup.start_squares_used`` start squares that fits the fewest chips
    (see the module docstring); ``None`` if the map has fewer start squares than that.

    ``budget``: the work limit (default :data:`WORK_BUDGET`). ``enough``: if every choice is proved to fit at least this many chips before any search (the
    floor), stop there: the answer then has ``exact=False`` and ``lower_bound`` the floor.
    """
    starts = sorted(m.start_squares)
    n, k = len(starts), m.setup.start_squares_used
    if not 0 <= k <= n:
        return None
    budget = WORK_BUDGET if budget is None else budget
    total = math.comb(n, k)
    reading = ChipReading(reading)
    candidates = candidate_squares(m, chip_layout) - near_city(m, reading)
    removals = _removals(m, candidates)
    every = frozenset().union(*removals.values()) if removals else frozenset()
    f = _Evaluator(candidates)
    floor = f(every)  # no choice fits fewer
    if enough is not None and floor >= enough and total > 1:
        some = tuple(sorted(starts[:k]))
        return WorstCase(
            some, f(frozenset().union(*(removals[s] for s in some))), floor, False, total
        )
    # Starts that remove nothing never matter: a worst choice uses as many of the others as it
    # can, the ones removing the most squares first (good choices early, strong bounds).
    useful = sorted((s for s in starts if removals[s]), key=lambda s: (-len(removals[s]), s))
    idle = [s for s in starts if not removals[s]]
    need_total = min(k, len(useful))
    first = useful[:need_total]
    best_value = f(frozenset().union(*(removals[s] for s in first)))
    best_choice = tuple(first)
    finished = True
    # Depth-first, explicitly stacked (thousands of start squares are possible): a node is
    # (next index in ``useful``, chosen so far, squares they remove).
    stack: list[tuple[int, tuple[Square, ...], frozenset[Square]]] = [(0, (), frozenset())]
    while stack and best_value > floor and math.comb(len(useful), need_total) > 1:
        if f.work > budget:
            finished = False
            break
        i, chosen, removed = stack.pop()
        need = need_total - len(chosen)
        if need == 0:
            value = f(removed)
            if value < best_value:
                best_value, best_choice = value, chosen
            continue
        rest = useful[i:]
        f.work += len(rest)
        if len(rest) < need:
            continue
        gains = sorted((len(removals[s] - removed) for s in rest), reverse=True)
        if f(removed) - sum(gains[:need]) >= best_value:
            continue  # even the largest removals cannot go below the best
        if f(removed.union(*(removals[s] for s in rest))) >= best_value:
            continue  # even using every remaining start is not worse than the best
        s = rest[0]
        stack.append((i + 1, chosen, removed))  # without s: explored second
        stack.append((i + 1, (*chosen, s), removed | removals[s]))
    exact = finished or best_value <= floor
    choice = (*best_choice, *idle[: k - len(best_choice)])
    return WorstCase(
        choice=tuple(sorted(choice)),
        chips=best_value,
        lower_bound=best_value if exact else floor,
        exact=exact,
        choices=total,
    )


def first_choices(m: MapDef, limit: int = ENUMERATE_UP_TO) -> list[tuple[Square, ...]]:
    """The first ``limit`` choices of :func:`engine.chips.start_choices`, without building the
    others (a list of every choice of 20 of 40 start squares would never be finished)."""
    k = m.setup.start_squares_used
    starts = sorted(m.start_squares)
    if not 0 <= k <= len(starts):
        return []
    return list(itertools.islice(itertools.combinations(starts, k), limit))


def chip_proof(
    m: MapDef,
    reading: ChipReading | str = ChipReading.OPEN_SIDES,
    chip_layout: ChipLayout | None = None,
) -> dict[tuple[Square, ...], int]:
    """Most chips that fit per choice of used start squares: every choice when there are at most
    :data:`ENUMERATE_UP_TO`, otherwise the worst choice only (:func:`worst_choice`);
    ``chip_layout`` is the rule set's."""
    every = every_choice(m, reading, chip_layout=chip_layout)
    if every is not None:
        return every
    worst = worst_choice(m, reading, chip_layout=chip_layout)
    return {} if worst is None else {worst.choice: worst.chips}


__all__ = [
    "ENUMERATE_UP_TO",
    "WORK_BUDGET",
    "WorstCase",
    "chip_proof",
    "every_choice",
    "first_choices",
    "worst_choice",
]
