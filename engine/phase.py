"""The phases of a game: what it waits for."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the game waits for."""

    DRAW = "draw"
    """A choice of where the tile comes from (only when a rule set offers one)."""
    PLACE = "place"
    """A :class:`Move` placing ``current_tile``."""
    ACTION = "action"
    """Rule-set actions after placing, before scoring, or :class:`Pass`."""
    AFTER = "after"
    """Rule-set actions after scoring, or :class:`Pass`."""
    TURN_END = "turn_end"
    """The turn is scored and would end now: only seen inside :meth:`Game.push_placement`."""
    OVER = "over"


# module names for the phases: reading an enum member off its class costs several times
# a global lookup on Python 3.11, and the turn loop compares the phase many times a turn
DRAW, PLACE, ACTION, AFTER, TURN_END, OVER = (
    Phase.DRAW,
    Phase.PLACE,
    Phase.ACTION,
    Phase.AFTER,
    Phase.TURN_END,
    Phase.OVER,
)
