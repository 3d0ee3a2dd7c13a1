"""A sample Map-Chips rule set that is not shipped: everything it means lives in this file.

"Atlantis: fish markets" -- the common chip setup (random and even, none on ferry-gated island
squares, the "reefs"); after the turn's scoring a player may sell a catch of chips worth exactly
3 (any colours) for 4 points, once per turn. A map for it needs at least one town (a harbour).

Importing this module registers it; nothing else in the engine or the editor names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.moves import Action
from engine.rules.base import register
from engine.rules.chips_common import ChipRules, ChipState, payments
from engine.rules.context import RuleContext
from engine.rules.spec import (
    ActionCount,
    ActionTally,
    BotHints,
    ChipLayout,
    EventStat,
    IssueCode,
    IssueSink,
    LayoutKind,
    SheetSetup,
)

if TYPE_CHECKING:
    from engine.mapdef import MapDef

CATCH = 3
CATCH_POINTS = 4


@dataclass(frozen=True, slots=True)
class SellFish(Action):
    """Sell a catch: chips worth exactly 3 with the values ``pay``."""

    type: ClassVar[str] = "sell_fish"
    pay: tuple[int, ...]

    def __str__(self) -> str:
        return f"sell fish ({'+'.join(map(str, self.pay))})"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "pay": list(self.pay)}


class AtlantisState(ChipState):
    def __init__(self, chips: Any, players: int) -> None:
        super().__init__(chips, players)
        self.sold_turn = -1
        """The game turn of the last sale."""

    def _copy_extra(self, new: AtlantisState) -> None:
        new.sold_turn = self.sold_turn

    def _summary_extra(self) -> dict[str, Any]:
        return {"sold_turn": self.sold_turn}


@register
class AtlantisRules(ChipRules):
    name = "sample_atlantis"
    title = "Atlantis (sample)"
    state_class = AtlantisState
    chip_layout = ChipLayout(
        LayoutKind.RANDOM,
        excluded=("gated_islands",),
        excluded_code="chip-on-reef",
        excluded_label="a reef (ferry-gated island) square",
        excluded_meaning="a chip on a reef (ferry-gated island) square of an Atlantis map",
    )
    sheet_setup = SheetSetup(start_squares=3, start_squares_used=2, chips=12)
    issue_codes = {
        "atlantis-no-harbour": IssueCode(
            "error", "Atlantis: the map needs at least one town (a harbour).", "Add a town."
        ),
    }
    report_figures = {
        "catches_sold": ActionCount(("sell_fish",)),
        "fish_points": EventStat("fish", "points"),
        "catches_paid_with": ActionTally("sell_fish", "joined", "pay"),
    }
    # Selling is optional, after the scoring, and reads no meeples or supply; no on_score, and
    # nothing at the end of a turn or game: the greedy bot's fast paths hold.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        if not m.towns:
            issues.err("atlantis-no-harbour", "the map has no town to serve as a harbour")

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        if phase != "after":
            return []
        state: AtlantisState = ctx.rule_state[self.name]
        if state.sold_turn == ctx.turn:
            return []
        values = [state.chips[c].value for c in state.held[ctx.to_move]]
        return [SellFish(pay) for pay in payments(values, CATCH)]

    def apply(self, ctx: RuleContext, action: Action) -> None:
        assert isinstance(action, SellFish)
        state: AtlantisState = ctx.rule_state[self.name]
        for value in action.pay:
            state.out.append(state.take_held(ctx.to_move, None, value))
        state.sold_turn = ctx.turn
        ctx.award(ctx.to_move, CATCH_POINTS, "fish", "sold a catch")

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") != SellFish.type:
            return None
        return SellFish(tuple(sorted(int(v) for v in data["pay"])))
