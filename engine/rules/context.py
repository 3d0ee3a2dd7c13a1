"""The narrow view of a game through which rule hooks read and act.

Every hook of :class:`engine.rules.base.Rules` receives a :class:`RuleContext`, never the
:class:`~engine.game.Game`: it reads what rules need (the map, the board, whose turn, the pile,
the rule state...) and changes the game only through the few mutators below (award points,
meeples to and from the supply, meeple strength, an extra turn, the current tile). So the
game's public surface is the player API alone (``legal_moves``, ``play``, ``push``/``pop``...),
and what a rule may do is listed here in one place.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalMoveError
from engine.features import KIND_NAMES
from engine.scoring import ScoreEvent

if TYPE_CHECKING:
    import random

    from engine.board import Board
    from engine.game import Game, GameOptions, Meeple
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.scoring import ScoreEvent


class RuleContext:
    """What a rule hook sees of one game (one context per game; copies get their own)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        # a proxy: a strong reference would make every game (and every bot's copy) a
        # reference cycle that only the cyclic garbage collector frees (~10% of greedy time)
        self._game: Game = weakref.proxy(game)

    @staticmethod
    def of(game: Game) -> RuleContext:
        """The context of ``game`` (for engine code that asks a rule set on a game's behalf,
        e.g. a bot reading ``Rules.placement_points``)."""
        return game._rule_ctx  # noqa: SLF001 - the game's friend

    # -- reading ------------------------------------------------------------------------------

    @property
    def map(self) -> MapDef | None:
        return self._game.map

    @property
    def board(self) -> Board:
        return self._game.board

    @property
    def options(self) -> GameOptions:
        return self._game.options

    @property
    def players(self) -> tuple[str, ...]:
        return self._game.players

    @property
    def to_move(self) -> int:
        """The player whose turn it is."""
        return self._game.to_move

    @property
    def decider(self) -> int:
        """The player who acts now (``Game.decider``): the player to move, or another player
        a rule asks for a choice inside the turn."""
        return self._game.decider

    @property
    def turn(self) -> int:
        """Turns played (extra turns included)."""
        return self._game.turn

    @property
    def round(self) -> int:
        """Completed rounds (every player had a normal turn): for "once per round" rules."""
        return self._game.round

    @property
    def extra_turn(self) -> bool:
        """Whether the current turn is an extra turn a rule granted (not a normal turn)."""
        return self._game._extra_turn_by is not None  # noqa: SLF001

    @property
    def extra_turn_by(self) -> str | None:
        """Who granted the current turn (the ``by`` of :meth:`grant_extra_turn`), or ``None``
        in a normal turn."""
        return self._game._extra_turn_by  # noqa: SLF001

    @property
    def extra_turn_follows(self) -> bool:
        """Whether the current player takes another turn after this one (an extra turn was
        granted in it): what a rule that acts "at the end of your turn" waits for."""
        return bool(self._game._extra_turns)  # noqa: SLF001

    @property
    def rng(self) -> random.Random:
        """The game's seeded random source (never the global ``random``: replays must agree)."""
        g = self._game
        saved = g._rng_saved  # noqa: SLF001 - the game's friend
        if saved is not None and not saved:  # a bot's re-dealt position: keep the state
            saved.append(g.rng.getstate())
        return g.rng

    @property
    def pile(self) -> list[str]:
        """The face-down draw pile, ``pile[-1]`` drawn next. Rules may take tiles from it at
        setup (Benelux stacks) and re-deal it in ``redeal_hidden``."""
        return self._game.pile

    @property
    def rule_state(self) -> dict[str, Any]:
        """Per-game state of every rule set by name (``rule_state[self.name]`` is yours)."""
        return self._game.rule_state

    @property
    def start_tiles(self) -> list[tuple[Square, str, int]]:
        return self._game.start_tiles

    @property
    def last_placement(self) -> tuple[Square, str, int] | None:
        """``(square, tile, rotation)`` of the last tile placed."""
        return self._game.last_placement

    @property
    def meeples(self) -> Mapping[int, Meeple]:
        """Meeples on the board by id (read only: act through the mutators)."""
        return self._game.meeples

    @property
    def scores(self) -> Sequence[int]:
        """Each player's score now (read only: act through :meth:`award`)."""
        return self._game.scores

    @property
    def supply(self) -> Sequence[int]:
        """Meeples in each player's supply (read only: act through the mutators)."""
        return self._game.supply

    # -- acting -------------------------------------------------------------------------------

    def award(self, player: int, points: int, kind: str, detail: str = "") -> ScoreEvent:
        """Score a rule event (a chip, a wine, a town cost) for ``player``; ``kind`` becomes a
        column of the score breakdown. Returns the event (after every ``on_score`` hook)."""
        g = self._game
        event = ScoreEvent(g.turn, kind, points, (player,), (g.players[player],), detail=detail)
        g._add_event(event)  # noqa: SLF001
        return event

    def set_current_tile(self, tile_id: str) -> None:
        """Make ``tile_id`` the tile to place now (a tile taken instead of drawn)."""
        g = self._game
        g._set_current_tile(tile_id)  # noqa: SLF001

    def grant_extra_turn(self, by: str) -> None:
        """Let the current player take one more turn after this one, granted ``by`` (a label
        of the granting rule, e.g. ``"towns.extra_tile"``; :attr:`extra_turn_by` in that turn).
        Grants add up and are played in the order granted: a Great Britain double turn bought
        in a turn that covered a town (variant a) gives two."""
        g = self._game
        g._extra_turns = (*g._extra_turns, by)  # noqa: SLF001

    def skip_turn(self, player: int) -> None:
        """Let ``player`` miss their next turn (one more: skips add up)."""
        g = self._game
        skips = list(g._skips or (0,) * len(g.players))  # noqa: SLF001
        skips[player] += 1
        g._skips = tuple(skips)  # noqa: SLF001

    def turns_to_skip(self, player: int) -> int:
        """How many turns ``player`` will still miss."""
        skips = self._game._skips  # noqa: SLF001
        return skips[player] if skips else 0

    def return_meeple(self, meeple_id: int) -> None:
        """Take a meeple off the board back to its owner's supply."""
        g = self._game
        player, sq, _loc, node, _s = g.meeples.pop(meeple_id)
        if node < 0:
            g.monks.pop(sq, None)
        else:
            f = g.board.features
            root = f.find(node)
            left = tuple(m for m in f.meeples.get(root, ()) if m != meeple_id)
            if left:
                f.meeples[root] = left
            else:
                f.meeples.pop(root, None)
        g.supply[player] += 1

    def free_locations(self, square: Square) -> list[str]:
        """Locations of the tile on ``square`` whose feature carries no meeple (fields only
        when farmers are on), in the tile's order."""
        g = self._game
        board = g.board
        o = board.tiles[square]
        f = board.features
        out = []
        for loc, seg in o.locations:
            node = board.nodes[square][seg]
            taken = square in g.monks if node < 0 else bool(f.meeples.get(f.find(node)))
            if not taken and (g.options.farmers or KIND_NAMES[o.kinds[seg]] != "field"):
                out.append(loc)
        return out

    def place_meeple(self, player: int, square: Square, location: str) -> int:
        """A meeple from ``player``'s supply on a free location of the tile on ``square``
        (:meth:`free_locations`); returns its id.

        :raises IllegalMoveError: the supply is empty or the location is not free.
        """
        g = self._game
        if g.supply[player] <= 0:
            raise IllegalMoveError(f"{g.players[player]} has no meeple in supply")
        if location not in self.free_locations(square):
            raise IllegalMoveError(f"no free feature at {location!r} of ({square[0]}, {square[1]})")
        return g._put_meeple(player, square, location)  # noqa: SLF001

    def set_meeple_strength(self, meeple_id: int, strength: int) -> None:
        """How many meeples ``meeple_id`` counts as from now on (also in projections)."""
        g = self._game
        g.meeples[meeple_id] = g.meeples[meeple_id]._replace(strength=strength)

    def take_meeple_from_supply(self, player: int) -> None:
        """One meeple leaves ``player``'s supply (e.g. to the Isle of Man).

        :raises IllegalMoveError: the supply is empty.
        """
        g = self._game
        if g.supply[player] <= 0:
            raise IllegalMoveError(f"{g.players[player]} has no meeple in supply")
        g.supply[player] -= 1

    def give_meeple_to_supply(self, player: int, count: int = 1) -> None:
        """``count`` meeples come back to ``player``'s supply (e.g. from the Isle of Man)."""
        self._game.supply[player] += count
