"""Map-Chips Deutschland: upgraded meeples.

Setup: 2 of the 3 start squares, all 30 chips face down with the common rules.

A player holding chips worth exactly 4 (4x1, 2x2 or 2x1+1x2) may, on their turn, spend them to
upgrade one of their meeples on the board, placed earlier or just now (:class:`UpgradeMeeple`,
offered in the ``ACTION`` phase, after the meeple step and before scoring): one paid chip goes
under the meeple, the others leave the game. A meeple is upgraded at most once. An upgraded
meeple counts as 2 meeples for majorities in every scoring, during the game and at the end,
farmers included (:meth:`DeutschlandRules.meeple_strength`; the meeple's strength in
``game.meeples`` is set to 2 too, so ``Game.projected_scores`` sees it). After its feature is
scored during the game it returns as a normal meeple and its chip leaves the game.

Decisions (engine/RULES.md "Map-Chips"): the action names the meeple by square and location and
the payment by values (``pay``: ``[1, 1, 1, 1]``, ``[2, 2]`` or ``[1, 1, 2]``; colours play no
part); the first chip paid goes under the meeple. Several upgrades in one turn are allowed when
the player can pay for each. At the end of the game the chips under meeples stay on the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError, RecordError
from engine.moves import LOCATIONS, Action
from engine.rules.base import register
from engine.rules.chips_common import ChipRules, ChipState, payments
from engine.rules.spec import ActionCount, ActionTally, BotHints, SheetSetup

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.rules.context import RuleContext
    from engine.scoring import ScoreEvent

UPGRADE_VALUE = 4


@dataclass(frozen=True, slots=True)
class UpgradeMeeple(Action):
    """Spend chips worth exactly 4 (values ``pay``) to upgrade the current player's meeple at
    ``location`` (board orientation, as in :class:`~engine.moves.Move`) on ``square``."""

    type: ClassVar[str] = "upgrade_meeple"
    square: Square
    location: str
    pay: tuple[int, ...]

    def __str__(self) -> str:
        x, y = self.square
        return f"upgrade meeple {x},{y} {self.location} ({'+'.join(map(str, self.pay))})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "x": self.square[0],
            "y": self.square[1],
            "location": self.location,
            "pay": list(self.pay),
        }


@register
class DeutschlandRules(ChipRules):
    name = "deutschland"
    title = "Deutschland"
    state_class = ChipState
    sheet_setup = SheetSetup(start_squares=3, start_squares_used=2, chips=30)
    report_figures = {
        "meeples_upgraded": ActionCount(("upgrade_meeple",)),
        "upgrades_paid_with": ActionTally("upgrade_meeple", "joined", "pay"),
    }
    # The upgrade offer reads meeples, but it is optional (a bot passes it when judging a
    # placement); feature_scored only frees chips under upgraded meeples; no on_score and
    # nothing at the end of a turn or game.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        if phase != "action":
            return []
        state: ChipState = ctx.rule_state[self.name]
        p = ctx.to_move
        hand = state.held[p]
        if len(hand) < 2:
            return []
        pays = payments((state.chips[c].value for c in hand), UPGRADE_VALUE)
        if not pays:
            return []
        out: list[Action] = []
        under = state.under
        for mid, (owner, sq, loc, _node, _s) in sorted(ctx.meeples.items()):
            if owner == p and mid not in under:
                for pay in pays:
                    out.append(UpgradeMeeple(sq, loc, pay))
        return out

    def apply(self, ctx: RuleContext, action: Action) -> None:
        if not isinstance(action, UpgradeMeeple):
            raise EngineError(f"deutschland cannot apply {action!r}")
        state: ChipState = ctx.rule_state[self.name]
        p = ctx.to_move
        mid = next(
            m
            for m, (owner, sq, loc, _n, _s) in ctx.meeples.items()
            if owner == p and sq == action.square and loc == action.location
        )
        paid = [state.take_held(p, None, v) for v in action.pay]
        state.under[mid] = paid[0]
        state.out.extend(paid[1:])
        ctx.set_meeple_strength(mid, 2)

    def meeple_strength(self, ctx: RuleContext, meeple_id: int) -> int | None:
        return 2 if meeple_id in ctx.rule_state[self.name].under else None

    def feature_scored(self, ctx: RuleContext, event: ScoreEvent) -> None:
        if event.final or not event.meeples:
            return
        state: ChipState = ctx.rule_state[self.name]
        for mid in event.meeples:
            cid = state.under.pop(mid, None)
            if cid is not None:
                state.out.append(cid)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") != UpgradeMeeple.type:
            return None
        try:
            sq = (int(data["x"]), int(data["y"]))
            loc = data["location"]
            pay = tuple(sorted(int(v) for v in data["pay"]))
        except (KeyError, TypeError, ValueError):
            raise RecordError(
                f"upgrade_meeple needs integer x, y, a location and pay values: {dict(data)!r}"
            ) from None
        if loc not in LOCATIONS:
            raise RecordError(f"upgrade_meeple: unknown meeple location {loc!r}")
        return UpgradeMeeple(sq, loc, pay)
