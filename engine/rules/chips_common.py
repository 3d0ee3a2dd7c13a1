"""What the five Map-Chips mini-expansions share: the 30 chips, their setup and collecting them.

Every Map-Chips sheet: "30 Map-Chips (10 each in purple, light blue and orange)", each worth 1 or 2.
How many 1s and 2s each colour has is printed nowhere; the default is **5 ones and 5 twos per
colour** (option ``ones_per_colour``, 0..10; see engine/RULES.md "Map-Chips").

A chip is always in exactly one place: face down on a map square (``down``), face up on a map
square (``up``, Península Ibérica treats), under a meeple (``under``, Deutschland), held face up
by a player (``held``) or out of the game (``out``). So ``board + held + out = 30`` at all times
(:meth:`ChipState.counts`).

Common options (``GameOptions.rule_options``):

* ``ones_per_colour`` (int, default 5): the value split of each colour's 10 chips.
* ``chip_reading`` (``"open_sides"`` | ``"any_city_square"``): see :class:`engine.chips.ChipReading`.
* ``chip_count`` (int): chips laid out at setup (default: the map's ``setup.chip_count``).
* ``chips`` (list of ``[x, y, colour, value]``): lay out exactly these chips instead (puzzles,
  tests); the rest of the 30 are out of the game. Values and colours must fit the 10-per-colour
  set and the ``ones_per_colour`` split.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.chips import ChipReading, generate_layout
from engine.draws import shuffle
from engine.errors import EngineError
from engine.mapdef import Colour
from engine.rules.base import Rules
from engine.rules.spec import ChipLayout, LayoutKind
from engine.rules.view import ChipView, RuleView

if TYPE_CHECKING:
    from engine.game import Game
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.rules.context import RuleContext

COLOURS: tuple[Colour, ...] = (Colour.PURPLE, Colour.LIGHT_BLUE, Colour.ORANGE)
CHIPS_PER_COLOUR = 10
TOTAL_CHIPS = CHIPS_PER_COLOUR * len(COLOURS)
DEFAULT_ONES = 5


@dataclass(frozen=True, slots=True)
class Chip:
    """One chip: ``id`` 0..29, its colour and its value (1 or 2)."""

    id: int
    colour: Colour
    value: int

    def __str__(self) -> str:
        return f"{self.colour.value} {self.value}"


def make_chips(ones_per_colour: int = DEFAULT_ONES) -> tuple[Chip, ...]:
    """The 30 chips: per colour (purple, light blue, orange) ``ones_per_colour`` 1s then 2s."""
    return chip_supply(COLOURS, split_values(ones_per_colour, CHIPS_PER_COLOUR))


def split_values(ones_per_colour: Any, per_colour: int) -> tuple[tuple[int, int], ...]:
    """The value split of ``per_colour`` chips of which ``ones_per_colour`` are 1s, the rest 2s
    (option ``ones_per_colour``)."""
    if (
        not isinstance(ones_per_colour, int)
        or isinstance(ones_per_colour, bool)
        or not 0 <= ones_per_colour <= per_colour
    ):
        raise EngineError(
            f"rule_options.ones_per_colour: {ones_per_colour!r} is not an integer in "
            f"0..{per_colour}"
        )
    return ((1, ones_per_colour), (2, per_colour - ones_per_colour))


def chip_supply(colours: Iterable[Colour], values: Iterable[tuple[int, int]]) -> tuple[Chip, ...]:
    """Every chip: per colour (in :data:`COLOURS` order), ``count`` chips of each ``(value,
    count)``, lowest value first; ids count up from 0. Chips are immutable: every game of a
    supply gets the same tuple."""
    return _chip_supply(frozenset(colours), tuple(sorted(values)))


@functools.lru_cache(maxsize=64)
def _chip_supply(wanted: frozenset[Colour], split: tuple[tuple[int, int], ...]) -> tuple[Chip, ...]:
    chips: list[Chip] = []
    for colour in COLOURS:
        if colour in wanted:
            for value, count in split:
                for _ in range(count):
                    chips.append(Chip(len(chips), colour, value))
    return tuple(chips)


class ChipState:
    """Where every chip is (``game.round`` counts rounds for the "per round" rules).

    Subclasses add their own fields and extend :meth:`_copy_extra` / :meth:`_summary_extra`.
    """

    def __init__(self, chips: tuple[Chip, ...], players: int) -> None:
        self.chips = chips
        """All 30 chips by id (immutable, shared by copies)."""
        self.down: dict[Square, int] = {}
        """Face-down chips on map squares."""
        self.up: dict[Square, int] = {}
        """Face-up chips on map squares (Península Ibérica treats)."""
        self.under: dict[int, int] = {}
        """Meeple id -> the chip under it (Deutschland upgrades)."""
        self.held: list[list[int]] = [[] for _ in range(players)]
        """Chips each player holds face up, in the order taken."""
        self.out: list[int] = []
        """Chips out of the game (unseen at setup, spent, sold, handed in)."""
        self.unseen: list[int] = []
        """The chips of ``out`` that left the game unseen at setup (a subset of ``out``)."""

    # -- copying / summaries ---------------------------------------------------------------------

    def copy(self) -> ChipState:
        new = object.__new__(type(self))
        new.chips = self.chips
        new.down = self.down.copy()
        new.up = self.up.copy()
        new.under = self.under.copy()
        new.held = [h[:] for h in self.held]
        new.out = self.out[:]
        new.unseen = self.unseen
        self._copy_extra(new)
        return new

    def _copy_extra(self, new: Any) -> None:
        """Copy subclass fields into ``new``."""

    def summary(self) -> dict[str, Any]:
        """JSON-able and comparable (records, replay checks)."""

        def sq_map(d: Mapping[Square, int]) -> list[list[int]]:
            return [[sq[0], sq[1], cid] for sq, cid in sorted(d.items())]

        out: dict[str, Any] = {
            "chips": [[c.colour.value, c.value] for c in self.chips],
            "down": sq_map(self.down),
            "up": sq_map(self.up),
            "under": [[mid, cid] for mid, cid in sorted(self.under.items())],
            "held": [list(h) for h in self.held],
            "out": sorted(self.out),
        }
        out.update(self._summary_extra())
        return out

    def _summary_extra(self) -> dict[str, Any]:
        return {}

    def elsewhere(self) -> list[int]:
        """Chips in play that are on none of the places above (a supply beside the map, marks)."""
        return []

    # -- queries ---------------------------------------------------------------------------------

    def counts(self) -> tuple[int, int, int]:
        """``(on the board, held, out of the game)``; they always add up to 30."""
        board = len(self.down) + len(self.up) + len(self.under) + len(self.elsewhere())
        return board, sum(len(h) for h in self.held), len(self.out)

    def chip(self, cid: int) -> Chip:
        return self.chips[cid]

    def held_chips(self, player: int) -> list[Chip]:
        return [self.chips[c] for c in self.held[player]]

    def take_held(self, player: int, colour: Colour | None, value: int) -> int:
        """Remove and return the first chip ``player`` holds with that value (and colour)."""
        hand = self.held[player]
        for i, cid in enumerate(hand):
            c = self.chips[cid]
            if c.value == value and (colour is None or c.colour is colour):
                del hand[i]
                return cid
        raise EngineError(f"player {player} holds no {colour or 'chip'} worth {value}")


def payments(values: Iterable[int], total: int) -> list[tuple[int, ...]]:
    """Every distinct multiset (sorted tuple) of ``values`` that adds up to exactly ``total``."""
    return list(_payments(tuple(sorted(values)), total))


@functools.lru_cache(maxsize=4096)
def _payments(vals: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    # hands are small and repeat (rule hooks ask every turn, bots thousands of times a game)
    found: set[tuple[int, ...]] = set()

    def walk(i: int, left: int, picked: tuple[int, ...]) -> None:
        if left == 0:
            found.add(picked)
            return
        if i >= len(vals) or left < 0:
            return
        walk(i + 1, left - vals[i], (*picked, vals[i]))
        j = i
        while j < len(vals) and vals[j] == vals[i]:
            j += 1
        walk(j, left, picked)

    walk(0, total, ())
    return tuple(sorted(found))


def parse_colour(value: Any, where: str) -> Colour:
    """``value`` as a chip colour; an :class:`EngineError` naming ``where`` and the colours otherwise."""
    try:
        return Colour(value)
    except ValueError:
        names = ", ".join(c.value for c in COLOURS)
        raise EngineError(f"{where}: {value!r} is not a chip colour ({names})") from None


class ChipRules(Rules):
    """Base of the five Map-Chips modules: setup and collecting a chip.

    Collecting (every sheet): "If you place a tile on a square with a chip you take the chip and
    get 1 or 2 points immediately. Then you place the chip face up in front of you." The points
    are a ``chip`` :class:`~engine.scoring.ScoreEvent` (``ctx.award``).
    """

    chip_layout = ChipLayout(LayoutKind.RANDOM)
    state_class: ClassVar[type[ChipState]] = ChipState
    option_names: ClassVar[frozenset[str]] = frozenset()
    """This module's own option names (besides the common ones)."""
    common_options: ClassVar[frozenset[str]] = frozenset(
        ("ones_per_colour", "chip_reading", "chip_count", "chips")
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        known = self.common_options | self.option_names
        unknown = sorted(set(self.options) - known)
        if unknown:
            raise EngineError(
                f"rule_options: unknown option(s) {', '.join(unknown)} for rule set "
                f"{self.name!r} (known: {', '.join(sorted(known))})"
            )

    def bool_option(self, name: str, default: bool) -> bool:
        value = self.options.get(name, default)
        if not isinstance(value, bool):
            raise EngineError(f"rule_options.{name}: {value!r} is not true or false")
        return value

    # -- setup -----------------------------------------------------------------------------------

    def setup(self, ctx: RuleContext) -> None:
        if ctx.map is None:
            raise EngineError(f"rule set {self.name!r} needs a map (the classic board has none)")
        state = self.state_class(self.make_chips(), len(ctx.players))
        ctx.rule_state[self.name] = state
        explicit = self.options.get("chips")
        if explicit is not None:
            self._explicit_layout(ctx, state, explicit)
        else:
            self.lay_out(ctx, state)

    def make_chips(self) -> tuple[Chip, ...]:
        """The chips of a game (the 30 of the sheets, split by ``ones_per_colour``)."""
        return make_chips(self.options.get("ones_per_colour", DEFAULT_ONES))

    def used_starts(self, ctx: RuleContext) -> list[Square]:
        return [sq for sq, _t, _r in ctx.start_tiles]

    def lay_out(self, ctx: RuleContext, state: ChipState) -> None:
        """Shuffle the 30 chips face down and place ``chip_count`` of them evenly (the setup
        rules of :mod:`engine.chips`); the rest leave the game unseen."""
        m = ctx.map
        assert m is not None
        total = len(state.chips)
        count = self.options.get("chip_count", self.layout_count(m))
        if not isinstance(count, int) or not 0 <= count <= total:
            raise EngineError(f"rule_options.chip_count: {count!r} is not an integer in 0..{total}")
        try:
            reading = ChipReading(self.options.get("chip_reading", ChipReading.OPEN_SIDES))
        except ValueError:
            raise EngineError(
                f"rule_options.chip_reading: {self.options.get('chip_reading')!r} is not "
                "'open_sides' or 'any_city_square'"
            ) from None
        squares = generate_layout(
            m,
            self.used_starts(ctx),
            count,
            seed=ctx.rng.randrange(2**31),
            reading=reading,
            chip_layout=self.chip_layout,
        )
        ids = list(range(total))
        ctx.rng.shuffle(ids)
        for sq, cid in zip(squares, ids, strict=False):
            state.down[sq] = cid
        state.unseen = sorted(ids[len(squares) :])
        state.out.extend(state.unseen)

    def layout_count(self, m: MapDef) -> int:
        """Chips laid out at random on ``m`` (without option ``chip_count``)."""
        return m.setup.chip_count

    def _explicit_layout(self, ctx: RuleContext, state: ChipState, explicit: Any) -> None:
        m = ctx.map
        assert m is not None
        free = {c: [ch.id for ch in state.chips if ch.colour is c] for c in COLOURS}
        if not isinstance(explicit, list):
            raise EngineError("rule_options.chips: expected a list of [x, y, colour, value]")
        for i, item in enumerate(explicit):
            where = f"rule_options.chips[{i}]"
            if not isinstance(item, (list, tuple)) or len(item) != 4:
                raise EngineError(f"{where}: expected [x, y, colour, value], got {item!r}")
            x, y, colour_name, value = item
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, value)):
                raise EngineError(f"{where}: x, y and value must be integers, got {item!r}")
            sq = (x, y)
            colour = parse_colour(colour_name, where)
            if sq not in m.placeable_squares():
                raise EngineError(f"{where}: ({x}, {y}) is not a square that takes a tile")
            if sq in ctx.board.tiles:
                raise EngineError(f"{where}: ({x}, {y}) holds a start tile")
            if sq in state.down:
                raise EngineError(f"{where}: two chips on ({sq[0]}, {sq[1]})")
            pick = next((c for c in free[colour] if state.chips[c].value == value), None)
            if pick is None:
                raise EngineError(
                    f"{where}: no {colour.value} chip worth {value!r} left in the "
                    f"{len(state.chips)}-chip set"
                )
            free[colour].remove(pick)
            state.down[sq] = pick
        state.unseen = sorted(c for ids in free.values() for c in ids)
        state.out.extend(state.unseen)

    # -- hidden information (bots' copies) -------------------------------------------------------

    colours_visible: ClassVar[bool] = False
    """Whether the colour of a face-down chip is known (Great Britain's marked squares)."""

    def redeal_hidden(self, ctx: RuleContext, rng: random.Random) -> None:
        """Re-deal face-down chips and the chips that left unseen at setup (within each colour
        when colours are visible): a bot's copy does not know the hidden values."""
        state: ChipState = ctx.rule_state[self.name]
        squares = sorted(state.down)
        unseen = set(state.unseen)
        if not self.colours_visible:
            # one group (what the loop below does with a single colour, in fewer steps: bots
            # re-deal at every decision)
            down = state.down
            ids = [down[sq] for sq in squares]
            ids.extend(state.unseen)
            shuffle(rng, ids)
            for sq, cid in zip(squares, ids, strict=False):  # squares first; strict is slow
                down[sq] = cid
            left = sorted(ids[len(squares) :])
            state.out = [c for c in state.out if c not in unseen] + left
            state.unseen = left[:]
            return
        groups: dict[Any, list[int]] = {}
        slots: dict[Any, list[Any]] = {}
        for key in [*squares, *(("unseen", c) for c in state.unseen)]:
            cid = state.down[key] if key in state.down else key[1]
            group = state.chips[cid].colour if self.colours_visible else None
            groups.setdefault(group, []).append(cid)
            slots.setdefault(group, []).append(key)
        new_unseen: list[int] = []
        for group, ids in groups.items():
            # rng.shuffle's permutation, faster: bots copy games thousands of times
            shuffle(rng, ids)
            for key, cid in zip(slots[group], ids, strict=False):  # one length; strict is slow
                if isinstance(key[0], int):
                    state.down[key] = cid
                else:
                    new_unseen.append(cid)
        state.out = [c for c in state.out if c not in unseen] + sorted(new_unseen)
        state.unseen = sorted(new_unseen)

    # -- collecting ------------------------------------------------------------------------------

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        state: ChipState = ctx.rule_state[self.name]
        cid = state.down.pop(square, None)
        if cid is not None:
            chip = state.chips[cid]
            ctx.award(ctx.to_move, chip.value, "chip", f"took a {chip} chip")
            self.chip_taken(ctx, state, ctx.to_move, cid)

    def placement_points(self, ctx: RuleContext, square: Square) -> int | None:
        state: ChipState = ctx.rule_state[self.name]
        cid = state.down.get(square)
        return 0 if cid is None else state.chips[cid].value  # the chip, taken and scored

    def chip_taken(self, ctx: RuleContext, state: Any, player: int, cid: int) -> None:
        """A face-down chip was taken and scored: by default it is kept face up."""
        state.held[player].append(cid)

    # -- what the playtest shows -----------------------------------------------------------------

    def view(self, ctx: RuleContext) -> RuleView:
        """Chips on the board (face-down colours only when :attr:`colours_visible`), upgraded
        meeples and every player's held chips; subclasses add their own pieces."""
        state: ChipState = ctx.rule_state[self.name]
        out = RuleView()
        show = self.colours_visible
        for sq, cid in sorted(state.down.items()):
            chip = state.chips[cid]
            out.chips.append(ChipView(sq, chip.colour.value if show else None, None))
        for sq, cid in sorted(state.up.items()):
            chip = state.chips[cid]
            out.chips.append(ChipView(sq, chip.colour.value, chip.value))
        out.upgraded.update(state.under)
        out.held = [
            [(c.colour.value, c.value) for c in state.held_chips(p)] for p in range(len(state.held))
        ]
        return out


