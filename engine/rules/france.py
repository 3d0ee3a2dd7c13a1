"""Map-Chips France: producing and selling wine.

"If there are 2 points of one type of grape in front of you, you have produced wine." A wine is
sold with chips of one colour worth exactly 2 (one 2, or two 1s; the action says which):

* **export, 5 points**: the tile just placed connects to a printed border road or city with a
  coat of arms ("you enable a connection to another country"; it need not score);
* **town, 9 points**: the tile just placed covers a town whose grape is the wine's colour.

Sold chips leave the game; unsold wine scores nothing at the end. Selling is offered after the
turn's scoring (the sheet lists it under "3. Scoring a feature").

Options (``GameOptions.rule_options``, besides those of :mod:`engine.rules.chips_common`):

* ``wine_limit``: ``"round"`` (default, the printed sheet: "You can sell 1 Wine per round") or
  ``"turn"`` (Wikicarpedia: once per turn, so extra turns may sell again).
* ``export_road_needs_coa`` (default ``True``): "a road or a city with a coat of arms" read as
  both needing a coat of arms; ``False``: any printed border road qualifies, cities still need one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError, RecordError
from engine.geometry import Edge, Side
from engine.mapdef import Colour, EdgeKind
from engine.moves import Action
from engine.rules.base import register
from engine.rules.chips_common import ChipRules, ChipState, _parse_colour, payments
from engine.rules.spec import (
    ActionCount,
    ActionTally,
    BotHints,
    EventStat,
    IssueCode,
    IssueSink,
    SheetSetup,
)
from engine.rules.view import RuleView

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.context import RuleContext

EXPORT_POINTS = 5
TOWN_POINTS = 9
WINE_VALUE = 2


@dataclass(frozen=True, slots=True)
class SellWine(Action):
    """Sell one wine of ``colour`` at ``market`` (``"export"`` or ``"town"``), paying chips of
    that colour with the values ``pay`` (``(2,)`` or ``(1, 1)``)."""

    type: ClassVar[str] = "sell_wine"
    colour: Colour
    market: str
    pay: tuple[int, ...]

    def __str__(self) -> str:
        return f"sell {self.colour.value} wine ({'+'.join(map(str, self.pay))}) {self.market}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "colour": self.colour.value,
            "market": self.market,
            "pay": list(self.pay),
        }


class FranceState(ChipState):
    def __init__(self, chips: Any, players: int) -> None:
        super().__init__(chips, players)
        self.sold_round: list[int] = [-1] * players
        """Per player: the round of the last sale."""
        self.sold_turn: list[int] = [-1] * players
        """Per player: game turn of the last sale (``wine_limit="turn"``)."""
        self.markets: tuple[str, ...] = ()
        """Markets the tile just placed opened: ``"export"`` and/or ``"town:<colour>"``."""

    def _copy_extra(self, new: FranceState) -> None:
        new.sold_round = self.sold_round[:]
        new.sold_turn = self.sold_turn[:]
        new.markets = self.markets

    def _summary_extra(self) -> dict[str, Any]:
        return {
            "sold_round": list(self.sold_round),
            "sold_turn": list(self.sold_turn),
            "markets": list(self.markets),
        }


def export_sides(ctx: RuleContext, square: Square, *, road_needs_coa: bool = True) -> list[Side]:
    """Sides of ``square`` facing a printed border road/city that opens an export sale."""
    m = ctx.map
    assert m is not None
    out = []
    for side in Side:
        edge = Edge(square[0], square[1], side)
        bf = m.border_features.get(edge)
        if bf is None or bf.kind is EdgeKind.FIELD or edge.outer_square in m.land:
            continue
        if bf.coats_of_arms > 0 or (bf.kind is EdgeKind.ROAD and not road_needs_coa):
            out.append(side)
    return out


@register
class FranceRules(ChipRules):
    name = "france"
    title = "France"
    state_class = FranceState
    option_names = frozenset(("wine_limit", "export_road_needs_coa"))
    sheet_setup = SheetSetup(start_squares=3, start_squares_used=2, chips=30)
    issue_codes = {
        "france-town-without-grape": IssueCode(
            "error", "France: a town has no grape colour.", "Give every town a grape colour."
        ),
    }
    report_figures = {
        "wines_sold": ActionCount(("sell_wine",)),
        "wine_points": EventStat("wine", "points"),
        "wines_by_market": ActionTally("sell_wine", "field", "market"),
        "wines_by_colour": ActionTally("sell_wine", "field", "colour"),
        "wines_sold_where": ActionTally("sell_wine", "square", "placed"),
    }

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        for sq in sorted(m.towns, key=lambda q: (q[1], q[0])):
            if m.towns[sq].grape is None:
                issues.err(
                    "france-town-without-grape",
                    f"town {m.towns[sq].name!r} at ({sq[0]}, {sq[1]}) has no grape colour",
                    squares=[sq],
                )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        limit = self.options.get("wine_limit", "round")
        if limit not in ("round", "turn"):
            raise EngineError(f"rule_options.wine_limit: {limit!r} is not 'round' or 'turn'")
        self.per_turn = limit == "turn"
        self.road_needs_coa = self.bool_option("export_road_needs_coa", True)

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        super().tile_placed(ctx, square, tile_id, rotation)
        state: FranceState = ctx.rule_state[self.name]
        markets: list[str] = []
        if export_sides(ctx, square, road_needs_coa=self.road_needs_coa):
            markets.append("export")
        town = ctx.map.towns.get(square) if ctx.map is not None else None
        if town is not None and town.grape is not None:
            markets.append(f"town:{town.grape.value}")
        state.markets = tuple(markets)

    # Selling wine is an optional choice after the scoring that never reads meeples or supply,
    # and no hook adjusts a scoring or acts at the end of a turn or game.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    def may_sell(self, ctx: RuleContext, state: FranceState, player: int) -> bool:
        if self.per_turn:
            return state.sold_turn[player] != ctx.turn
        return state.sold_round[player] != ctx.round

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        if phase != "after":
            return []
        state: FranceState = ctx.rule_state[self.name]
        if not state.markets:
            return []
        p = ctx.to_move
        if not self.may_sell(ctx, state, p):
            return []
        by_colour: dict[Colour, list[int]] = {}
        for chip in state.held_chips(p):
            by_colour.setdefault(chip.colour, []).append(chip.value)
        out: list[Action] = []
        for market in state.markets:
            if market == "export":
                colours = list(by_colour)
                kind = "export"
            else:
                colours = [Colour(market.split(":", 1)[1])]
                kind = "town"
            for colour in sorted(colours, key=lambda c: c.value):
                for pay in payments(by_colour.get(colour, ()), WINE_VALUE):
                    out.append(SellWine(colour, kind, pay))
        return out

    def apply(self, ctx: RuleContext, action: Action) -> None:
        assert isinstance(action, SellWine)
        state: FranceState = ctx.rule_state[self.name]
        p = ctx.to_move
        for value in action.pay:
            state.out.append(state.take_held(p, action.colour, value))
        state.sold_round[p] = ctx.round
        state.sold_turn[p] = ctx.turn
        state.markets = ()
        if action.market == "export":
            ctx.award(p, EXPORT_POINTS, "wine", f"sold {action.colour.value} wine abroad")
        else:
            last = ctx.last_placement
            town = ctx.map.towns.get(last[0]) if ctx.map is not None and last else None
            where = f" in {town.name}" if town is not None else ""
            ctx.award(p, TOWN_POINTS, "wine", f"sold {action.colour.value} wine{where}")

    def end_of_turn(self, ctx: RuleContext) -> None:
        ctx.rule_state[self.name].markets = ()

    def view(self, ctx: RuleContext) -> RuleView:
        out = super().view(ctx)
        # a wine is chips of one colour worth exactly 2: one 2, or two 1s
        for hand in out.held:
            values: dict[str, list[int]] = {}
            for colour, value in hand:
                values.setdefault(colour, []).append(value)
            out.wines.append(sorted(c for c, vs in values.items() if payments(vs, WINE_VALUE)))
        return out

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") != SellWine.type:
            return None
        try:
            colour = _parse_colour(data["colour"], "sell_wine.colour")
            market = data["market"]
            pay = tuple(int(v) for v in data["pay"])
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            raise RecordError(f"bad sell_wine action {dict(data)!r}: {exc}") from None
        if market not in ("export", "town"):
            raise RecordError(f"sell_wine.market: {market!r} is not 'export' or 'town'")
        return SellWine(colour, market, tuple(sorted(pay)))
