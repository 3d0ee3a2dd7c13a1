"""The one rule set class that plays any :class:`~engine.rules.data.ruleset.RuleSetSpec`.

:func:`data_rules_class` makes (once per spec) a subclass of :class:`DataRules` whose
declarations (chip layout, blocking prints, sheet setup, issue codes, report figures, bot hints,
title) are computed from the spec, and whose hooks compose the spec's parts in a fixed order:

* **setup**: the chip supply (:meth:`DataRules.make_chips`), its layout (random, fixed, none),
  island stacks dealt from the pile (``island_tile`` rewards);
* **a tile placed**: island coats of arms score (``island`` event), a treat under the tile scores
  (``treat``), a face-down chip is collected (``chip``; kept, scored away, or made a treat) and a
  ``set`` payment completed by it is handed in; then the markets the tile opens for ``points``
  rewards are noted;
* **offers** (``draw``, ``action``, ``after`` phases): a treat to place or a set to choose first
  (compulsory), then every mechanic of the phase within its limit, one action per payment;
* **apply**: the payment leaves the player's hand, the reward is given, the use is noted;
* **the rule language** (resources, marks, when/if/then rules: :mod:`.interpret`), when the spec
  has any: each hook above ends by handing its trigger to the interpreter, whose offers follow
  the mechanics' in a phase.

The country modules are thin subclasses of the class made from their preset (they keep their
option names and their validator codes), so a preset and its module are one piece of code.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError
from engine.mapdef import Colour, IslandRole
from engine.moves import Action
from engine.rules.chips_common import (
    COLOURS,
    Chip,
    ChipRules,
    ChipState,
    chip_supply,
    payments,
    split_values,
)
from engine.rules.data.actions import (
    BuyExtraTurn,
    HandInSet,
    PlaceTreat,
    SellWine,
    TakeIslandTile,
    UpgradeMeeple,
    action_class,
)
from engine.rules.data.interpret import Interpreter, LangState, RuleAction
from engine.rules.data.prints import ISSUE_CODES, check_prints, export_sides
from engine.rules.data.ruleset import MARKETS, Mechanic, RuleSetSpec
from engine.rules.spec import (
    ActionCount,
    ActionTally,
    BotHints,
    ChipLayout,
    EventStat,
    Figure,
    IssueCode,
    IssueSink,
    LayoutKind,
    SheetSetup,
    SummarySum,
)
from engine.rules.view import ResourceView, RuleView, StackView

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.context import RuleContext
    from engine.scoring import ScoreEvent


# -- state --------------------------------------------------------------------------------------


class DataState(ChipState):
    """Where every chip is, plus what the spec's mechanics track (see :meth:`summary`)."""

    def __init__(self, chips: tuple[Chip, ...], players: int) -> None:
        super().__init__(chips, players)
        self.parts: frozenset[str] = frozenset()
        """What this game tracks (static): ``mechanics``, ``isle``, ``stacks``, ``treats``,
        ``upgrades``; set by :meth:`DataRules.setup`."""
        self.used_round: dict[str, tuple[int, ...]] = {}
        """Mechanic id -> per player, the round of its last use."""
        self.used_turn: dict[str, tuple[int, ...]] = {}
        """Mechanic id -> per player, the game turn of its last use."""
        self.taken: dict[str, tuple[int, ...]] = {}
        """Mechanic id -> per player, how often it was used (automatic hand-ins included)."""
        self.paid: dict[str, tuple[int, ...]] = {}
        """Mechanic id -> per player, chips paid for it."""
        self.markets: dict[str, tuple[str, ...]] = {}
        """``points`` mechanic id -> the markets the tile just placed opened: ``"export"``,
        ``"town:<colour>"`` (``"town"`` for payments of any colour), ``"anywhere"``."""
        self.isle: list[int] = [0] * players
        """Meeples each player has parked (the Isle of Man)."""
        self.set_choices: dict[tuple[tuple[str, int], ...], tuple[int, ...]] = {}
        """A set to choose now: each distinct choice -> the chip ids handed in for it."""
        self.set_mechanic: str = ""
        """The mechanic whose set is being chosen."""
        self.stacks: dict[Square, list[str]] = {}
        """Island stack square -> tile ids, the top (face up when revealed) last."""
        self.colour_of: dict[Square, Colour] = {}
        """Island stack square -> its island's colour (static)."""
        self.hidden: set[Square] = set()
        """Stacks used this turn: their new top is revealed at the end of the turn."""
        self.pending: int | None = None
        """A chip the current player must place as a treat."""
        self.strength: dict[int, int] = {}
        """Upgraded meeple id -> the meeples it counts as."""
        self.lang: LangState | None = None
        """The rule language's state (resources, offers, chips beside the map and on marks)."""

    def _copy_extra(self, new: Any) -> None:
        # bots copy games thousands of times a move: copy only the parts this game tracks
        parts = new.parts = self.parts
        if "mechanics" in parts:
            # per-player counters are tuples, replaced on change (see put): shallow copies
            new.used_round = self.used_round.copy()
            new.used_turn = self.used_turn.copy()
            new.taken = self.taken.copy()
            new.paid = self.paid.copy()
            new.markets = self.markets.copy()
        else:
            new.used_round = {}
            new.used_turn = {}
            new.taken = {}
            new.paid = {}
            new.markets = {}
        new.isle = self.isle[:] if "isle" in parts else self.isle
        new.set_choices = self.set_choices  # replaced, never changed in place
        new.set_mechanic = self.set_mechanic
        # attributes in the order of __init__: the instances then share their key table
        stacks = "stacks" in parts
        new.stacks = {sq: s[:] for sq, s in self.stacks.items()} if stacks else {}
        new.colour_of = self.colour_of
        new.hidden = set(self.hidden) if stacks else set()
        new.pending = self.pending
        new.strength = self.strength.copy() if "upgrades" in parts else {}
        new.lang = self.lang.copy() if self.lang is not None else None

    def elsewhere(self) -> list[int]:
        lang = self.lang
        return lang.chips() if lang is not None else []

    def _summary_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "mechanics" in self.parts:
            out["used_round"] = {k: list(v) for k, v in self.used_round.items()}
            out["used_turn"] = {k: list(v) for k, v in self.used_turn.items()}
            out["markets"] = {k: list(v) for k, v in self.markets.items()}
            for k, v in self.taken.items():
                out[f"taken_{k}"] = list(v)
            for k, v in self.paid.items():
                out[f"chips_paid_{k}"] = list(v)
        if "isle" in self.parts:
            out["isle_of_man"] = list(self.isle)
        if self.set_choices:
            out["set_choices"] = [[list(c) for c in key] for key in sorted(self.set_choices)]
        if "stacks" in self.parts:
            out["stacks"] = [[sq[0], sq[1], list(s)] for sq, s in sorted(self.stacks.items())]
            out["hidden"] = sorted([sq[0], sq[1]] for sq in self.hidden)
        if "treats" in self.parts:
            out["pending"] = self.pending
        if "upgrades" in self.parts:
            out["strength"] = [[m, s] for m, s in sorted(self.strength.items())]
        if self.lang is not None:
            out["lang"] = self.lang.summary()
            for k, v in sorted(self.lang.fired.items()):
                out[f"rule_{k}"] = list(v)  # the report's per-rule figures
        return out

    def face_up(self, square: Square) -> str | None:
        """The face-up tile of the stack on ``square`` (``None``: empty or not yet revealed)."""
        stack = self.stacks.get(square)
        if not stack or square in self.hidden:
            return None
        return stack[-1]


