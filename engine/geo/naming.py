"""Features named by place: "the road from Kassel into the Netherlands", "near Köln".

A report speaks to a designer, who knows the map by its names, not by its coordinates.
:class:`PlaceNames` describes a square, a group of squares or a border feature from the map's
named squares: its large cities, towns and named start squares, and beyond a border the
neighbour's name. Coordinates appear only on a map without a name near the place.

>>> from engine.mapdef import MapDef, Town
>>> m = MapDef("demo", "Demo", 12, 6, land={(x, y) for x in range(12) for y in range(6)})
>>> m.towns[(2, 2)] = Town("Kassel")
>>> m.towns[(9, 2)] = Town("Erfurt")
>>> names = PlaceNames(m)
>>> names.square((2, 2)), names.square((3, 3)), names.square((5, 2)), names.square((2, 5))
('at Kassel', 'near Kassel', 'between Kassel and Erfurt', 'south of Kassel')
>>> from engine.geometry import Edge, Side
>>> names.border(Edge(0, 2, Side.W), "road", "Netherlands")
'the road from Kassel into the Netherlands'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.geometry import Edge, Square
from engine.mapdef import MapDef

NEAR = 2.3
"""A place within this many squares (centre to centre) of a named square is "near" it."""
BETWEEN = 7.0
"""Two names at most this far from a place, on either side of it, put it "between" them."""
_THE = frozenset(
    {
        "Netherlands",
        "Czech Republic",
        "United Kingdom",
        "United States",
        "Isle of Man",
        "Channel Islands",
        "Faroe Islands",
        "Balearic Islands",
        "Dominican Republic",
        "Philippines",
    }
)
"""Country names said with "the"."""


def country_phrase(name: str) -> str:
    """``Netherlands`` → ``the Netherlands``; ``France`` stays."""
    return f"the {name}" if name in _THE else name


@dataclass(frozen=True)
class _Named:
    name: str
    squares: tuple[Square, ...]
    rank: int
    """0 large city, 1 town, 2 start square: the first is named when two are as near."""


def _distance(a: Square, b: Square) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


_COMPASS = (
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
    "north",
    "north-east",
)


class PlaceNames:
    """Names places on one map (see the module's docstring)."""

    def __init__(self, m: MapDef) -> None:
        named: list[_Named] = []
        seen: set[Square] = set()
        for city in m.large_cities.values():
            if city.name:
                named.append(_Named(city.name, tuple(sorted(city.squares)), 0))
                seen |= set(city.squares)
        for sq, town in sorted(m.towns.items()):
            if town.name and sq not in seen:
                named.append(_Named(town.name, (sq,), 1))
                seen.add(sq)
        for sq, start in sorted(m.start_squares.items()):
            if start.name and sq not in seen:
                named.append(_Named(start.name, (sq,), 2))
        self.named = named

    def _nearest(self, sq: Square, besides: str = "") -> list[tuple[float, _Named]]:
        return sorted(
            (
                (min(_distance(sq, s) for s in n.squares), n)
                for n in self.named
                if n.name != besides
            ),
            key=lambda t: (t[0], t[1].rank, t[1].name),
        )

    def square(self, sq: Square, *, besides: str = "") -> str:
        """Where ``sq`` is, in words: "at Köln", "near Köln", "between Hamburg and Bremen",
        "west of Kassel"; ``(x, y)`` on a map without names. ``besides``: a name not to use
        (a place described from the others)."""
        near = self._nearest(sq, besides)
        if not near:
            return f"({sq[0]}, {sq[1]})"
        d0, first = near[0]
        if d0 == 0:
            return f"at {first.name}"
        if d0 <= NEAR:
            return f"near {first.name}"
        for d1, second in near[1:]:
            if d1 > BETWEEN:
                break
            gap = min(_distance(a, b) for a in first.squares for b in second.squares)
            if second.name != first.name and gap >= max(d0, d1):
                return f"between {first.name} and {second.name}"
        fx = sum(s[0] for s in first.squares) / len(first.squares)
        fy = sum(s[1] for s in first.squares) / len(first.squares)
        angle = math.degrees(math.atan2(sq[1] - fy, sq[0] - fx)) % 360
        return f"{_COMPASS[round(angle / 45) % 8]} of {first.name}"

    def squares(self, squares: Iterable[Square]) -> str:
        """Where a group of squares lies: the place of the square nearest its middle."""
        group = sorted(squares)
        if not group:
            return ""
        cx = sum(x for x, _ in group) / len(group)
        cy = sum(y for _, y in group) / len(group)
        middle = min(group, key=lambda s: (_distance(s, (round(cx), round(cy))), s))
        where = self.square(middle)
        return where.replace("at ", "around ", 1) if where.startswith("at ") else where

    def _end(self, edge: Edge) -> str | None:
        near = self._nearest((edge.x, edge.y))
        return near[0][1].name if near and near[0][0] <= 1.5 * NEAR else None

    def ferry(self, a: Edge, b: Edge, fallback: str = "") -> str:
        """A ferry by the names at its two ends: "the ferry from Genova to Porto Torres";
        "the ferry near Messina" when one name is nearest both; else ``the ferry FALLBACK``
        (its id: a designer's name too)."""
        ends = self._end(a), self._end(b)
        if ends[0] is not None and ends[0] == ends[1]:
            return f"the ferry near {ends[0]}"
        if ends[0] is not None and ends[1] is not None:
            return f"the ferry from {ends[0]} to {ends[1]}"
        if "ferry" in fallback.lower():
            return fallback  # the designer's id says it already
        return f"the ferry {fallback}".rstrip()

    def border(self, edge: Edge, kind: str, neighbour: str | None) -> str:
        """A border feature: "the road from Kassel into the Netherlands", "the city near Aachen
        on the border with Belgium"."""
        inside = (edge.x, edge.y)
        near = self._nearest(inside)
        where = f"({edge.x}, {edge.y})"
        if near:
            d0, first = near[0]
            where = first.name if d0 <= BETWEEN else self.square(inside)
        across = country_phrase(neighbour) if neighbour else ""
        if kind == "road":
            start = f"from {where}" if near and near[0][0] <= BETWEEN else where
            return f"the road {start} into {across}" if across else f"the border road {start}"
        place = self.square(inside)
        border = f" on the border with {across}" if across else " on the border"
        return f"the {kind} {place}{border}"


__all__ = ["BETWEEN", "NEAR", "PlaceNames", "country_phrase"]
