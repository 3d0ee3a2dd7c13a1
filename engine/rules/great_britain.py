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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError, RecordError
from engine.moves import Action
from engine.rules.base import register
from engine.rules.chips_common import COLOURS, ChipRules, ChipState
from engine.rules.spec import (
    ActionCount,
    BotHints,
    ChipLayout,
    IssueCode,
    IssueSink,
    LayoutKind,
    SummarySum,
)
from engine.rules.view import RuleView

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.chips_common import Chip
    from engine.rules.context import RuleContext


@dataclass(frozen=True, slots=True)
class BuyExtraTurn(Action):
    """Put one meeple from the supply on the Isle of Man and take one more full turn."""

    type: ClassVar[str] = "buy_extra_turn"

    def __str__(self) -> str:
        return "buy an extra turn (meeple to the Isle of Man)"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class HandInSet(Action):
    """Hand in the chip just taken with two held chips of these ``(colour, value)`` as the set
    (offered when the new chip completes more than one set)."""

    type: ClassVar[str] = "hand_in_set"
    chips: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return "hand in set with " + " + ".join(f"{c} {v}" for c, v in self.chips)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "chips": [list(c) for c in self.chips]}


class GreatBritainState(ChipState):
    def __init__(self, chips: Any, players: int) -> None:
        super().__init__(chips, players)
        self.isle: list[int] = [0] * players
        """Meeples each player has on the Isle of Man."""
        self.bought_round: list[int] = [-1] * players
        """Per player: the round in which they last bought an extra turn."""
        self.set_choices: dict[tuple[tuple[str, int], ...], tuple[int, int, int]] = {}
        """A set to choose now: each distinct choice -> the chip ids handed in for it."""

    def _copy_extra(self, new: GreatBritainState) -> None:
        new.isle = self.isle[:]
        new.bought_round = self.bought_round[:]
        new.set_choices = self.set_choices  # replaced, never changed in place

    def _summary_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "isle_of_man": list(self.isle),
            "bought_round": list(self.bought_round),
        }
        if self.set_choices:
            out["set_choices"] = [[list(c) for c in key] for key in sorted(self.set_choices)]
        return out


def is_set(chips: tuple[Chip, ...] | list[Chip]) -> bool:
    """Exactly three chips, all the same number or one of each colour."""
    if len(chips) != 3:
        return False
    return len({c.value for c in chips}) == 1 or len({c.colour for c in chips}) == 3


