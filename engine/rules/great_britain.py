"""Map-Chips Great Britain: the Isle of Man.

Setup: all 3 start squares (the map's setup says 3). The 10 chips of each colour are shuffled and
laid face down on the 10 squares marked in that colour (``MapDef.chip_squares``): the colour is
known, the value hidden.

After a normal turn a player may put one meeple from their supply on the Isle of Man and
immediately take one more full turn (:class:`BuyExtraTurn`, offered in the ``AFTER`` phase), at
most once per round; meeples on the island cannot be used. A set of exactly three chips -- all the
same number, or one of each colour -- frees all that player's meeples from the Isle of Man: the
moment a newly taken chip completes a set, the set is handed in (chips out of the game).

Decisions (engine/RULES.md "Map-Chips"):

* a completed set is handed in even with no meeple on the Isle of Man (the literal "If you get a
  Chip and this Chip completes a set you have to use it immediately"); option
  ``hand_in_without_meeples=False`` keeps the chips instead, and a later chip may then complete a
  set with them;
* when the new chip completes more than one set (distinct by the colours and values handed in),
  the player chooses which (:class:`HandInSet`, compulsory in the ``ACTION`` phase); the meeples
  come back from the Isle of Man at once either way. Option ``set_choice="oldest"``: the chips
  held longest are handed in without asking (the old reading);
* no double turn is offered in an extra turn (a town's instant extra tile): "After having
  finished your 'normal' turn"; option ``double_turn_after_extra_turn=True`` offers it there too;
* no extra turn is offered when it could not be played: the draw pile is empty (the game ends
  after the last tile) or the forced end (``end_after_turns``) is reached;
* the extra turn is itself a full turn: it may collect chips (and free meeples), score, etc.

The rules themselves are the ``great_britain`` preset played by
:class:`engine.rules.data.DataRules`; this module adds the validator's Great Britain checks and
the report's figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.base import register
from engine.rules.chips_common import COLOURS
from engine.rules.data.actions import BuyExtraTurn, HandInSet
from engine.rules.data.rules import DataRules, DataState, is_set, mechanic_figures
from engine.rules.data.ruleset import preset_spec
from engine.rules.spec import ActionCount, IssueCode, IssueSink, SummarySum

if TYPE_CHECKING:
    from engine.mapdef import MapDef

GreatBritainState = DataState
"""The state of a Great Britain game (``rule_state["great_britain"]``; ``isle``: meeples on the
Isle of Man per player)."""


@register
class GreatBritainRules(DataRules):
    spec = preset_spec("great_britain")
    issue_codes = {
        "gb-chip-squares": IssueCode(
            "error",
            "Great Britain: there must be exactly 10 chip squares of each colour.",
            "Add or remove chip squares.",
        ),
        "gb-isle-of-man": IssueCode(
            "error",
            "Great Britain: the map has no Isle of Man.",
            "Place the Isle of Man holding area.",
        ),
        "gb-start-squares": IssueCode(
            "error",
            "Great Britain: the Map-Chips setup uses all 3 start squares; the map must have "
            "exactly 3 and use 3.",
            "Have exactly 3 start squares and start_squares_used = 3.",
        ),
    }
    report_figures = {
        "double_turns_bought": ActionCount(("buy_extra_turn",)),
        "sets_chosen": ActionCount(("hand_in_set",)),
        "meeples_stuck_on_isle_of_man_at_end": SummarySum("isle_of_man"),
        **mechanic_figures(preset_spec("great_britain")),
    }

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        for colour in COLOURS:
            squares = [sq for sq, col in m.chip_squares.items() if col is colour]
            if len(squares) != 10:
                issues.err(
                    "gb-chip-squares",
                    f"{len(squares)} {colour.value} chip square(s); Great Britain needs 10",
                    squares=squares,
                )
        if m.isle_of_man is None:
            issues.err("gb-isle-of-man", "the map has no Isle of Man")
        if len(m.start_squares) != 3 or m.setup.start_squares_used != 3:
            issues.err(
                "gb-start-squares",
                f"the map has {len(m.start_squares)} start square(s) and uses "
                f"{m.setup.start_squares_used}; Great Britain uses all 3 of 3",
                squares=list(m.start_squares),
            )


__all__ = ["BuyExtraTurn", "GreatBritainRules", "GreatBritainState", "HandInSet", "is_set"]
