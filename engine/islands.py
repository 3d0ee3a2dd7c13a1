"""Land parts and ferries: which pieces of land a map has, and the ferries that join them.

A map's *parts* are its groups of orthogonally connected squares (the mainland, Sardinia, Zealand,
Kyushu...). A tile chain reaches another part only across a ferry, so every part without a start
square needs one: :func:`suggest_ferries` proposes them over the shortest sea crossings, from
coastal edge to coastal edge, one at a time until every placeable square can be reached.

>>> from engine.mapdef import MapDef, StartSquare
>>> m = MapDef(id="m", name="M", width=8, height=3, land={(1, 1), (2, 1), (5, 1), (6, 1)})
>>> m.start_squares[(1, 1)] = StartSquare("A")
>>> [len(p) for p in land_parts(m)]
[2, 2]
>>> [(str(f.a), str(f.b)) for f in suggest_ferries(m)]
[('(2, 1) E', '(5, 1) W')]
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.geometry import Edge, Side, Square
from engine.gridgraph import land_parts as parts
from engine.gridgraph import reachable_squares
from engine.mapdef import Ferry, MapDef

__all__ = [
    "coastal_edges",
    "ferry_between",
    "ferry_for",
    "land_parts",
    "suggest_ferries",
]


def land_parts(m: MapDef, squares: Iterable[Square] | None = None) -> list[set[Square]]:
    """Orthogonally connected groups of ``squares`` (default: the map's squares), biggest first
    (see :func:`engine.gridgraph.land_parts`)."""
    return parts(m.land if squares is None else squares)


def coastal_edges(m: MapDef, squares: Iterable[Square] | None = None) -> list[Edge]:
    """Free edges where a ferry may land: an edge of a placeable square facing the sea (not a
    land border), with no border feature and no ferry on it. Sorted."""
    placeable = m.placeable_squares()
    pool = placeable if squares is None else set(squares) & placeable
    used = set(m.border_features) | {e for f in m.ferries.values() for e in (f.a, f.b)}
    return sorted(
        e
        for x, y in pool
        for side in Side
        if (e := Edge(x, y, side)).outer_square not in m.land
        and e not in used
        and e not in m.land_borders
    )


def _midpoint(e: Edge) -> tuple[float, float]:
    dx, dy = e.side.delta
    return e.x + 0.5 + dx / 2, e.y + 0.5 + dy / 2


def _faces(e: Edge, point: tuple[float, float]) -> bool:
    """Whether ``point`` lies on the outward side of ``e`` (a ferry leaves a coast seaward)."""
    mx, my = _midpoint(e)
    dx, dy = e.side.delta
    return (point[0] - mx) * dx + (point[1] - my) * dy > 0


def _shortest(a_edges: list[Edge], b_edges: list[Edge]) -> tuple[float, Edge, Edge] | None:
    best: tuple[float, Edge, Edge] | None = None
    b_mid = [(e, _midpoint(e)) for e in b_edges]
    for a in a_edges:
        am = _midpoint(a)
        for b, bm in b_mid:
            d = math.hypot(am[0] - bm[0], am[1] - bm[1])
            if best is not None and (d, a, b) >= best:
                continue
            if a.square == b.square or not (_faces(a, bm) and _faces(b, am)):
                continue
            best = (d, a, b)
    return best


def _next_id(m: MapDef, taken: set[str]) -> str:
    k = 1
    while f"ferry-{k}" in m.ferries or f"ferry-{k}" in taken:
        k += 1
    return f"ferry-{k}"


def ferry_for(m: MapDef, part: Iterable[Square], reached: Iterable[Square]) -> Ferry | None:
    """The ferry over the shortest sea crossing between ``part`` and ``reached`` squares (edge
    midpoints, each end facing the other across the sea), or None when there is no crossing."""
    best = _shortest(coastal_edges(m, part), coastal_edges(m, reached))
    if best is None:
        return None
    _, a, b = best
    a, b = sorted((a, b))
    return Ferry(_next_id(m, set()), a, b, coats_of_arms=0)


def ferry_between(m: MapDef, a: Edge, b: Edge, *, coats_of_arms: int = 0) -> Ferry:
    """A new ferry from coastal edge ``a`` to coastal edge ``b`` (checked; not added to ``m``).

    Raises ValueError naming the edge that is not a free sea-facing edge of a placeable square.
    """
    free = set(coastal_edges(m))
    for e in (a, b):
        if e not in free:
            raise ValueError(
                f"edge {e} is not a free coastal edge (a placeable square's side facing the sea)"
            )
    if a.square == b.square:
        raise ValueError(f"a ferry needs two different squares, got {a} and {b}")
    first, second = sorted((a, b))
    return Ferry(_next_id(m, set()), first, second, coats_of_arms=coats_of_arms)


def suggest_ferries(m: MapDef, *, starts: Iterable[Square] | None = None) -> list[Ferry]:
    """Ferries that make every placeable square reachable, over the shortest crossings.

    Reach starts from ``starts`` (default: the start squares, or the biggest part when the map
    has none). Each round joins the unreached part nearest to what is reached; a part with no
    sea crossing (only land borders around it) is skipped. ``m`` is not changed.
    """
    work = m.copy()
    placeable = work.placeable_squares()
    sources = list(work.start_squares) if starts is None else list(starts)
    if not sources:
        parts = land_parts(work, placeable)
        if not parts:
            return []
        sources = [min(parts[0])]
    out: list[Ferry] = []
    skipped: set[Square] = set()
    while True:
        reached = reachable_squares(work, sources)
        left = placeable - reached - skipped
        if not left:
            return out
        reached_edges = coastal_edges(work, reached)
        best: tuple[float, Edge, Edge, set[Square]] | None = None
        for part in land_parts(work, left):
            found = _shortest(coastal_edges(work, part), reached_edges)
            if found is not None and (best is None or found[0] < best[0]):
                best = (*found, part)
            elif found is None:
                skipped |= part
        if best is None:
            return out
        _, a, b, _part = best
        a, b = sorted((a, b))
        ferry = Ferry(_next_id(work, set()), a, b, coats_of_arms=0)
        work.ferries[ferry.id] = ferry
        out.append(ferry)