def _played_out(square: Square) -> int | None:
    """A square whose placement is played out (:meth:`DataRules.placement_points_for`)."""
    return None


def put(counters: dict[str, tuple[int, ...]], key: str, player: int, value: int) -> None:
    """Set ``player``'s entry of the per-player tuple ``counters[key]`` (a new tuple: copies of
    the state share the old one)."""
    old = counters[key]
    counters[key] = (*old[:player], value, *old[player + 1 :])


# -- shared pieces ------------------------------------------------------------------------------


def is_set(chips: tuple[Chip, ...] | list[Chip], size: int = 3, same: str = "either") -> bool:
    """``size`` chips, all the same number and/or one of each colour (``same``)."""
    if len(chips) != size:
        return False
    number = len({c.value for c in chips}) == 1
    colours = len({c.colour for c in chips}) == size
    if same == "number":
        return number
    if same == "colour_all_different":
        return colours
    return number or colours


_SHAPES: dict[str, type[Action]] = {
    "points": SellWine,
    "extra_turn": BuyExtraTurn,
    "treat": BuyExtraTurn,
    "free_parked_meeples": BuyExtraTurn,
    "upgrade_meeple": UpgradeMeeple,
    "island_tile": TakeIslandTile,
}


def mechanic_action_class(m: Mechanic) -> type[Action]:
    """The record action class of mechanic ``m``: its shape under the type it names."""
    shape = HandInSet if m.pay.kind == "set" else _SHAPES[m.reward.kind]
    return action_class(shape, m.action)


# -- the rules ----------------------------------------------------------------------------------


