"""The board: placed tiles on a map (or on an unbounded classic table), features and the frontier.

Speed matters here (bots play thousands of games), so the board works on precomputed tables:

- every tile type is compiled once per rotation into an :class:`OrientedTile` (edge letters and
  the segment on each side / half-edge, in board orientation);
- every empty square that has a constraint keeps a 4-letter *pattern* of the edges a tile there
  must show (``C``/``R``/``F``, ``?`` for free), updated as neighbours are placed; which rotations
  of a tile fit a pattern is cached per tile type;
- a *frontier* holds the empty squares where a tile may go now, grouped by pattern, so listing
  the placements of a tile asks the rotation cache once per pattern, not once per square;
- features are a union-find forest (:mod:`engine.features`) with open-edge counters, so completion
  is a counter reaching 0, never a board scan.

A map's printed parts are static per map (:class:`MapLayout`) and shared by every copy of a board.

The package, bottom to top: :mod:`~engine.board.vocab` (location names and the tags its
modules share), :mod:`~engine.board.tiletables` (compiled tiles, fit and move tables),
:mod:`~engine.board.layout` (the static layout of a map), :mod:`~engine.board.state` (tiles,
features, frontier, copies and trials), :mod:`~engine.board.preview` (what a placement would
join), :mod:`~engine.board.counting` (listing and counting moves) and
:mod:`~engine.board.placing` (:class:`Board`: placing a tile). ``Board`` is one class made of
those layers (each a base class of the next), so a method is found the same way as before.
"""

from engine.board.layout import MapLayout, MapOptions, map_layout
from engine.board.placing import Board
from engine.board.preview import PreviewFeature
from engine.board.state import BoardTrial
from engine.board.tiletables import CompiledTiles, OrientedTile, compiled
from engine.board.vocab import (
    DELTAS,
    H_BORDER,
    H_CITY,
    H_CLOSED,
    H_FERRY,
    H_NORMAL,
    HALF_NAMES,
    INNER_FIELD,
    MONASTERY_LOCATION,
    SIDE_JOIN,
    SIDE_NAMES,
    SIDE_TILE,
    BorderSide,
    CitySide,
    FerrySide,
    PlainSide,
    SideHandler,
    partner_half,
)

__all__ = [
    "DELTAS",
    "HALF_NAMES",
    "H_BORDER",
    "H_CITY",
    "H_CLOSED",
    "H_FERRY",
    "H_NORMAL",
    "INNER_FIELD",
    "MONASTERY_LOCATION",
    "SIDE_JOIN",
    "SIDE_NAMES",
    "SIDE_TILE",
    "Board",
    "BoardTrial",
    "BorderSide",
    "CitySide",
    "CompiledTiles",
    "FerrySide",
    "MapLayout",
    "MapOptions",
    "OrientedTile",
    "PlainSide",
    "PreviewFeature",
    "SideHandler",
    "compiled",
    "map_layout",
    "partner_half",
]
