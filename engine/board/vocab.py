"""The names and tags the board's modules share: locations, side deltas, undo-log tags, side tags."""

from __future__ import annotations

from itertools import product

from engine.features import CITY, FIELD, MONASTERY, ROAD
from engine.geometry import Side
from engine.mapdef import EdgeKind

SIDE_NAMES = ("N", "E", "S", "W")
HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
INNER_FIELD = "I"
"""Meeple location of a field that touches no edge (some I&C / T&B tiles have one)."""
FIELD_NAMES = frozenset((*HALF_NAMES, INNER_FIELD))
MONASTERY_LOCATION = "C"
DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))
SIDE_ENUM = (Side.N, Side.E, Side.S, Side.W)
KIND_OF = {"city": CITY, "road": ROAD, "field": FIELD, "monastery": MONASTERY}
LETTER = {EdgeKind.CITY: "C", EdgeKind.ROAD: "R", EdgeKind.FIELD: "F"}
LETTER_NAME = {"C": "city", "R": "road", "F": "field", "?": "anything"}
FREE = "????"
MoveTable = dict[int, tuple[tuple[tuple[str, ...], ...], int]]
"""Pattern id -> meeple locations per rotation and moves per square (see move_tables)."""
# tags of the board's own undo-log entries (beside features.LOG_ROOT)
LOG_DONE = 1  # (tag, root): completed now
LOG_REQ = 2  # (tag, square, old pattern or None)
LOG_MON = 3  # (tag, square, old count or None)
LOG_WATCH = 4  # (tag, square, old watchers or None)
LOG_CITY = 5  # (tag, city id): connected now
LOG_FERRY = 6  # (tag, ferry id): opened now
# what a side of an empty square joins (Board.preview_sides)
SIDE_OPEN = 0
SIDE_TILE = 1
SIDE_CLOSED = 2
SIDE_BORDER = 3
SIDE_JOIN = 4
SIDE_FIELD_CITY = 5  # a field against a large city that fields may touch (no preview)
SIDE_OPEN_T = (SIDE_OPEN,)
SIDE_FIELD_CITY_T = (SIDE_FIELD_CITY,)
SIDE_CLOSED_T = (SIDE_CLOSED,)
NO_NODES: frozenset[int] = frozenset()
WITH_EDGE: dict[tuple[int, str], dict[str, str]] = {
    (s, letter): {
        p: p[: (s + 2) & 3] + letter + p[((s + 2) & 3) + 1 :]
        for p in map("".join, product("CRF?", repeat=4))
    }
    for s in range(4)
    for letter in "CRF"
}
"""(side s of the tile placed next to a square, that side's letter) -> pattern of the square ->
the square's pattern with the facing side (s + 2) set to the letter."""


def partner_half(h: int) -> int:
    """The half-edge of the neighbouring tile that touches half-edge ``h`` (NL<->SR, NR<->SL, ...)."""
    side = h >> 1
    return (((side + 2) & 3) << 1) | (1 - (h & 1))


PARTNER = tuple(partner_half(h) for h in range(8))
HALF_PARTNERS = tuple(tuple((h, PARTNER[h]) for h in (2 * s, 2 * s + 1)) for s in range(4))
"""Per side, its two half-edges, each with the neighbour's half-edge it touches."""

# Side handlers of a square: what lies across each side.
H_NORMAL = 0  # another placeable square (or unbounded board)
H_CLOSED = 1  # outside the map, a wave or a stack square: anything goes, features close there
H_BORDER = 2  # a printed border road/city: (H_BORDER, letter, coa, key, neighbour name)
H_CITY = 3  # a large-city edge: (H_CITY, city id, letter)
H_FERRY = 4  # a ferry end: (H_FERRY, ferry id, other end square)
