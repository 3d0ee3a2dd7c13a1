"""Squares, sides and edges of a square grid: pure value types and functions.

Coordinates are ``(x, y)`` with ``x`` growing east and ``y`` growing south, ``(0, 0)`` top-left.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

Square = tuple[int, int]
"""A grid square ``(x, y)``."""


class Side(StrEnum):
    """A side of a square, in clockwise order starting north."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def delta(self) -> tuple[int, int]:
        """The ``(dx, dy)`` step to the neighbouring square across this side."""
        return _DELTAS[self]

    @property
    def opposite(self) -> Side:
        return _SIDES[(_SIDES.index(self) + 2) % 4]

    def rotated(self, degrees: int) -> Side:
        """This side after turning the square clockwise by ``degrees`` (a multiple of 90)."""
        return _SIDES[(_SIDES.index(self) + degrees // 90) % 4]

    @property
    def ordinal(self) -> int:
        """The position in clockwise order from north: N 0, E 1, S 2, W 3.

        Not ``index``: that would hide ``str.index``, which a ``StrEnum`` member must keep.
        """
        return _SIDES.index(self)


_SIDES: tuple[Side, ...] = (Side.N, Side.E, Side.S, Side.W)
_DELTAS = {Side.N: (0, -1), Side.E: (1, 0), Side.S: (0, 1), Side.W: (-1, 0)}
SIDES = _SIDES


def neighbour(square: Square, side: Side) -> Square:
    """The square across ``side`` of ``square``."""
    dx, dy = _DELTAS[side]
    return (square[0] + dx, square[1] + dy)


def orthogonal_neighbours(square: Square) -> list[Square]:
    x, y = square
    return [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]


def all_neighbours(square: Square) -> list[Square]:
    """The 8 surrounding squares, diagonals included."""
    x, y = square
    return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


class Edge(NamedTuple):
    """One side of one square: ``Edge(x, y, side)``.

    The same physical edge seen from the other square is :meth:`mirror`.
    """

    x: int
    y: int
    side: Side

    @property
    def square(self) -> Square:
        return (self.x, self.y)

    @property
    def outer_square(self) -> Square:
        """The square on the far side of this edge."""
        return neighbour(self.square, self.side)

    def mirror(self) -> Edge:
        nx, ny = self.outer_square
        return Edge(nx, ny, self.side.opposite)

    def __str__(self) -> str:
        return f"({self.x}, {self.y}) {self.side.value}"


def parse_side(text: str) -> Side:
    """``Side`` from ``"N"``/``"E"``/``"S"``/``"W"`` (case-insensitive); ``ValueError`` otherwise."""
    try:
        return Side(text.upper())
    except ValueError:
        raise ValueError(f"unknown side {text!r} (expected N, E, S or W)") from None
