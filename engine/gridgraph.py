"""Graph and shape queries on a map's grid: connected parts, the land outline, the squares a
chain of tiles can reach. Shared by the validator, the island helpers and the command line."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from engine.geometry import Square, orthogonal_neighbours
from engine.mapdef import MapDef


def square_key(sq: Square) -> tuple[int, int]:
    """Reading order of squares: by row, then column."""
    return (sq[1], sq[0])


def land_outline(squares: Iterable[Square]) -> Any:
    """The map squares as one shapely (Multi)Polygon, unit squares with ``(x, y)`` top-left."""
    # deferred: numpy and shapely cost ~0.1 s to import, and most commands never get here
    import numpy as np
    import shapely

    pts = np.array(sorted(squares), dtype=float).reshape(-1, 2)
    if not len(pts):
        return shapely.Polygon()
    boxes = shapely.box(pts[:, 0], pts[:, 1], pts[:, 0] + 1, pts[:, 1] + 1)
    return shapely.union_all(boxes)


def land_parts(squares: Iterable[Square]) -> list[set[Square]]:
    """The connected parts of the land (its polygons, via shapely), largest first.

    Squares touching only at a corner are separate parts, as on the printed map.
    """
    # deferred: numpy and shapely cost ~0.1 s to import, and most commands never get here
    import numpy as np
    import shapely

    ordered = sorted(set(squares))
    outline = land_outline(ordered)
    if outline.is_empty:
        return []
    xs = np.array([x for x, _ in ordered], dtype=float) + 0.5
    ys = np.array([y for _, y in ordered], dtype=float) + 0.5
    parts: list[set[Square]] = []
    for poly in getattr(outline, "geoms", [outline]):
        inside = shapely.contains_xy(poly, xs, ys)
        parts.append({sq for sq, hit in zip(ordered, inside, strict=True) if hit})
    parts.sort(key=lambda p: (-len(p), min(p, key=square_key) if p else (0, 0)))
    return parts


def coastline_length(squares: Iterable[Square]) -> int:
    """Number of square edges between a map square and the outside (the outline's length)."""
    outline = land_outline(squares)
    return int(round(outline.length)) if not outline.is_empty else 0


def components(squares: set[Square]) -> list[set[Square]]:
    """The orthogonally connected parts of ``squares``, in the order of their first square."""
    seen: set[Square] = set()
    out: list[set[Square]] = []
    for start in sorted(squares, key=square_key):
        if start in seen:
            continue
        part = {start}
        queue = [start]
        seen.add(start)
        while queue:
            sq = queue.pop()
            for n in orthogonal_neighbours(sq):
                if n in squares and n not in seen:
                    seen.add(n)
                    part.add(n)
                    queue.append(n)
        out.append(part)
    return out


def reachable_squares(m: MapDef, starts: Iterable[Square] | None = None) -> set[Square]:
    """Placeable squares a chain of tiles can reach from ``starts`` (default: all start squares).

    Moves go to orthogonally adjacent placeable squares (a ferry-gated square only from another
    gated square), through a large city to every square next to it (a large city touching it
    opens only when a tile touches that city itself), and across ferries. This is what the validator's ``unreachable-square`` check uses.
    """
    placeable = m.placeable_squares()
    gated = m.gated_squares()
    city_of = m.city_squares()
    # A tile placed next to a city connects that city only (cities touching it stay dormant
    # until a tile touches them too): the engine's reading, engine/RULES.md.
    doors: dict[str, set[Square]] = {}
    for sq, cid in city_of.items():
        mine = doors.setdefault(cid, set())
        for n in orthogonal_neighbours(sq):
            if n in placeable and n not in gated:
                mine.add(n)
    ferry_links: dict[Square, set[Square]] = {}
    for f in m.ferries.values():
        a, b = f.a.square, f.b.square
        if a in placeable and b in placeable and a != b:
            ferry_links.setdefault(a, set()).add(b)
            ferry_links.setdefault(b, set()).add(a)
    sources = set(m.start_squares) if starts is None else set(starts)
    seen = {sq for sq in sources if sq in placeable}
    queue = deque(seen)
    opened: set[str] = set()
    while queue:
        sq = queue.popleft()
        nexts: list[Square] = []
        for n in orthogonal_neighbours(sq):
            if n in placeable:
                if n in gated and sq not in gated:
                    continue
                nexts.append(n)
            elif n in city_of:
                cid = city_of[n]
                if cid not in opened:
                    opened.add(cid)
                    nexts.extend(doors[cid])
        nexts.extend(ferry_links.get(sq, ()))
        for n in nexts:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


__all__ = [
    "components",
    "coastline_length",
    "land_outline",
    "land_parts",
    "reachable_squares",
    "square_key",
]