@register
class GreatBritainRules(ChipRules):
    name = "great_britain"
    title = "Great Britain"
    state_class = GreatBritainState
    option_names = frozenset(
        ("hand_in_without_meeples", "double_turn_after_extra_turn", "set_choice")
    )
    common_options = frozenset(("ones_per_colour", "chips"))  # fixed chip squares: no layout
    colours_visible = True
    chip_layout = ChipLayout(LayoutKind.FIXED)
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

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.hand_in_always = self.bool_option("hand_in_without_meeples", True)
        self.buy_in_extra_turns = self.bool_option("double_turn_after_extra_turn", False)
        choice = self.options.get("set_choice", "player")
        if choice not in ("player", "oldest"):
            raise EngineError(f"rule_options.set_choice: {choice!r} is not 'player' or 'oldest'")
        self.oldest_set = choice == "oldest"

    def lay_out(self, ctx: RuleContext, state: ChipState) -> None:
        m = ctx.map
        assert m is not None
        for colour in COLOURS:
            squares = sorted(sq for sq, c in m.chip_squares.items() if c is colour)
            ids = [ch.id for ch in state.chips if ch.colour is colour]
            ctx.rng.shuffle(ids)
            for sq, cid in zip(squares, ids, strict=False):
                state.down[sq] = cid
            state.unseen.extend(sorted(ids[len(squares) :]))
        state.out.extend(state.unseen)

    def placement_points(self, ctx: RuleContext, square: Square) -> int | None:
        # a chip may complete a set and free meeples from the Isle of Man: played out
        return None if square in ctx.rule_state[self.name].down else 0

    def chip_taken(self, ctx: RuleContext, state: Any, player: int, cid: int) -> None:
        hand: list[int] = state.held[player]
        hand.append(cid)
        if not self.hand_in_always and state.isle[player] == 0:
            return
        chips = state.chips
        choices: dict[tuple[tuple[str, int], ...], tuple[int, int, int]] = {}
        for pair in combinations([c for c in hand if c != cid], 2):
            if is_set((chips[pair[0]], chips[pair[1]], chips[cid])):
                key = tuple(sorted((chips[c].colour.value, chips[c].value) for c in pair))
                choices.setdefault(key, (*pair, cid))  # the chips held longest first
        if not choices:
            return
        # "You take all your Meeples back from the Isle of Man at the same time": whichever
        # set is handed in
        freed = state.isle[player]
        state.isle[player] = 0
        if freed:
            ctx.give_meeple_to_supply(player, freed)
        if len(choices) == 1 or self.oldest_set:
            self._hand_in(state, player, next(iter(choices.values())))
        else:
            state.set_choices = choices  # the player chooses (ACTION phase, compulsory)

    @staticmethod
    def _hand_in(state: Any, player: int, ids: tuple[int, ...]) -> None:
        for c in ids:
            state.held[player].remove(c)
            state.out.append(c)

    # Freeing meeples from the Isle of Man happens when a chip is taken (placement_points says
    # "play it out"); the double-turn offer reads the supply but is optional; no on_score and
    # nothing at the end of a turn or game.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    def may_buy(self, ctx: RuleContext, state: GreatBritainState) -> bool:
        p = ctx.to_move
        if state.bought_round[p] == ctx.round or ctx.supply[p] <= 0 or not ctx.pile:
            return False
        if ctx.extra_turn and not self.buy_in_extra_turns:
            return False  # "After having finished your 'normal' turn" (engine/RULES.md)
        end = ctx.options.end_after_turns
        return end is None or ctx.turn + 1 < end

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        state: GreatBritainState = ctx.rule_state[self.name]
        if phase == "action":
            return [HandInSet(key) for key in sorted(state.set_choices)]
        if phase != "after":
            return []
        return [BuyExtraTurn()] if self.may_buy(ctx, state) else []

    def pass_allowed(self, ctx: RuleContext, phase: str) -> bool:
        return phase != "action" or not ctx.rule_state[self.name].set_choices

    def apply(self, ctx: RuleContext, action: Action) -> None:
        state: GreatBritainState = ctx.rule_state[self.name]
        if isinstance(action, HandInSet):
            self._hand_in(state, ctx.to_move, state.set_choices[action.chips])
            state.set_choices = {}
            return
        if not isinstance(action, BuyExtraTurn):
            raise EngineError(f"great_britain cannot apply {action!r}")
        p = ctx.to_move
        ctx.take_meeple_from_supply(p)
        state.isle[p] += 1
        state.bought_round[p] = ctx.round
        ctx.grant_extra_turn()

    def view(self, ctx: RuleContext) -> RuleView:
        out = super().view(ctx)
        state: GreatBritainState = ctx.rule_state[self.name]
        out.isle_meeples = {p: n for p, n in enumerate(state.isle) if n > 0}
        return out

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") == HandInSet.type:
            try:
                chips = tuple(sorted((str(c), int(v)) for c, v in data["chips"]))
            except (KeyError, TypeError, ValueError):
                raise RecordError(
                    f"hand_in_set needs chips as [colour, value] pairs: {dict(data)!r}"
                ) from None
            return HandInSet(chips)
        if data.get("type") != BuyExtraTurn.type:
            return None
        extra = sorted(set(data) - {"type"})
        if extra:
            raise RecordError(f"buy_extra_turn takes no fields, got {', '.join(extra)}")
        return BuyExtraTurn()
