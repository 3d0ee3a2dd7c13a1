"""Map-Chips Península Ibérica: treats.

Setup: 3 of the 4 start squares (the map's setup); all 30 chips face down with the common rules,
none on the Balearic (ferry-gated island) squares (:mod:`engine.chips` bars them on ``iberica``
maps). Gated island squares are reached only by ferry (the core board, ``gated_islands``).

* A tile on an island square with coats of arms scores 2 per coat of arms at once (``island``
  event).
* A collected face-down chip scores its value; the collecting player must then place it face up
  as a **treat** (:class:`PlaceTreat`, compulsory in the ``ACTION`` phase) on a free square of the
  tracks of its colour (orange 1-4, light blue 5-8, purple 9-12). A free square is a map square
  that takes tiles, holds no tile and no other chip (large-city squares hold a printed tile).
* A tile placed on a treat scores twice its value (``treat`` event) and the chip leaves the game.

Decisions (engine/RULES.md "Map-Chips"): with no free square in those tracks the chip leaves the
game at once. Option ``treat_squares``: ``"free"`` (default, the sheet's only condition) or
``"setup"`` (also the setup rules: not on a town or a Balearic square, not orthogonally next to
another chip).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError, RecordError
from engine.moves import Action
from engine.rules.base import register
from engine.rules.chips_common import ChipRules, ChipState
from engine.rules.spec import (
    ActionCount,
    BotHints,
    ChipLayout,
    EventStat,
    IssueCode,
    IssueSink,
    LayoutKind,
    SheetSetup,
)

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.context import RuleContext

ISLAND_COA_POINTS = 2


@dataclass(frozen=True, slots=True)
class PlaceTreat(Action):
    """Place the chip just collected face up as a treat on ``square``."""

    type: ClassVar[str] = "place_treat"
    square: Square

    def __str__(self) -> str:
        return f"place treat {self.square[0]},{self.square[1]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "x": self.square[0], "y": self.square[1]}


class IbericaState(ChipState):
    def __init__(self, chips: Any, players: int) -> None:
        super().__init__(chips, players)
        self.pending: int | None = None
        """The chip the current player collected and still has to place as a treat."""

    def _copy_extra(self, new: IbericaState) -> None:
        new.pending = self.pending

    def _summary_extra(self) -> dict[str, Any]:
        return {"pending": self.pending}


@register
class IbericaRules(ChipRules):
    name = "iberica"
    title = "Península Ibérica"
    state_class = IbericaState
    option_names = frozenset(("treat_squares",))
    sheet_setup = SheetSetup(start_squares=4, start_squares_used=3, chips=30)
    chip_layout = ChipLayout(
        LayoutKind.RANDOM,
        excluded=("gated_islands",),
        excluded_code="chip-on-balearic",
        excluded_label="a Balearic island square",
        excluded_meaning=(
            "a chip on a ferry-gated (Balearic) island square of a Península Ibérica map"
        ),
    )
    issue_codes = {
        "iberica-tracks": IssueCode(
            "error",
            "Península Ibérica: tracks 1..12 must all exist and cover every row holding map "
            "squares, with the orange band (1-4) above light blue (5-8) above purple (9-12).",
            "Fix the track rows.",
        ),
    }
    report_figures = {
        "treats_placed": ActionCount(("place_treat",)),
        "treats_collected": EventStat("treat"),
        "treat_points": EventStat("treat", "points"),
        "island_coat_of_arms_tiles": EventStat("island"),
        "island_coat_of_arms_points": EventStat("island", "points"),
    }
    # Placing a treat is compulsory but reads neither meeples nor supply; every point is
    # awarded when a tile is placed (placement_points says when to play it out); no on_score
    # and nothing at the end of a turn or game.
    bot_hints = BotHints(meeple_blind=True, plain_scoring=True)

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        from engine.validation import _list_text

        problems = []
        missing = [n for n in range(1, 13) if n not in m.tracks or not m.tracks[n].rows]
        if missing:
            problems.append(f"missing track(s) {', '.join(map(str, missing))}")
        map_rows = sorted({y for _, y in m.land})
        uncovered = [r for r in map_rows if m.track_of_row(r) is None]
        if uncovered:
            problems.append(f"row(s) {_list_text([str(r) for r in uncovered], 10)} are in no track")
        bands = [range(1, 5), range(5, 9), range(9, 13)]
        spans = []
        for band in bands:
            rows = [r for n in band if n in m.tracks for r in m.tracks[n].rows]
            spans.append((min(rows), max(rows)) if rows else None)
        for (upper, lower), names in zip(
            [(spans[0], spans[1]), (spans[1], spans[2])],
            [("orange (1-4)", "light blue (5-8)"), ("light blue (5-8)", "purple (9-12)")],
            strict=True,
        ):
            if upper and lower and upper[1] >= lower[0]:
                problems.append(f"the {names[0]} band is not above the {names[1]} band")
        if problems:
            issues.err("iberica-tracks", "Península Ibérica tracks: " + "; ".join(problems))

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        mode = self.options.get("treat_squares", "free")
        if mode not in ("free", "setup"):
            raise EngineError(f"rule_options.treat_squares: {mode!r} is not 'free' or 'setup'")
        self.setup_rules = mode == "setup"
        self._cands: dict[Any, tuple[Square, ...]] | None = None
        """Per colour, the squares of its tracks that may ever hold a treat (static per game)."""

    def treat_squares(self, ctx: RuleContext, state: IbericaState, cid: int) -> list[Square]:
        """Free squares of the tracks of chip ``cid``'s colour, sorted."""
        m = ctx.map
        assert m is not None
        colour = state.chips[cid].colour
        cands = self._candidates(ctx).get(colour, ())
        tiles = ctx.board.tiles
        down, up = state.down, state.up
        out = []
        for sq in cands:
            if sq in tiles or sq in down or sq in up:
                continue
            if self.setup_rules:
                x, y = sq
                near = ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                if any(q in down or q in up for q in near):
                    continue
            out.append(sq)
        return out

    def _candidates(self, ctx: RuleContext) -> dict[Any, tuple[Square, ...]]:
        # a rules object belongs to one game (and its copies), so one map
        if self._cands is not None:
            return self._cands
        m = ctx.map
        assert m is not None
        placeable = m.placeable_squares()
        if self.setup_rules:
            placeable -= set(m.towns) | set(m.start_squares) | m.gated_squares()
        by_colour: dict[Any, list[Square]] = {}
        for sq in sorted(placeable):
            track = m.track_of_row(sq[1])
            if track is not None:
                by_colour.setdefault(track.colour, []).append(sq)
        self._cands = {c: tuple(v) for c, v in by_colour.items()}
        return self._cands

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        m = ctx.map
        assert m is not None
        p = ctx.to_move
        found = m.island_square(square)
        if found is not None and found[1].coats_of_arms > 0:
            island, info = found
            n = info.coats_of_arms
            ctx.award(
                p,
                ISLAND_COA_POINTS * n,
                "island",
                f"{n} coat{'s' if n != 1 else ''} of arms on {island.name or island.id}",
            )
        state: IbericaState = ctx.rule_state[self.name]
        treat = state.up.pop(square, None)
        if treat is not None:
            chip = state.chips[treat]
            ctx.award(p, 2 * chip.value, "treat", f"found a {chip} treat")
            state.out.append(treat)
        super().tile_placed(ctx, square, tile_id, rotation)

    def placement_points(self, ctx: RuleContext, square: Square) -> int | None:
        state: IbericaState = ctx.rule_state[self.name]
        if square in state.down or square in state.up:  # a treat to place, or one found
            return None
        m = ctx.map
        found = m.island_square(square) if m is not None else None
        if found is not None and found[1].coats_of_arms > 0:
            return None
        return 0

    def chip_taken(self, ctx: RuleContext, state: Any, player: int, cid: int) -> None:
        if self.treat_squares(ctx, state, cid):
            state.held[player].append(cid)  # in the player's hand until placed as a treat
            state.pending = cid
        else:
            state.out.append(cid)  # no free square in its tracks: out of the game

    def pass_allowed(self, ctx: RuleContext, phase: str) -> bool:
        return phase != "action" or ctx.rule_state[self.name].pending is None

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        if phase != "action":
            return []
        state: IbericaState = ctx.rule_state[self.name]
        if state.pending is None:
            return []
        return [PlaceTreat(sq) for sq in self.treat_squares(ctx, state, state.pending)]

    def apply(self, ctx: RuleContext, action: Action) -> None:
        if not isinstance(action, PlaceTreat):
            raise EngineError(f"iberica cannot apply {action!r}")
        state: IbericaState = ctx.rule_state[self.name]
        assert state.pending is not None
        state.held[ctx.to_move].remove(state.pending)
        state.up[action.square] = state.pending
        state.pending = None

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        if data.get("type") != PlaceTreat.type:
            return None
        try:
            return PlaceTreat((int(data["x"]), int(data["y"])))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"place_treat needs integer x, y: {dict(data)!r}") from None
