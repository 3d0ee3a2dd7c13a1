"""The names and tags the board's modules share: locations, side deltas, undo-log tags, side tags."""

from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

from engine.features import CITY, FIELD, MONASTERY, ROAD
from engine.geometry import Side, Square
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
# Tags of the board's own undo-log entries (beside features.LOG_ROOT). The entries stay bare
# tuples, as do the SIDE_* tuples below, for speed: both are made inside the bots' trials and
# previews, where a NamedTuple costs about 9x a bare tuple to make (timeit on the shared
# machine: 2.5 against 0.27 us), and a greedy Deutschland game makes ~750 log entries and ~2,400
# side tuples (counted over two games by wrapping Board.end_trial and Board.preview_sides),
# MCTS rollouts far more. Read them by the layouts written next to each tag.
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

# Side handlers of a square (MapLayout.handlers): what lies across each side. Each kind is a
# NamedTuple whose first field is its tag, so the hot loops test ``h[0]`` and read by index; the
# other code reads the fields by name. They are made once per map layout, never in a game.
H_NORMAL = 0
"""Another placeable square (or the unbounded table)."""
H_CLOSED = 1
"""Outside the map, a wave or a stack square: anything goes, features close there."""
H_BORDER = 2
H_CITY = 3
H_FERRY = 4


class PlainSide(NamedTuple):
    """Across the side: another placeable square (:data:`H_NORMAL`) or nothing that takes a
    tile (:data:`H_CLOSED`)."""

    tag: int


class BorderSide(NamedTuple):
    """Across the side: a printed border road or city running abroad (:data:`H_BORDER`)."""

    tag: int
    letter: str
    """``"C"`` or ``"R"``: what the tile's side must show."""
    coats_of_arms: int
    key: tuple[Any, ...]
    """The printed feature's tile key (``("border", x, y, side)``)."""
    neighbour: str
    """The neighbouring country's name (may be empty)."""


class CitySide(NamedTuple):
    """Across the side: an outer edge of a large city (:data:`H_CITY`)."""

    tag: int
    city: str
    """The large city's id."""
    letter: str
    """What the city prints on that edge: ``"C"``, ``"R"`` (a road stub) or ``"F"``."""


class FerrySide(NamedTuple):
    """Across the side: one end of a ferry route (:data:`H_FERRY`)."""

    tag: int
    ferry: str
    """The ferry's id."""
    other_end: Square
    """The square at the other end of the route."""


NORMAL_SIDE = PlainSide(H_NORMAL)
CLOSED_SIDE = PlainSide(H_CLOSED)
SideHandler = PlainSide | BorderSide | CitySide | FerrySide
"""What :attr:`MapLayout.handlers <engine.board.layout.MapLayout.handlers>` holds per side."""
