"""The town variants of the general Maps rules (each off by default; ``GameOptions.town_*``).

a) "Placing a tile on top of a town grants you one instant extra tile which has to be placed
   immediately. This can only be done once within one draw." -- the extra tile never earns
   another one, even if it covers a town too.
b) "Placing a tile on top of a town costs two points." -- scores may go down.
c) "When scoring a road, you get 2 bonus points for each town which is still visible and touches
   your road (horizontally or vertically)." -- every town square without a tile orthogonally next
   to a square of the road, counted once per road scoring (during the game and at the end).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.rules.base import Rules, register
from engine.rules.spec import BotHints

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.rules.context import RuleContext
    from engine.scoring import ScoreEvent


@dataclass
class TownState:
    grant: bool = False
    """The tile just placed covered a town and may earn an extra tile."""
    in_extra: bool = False
    """The current turn is itself an extra tile (variant a does not chain)."""

    def copy(self) -> TownState:
        return TownState(self.grant, self.in_extra)

    def summary(self) -> list[bool]:
        return [self.grant, self.in_extra]


@register
class TownRules(Rules):
    """Options: ``extra_tile`` (a), ``cost`` (b), ``road_bonus`` (c), all booleans."""

    name = "towns"
    title = "Town variants"
    # Extra tiles come at the end of a turn and the road bonus adjusts a scoring (not plain),
    # but no hook after the meeple step depends on meeples or supply.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=False)

    def setup(self, ctx: RuleContext) -> None:
        ctx.rule_state[self.name] = TownState()

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        if ctx.map is None:
            return
        town = ctx.map.towns.get(square)
        if town is None:
            return
        state: TownState = ctx.rule_state[self.name]
        if self.options.get("cost"):
            ctx.award(ctx.to_move, -2, "town", f"covered the town {town.name}")
        if self.options.get("extra_tile") and not state.in_extra:
            # granted now, so that every rule knows at the end of the turn that the player's
            # turn goes on (Benelux reveals a used island stack only after the extra tile)
            state.grant = True
            ctx.grant_extra_turn("towns.extra_tile")

    def end_of_turn(self, ctx: RuleContext) -> None:
        state: TownState = ctx.rule_state[self.name]
        state.in_extra = state.grant
        state.grant = False

    def on_score(self, ctx: RuleContext, event: ScoreEvent) -> ScoreEvent:
        if not self.options.get("road_bonus") or event.kind != "road" or ctx.map is None:
            return event
        if not event.players:
            return event
        towns = ctx.map.towns
        tiles = ctx.board.tiles
        seen: set[Square] = set()
        for x, y in event.squares:
            for q in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if q in towns and q not in tiles:
                    seen.add(q)
        if not seen:
            return event
        bonus = 2 * len(seen)
        return replace(event, points=event.points + bonus, bonus=event.bonus + bonus)