def invariant_violations(game: Game) -> list[str]:
    """Map-Chips invariants of ``game``, one sentence per violation (empty: all hold).

    Chips: on the board + held + out of the game = 30, each chip in exactly one place, none on a
    square that holds a tile, none under a meeple that left the board. Meeples: supply + board +
    Isle of Man = meeples per player, none negative.
    """
    out: list[str] = []
    for r in game.rules:
        st = game.rule_state.get(r.name)
        if not isinstance(st, ChipState):
            continue
        ids = [
            *st.down.values(),
            *st.up.values(),
            *st.under.values(),
            *(c for h in st.held for c in h),
            *st.out,
            *st.elsewhere(),
        ]
        if sorted(ids) != list(range(len(st.chips))):
            board, held, gone = st.counts()
            out.append(
                f"{r.name}: chips not conserved (board {board} + held {held} + out {gone}, "
                f"{len(set(ids))} distinct)"
            )
        for sq in (*st.down, *st.up):
            if sq in game.board.tiles:
                out.append(f"{r.name}: a chip on ({sq[0]}, {sq[1]}), which holds a tile")
        for mid in st.under:
            if mid not in game.meeples:
                out.append(f"{r.name}: a chip under meeple {mid}, which is not on the board")
        isle = getattr(st, "isle", None) or [0] * len(game.players)
        for p in range(len(game.players)):
            on_board = game.meeples_on_board(p)
            total = game.supply[p] + on_board + isle[p]
            if game.supply[p] < 0 or isle[p] < 0 or total != game.meeples_per_player:
                out.append(
                    f"{r.name}: {game.players[p]}'s meeples not conserved (supply "
                    f"{game.supply[p]} + board {on_board} + Isle of Man {isle[p]} != "
                    f"{game.meeples_per_player})"
                )
    return out
