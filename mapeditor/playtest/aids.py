"""What the playtest aids show, computed from the game alone (no widgets): the tiles left, the
open squares no tile left can fill, and the squares of the features a player's meeples hold.

Players may count the tiles played, so the tiles left are public; their order is not, and
nothing here reveals it.
"""

from __future__ import annotations

from collections import Counter

from engine.game import Game
from engine.geometry import Square
from engine.scoring import square_tiles


def tiles_left(game: Game) -> list[tuple[str, int]]:
    """``(tile id, count)`` of the tiles still in the pile (the tile in hand is not), by id."""
    return sorted(Counter(game.pile).items())


def unfillable_squares(game: Game) -> set[Square]:
    """The open squares (where a tile could join the board) that no tile left, nor the tile in
    hand, fits in any rotation: they stay empty to the end of the game."""
    board = game.board
    kinds = set(game.pile)
    if game.current_tile is not None:
        kinds.add(game.current_tile)
    return {sq for sq in board.frontier if not any(board.fits(t, sq) for t in kinds)}


def held_squares(game: Game, player: int) -> set[Square]:
    """The squares of every feature ``player``'s meeples stand on (what their projected score
    counts), a monastery's with its neighbours."""
    f = game.board.features
    out: set[Square] = set()
    for owner, sq, _loc, node, _s in game.meeples.values():
        if owner != player or sq not in game.board.tiles:
            continue
        if node < 0:  # a monastery: its square and the eight around it
            out.update((sq[0] + dx, sq[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            continue
        root = node
        while f.parent[root] != root:
            root = f.parent[root]
        out.update(square_tiles(f, root))
    return out
