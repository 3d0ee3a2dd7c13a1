"""The legal-move views of a game (live, as python-chess's) and the move index they count with."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from engine.geometry import Square
from engine.moves import Action, Move, Placement
from engine.phase import PLACE

if TYPE_CHECKING:
    from engine.game import Game


class LegalMoveGenerator:
    """The legal actions of a game now, as python-chess's ``LegalMoveGenerator``: a live view
    (it reads the game each time it is asked) that iterates, tests ``in``, counts, lists and
    indexes. ``len()`` and ``view[i]`` are the ``list()`` order without building the list, so
    ``rng.choice(game.legal_moves())`` picks what ``rng.choice(game.legal_moves().list())``
    picks for the same RNG state, at a fraction of the cost (placing: the moves are counted
    per square and rotation, and only the one drawn is built). In the other phases ``len()``
    and ``view[i]`` share one list of the rule offers while no action is played (same history,
    phase, turn and scorings): a change made to the game outside play then is seen once an
    action is played, or by a new view."""

    __slots__ = ("_game", "_key", "_index", "_listed")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._key: tuple[Any, ...] | None = None
        self._index: MoveIndex | None = None
        self._listed: tuple[tuple[Any, ...], Action | None, list[Action]] | None = None

    def __iter__(self) -> Iterator[Action]:
        return iter(self._game._list_moves())

    def __contains__(self, item: object) -> bool:
        return self._game.is_legal(item)

    def __bool__(self) -> bool:
        return self._game._has_moves()

    def list(self) -> list[Action]:
        """Every legal action, as a new list (placing: each placement in the board's order,
        first without a meeple, then with one on each free location)."""
        return self._game._list_moves()

    def _indexed(self) -> MoveIndex | None:
        """The move index of the current placement turn (``None`` in other phases), cached
        while the game stays where it was."""
        g = self._game
        if g.phase is not PLACE:
            return None
        board = g.board
        meeples = board.features.meeples
        # the objects themselves, not their ids: held here, they cannot be reused by others
        key = (
            len(g.history),
            g.current_tile,
            board._front,
            len(board.order),
            g.supply[g.to_move],
            meeples,
            len(meeples),
        )
        if key != self._key or self._index is None:
            self._index = g._move_index()
            self._key = key
        return self._index

    def _other_moves(self) -> Sequence[Action]:
        """The actions of a phase other than placing, kept while the game stays where it was
        (``len()`` then ``[i]``, as ``rng.choice`` asks, builds the rule offers once)."""
        g = self._game
        history = g.history
        last = history[-1] if history else None  # held here: its id cannot be reused
        key = (len(history), g.phase, len(g.events), g.turn)
        listed = self._listed
        if listed is None or listed[0] != key or listed[1] is not last:
            listed = self._listed = (key, last, g._list_moves())
        return listed[2]

    def count(self) -> int:
        index = self._indexed()
        if index is None:
            return len(self._other_moves())
        return index.total

    __len__ = count

    def __getitem__(self, i: int) -> Action:
        index = self._indexed()
        if index is None:
            return self._other_moves()[i]
        return index.move(i)

    def __repr__(self) -> str:
        items = self.list()
        shown = ", ".join(str(i) for i in items[:8])
        more = f", ... ({len(items)} in all)" if len(items) > 8 else ""
        return f"<LegalMoveGenerator: {shown}{more}>"


class LegalPlacementGenerator:
    """The legal :class:`Placement` s of the current tile (no meeple choice): a live view like
    :class:`LegalMoveGenerator` (iterate, ``in``, ``len()``, ``count()``, ``list()``, ``[i]``;
    ``len()`` and ``[i]`` without building the list)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Placement]:
        return iter(self._game._placement_list())

    def __contains__(self, item: object) -> bool:
        return self._game._placement_check(item)

    def __bool__(self) -> bool:
        return self._game._has_placement()

    def list(self) -> list[Placement]:
        """Every legal placement, as a new list."""
        return self._game._placement_list()

    def count(self) -> int:
        g = self._game
        if g.phase is not PLACE or g.current_tile is None:
            return 0
        return g.board.placement_count(g.current_tile)

    __len__ = count

    def __getitem__(self, i: int) -> Placement:
        g = self._game
        if g.phase is not PLACE or g.current_tile is None:
            raise IndexError("no placement now")
        return tuple.__new__(Placement, g.board.placement_at(g.current_tile, i))

    def __repr__(self) -> str:
        items = self.list()
        shown = ", ".join(str(i) for i in items[:8])
        more = f", ... ({len(items)} in all)" if len(items) > 8 else ""
        return f"<LegalPlacementGenerator: {shown}{more}>"


Block = tuple[
    "Sequence[Square] | dict[Square, None]", tuple[int, ...], tuple[tuple[str, ...], ...], int
]
"""(squares, rotations, meeple locations per rotation, moves per square) of a move index."""


NO_LOCS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(((),) * n for n in range(5))
"""No meeple location for each of n rotations."""


class MoveIndex:
    """The moves of one placement turn, counted by blocks without being built: a block is a
    run of squares that share a pattern (so the same rotations) and whose moves differ only in
    the square (no meeple choice restricted by a neighbour), or one square on its own."""

    __slots__ = ("starts", "blocks", "total")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.blocks: list[Block] = []
        self.total = 0

    def move(self, i: int) -> Move:
        total = self.total
        if i < 0:
            i += total
        if not 0 <= i < total:
            raise IndexError("legal move index out of range")
        b = bisect_right(self.starts, i) - 1
        squares, rots, locs, per_square = self.blocks[b]
        k, rem = divmod(i - self.starts[b], per_square)
        sq = next(islice(squares, k, None)) if isinstance(squares, dict) else squares[k]
        for j, names in enumerate(locs):  # one tuple of names per rotation
            if rem <= len(names):
                return tuple.__new__(Move, (sq, rots[j], names[rem - 1] if rem else None))
            rem -= len(names) + 1
        raise AssertionError("unreachable: per_square counts every move")