class DataRules(ChipRules):
    """A Map-Chips rule set played from a :class:`RuleSetSpec` (:func:`data_rules_class` makes
    one class per spec; its hooks read ``self.spec``, the class's spec with the options
    applied)."""

    spec: ClassVar[RuleSetSpec]
    state_class = DataState
    issue_codes: ClassVar[Mapping[str, IssueCode]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # a subclass that names its spec gets the spec's declarations, except those it makes
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("spec")
        if spec is not None:
            for attr, value in class_attributes(spec).items():
                if attr not in cls.__dict__:
                    setattr(cls, attr, value)

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.spec: RuleSetSpec = self.apply_options(type(self).spec)  # type: ignore[misc]
        self.mechanics: tuple[Mechanic, ...] = self.spec.mechanics
        self.by_type: dict[str, tuple[Mechanic, type[Action]]] = {
            m.action: (m, mechanic_action_class(m)) for m in self.mechanics
        }
        self.on_complete: tuple[Mechanic, ...] = tuple(
            m for m in self.mechanics if m.pay.kind == "set" and m.pay.hand_in == "on_complete"
        )
        # a set handed in on completion is never offered: only its choice, when there is one
        self.phases: dict[str, tuple[Mechanic, ...]] = {
            when: tuple(m for m in self.mechanics if m.when == when and m not in self.on_complete)
            for when in ("draw", "action", "after")
        }
        # what a player holding no chip may be offered: every other kind pays with held chips
        # (see _pays), and most turns of a game start with an empty hand
        self.unpaid_phases: dict[str, tuple[Mechanic, ...]] = {
            when: tuple(m for m in mechs if m.pay.kind == "none")
            for when, mechs in self.phases.items()
        }
        self.points_mechanics = tuple(m for m in self.mechanics if m.reward.kind == "points")
        self.collect = self.spec.collect
        spec = self.spec
        self.lang: Interpreter | None = (
            Interpreter(spec, self.name)
            if spec.rules or spec.marks or spec.layout.kind in ("supply", "marks")
            else None
        )
        """Plays the spec's rules, resources and marks (``None``: it has none)."""
        self._own_actions = type(self).actions is not DataRules.actions
        """A subclass with actions of its own: :meth:`has_actions` asks them."""
        self._cands: dict[Any, tuple[Square, ...]] | None = None
        self._pay_cache: dict[Any, Any] = {}
        """(mechanic, chip ids held, colours) -> the ways to pay (see _pays); ``None`` -> the
        chips of the game they were worked out for."""
        """Per colour, the squares of its tracks that may ever hold a treat (static per game)."""

    def choice_option(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.options.get(name, default)
        if value not in choices:
            names = " or ".join(", ".join(repr(c) for c in choices).rsplit(", ", 1))
            raise EngineError(f"rule_options.{name}: {value!r} is not {names}")
        return str(value)

    def apply_options(self, spec: RuleSetSpec) -> RuleSetSpec:
        """``spec`` with the rule options (:data:`OPTIONS`) applied."""
        if not self.options:
            return spec
        mechanics = []
        for m in spec.mechanics:
            limit = self.choice_option(f"{m.id}_limit", m.limit, ("round", "turn", "none"))
            pay, r = m.pay, m.reward
            if pay.kind == "set" and pay.hand_in == "on_complete":
                pay = replace(
                    pay,
                    when_nothing_parked=self.bool_option(
                        "hand_in_without_meeples", pay.when_nothing_parked
                    ),
                    choose=self.choice_option("set_choice", pay.choose, ("player", "oldest")),
                )
            if r.kind == "points" and "border_coa" in r.where:
                needs = self.bool_option("export_road_needs_coa", r.border_road_needs_coa)
                r = replace(r, border_road_needs_coa=needs)
            elif r.kind == "extra_turn":
                more = self.bool_option("double_turn_after_extra_turn", r.in_extra_turns)
                r = replace(r, in_extra_turns=more)
            elif r.kind == "island_tile":
                r = replace(r, stack_size=self.options.get("stack_size", r.stack_size))
            mechanics.append(replace(m, limit=limit, pay=pay, reward=r))
        collect = spec.collect
        if collect.kind == "treat":
            mode = self.choice_option("treat_squares", collect.treat_squares, ("free", "setup"))
            collect = replace(collect, treat_squares=mode)
        return replace(spec, mechanics=tuple(mechanics), collect=collect)

    # -- declarations from the spec --------------------------------------------------------------

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        check_prints(cls.spec, m, issues)

    # -- setup -----------------------------------------------------------------------------------

    def make_chips(self) -> tuple[Chip, ...]:
        supply = self.spec.supply
        values = supply.values
        if "ones_per_colour" in self.options:
            if {v for v, _n in values} - {1, 2}:
                raise EngineError(
                    f"rule_options.ones_per_colour: the {self.name} chips are worth "
                    f"{', '.join(str(v) for v, _n in values)}, not 1 and 2"
                )
            values = split_values(self.options["ones_per_colour"], supply.per_colour)
        return chip_supply((Colour(c) for c in supply.colours), values)

    def layout_count(self, m: MapDef) -> int:
        count = self.spec.layout.count
        return m.setup.chip_count if count is None else count

    def setup(self, ctx: RuleContext) -> None:
        super().setup(ctx)
        state: DataState = ctx.rule_state[self.name]
        if self.lang is not None and state.lang is None:
            state.lang = self.lang.new_state(ctx, len(ctx.players))
        players = len(ctx.players)
        parts = set()
        if self.mechanics:
            parts.add("mechanics")
        for m in self.mechanics:
            state.used_round[m.id] = (-1,) * players
            state.used_turn[m.id] = (-1,) * players
            state.taken[m.id] = (0,) * players
            state.paid[m.id] = (0,) * players
            r = m.reward
            if r.kind == "points":
                state.markets[m.id] = ()
            elif r.kind == "extra_turn" and r.park_meeple:
                parts.add("isle")
            elif r.kind == "island_tile":
                parts.add("stacks")
            elif r.kind == "treat":
                parts.add("treats")
            elif r.kind == "upgrade_meeple":
                parts.add("upgrades")
        if self.collect.kind == "treat":
            parts.add("treats")
        state.parts = frozenset(parts)
        island = next((m for m in self.mechanics if m.reward.kind == "island_tile"), None)
        if island is not None:
            self._deal_stacks(ctx, state, island.reward.stack_size)

    def lay_out(self, ctx: RuleContext, state: ChipState) -> None:
        kind = self.spec.layout.kind
        if kind == "random":
            super().lay_out(ctx, state)
            return
        if kind == "fixed":
            m = ctx.map
            assert m is not None
            for colour in COLOURS:
                squares = sorted(sq for sq, c in m.chip_squares.items() if c is colour)
                ids = [ch.id for ch in state.chips if ch.colour is colour]
                ctx.rng.shuffle(ids)
                for sq, cid in zip(squares, ids, strict=False):
                    state.down[sq] = cid
                state.unseen.extend(sorted(ids[len(squares) :]))
        elif kind in ("supply", "marks"):
            assert self.lang is not None and isinstance(state, DataState)
            state.lang = self.lang.new_state(ctx, len(ctx.players))
            ids = [c.id for c in state.chips]
            ctx.rng.shuffle(ids)
            self.lang.lay_out(ctx, state.lang, ids)
            return
        else:
            state.unseen = [c.id for c in state.chips]
        state.out.extend(state.unseen)

    def _deal_stacks(self, ctx: RuleContext, state: DataState, size: Any) -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise EngineError(f"rule_options.stack_size: {size!r} is not an integer >= 0")
        m = ctx.map
        assert m is not None
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

    def redeal_hidden(self, ctx: RuleContext, rng: random.Random) -> None:
        """Chips as usual; island tiles under the face-up tops are shuffled with the pile."""
        super().redeal_hidden(ctx, rng)
        state: DataState = ctx.rule_state[self.name]
        if self.lang is not None and state.lang is not None:
            self.lang.redeal(ctx, state, rng)
        if not state.stacks:
            return
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

    # -- a tile placed ---------------------------------------------------------------------------

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        m = ctx.map
        assert m is not None
        p = ctx.to_move
        state: DataState = ctx.rule_state[self.name]
        if self.spec.island_coat_points:
            found = m.island_square(square)
            if found is not None and found[1].coats_of_arms > 0:
                island, info = found
                n = info.coats_of_arms
                ctx.award(
                    p,
                    self.spec.island_coat_points * n,
                    "island",
                    f"{n} coat{'s' if n != 1 else ''} of arms on {island.name or island.id}",
                )
        if state.up:
            treat = state.up.pop(square, None)
            if treat is not None:
                chip = state.chips[treat]
                ctx.award(
                    p, self.collect.treat_factor * chip.value, "treat", f"found a {chip} treat"
                )
                state.out.append(treat)
        cid = state.down.pop(square, None)
        if cid is not None:
            chip = state.chips[cid]
            if self.collect.points_factor:
                ctx.award(p, self.collect.points_factor * chip.value, "chip", f"took a {chip} chip")
            self.chip_taken(ctx, state, p, cid)
        if self.points_mechanics:
            for mech in self.points_mechanics:
                state.markets[mech.id] = self._markets(ctx, mech, square)
        if self.lang is not None:
            self.lang.tile_placed(ctx, state, square, tile_id, rotation)

    def start_of_turn(self, ctx: RuleContext) -> None:
        if self.lang is not None:
            self.lang.start_of_turn(ctx, ctx.rule_state[self.name])

    def meeple_placed(self, ctx: RuleContext, meeple_id: int) -> None:
        if self.lang is not None:
            self.lang.meeple_placed(ctx, ctx.rule_state[self.name], meeple_id)

    def _markets(self, ctx: RuleContext, mech: Mechanic, square: Square) -> tuple[str, ...]:
        m = ctx.map
        assert m is not None
        r = mech.reward
        out: list[str] = []
        for where in r.where:
            if where == "border_coa":
                if export_sides(ctx, square, road_needs_coa=r.border_road_needs_coa):
                    out.append("export")
            elif where == "town_colour":
                town = m.towns.get(square)
                if town is not None:
                    if mech.pay.kind in ("exact_value_one_colour", "one_chip_of_colour"):
                        if town.grape is not None:
                            out.append(f"town:{town.grape.value}")
                    else:
                        out.append("town")
            else:
                out.append("anywhere")
        return tuple(out)

    def placement_points(self, ctx: RuleContext, square: Square) -> int | None:
        """:meth:`placement_points_for` asked of one square (a subclass that awards otherwise
        overrides that one: the greedy judge asks it)."""
        return self.placement_points_for(ctx)(square)

    def placement_points_for(self, ctx: RuleContext) -> Callable[[Square], int | None]:
        """What placing on a square awards (:meth:`Rules.placement_points`) in this position,
        the state and the rule set's options looked up once, not once per square: the greedy
        judge asks it of every square a tile fits."""
        if self.lang is not None:
            return _played_out  # rules may act on any placement: played out
        state: DataState = ctx.rule_state[self.name]
        up = state.up
        down = state.down
        chips = state.chips
        m = ctx.map if self.spec.island_coat_points else None
        # a treat to place, or a set completed: a chip taken is played out
        chip_played_out = self.collect.kind == "treat" or bool(self.on_complete)
        factor = self.collect.points_factor

        def points(square: Square) -> int | None:
            if square in up:
                return None  # a treat found
            if m is not None:
                found = m.island_square(square)
                if found is not None and found[1].coats_of_arms > 0:
                    return None
            cid = down.get(square)
            if cid is None:
                return 0
            if chip_played_out:
                return None
            return factor * chips[cid].value

        return points

    def chip_taken(self, ctx: RuleContext, state: Any, player: int, cid: int) -> None:
        kind = self.collect.kind
        if kind == "points":
            state.out.append(cid)
        elif kind == "treat":
            self._make_treat(ctx, state, player, cid)
        else:
            state.held[player].append(cid)
            for mech in self.on_complete:
                if self.may_use(ctx, state, mech, player) and self._complete_set(
                    ctx, state, player, cid, mech
                ):
                    self._used(ctx, state, mech, player)
                    break

    def _complete_set(
        self, ctx: RuleContext, state: DataState, player: int, cid: int, mech: Mechanic
    ) -> bool:
        """Hand in the sets the chip ``cid`` just completed (or offer the choice)."""
        pay = mech.pay
        if not pay.when_nothing_parked and state.isle[player] == 0:
            return False
        chips = state.chips
        hand = state.held[player]
        choices: dict[tuple[tuple[str, int], ...], tuple[int, ...]] = {}
        for group in combinations([c for c in hand if c != cid], pay.size - 1):
            if is_set(tuple(chips[c] for c in (*group, cid)), pay.size, pay.same):
                key = tuple(sorted((chips[c].colour.value, chips[c].value) for c in group))
                choices.setdefault(key, (*group, cid))  # the chips held longest first
        if not choices:
            return False
        # "You take all your Meeples back from the Isle of Man at the same time": whichever
        # set is handed in
        self._reward(ctx, state, player, mech, None, ())
        if len(choices) == 1 or pay.choose == "oldest":
            self._hand_in(state, player, mech, next(iter(choices.values())))
        else:
            state.set_choices = choices  # the player chooses (ACTION phase, compulsory)
            state.set_mechanic = mech.id
        return True

    @staticmethod
    def _hand_in(state: DataState, player: int, mech: Mechanic, ids: tuple[int, ...]) -> None:
        for c in ids:
            state.held[player].remove(c)
            state.out.append(c)
        put(state.paid, mech.id, player, state.paid[mech.id][player] + len(ids))
        put(state.taken, mech.id, player, state.taken[mech.id][player] + 1)

    # -- treats ----------------------------------------------------------------------------------

    def _make_treat(self, ctx: RuleContext, state: DataState, player: int, cid: int) -> None:
        if self.treat_squares(ctx, state, cid):
            state.held[player].append(cid)  # in the player's hand until placed as a treat
            state.pending = cid
        else:
            state.out.append(cid)  # no free square in its tracks: out of the game

    def treat_squares(self, ctx: RuleContext, state: DataState, cid: int) -> list[Square]:
        """Free squares of the tracks of chip ``cid``'s colour, sorted."""
        colour = state.chips[cid].colour
        cands = self._candidates(ctx).get(colour, ())
        tiles = ctx.board.tiles
        down, up = state.down, state.up
        near_rule = self.collect.treat_squares == "setup"
        out = []
        for sq in cands:
            if sq in tiles or sq in down or sq in up:
                continue
            if near_rule:
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
        if self.collect.treat_squares == "setup":
            placeable -= set(m.towns) | set(m.start_squares) | m.gated_squares()
        by_colour: dict[Any, list[Square]] = {}
        for sq in sorted(placeable):
            track = m.track_of_row(sq[1])
            if track is not None:
                by_colour.setdefault(track.colour, []).append(sq)
        self._cands = {c: tuple(v) for c, v in by_colour.items()}
        return self._cands

    # -- offers ----------------------------------------------------------------------------------

    def may_use(self, ctx: RuleContext, state: DataState, mech: Mechanic, player: int) -> bool:
        if mech.limit == "round":
            return state.used_round[mech.id][player] != ctx.round
        if mech.limit == "turn":
            return state.used_turn[mech.id][player] != ctx.turn
        return True

    def draw_actions(self, ctx: RuleContext) -> list[Action]:
        return self._phase_offers(ctx, "draw") if self.phases["draw"] else []

    def quiet_hooks(self) -> frozenset[str]:
        # only for this class's own hooks: a subclass that redefines one decides for itself
        cls = type(self)
        quiet = set()
        if cls.decider is DataRules.decider and (self.lang is None or not self.lang.others):
            quiet.add("decider")  # no rule gives another player a choice
        if self.lang is None:
            # only the rule language acts at these
            if cls.start_of_turn is DataRules.start_of_turn:
                quiet.add("start_of_turn")
            if cls.meeple_placed is DataRules.meeple_placed:
                quiet.add("meeple_placed")
        if not self.phases["draw"] and cls.draw_actions is DataRules.draw_actions:
            quiet.add("draw_actions")
        if (
            cls.end_of_turn is DataRules.end_of_turn
            and self.lang is None
            and not any(m.reward.kind in ("points", "island_tile") for m in self.mechanics)
        ):
            quiet.add("end_of_turn")  # it only resets markets (points) and hidden stacks
        treats = self.collect.kind == "treat" or any(
            m.reward.kind == "treat" for m in self.mechanics
        )
        if (
            not self.phases["after"]
            and not treats
            and (self.lang is None or "after" not in self.lang.phases())
            and not self._own_actions
            and cls.has_actions is DataRules.has_actions
        ):
            quiet.add("offers_after")  # no mechanic there, and no treat is ever to be placed
        return frozenset(quiet)

    def _phase_offers(self, ctx: RuleContext, phase: str) -> list[Action]:
        """Every action of the mechanics of ``phase`` the current player may take now."""
        state: DataState = ctx.rule_state[self.name]
        p = ctx.to_move
        out: list[Action] = []
        for mech in (self.phases if state.held[p] else self.unpaid_phases)[phase]:
            if self.may_use(ctx, state, mech, p):
                out.extend(self._offers(ctx, state, mech, p))
        return out

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        state: DataState = ctx.rule_state[self.name]
        if phase == "action" and state.set_choices:
            mech, cls = self.by_type[self._set_action(state)]
            return [cls(key) for key in sorted(state.set_choices)]  # type: ignore[call-arg]
        if state.pending is not None:
            return [PlaceTreat(sq) for sq in self.treat_squares(ctx, state, state.pending)]
        if phase != "draw" and self.decider(ctx, phase) is not None:
            assert self.lang is not None
            return self.lang.offers(ctx, state, phase)  # another player's choice: only theirs
        out = self._phase_offers(ctx, phase) if self.phases.get(phase) else []
        if self.lang is not None and phase != "draw":
            out.extend(self.lang.offers(ctx, state, phase))
        return out

    def has_actions(self, ctx: RuleContext, phase: str) -> bool:
        if self._own_actions:
            return bool(self.actions(ctx, phase))
        state: DataState = ctx.rule_state[self.name]
        if phase == "action" and state.set_choices:
            return True
        if state.pending is not None:
            return bool(self.treat_squares(ctx, state, state.pending))
        if self.lang is not None and self.lang.has_offers(ctx, state, phase):
            return True
        if not self.phases.get(phase):
            return False
        p = ctx.to_move
        mechs = (self.phases if state.held[p] else self.unpaid_phases)[phase]
        for mech in mechs:
            if self.may_use(ctx, state, mech, p) and self._has_offer(ctx, state, mech, p):
                return True
        return False

    def _has_offer(self, ctx: RuleContext, state: DataState, mech: Mechanic, p: int) -> bool:
        """``bool(self._offers(...))``; an upgrade without building the offers (a payment and
        one of the player's meeples not upgraded yet: most turns of a Deutschland game)."""
        if mech.reward.kind == "upgrade_meeple" and mech.pay.kind != "set":
            if not self._pays(state, mech, p):
                return False
            upgraded = state.strength
            for mid, m in ctx.meeples.items():  # noqa: SIM110 (no generator frame per turn)
                if m[0] == p and mid not in upgraded:
                    return True
            return False
        return bool(self._offers(ctx, state, mech, p))

    def _set_action(self, state: DataState) -> str:
        return next(m.action for m in self.mechanics if m.id == state.set_mechanic)

    def pass_allowed(self, ctx: RuleContext, phase: str) -> bool:
        state: DataState = ctx.rule_state[self.name]
        if phase == "action" and state.set_choices:
            return False
        if state.pending is not None and phase in ("action", "after"):
            return False
        lang = self.lang
        return lang is None or not lang.others or not lang.must_choose(ctx, state, phase)

    def decider(self, ctx: RuleContext, phase: str) -> int | None:
        lang = self.lang
        if lang is None or not lang.others:
            return None
        state: DataState = ctx.rule_state[self.name]
        if (phase == "action" and state.set_choices) or state.pending is not None:
            return None  # the player to move's own compulsory choice comes first
        return lang.decider(ctx, state, phase)

    def decline(self, ctx: RuleContext, phase: str) -> None:
        if self.lang is not None:
            self.lang.decline(ctx, ctx.rule_state[self.name], phase)

    def _pays(
        self, state: DataState, mech: Mechanic, player: int, colours: list[Colour] | None = None
    ) -> list[tuple[Colour | None, tuple[int, ...]]]:
        """Every way ``player`` can pay for ``mech`` now: ``(colour, values)`` (``colours``:
        only chips of these). Kept per hand: asked after every placement, while a hand
        changes only when a chip is taken or paid."""
        pay = mech.pay
        if pay.kind == "none":
            return [(None, ())]
        held = state.held[player]
        if not held:
            return []  # every other kind pays with held chips (most turns of a game)
        cache = self._pay_cache
        if cache.get(None) is not state.chips:  # the chips the ids stand for (one game's)
            cache.clear()
            cache[None] = state.chips
        key = (mech.id, tuple(held), None if colours is None else tuple(colours))
        ways = cache.get(key)
        if ways is None:
            if len(cache) > 4096:
                cache.clear()
                cache[None] = state.chips
            ways = cache[key] = tuple(self._pay_ways(state, mech, player, colours))
        return list(ways)

    def _pay_ways(
        self, state: DataState, mech: Mechanic, player: int, colours: list[Colour] | None
    ) -> list[tuple[Colour | None, tuple[int, ...]]]:
        """:meth:`_pays` worked out, for a player holding chips."""
        pay = mech.pay
        hand = state.held_chips(player)
        if pay.kind == "exact_total_any":
            return [(None, v) for v in payments((c.value for c in hand), pay.value)]
        by_colour: dict[Colour, list[int]] = {}
        for chip in hand:
            by_colour.setdefault(chip.colour, []).append(chip.value)
        wanted = sorted(colours if colours is not None else by_colour, key=lambda c: c.value)
        if pay.kind == "one_chip_of_colour":
            return [(c, ()) for c in wanted if c in by_colour]
        out: list[tuple[Colour | None, tuple[int, ...]]] = []
        for colour in wanted:
            out.extend((colour, v) for v in payments(by_colour.get(colour, ()), pay.value))
        return out

    def _offers(self, ctx: RuleContext, state: DataState, mech: Mechanic, p: int) -> list[Action]:
        cls: Any = self.by_type[mech.action][1]
        r = mech.reward
        if mech.pay.kind == "set":
            if not self._reward_possible(ctx, state, mech, p):
                return []
            return [cls(key) for key in sorted(self._sets_held(state, mech, p))]
        if r.kind == "points":
            markets = state.markets.get(mech.id, ())
            out: list[Action] = []
            for market in markets:
                if market.startswith("town:"):
                    kind, colours = "town", [Colour(market.split(":", 1)[1])]
                else:
                    kind, colours = market, None
                for colour, pay in self._pays(state, mech, p, colours):
                    out.append(cls(colour, kind, pay))
            return out
        if r.kind == "island_tile":
            out = []
            for sq in sorted(state.stacks):
                colour = state.colour_of[sq]
                tile = state.face_up(sq)
                if tile is None:
                    continue
                if self._pays(state, mech, p, [colour]) and ctx.board.has_placement(tile):
                    out.append(cls(sq))
            return out
        if r.kind == "extra_turn":
            if not self._may_extra_turn(ctx, state, mech, p):
                return []
        elif r.kind == "upgrade_meeple":
            pays = self._pays(state, mech, p)
            if not pays:
                return []
            out = []
            for mid, (owner, sq, loc, _node, _s) in sorted(ctx.meeples.items()):
                if owner == p and mid not in state.strength:
                    out.extend(cls(sq, loc, pay, colour) for colour, pay in pays)
            return out
        elif r.kind == "free_parked_meeples" and state.isle[p] == 0:
            return []
        return [cls(colour, pay) for colour, pay in self._pays(state, mech, p)]

    def _reward_possible(self, ctx: RuleContext, state: DataState, mech: Mechanic, p: int) -> bool:
        """Whether a set handed in by choice could be rewarded now (an extra turn playable,
        parked meeples to free): a set is offered only then."""
        kind = mech.reward.kind
        if kind == "extra_turn":
            return self._may_extra_turn(ctx, state, mech, p)
        if kind == "free_parked_meeples":
            return state.isle[p] > 0
        return True

    def _may_extra_turn(self, ctx: RuleContext, state: DataState, mech: Mechanic, p: int) -> bool:
        r = mech.reward
        if (r.park_meeple and ctx.supply[p] <= 0) or not ctx.pile:
            return False
        if state.used_turn[mech.id][p] == ctx.turn:
            return False  # one extra turn a turn from a mechanic, whatever its limit (RULES.md)
        if ctx.extra_turn and not r.in_extra_turns:
            return False  # "After having finished your 'normal' turn" (engine/RULES.md)
        end = ctx.options.end_after_turns
        return end is None or ctx.turn + 1 < end

    def _sets_held(
        self, state: DataState, mech: Mechanic, p: int
    ) -> dict[tuple[tuple[str, int], ...], tuple[int, ...]]:
        chips = state.chips
        out: dict[tuple[tuple[str, int], ...], tuple[int, ...]] = {}
        for group in combinations(state.held[p], mech.pay.size):
            if is_set(tuple(chips[c] for c in group), mech.pay.size, mech.pay.same):
                key = tuple(sorted((chips[c].colour.value, chips[c].value) for c in group))
                out.setdefault(key, group)
        return out

    # -- apply -----------------------------------------------------------------------------------

    def apply(self, ctx: RuleContext, action: Action) -> None:
        state: DataState = ctx.rule_state[self.name]
        p = ctx.to_move
        if isinstance(action, PlaceTreat):
            assert state.pending is not None
            state.held[p].remove(state.pending)
            state.up[action.square] = state.pending
            state.pending = None
            return
        if isinstance(action, RuleAction) and self.lang is not None:
            self.lang.apply(ctx, state, action)
            return
        found = self.by_type.get(action.type)
        if found is None:
            raise EngineError(f"rule set {self.name!r} cannot apply {action!r}")
        mech = found[0]
        if isinstance(action, HandInSet):
            if state.set_choices and state.set_mechanic == mech.id:
                self._hand_in(state, p, mech, state.set_choices[action.chips])
                state.set_choices = {}
                return
            self._hand_in(state, p, mech, self._sets_held(state, mech, p)[action.chips])
            self._reward(ctx, state, p, mech, action, ())
            self._used(ctx, state, mech, p)
            return
        paid = self._pay(state, mech, p, action)
        self._used(ctx, state, mech, p)
        self._reward(ctx, state, p, mech, action, paid)

    def _used(self, ctx: RuleContext, state: DataState, mech: Mechanic, p: int) -> None:
        put(state.used_round, mech.id, p, ctx.round)
        put(state.used_turn, mech.id, p, ctx.turn)

    def _pay(self, state: DataState, mech: Mechanic, p: int, action: Any) -> list[int]:
        """Take the action's payment from ``p``'s hand: the chip ids paid, in order."""
        kind = mech.pay.kind
        if kind == "none":
            paid: list[int] = []
        elif kind == "one_chip_of_colour":
            island = isinstance(action, TakeIslandTile)
            colour = state.colour_of[action.square] if island else action.colour
            hand = state.held[p]
            cid = next(c for c in hand if state.chips[c].colour is colour)
            hand.remove(cid)
            paid = [cid]
        else:
            paid = [state.take_held(p, getattr(action, "colour", None), v) for v in action.pay]
        put(state.paid, mech.id, p, state.paid[mech.id][p] + len(paid))
        put(state.taken, mech.id, p, state.taken[mech.id][p] + 1)
        return paid

    def _reward(
        self,
        ctx: RuleContext,
        state: DataState,
        p: int,
        mech: Mechanic,
        action: Any,
        paid: list[int] | tuple[int, ...],
    ) -> None:
        r = mech.reward
        kind = r.kind
        if kind == "upgrade_meeple":
            mid = next(
                m
                for m, (owner, sq, loc, _n, _s) in ctx.meeples.items()
                if owner == p and sq == action.square and loc == action.location
            )
            if paid:  # a free upgrade (pay 'none') puts no chip under the meeple
                state.under[mid] = paid[0]
                state.out.extend(paid[1:])
            state.strength[mid] = r.strength
            ctx.set_meeple_strength(mid, r.strength)
            return
        if kind == "treat" and paid:
            state.out.extend(paid[1:])
            self._make_treat(ctx, state, p, paid[0])
            return
        state.out.extend(paid)
        if kind == "points":
            state.markets[mech.id] = ()
            market = getattr(action, "market", "anywhere")
            where = next(w for w, mk in MARKETS.items() if mk == market)
            ctx.award(p, r.points_at(where), mech.id, self.describe(ctx, mech, action, market))
        elif kind == "island_tile":
            tile = state.stacks[action.square].pop()
            state.hidden.add(action.square)
            ctx.set_current_tile(tile)
        elif kind == "extra_turn":
            if r.park_meeple:
                ctx.take_meeple_from_supply(p)
                state.isle[p] += 1
            ctx.grant_extra_turn(f"{self.name}.mechanics.{mech.id}")
        elif kind == "free_parked_meeples":
            freed = state.isle[p]
            state.isle[p] = 0
            if freed:
                ctx.give_meeple_to_supply(p, freed)

    def describe(self, ctx: RuleContext, mech: Mechanic, action: Any, market: str) -> str:
        """The text of a ``points`` reward's score event: ``"sold purple wine abroad"``."""
        colour = getattr(action, "colour", None)
        what = f"sold {colour.value + ' ' if colour is not None else ''}{mech.id.replace('_', ' ')}"
        if market == "export":
            return f"{what} abroad"
        if market == "town":
            last = ctx.last_placement
            town = ctx.map.towns.get(last[0]) if ctx.map is not None and last else None
            return f"{what} in {town.name}" if town is not None else what
        return what

    # -- scoring and the end ---------------------------------------------------------------------

    def meeple_strength(self, ctx: RuleContext, meeple_id: int) -> int | None:
        state: DataState = ctx.rule_state[self.name]
        return state.strength.get(meeple_id)

    def feature_scored(self, ctx: RuleContext, event: ScoreEvent) -> None:
        state: DataState = ctx.rule_state[self.name]
        if not event.final and event.meeples and state.strength:
            # a scored upgraded meeple's chip leaves the game; before the rule language's own
            # handling, which forgets the meeple's strength
            for mid in event.meeples:
                if state.strength.pop(mid, None) is not None:
                    cid = state.under.pop(mid, None)
                    if cid is not None:
                        state.out.append(cid)
        if self.lang is not None:
            self.lang.feature_scored(ctx, state, event)

    def end_of_turn(self, ctx: RuleContext) -> None:
        state: DataState = ctx.rule_state[self.name]
        if self.lang is not None:
            self.lang.end_of_turn(ctx, state)
        for mid in state.markets:
            state.markets[mid] = ()
        if not ctx.extra_turn_follows:
            # "At the end of your turn you reveal the top tile of the used Island stack": an
            # extra turn is part of the turn (engine/RULES.md, "Benelux: island stacks")
            state.hidden.clear()

    def end_of_game(self, ctx: RuleContext) -> None:
        state: DataState = ctx.rule_state[self.name]
        if self.lang is not None:
            self.lang.end_of_game(ctx, state)
        k = self.spec.held_chip_points
        if not k:
            return
        for p in range(len(ctx.players)):
            total = sum(c.value for c in state.held_chips(p))
            if total:
                ctx.award(p, k * total, "held", f"{len(state.held[p])} chip(s) held at the end")

    # -- view and records ------------------------------------------------------------------------

    def view(self, ctx: RuleContext) -> RuleView:
        out = super().view(ctx)
        state: DataState = ctx.rule_state[self.name]
        lang = state.lang
        if lang is not None and lang.face_down:
            me = ctx.to_move
            for p, ids in enumerate(state.held):
                if p != me:
                    out.held[p] = [
                        (
                            state.chips[c].colour.value,
                            0 if c in lang.face_down else state.chips[c].value,
                        )
                        for c in ids
                    ]
        for sq, tiles in sorted(state.stacks.items()):
            out.stacks.append(StackView(sq, state.face_up(sq), len(tiles)))
        out.isle_meeples = {p: n for p, n in enumerate(state.isle) if n > 0}
        wine = next(
            (m for m in self.points_mechanics if m.pay.kind == "exact_value_one_colour"), None
        )
        if wine is not None:
            out.wines_title = wine.title
            for hand in out.held:
                values: dict[str, list[int]] = {}
                for colour, value in hand:
                    values.setdefault(colour, []).append(value)
                out.wines.append(
                    sorted(c for c, vs in values.items() if payments(vs, wine.pay.value))
                )
        if lang is not None:
            none = (0,) * len(ctx.players)
            out.resources = [
                ResourceView(r.id, r.name, r.colour, r.icon, lang.res.get(r.id, none))
                for r in self.spec.resources
            ]
        return out

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        t = data.get("type")
        if t == RuleAction.type and self.lang is not None:
            return RuleAction.from_dict(data)
        if t == PlaceTreat.type and "treats" in self._parts():
            return PlaceTreat.from_dict(data)
        found = self.by_type.get(t) if isinstance(t, str) else None
        if found is None:
            return None
        cls: Any = found[1]
        action: Action = cls.from_dict(data)
        return action

    def _parts(self) -> set[str]:
        out = set()
        if self.collect.kind == "treat" or any(m.reward.kind == "treat" for m in self.mechanics):
            out.add("treats")
        return out


# -- the class of a spec ------------------------------------------------------------------------


def mechanic_figures(spec: RuleSetSpec) -> dict[str, Figure]:
    """The report figures of ``spec``'s parts: per mechanic ``<id>_taken``, ``chips_paid_<id>``
    (and for points ``<id>_points``, ``<id>_by_market`` when it has several places and
    ``<id>_by_colour`` when one colour pays), ``collect_points``, treat and island figures."""
    out: dict[str, Figure] = {}
    if spec.layout.kind != "none" and spec.collect.points_factor:
        out["collect_points"] = EventStat("chip", "points")
    if spec.collect.kind == "treat" or any(m.reward.kind == "treat" for m in spec.mechanics):
        out["treats_placed"] = ActionCount(("place_treat",))
        out["treat_points"] = EventStat("treat", "points")
    if spec.island_coat_points:
        out["island_coat_points"] = EventStat("island", "points")
    for m in spec.mechanics:
        out[f"{m.id}_taken"] = SummarySum(f"taken_{m.id}")
        out[f"chips_paid_{m.id}"] = SummarySum(f"chips_paid_{m.id}")
        if m.reward.kind == "points":
            out[f"{m.id}_points"] = EventStat(m.id, "points")
            if len(m.reward.where) > 1:
                out[f"{m.id}_by_market"] = ActionTally(m.action, "field", "market")
            if m.pay.kind == "exact_value_one_colour":
                out[f"{m.id}_by_colour"] = ActionTally(m.action, "field", "colour")
    if any(m.reward.kind == "extra_turn" and m.reward.park_meeple for m in spec.mechanics):
        out["meeples_parked_at_end"] = SummarySum("isle_of_man")
    if spec.held_chip_points:
        out["held_chip_points"] = EventStat("held", "points")
    for r in spec.rules:
        out[f"rule_{r.id}_fired"] = SummarySum(f"rule_{r.id}")
        out[f"rule_{r.id}_points"] = EventStat(r.id, "points")
    return out


OPTIONS = {
    "<id>_limit": "a mechanic's limit: 'round', 'turn' or 'none' (France's wine_limit)",
    "export_road_needs_coa": "points at 'border_coa': a border road needs a coat of arms (bool)",
    "stack_size": "island_tile: tiles per stack (int >= 0)",
    "hand_in_without_meeples": "a set handed in on completion even with nothing parked (bool)",
    "set_choice": "a set handed in on completion, several sets: 'player' or 'oldest'",
    "double_turn_after_extra_turn": "extra_turn: offered in an extra turn too (bool)",
    "treat_squares": "collect 'treat': 'free' or 'setup'",
}
"""The rule options (``GameOptions.rule_options``) a data rule set takes besides the common ones
of :mod:`engine.rules.chips_common`: each overrides a parameter of the spec, and exists only when
the spec has the part it changes (the country modules' option names)."""


def _option_names(spec: RuleSetSpec) -> frozenset[str]:
    names = {f"{m.id}_limit" for m in spec.mechanics}
    for m in spec.mechanics:
        if m.pay.kind == "set" and m.pay.hand_in == "on_complete":
            names |= {"hand_in_without_meeples", "set_choice"}
        if m.reward.kind == "points" and "border_coa" in m.reward.where:
            names.add("export_road_needs_coa")
        elif m.reward.kind == "extra_turn":
            names.add("double_turn_after_extra_turn")
        elif m.reward.kind == "island_tile":
            names.add("stack_size")
    if spec.collect.kind == "treat":
        names.add("treat_squares")
    return frozenset(names)


GATED_EXCLUSION = ChipLayout(
    LayoutKind.RANDOM,
    excluded=("gated_islands",),
    excluded_code="chip-on-gated-island",
    excluded_label="a ferry-gated island square",
    excluded_meaning="a chip on a ferry-gated island square, which the rule set keeps free",
)
"""The exclusion a data rule set's ``layout.exclude: ["gated_islands"]`` declares."""


def class_attributes(spec: RuleSetSpec) -> dict[str, Any]:
    """The declarations of the rule set class of ``spec``."""
    layout = spec.layout
    ss = spec.sheet_setup
    fixed = layout.kind == "fixed"
    return {
        "name": spec.name,
        "title": spec.display_title,
        "spec": spec,
        "chip_layout": ChipLayout(
            # chips beside the map or on marks: none laid out on the map's squares
            LayoutKind(layout.kind if layout.kind in ("random", "fixed") else "none"),
            excluded=layout.exclude,
            excluded_code=GATED_EXCLUSION.excluded_code if layout.exclude else "",
            excluded_label=GATED_EXCLUSION.excluded_label if layout.exclude else "",
            excluded_meaning=GATED_EXCLUSION.excluded_meaning if layout.exclude else "",
        ),
        "blocking_prints": spec.blocking_prints,
        "blocking_marks": spec.blocking_marks,
        "sheet_setup": SheetSetup(ss.start_squares, ss.start_squares_used, ss.chips)
        if ss
        else None,
        "issue_codes": ISSUE_CODES,
        "report_figures": mechanic_figures(spec),
        # every offer is optional or reads neither meeples nor supply; every point but the end's
        # is awarded when a tile is placed (placement_points says when to play it out)
        # rules may read and move meeples and scores at any hook: the bot plays everything out
        "bot_hints": BotHints(meeple_blind=False, plain_scoring=False)
        if spec.rules
        else BotHints(meeple_blind=True, plain_scoring=not spec.held_chip_points),
        "colours_visible": fixed,
        "option_names": _option_names(spec),
        "common_options": frozenset(("ones_per_colour", "chips"))
        if fixed
        else frozenset(("ones_per_colour", "chip_reading", "chip_count", "chips")),
    }


@lru_cache(maxsize=256)  # an editing session makes a spec per edit: bounded
def data_rules_class(spec: RuleSetSpec) -> type[DataRules]:
    """The rule set class that plays ``spec`` (made once per spec, for the last 256 specs; not
    registered by name)."""
    return type(f"DataRules_{spec.name}", (DataRules,), {"__module__": __name__, "spec": spec})
