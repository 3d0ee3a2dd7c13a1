"""Map-Chips Benelux: island tiles.

Setup: 20 of the 30 chips go face down on the map (the map's ``setup.chip_count``), "the remaining
10 Chips are taken out of the game without looking at them". Then "6 stacks with 5 tiles" are
taken from the shuffled tiles onto the 6 island stack squares (2 per island), the top tile of
each face up; the rest is the usual face-down pile. Wave and stack squares take no tile (the
board already blocks them).

On their turn, instead of drawing, a player who holds a chip of an island's colour may pay that
chip (it leaves the game) and take the face-up tile of one of that island's stacks
(:class:`TakeIslandTile`, offered in the ``DRAW`` phase next to :class:`~engine.moves.Draw`); the
stack's next tile is revealed at the end of the turn. Drawing face down commits the player (the
``DRAW`` phase is over). The game ends after the last face-down tile is placed (the core ends the
game when the pile is empty); island tiles left over do not count.

Decisions (engine/RULES.md "Map-Chips"): a face-up island tile that fits nowhere on the board is
not offered (it stays on top of its stack until it fits); an emptied stack square stays a square
that takes no tile. Which chip pays: the first held chip of the island's colour (values do not
matter once collected).

Options: ``stack_size`` (default 5) besides those of :mod:`engine.rules.chips_common`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError, RecordError
from engine.mapdef import Colour, IslandRole
from engine.moves import Action
from engine.rules.base import register
from engine.rules.chips_common import ChipRules, ChipState
from engine.rules.spec import ActionCount, ActionTally, BotHints, IssueCode, IssueSink, SheetSetup
from engine.rules.view import RuleView, StackView

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.context import RuleContext

STACK_SIZE = 5


@dataclass(frozen=True, slots=True)
class TakeIslandTile(Action):
    """Pay a chip of the island's colour and take the face-up tile of the stack on ``square``."""

    type: ClassVar[str] = "take_island_tile"
    square: Square

    def __str__(self) -> str:
        return f"take island tile {self.square[0]},{self.square[1]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "x": self.square[0], "y": self.square[1]}


class BeneluxState(ChipState):
    def __init__(self, chips: Any, players: int) -> None:
        super().__init__(chips, players)
        self.stacks: dict[Square, list[str]] = {}
        """Island stack square -> tile ids, the top (face up when revealed) last."""
        self.colour_of: dict[Square, Colour] = {}
        """Island stack square -> its island's colour (static)."""
        self.hidden: set[Square] = set()
        """Stacks used this turn: their new top is revealed at the end of the turn."""

    def _copy_extra(self, new: BeneluxState) -> None:
        new.stacks = {sq: s[:] for sq, s in self.stacks.items()}
        new.colour_of = self.colour_of
        new.hidden = set(self.hidden)

    def _summary_extra(self) -> dict[str, Any]:
        return {
            "stacks": [[sq[0], sq[1], list(s)] for sq, s in sorted(self.stacks.items())],
            "hidden": sorted([sq[0], sq[1]] for sq in self.hidden),
        }

    def face_up(self, square: Square) -> str | None:
        """The face-up tile of the stack on ``square`` (``None``: empty or not yet revealed)."""
        stack = self.stacks.get(square)
        if not stack or square in self.hidden:
            return None
        return stack[-1]


@register
class BeneluxRules(ChipRules):
    name = "benelux"
    title = "Benelux"
    state_class = BeneluxState
    option_names = frozenset(("stack_size",))
    blocking_prints = ("waves", "island_stacks")
    sheet_setup = SheetSetup(start_squares=3, start_squares_used=2, chips=20)
    issue_codes = {
        "benelux-waves": IssueCode(
            "error",
            "Benelux: the map needs exactly 3 wave squares.",
            "Mark exactly 3 wave squares.",
        ),
        "benelux-islands": IssueCode(
            "error",
            "Benelux: the map needs 3 islands, one per colour, each with exactly 2 stack squares.",
            "Fix the islands' colours and stack squares.",
        ),
    }
    report_figures = {
        "island_tiles_taken": ActionCount(("take_island_tile",)),
        "island_tiles_by_island": ActionTally("take_island_tile", "island"),
    }
    # Taking an island tile is a choice before placing; nothing after the meeple step moves
    # scores, meeples or supply, and no hook adjusts a scoring.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        if len(m.waves) != 3:
            issues.err(
                "benelux-waves",
                f"the map has {len(m.waves)} wave square(s); Benelux needs exactly 3",
                squares=m.waves,
            )
        stack_islands = {
            iid: i
            for iid, i in m.islands.items()
            if any(s.role is IslandRole.STACK for s in i.squares.values())
        }
        problems = []
        if len(stack_islands) != 3:
            problems.append(f"{len(stack_islands)} island(s) with stack squares (need 3)")
        for iid in sorted(stack_islands):
            i = stack_islands[iid]
            n = sum(1 for s in i.squares.values() if s.role is IslandRole.STACK)
            if n != 2:
                problems.append(f"island {iid!r} has {n} stack squares (need 2)")
        colours = sorted(
            str(i.colour) if i.colour is not None else "none" for i in stack_islands.values()
        )
        if colours != sorted(c_.value for c_ in Colour):
            problems.append(f"island colours are {', '.join(colours) or 'none'} (need one each)")
        if problems:
            issues.err("benelux-islands", "Benelux islands: " + "; ".join(problems))

    def setup(self, ctx: RuleContext) -> None:
        super().setup(ctx)
        state: BeneluxState = ctx.rule_state[self.name]
        m = ctx.map
        assert m is not None
        size = self.options.get("stack_size", STACK_SIZE)
        if not isinstance(size, int) or size < 0:
            raise EngineError(f"rule_options.stack_size: {size!r} is not an integer >= 0")
        colour_of: dict[Square, Colour] = {}
        for island in sorted(m.islands.values(), key=lambda i: i.id):
            for sq, info in sorted(island.squares.items()):
                if info.role is IslandRole.STACK and island.colour is not None:
                    colour_of[sq] = island.colour
        state.colour_of = colour_of
        # the pile is already shuffled: deal the island stacks from its top
        for sq in sorted(colour_of):
            stack: list[str] = []
            for _ in range(size):
                if not ctx.pile:
                    break
                stack.append(ctx.pile.pop())
            stack.reverse()  # the first tile dealt is the top
            state.stacks[sq] = stack

    def draw_actions(self, ctx: RuleContext) -> list[Action]:
        state: BeneluxState = ctx.rule_state[self.name]
        p = ctx.to_move
        colours = {state.chips[c].colour for c in state.held[p]}
        if not colours:
            return []
        out: list[Action] = []
        for sq in sorted(state.stacks):
            if state.colour_of[sq] not in colours:
                continue
            tile = state.face_up(sq)
            if tile is not None and ctx.board.has_placement(tile):
                out.append(TakeIslandTile(sq))
        return out

    def apply(self, ctx: RuleContext, action: Action) -> None:
        assert isinstance(action, TakeIslandTile)
        state: BeneluxState = ctx.rule_state[self.name]
        p = ctx.to_move
        colour = state.colour_of[action.square]
        hand = state.held[p]
        cid = next(c for c in hand if state.chips[c].colour is colour)
        hand.remove(cid)
        state.out.append(cid)
        tile = state.stacks[action.square].pop()
        state.hidden.add(action.square)
        ctx.set_current_tile(tile)

    def redeal_hidden(self, ctx: RuleContext, rng: random.Random) -> None:
        """Chips as usual; the island tiles under the face-up tops are shuffled with the pile."""
        super().redeal_hidden(ctx, rng)
        state: BeneluxState = ctx.rule_state[self.name]
        hidden: list[str] = list(ctx.pile)
        sizes: dict[Square, int] = {}
        for sq, stack in state.stacks.items():
            keep = 0 if sq in state.hidden else min(1, len(stack))
            sizes[sq] = len(stack) - keep
            hidden.extend(stack[: len(stack) - keep])
        rng.shuffle(hidden)
        for sq in sorted(state.stacks):
            n = sizes[sq]
            stack = state.stacks[sq]
            state.stacks[sq] = hidden[:n] + stack[n:]
            del hidden[:n]
        ctx.pile[:] = hidden

    def end_of_turn(self, ctx: RuleContext) -> None:
        ctx.rule_state[self.name].hidden.clear()

    def view(self, ctx: RuleContext) -> RuleView:
        out = super().view(ctx)
        state: BeneluxState = ctx.rule_state[self.name]
        for sq, tiles in sorted(state.stacks.items()):
            out.stacks.append(StackView(sq, state.face_up(sq), len(tiles)))
        return out

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") != TakeIslandTile.type:
            return None
        try:
            return TakeIslandTile((int(data["x"]), int(data["y"])))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"take_island_tile needs integer x, y: {dict(data)!r}") from None
