"""A game of Carcassonne on a map (or the unbounded classic table): players, meeples, draw pile,
turns, scoring and the record of actions.

Feels like python-chess::

    >>> from engine.game import Game, GameOptions
    >>> g = Game(None, players=2, seed=1)          # classic board, start tile D at (0, 0)
    >>> g.current_tile in g.tileset
    True
    >>> move = next(iter(g.legal_moves()))
    >>> move in g.legal_moves()
    True
    >>> events = g.play(move)                        # checked; IllegalMoveError otherwise

``play()`` checks and raises :class:`~engine.errors.IllegalMoveError` (state unchanged);
``push()``/``pop()`` and ``copy()`` are the fast unchecked path for bots.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine import draws
from engine.board import (
    HALF_NAMES,
    INNER_FIELD,
    MONASTERY_LOCATION,
    Board,
    BoardTrial,
    MapOptions,
)
from engine.errors import EngineError, IllegalMoveError
from engine.features import CITY, FIELD, KIND_NAMES, MONASTERY
from engine.gameoptions import DEFAULT_OPTIONS, GameOptions
from engine.geometry import Square
from engine.legal import NO_LOCS, Block, LegalMoveGenerator, LegalPlacementGenerator, MoveIndex
from engine.mapdef import MapDef
from engine.moves import Action, Draw, Move, Pass, Placement
from engine.phase import ACTION as _ACTION
from engine.phase import AFTER as _AFTER
from engine.phase import DRAW as _DRAW
from engine.phase import OVER as _OVER
from engine.phase import PLACE as _PLACE
from engine.phase import TURN_END as _TURN_END
from engine.phase import Phase
from engine.record import GameRecord, record_of
from engine.rules.base import Rules
from engine.rules.context import RuleContext
from engine.rules.registry import get_rules, rules_for
from engine.rules.spec import PRINTS, with_marks_blocked, without_prints
from engine.scoring import (
    KINDS,
    ScoreEvent,
    completed_cities,
    feature_points,
    final_points,
    majority,
    square_tiles,
)
from engine.tiles import default_tileset

PLAYER_NAMES = ("Red", "Blue", "Green", "Yellow", "Black", "Grey")
_FIELD_LOCATIONS = frozenset((*HALF_NAMES, INNER_FIELD))


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class _Hooks(NamedTuple):
    """The rules that do something on each notification hook, in play order: a hook a rule
    set leaves as :class:`Rules` has it (doing nothing, or offering nothing), or declares quiet
    (:meth:`Rules.quiet_hooks`), is not called, since every turn asks each hook."""

    start_of_turn: tuple[Rules, ...]
    draw_actions: tuple[Rules, ...]
    tile_drawn: tuple[Rules, ...]
    tile_placed: tuple[Rules, ...]
    meeple_placed: tuple[Rules, ...]
    on_score: tuple[Rules, ...]
    feature_scored: tuple[Rules, ...]
    end_of_turn: tuple[Rules, ...]
    offers_action: tuple[Rules, ...]
    """Asked :meth:`Rules.has_actions` after a placement (phase ``action``)."""
    offers_after: tuple[Rules, ...]
    """Asked :meth:`Rules.has_actions` after the scoring (phase ``after``)."""
    decider: tuple[Rules, ...]
    """Asked :meth:`Rules.decider` in phases ``action`` and ``after``."""

    @classmethod
    def of(cls, rules: Sequence[Rules]) -> _Hooks:
        names = cls._fields
        if not rules:
            return cls(*[()] * len(names))
        doing: dict[str, list[Rules]] = {h: [] for h in names}
        for r in rules:
            own = getattr(r, "__dict__", None)  # a hook set on the instance counts too
            hooks = _hooks_defined(type(r)) - r.quiet_hooks()
            if own and not own.keys().isdisjoint(doing):
                hooks = hooks | (own.keys() & doing.keys())
            for h in hooks:
                doing[h].append(r)
        return cls(*[tuple(doing[h]) for h in names])


_HOOKS_DEFINED: dict[type[Rules], frozenset[str]] = {}


def _hooks_defined(rules_class: type[Rules]) -> frozenset[str]:
    """The notification hooks (:class:`_Hooks`) that ``rules_class`` defines for itself."""
    found = _HOOKS_DEFINED.get(rules_class)
    if found is None:
        if len(_HOOKS_DEFINED) > 256:  # rule sets made from data are classes too: bound it
            _HOOKS_DEFINED.clear()
        # a rule set that lists no actions of its own offers none in any phase
        offers = any(
            getattr(rules_class, m) is not getattr(Rules, m) for m in ("actions", "has_actions")
        )
        found = _HOOKS_DEFINED[rules_class] = frozenset(
            h
            for h in _Hooks._fields
            if (
                offers
                if h.startswith("offers_")
                else getattr(rules_class, h) is not getattr(Rules, h)
            )
        )
    return found


class Meeple(NamedTuple):
    """A meeple on the board."""

    player: int
    square: Square
    location: str
    """Canonical location in board orientation (``N``, ``NL``, ``C``, ...)."""
    node: int
    """Its feature node on the board (-1 on a monastery)."""
    strength: int = 1
    """How many meeples it counts as for majorities (rule sets may raise it)."""


class _Trial(NamedTuple):
    """What :meth:`Game.pop` needs to undo a :meth:`Game.push_placement`."""

    state: tuple[Any, ...]
    """The game's fields (:meth:`Game._fields`)."""
    board: BoardTrial
    events: int
    history: int


def _board_map(m: MapDef | None, opts: GameOptions) -> MapDef | None:
    """The map the board is built on: on a map made for a Map-Chips rule set, the prints no rule
    set in play uses are ignored (unless ``opts.map_chips_prints == "keep"``); a map made for no
    rule set keeps its prints as drawn. The game keeps the map itself for its record."""
    if m is None or opts.map_chips_prints == "keep" or m.rule_set.name == "none":
        return m
    used: set[str] = set()
    marks: tuple[str, ...] = ()
    with contextlib.suppress(EngineError):  # Game._make_rules reports an unknown name
        cls = rules_for(opts.rule_set, m)
        if cls is not None:
            used.update(cls.blocking_prints)
            marks = cls.blocking_marks
    present = {"waves": bool(m.waves), "island_stacks": bool(m.stack_squares())}
    ignored = [p for p in PRINTS if p not in used and present[p]]
    out = without_prints(m, ignored) if ignored else m
    return with_marks_blocked(out, marks) if marks and m.marks else out


class Game:
    """One game. Create it from a map (``None`` for the classic board), players and a seed.

    Its public methods are the player API (``legal_moves``, ``play``, ``push``/``pop``,
    ``copy``, ``projected_scores``...). Rule sets never call it: their hooks act through a
    :class:`~engine.rules.context.RuleContext` (docs/rule-sets.md)."""

    def __init__(
        self,
        map: MapDef | None = None,  # noqa: A002 - the brief's public name
        *,
        players: int | Sequence[str] = 2,
        seed: int = 0,
        options: GameOptions | None = None,
        tileset: Any = None,
        map_path: str | None = None,
    ) -> None:
        opts = options or DEFAULT_OPTIONS
        names = (
            list(PLAYER_NAMES[:players]) if isinstance(players, int) else [str(p) for p in players]
        )
        if not 2 <= len(names) <= 6 or (isinstance(players, int) and not 2 <= players <= 6):
            raise EngineError(f"players: {players!r}: a game has 2 to 6 players")
        self.map: MapDef | None = map
        self.map_path = map_path
        self.options = opts
        self.seed = seed
        self.tileset = tileset or default_tileset()
        self.players: tuple[str, ...] = tuple(names)
        self.rng = random.Random(seed)
        map_options = MapOptions(
            large_city_connect=opts.large_city_connect,
            large_city_road_tile=opts.large_city_road_tile,
            fields_touch_large_city=opts.fields_touch_large_city,
            gated_islands=opts.gated_islands,
        )
        self.board = Board(_board_map(map, opts), self.tileset, map_options)
        n = len(names)
        if opts.meeples is not None:
            per = opts.meeples
        else:
            per = map.setup.meeples_per_player if map is not None else 7
        self.meeples_per_player = per
        self.scores: list[int] = [0] * n
        self.breakdown: list[dict[str, int]] = [dict.fromkeys(KINDS, 0) for _ in range(n)]
        self.supply: list[int] = [per] * n
        self.meeples: dict[int, Meeple] = {}
        self.monks: dict[Square, int] = {}
        self._next_meeple = 0
        self.events: list[ScoreEvent] = []
        self.history: list[Action] = []
        self.turn = 0
        """Turns played (tile placements by players)."""
        self.to_move = 0
        self.round = 0
        """Completed rounds: incremented each time the turn passes back to the first player."""
        self.current_tile: str | None = None
        self.set_aside: list[str] = []
        """Drawn tiles that fitted nowhere (out of the game)."""
        self.phase = _PLACE
        self.start_tiles: list[tuple[Square, str, int]] = []
        self.last_placement: tuple[Square, str, int] | None = None
        self.rule_state: dict[str, Any] = {}
        self._extra_turns: tuple[str, ...] = ()
        """Who granted each turn the current player still takes before the next player, in the
        order they are played (``RuleContext.grant_extra_turn``)."""
        self._extra_turn_by: str | None = None
        """Who granted the current turn as an extra turn (``RuleContext.extra_turn_by``);
        ``None``: a normal turn."""
        self._skips: tuple[int, ...] = ()
        """Turns each player will miss (``RuleContext.skip_turn``); empty: none."""
        self._pending: tuple[list[int], list[Square]] = ([], [])
        self._stack: list[tuple[Any, ...] | _Trial] = []
        """What :meth:`pop` puts back: the fields (:meth:`_fields`) before a :meth:`push` or
        :meth:`push_redeal`, or a :class:`_Trial` of :meth:`push_placement`."""
        self._hold_turn_end = False
        """Inside :meth:`push_placement`: stop where the turn would end."""
        self._rng_saved: list[tuple[Any, ...]] | None = None
        """Inside :meth:`push_redeal`: where the state of :attr:`rng` is kept when a rule draws
        from it (``RuleContext.rng``), to be put back by :meth:`pop`."""
        self._rule_ctx = RuleContext(self)
        """What the rule hooks see of this game (:mod:`engine.rules.context`)."""
        self.rules: list[Rules] = self._make_rules()
        self._hooks = _Hooks.of(self.rules)
        """Per notification hook, the rules that do something on it (see :class:`_Hooks`)."""
        self.pile: list[str] = self._make_pile()
        self._place_start_tiles()
        for r in self.rules:
            r.setup(self._rule_ctx)
        self._begin_turn()

    # -- setup -----------------------------------------------------------------------------------

    def _make_rules(self) -> list[Rules]:
        opts = self.options
        rules: list[Rules] = []
        try:
            cls = rules_for(opts.rule_set, self.map)
        except EngineError as exc:
            raise EngineError(
                f"{exc}; pass GameOptions(rule_set='none') to play without Map-Chips"
            ) from None
        if cls is not None:
            rules.append(cls(opts.rule_options))
        if opts.town_extra_tile or opts.town_cost or opts.town_road_bonus:
            towns = get_rules("towns")
            rules.append(
                towns(
                    {
                        "extra_tile": opts.town_extra_tile,
                        "cost": opts.town_cost,
                        "road_bonus": opts.town_road_bonus,
                    }
                )
            )
        return rules

    def _make_pile(self) -> list[str]:
        opts = self.options
        start = opts.start_tile or self.tileset.start_tile
        if start not in self.tileset:
            raise EngineError(f"options.start_tile: unknown tile id {start!r}")
        if opts.draw_order is not None:
            for tid in opts.draw_order:
                if tid not in self.tileset:
                    raise EngineError(f"options.draw_order: unknown tile id {tid!r}")
            return list(reversed(opts.draw_order))
        pool_name = opts.tile_pool or ("base+ic+tb" if self.map is not None else "base")
        count = opts.tile_count
        if count is None and self.map is not None:
            # the map's recommendation (e.g. 90-100 for Great Britain): its upper bound
            full = len(self.tileset.full_pool(pool_name))
            count = (
                min(full, self.map.setup.tile_pool_max) if self.map.setup.tile_pool_max else None
            )
            if count == full:
                count = None
        pool = self.tileset.pool(pool_name, count, self.rng)
        if start in pool:
            pool.remove(start)
        draws.shuffle(self.rng, pool)  # rng.shuffle(pool), faster
        return pool

    def _place_start_tiles(self) -> None:
        board = self.board
        start = self.options.start_tile or self.tileset.start_tile
        if self.map is None:
            board.place((0, 0), start, 0)
            self.start_tiles.append(((0, 0), start, 0))
            return
        m = self.map
        if self.options.start_squares is not None:
            squares: list[Square] = [(s[0], s[1]) for s in self.options.start_squares]
            for sq in squares:
                if sq not in m.start_squares:
                    raise EngineError(
                        f"options.start_squares: ({sq[0]}, {sq[1]}) is not a start square of "
                        f"map {m.id!r}"
                    )
        else:
            if not m.start_squares:
                raise EngineError(f"map {m.id!r} has no start squares")
            k = max(1, min(m.setup.start_squares_used, len(m.start_squares)))
            squares = self.rng.sample(sorted(m.start_squares), k)
        for i, sq in enumerate(squares):
            if sq in board.tiles:
                raise EngineError(f"options.start_squares: ({sq[0]}, {sq[1]}) given twice")
            if sq not in board.layout.placeable:  # type: ignore[union-attr]
                raise EngineError(
                    f"start square ({sq[0]}, {sq[1]}) of map {m.id!r} cannot take a tile"
                )
            pattern = board.req.get(sq, "????")
            if i == 0:
                rots = board.compiled.fits(start, pattern)
                if not rots:
                    raise EngineError(
                        f"the start tile {start} fits no rotation on start square "
                        f"({sq[0]}, {sq[1]})"
                    )
                tid, rot = start, (0 if 0 in rots else rots[0])
            else:
                while True:
                    if not self.pile:
                        raise EngineError("the draw pile ran out while placing the start tiles")
                    tid = self.pile.pop()
                    rots = board.compiled.fits(tid, pattern)
                    if rots:
                        rot = self.rng.choice(rots)
                        break
                    self.set_aside.append(tid)
            board.place(sq, tid, rot)
            self.start_tiles.append((sq, tid, rot))

    # -- turn flow --------------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        end = self.options.end_after_turns
        if end is not None and self.turn >= end:
            self._finish()
            return
        if not self.pile:
            self._finish()
            return
        if self.rules:
            hooks = self._hooks
            ctx = self._rule_ctx
            for r in hooks.start_of_turn:
                r.start_of_turn(ctx)
            if self.phase is _OVER:
                return
            for r in hooks.draw_actions:
                if r.draw_actions(ctx):
                    self.phase = _DRAW
                    self.current_tile = None
                    return
        self._draw()

    def _draw(self) -> None:
        pile = self.pile
        board = self.board
        while pile:
            tid = pile.pop()
            if board.has_placement(tid):
                self.current_tile = tid
                self.phase = _PLACE
                for r in self._hooks.tile_drawn:
                    r.tile_drawn(self._rule_ctx, tid)
                return
            self.set_aside.append(tid)
        self._finish()

    def _set_current_tile(self, tile_id: str) -> None:
        """Make ``tile_id`` the tile to place now (``RuleContext.set_current_tile``)."""
        self.current_tile = tile_id
        self.phase = _PLACE
        for r in self._hooks.tile_drawn:
            r.tile_drawn(self._rule_ctx, tile_id)

    def _apply_move(self, move: Move) -> None:
        tile = self.current_tile
        assert tile is not None
        sq = move.square
        rot = move.rotation
        board = self.board
        self._pending = board.place(sq, tile, rot)
        self.last_placement = (sq, tile, rot)
        self.current_tile = None
        player = self.to_move
        hooks = self._hooks
        ctx = self._rule_ctx
        for r in hooks.tile_placed:
            r.tile_placed(ctx, sq, tile, rot)
        loc = move.meeple
        if loc is not None:
            mid = self._put_meeple(player, sq, loc)
            for r in hooks.meeple_placed:
                r.meeple_placed(ctx, mid)
        for r in hooks.offers_action:
            if r.has_actions(ctx, "action"):
                self.phase = _ACTION
                return
        self._score_and_continue()

    def _put_meeple(self, player: int, sq: Square, loc: str) -> int:
        """A meeple of ``player``'s supply on location ``loc`` of the tile on ``sq`` (checked
        by the caller); returns its id."""
        board = self.board
        o = board.tiles[sq]
        seg = o.aliases[loc]
        node = board.nodes[sq][seg]
        mid = self._next_meeple
        self._next_meeple = mid + 1
        self.meeples[mid] = Meeple(player, sq, o.names[seg], node, 1)
        self.supply[player] -= 1
        if node < 0:
            self.monks[sq] = mid
        else:
            f = board.features
            root = f.find(node)
            f.meeples[root] = f.meeples.get(root, ()) + (mid,)
        return mid

    def _score_and_continue(self) -> None:
        completed, monks = self._pending
        self._pending = ([], [])
        meeples = self.board.features.meeples
        for root in completed:
            if root in meeples:
                self._score_feature(root, final=False)
        for sq in monks:
            if sq in self.monks:
                self._score_monastery(sq, final=False)
        for r in self._hooks.offers_after:
            if r.has_actions(self._rule_ctx, "after"):
                self.phase = _AFTER
                return
        self._end_turn()

    def _end_turn(self) -> None:
        if self._hold_turn_end:
            self.phase = _TURN_END
            return
        for r in self._hooks.end_of_turn:
            r.end_of_turn(self._rule_ctx)
        self.turn += 1
        extra = self._extra_turns
        if extra:
            self._extra_turn_by = extra[0]
            self._extra_turns = extra[1:]
        else:
            self._extra_turn_by = None
            self.to_move = (self.to_move + 1) % len(self.players)
            if self.to_move == 0:
                self.round += 1
            if self._skips:
                self._skip_turns()
        self._begin_turn()

    def _skip_turns(self) -> None:
        """Pass over the players who miss this turn (each misses one a round at most: when
        every player owes one, each misses one and the next plays)."""
        n = len(self.players)
        skips = list(self._skips)
        for _ in range(n):
            p = self.to_move
            if not skips[p]:
                break
            skips[p] -= 1
            self.to_move = (p + 1) % n
            if self.to_move == 0:
                self.round += 1
        self._skips = tuple(skips) if any(skips) else ()

    def _finish(self) -> None:
        self.current_tile = None
        self.phase = _OVER
        f = self.board.features
        find = f.find
        seen: set[int] = set()
        later: list[int] = []
        for mid in sorted(self.meeples):
            _player, sq, _loc, node, _s = self.meeples[mid]
            if node < 0:
                if self.monks.get(sq) == mid:
                    self._score_monastery(sq, final=True)
                continue
            root = find(node)
            if root in seen:
                continue
            seen.add(root)
            if f.kind[root] == FIELD:
                later.append(root)
            else:
                self._score_feature(root, final=True)
        if self.options.farmers:
            for root in later:
                self._score_feature(root, final=True)
        for r in self.rules:
            r.end_of_game(self._rule_ctx)

    # -- scoring ---------------------------------------------------------------------------------

    def meeple_strength(self, meeple_id: int) -> int:
        """How many meeples this one counts as for majorities (rule sets may say 2)."""
        for r in self.rules:
            s = r.meeple_strength(self._rule_ctx, meeple_id)
            if s is not None:
                return s
        return self.meeples[meeple_id].strength

    def majority_of(self, meeple_ids: Sequence[int]) -> tuple[int, ...]:
        """The players who score a feature carrying ``meeple_ids``: the most meeples, counted
        with their strengths (:meth:`meeple_strength`); tied players all score."""
        meeples = self.meeples
        n = len(meeple_ids)
        if n == 0:
            return ()
        first = meeples[meeple_ids[0]].player
        for i in range(1, n):
            if meeples[meeple_ids[i]].player != first:
                break
        else:
            # one player holds them all: theirs whatever the strengths (half the multi-meeple
            # features the greedy evaluator projects), so no rule set is asked
            return (first,)
        strengths: dict[int, int] = {}
        for mid in meeple_ids:
            p = meeples[mid].player
            strengths[p] = strengths.get(p, 0) + self.meeple_strength(mid)
        return majority(strengths)

    def _score_feature(self, root: int, *, final: bool) -> None:
        f = self.board.features
        mids = f.meeples.get(root, ())
        meeples = self.meeples
        winners = self.majority_of(mids)
        kind = f.kind[root]
        if kind == FIELD:
            cities = completed_cities(f, root)
            event = ScoreEvent(
                self.turn,
                "field",
                3 * cities,
                winners,
                tuple([self.players[p] for p in winners]),
                final=True,
                cities=cities,
                squares=square_tiles(f, root),
                feature=root,
                meeples=mids,
            )
        else:
            tiles = len(f.tiles[root])
            coa = f.coa[root]
            event = ScoreEvent(
                self.turn,
                KIND_NAMES[kind],
                feature_points(kind, tiles, coa, final),
                winners,
                tuple([self.players[p] for p in winners]),
                final=final,
                tiles=tiles,
                coats_of_arms=coa,
                name=f.label.get(root) if kind == CITY else None,
                squares=square_tiles(f, root),
                feature=root,
                meeples=mids,
            )
        self._add_event(event)
        if not final:
            supply = self.supply
            for mid in mids:
                supply[meeples.pop(mid)[0]] += 1
            f.meeples.pop(root, None)

    def _score_monastery(self, square: Square, *, final: bool) -> None:
        mid = self.monks[square]
        player = self.meeples[mid][0]
        n = self.board.monk_neighbour_count(square)
        event = ScoreEvent(
            self.turn,
            "monastery",
            1 + n,
            (player,),
            (self.players[player],),
            final=final,
            tiles=n,
            squares=(square,),
            meeples=(mid,),
        )
        self._add_event(event)
        if not final:
            del self.monks[square]
            del self.meeples[mid]
            self.supply[player] += 1

    def _add_event(self, event: ScoreEvent) -> None:
        for r in self._hooks.on_score:
            event = r.on_score(self._rule_ctx, event)
        for p in event.players:
            self.scores[p] += event.points
            bd = self.breakdown[p]
            bd[event.kind] = bd.get(event.kind, 0) + event.points
        self.events.append(event)
        for r in self._hooks.feature_scored:
            r.feature_scored(self._rule_ctx, event)

    # -- legality ---------------------------------------------------------------------------------

    def _meeple_locations(self, sq: Square, tile: str, rot: int) -> list[str]:
        if self.supply[self.to_move] <= 0:
            return []
        locs = self.board.meeple_options(sq, tile, rot)
        if not self.options.farmers:
            locs = [loc for loc in locs if loc not in _FIELD_LOCATIONS]
        return locs

    def _list_moves(self) -> list[Action]:
        phase = self.phase
        if phase is _PLACE:
            tile = self.current_tile
            assert tile is not None
            new = tuple.__new__
            if self.supply[self.to_move] <= 0:
                return [new(Move, (sq, rot, None)) for sq, rot in self.board.placements(tile)]
            # built from the blocks the views count (Board.move_blocks): their meeple options
            # are cached per contact pattern, and a square's are checked, not worked out anew
            out: list[Action] = []
            append = out.append
            for squares, rots, locs, _n in self._move_index().blocks:
                by_rotation = tuple(zip(rots, locs, strict=False))  # one length
                for sq in squares:
                    for rot, names in by_rotation:
                        append(new(Move, (sq, rot, None)))
                        for loc in names:
                            append(new(Move, (sq, rot, loc)))
            return out
        if phase is _DRAW:
            acts: list[Action] = [Draw()]
            for r in self.rules:
                acts.extend(r.draw_actions(self._rule_ctx))
            return acts
        if phase is _ACTION or phase is _AFTER:
            ph = phase.value
            acts = [Pass()] if self._pass_allowed() else []
            for r in self._offering():
                acts.extend(r.actions(self._rule_ctx, ph))
            return acts
        return []

    def placement_blocks(self) -> list[Block]:
        """The placing moves of this turn (phase PLACE) as :meth:`legal_moves` counts them:
        blocks ``(squares, rotations, meeple locations per rotation, moves per square)``, in
        the order of ``legal_moves().list()`` (each square, each rotation: the bare placement,
        then a meeple on each location). For bots that judge placements without building
        every move."""
        return self._move_index().blocks

    def _move_index(self) -> MoveIndex:
        """The moves of this placement turn counted in :meth:`_list_moves` order (blocks of
        squares whose moves differ only in the square; only the one drawn gets built)."""
        tile = self.current_tile
        assert tile is not None
        board = self.board
        index = MoveIndex()
        starts = index.starts
        blocks = index.blocks
        total = 0
        if self.supply[self.to_move] <= 0:  # no meeple to place: one move per placement
            groups = board._groups  # Board.placement_groups, inlined: a frame less per group
            for p, rots in board._fitting(tile):
                squares = groups[p]
                if squares:
                    n = len(rots)
                    starts.append(total)
                    blocks.append((squares, rots, NO_LOCS[n], n))
                    total += n * len(squares)
            index.total = total
            return index
        index.total = board.move_blocks(tile, self.options.farmers, starts, blocks)
        return index

    def _has_moves(self) -> bool:
        if self.phase is _PLACE:
            return self.current_tile is not None and self.board.has_placement(self.current_tile)
        return self.phase is not _OVER

    def _pass_allowed(self) -> bool:
        phase = self.phase.value
        return all(r.pass_allowed(self._rule_ctx, phase) for r in self._offering())

    def _deciding(self) -> Rules | None:
        """The rule module whose choice a player other than the player to move is making now
        (phases ``action`` and ``after`` only)."""
        phase = self.phase
        if phase is _ACTION or phase is _AFTER:
            ctx = self._rule_ctx
            for r in self._hooks.decider:
                if r.decider(ctx, phase.value) is not None:
                    return r
        return None

    def _offering(self) -> Sequence[Rules]:
        """The rule modules whose actions are offered now: the deciding one, or all."""
        if self._hooks.decider:
            deciding = self._deciding()
            if deciding is not None:
                return (deciding,)
        return self.rules

    @property
    def decider(self) -> int:
        """The player who acts now: the player to move, or, in phases ``action`` and
        ``after``, another player a rule asks for a choice inside the turn
        (:meth:`Rules.decider`). Bots choose for it, seats of the playtest and of online
        tables act when it is theirs; records need nothing more (the actions say it)."""
        if self._hooks.decider:
            deciding = self._deciding()
            if deciding is not None:
                got = deciding.decider(self._rule_ctx, self.phase.value)
                if got is not None:
                    return got
        return self.to_move

    def rule(self, name: str) -> Rules | None:
        """The active rule module called ``name`` (``None`` if not in play)."""
        return next((r for r in self.rules if r.name == name), None)

    def legal_moves(self) -> LegalMoveGenerator:
        """Every legal action now: a live view (iterate, ``in``, ``len()``, ``count()``,
        ``list()``, ``bool()``, ``[i]``; see :class:`LegalMoveGenerator`)."""
        return LegalMoveGenerator(self)

    def legal_placements(self) -> LegalPlacementGenerator:
        """Every legal :class:`Placement` of the current tile (no meeple choice)."""
        return LegalPlacementGenerator(self)

    def _placement_list(self) -> list[Placement]:
        if self.phase is _PLACE and self.current_tile is not None:
            new = tuple.__new__
            return [new(Placement, p) for p in self.board.placements(self.current_tile)]
        return []

    def _placement_check(self, p: object) -> bool:
        return (
            isinstance(p, Placement)
            and self.phase is _PLACE
            and self.current_tile is not None
            and self.board.is_legal(p.square, self.current_tile, p.rotation)
        )

    def _has_placement(self) -> bool:
        return self.phase is _PLACE and self._has_moves()

    def meeple_locations(self, placement: Placement) -> list[str]:
        """Where the current player may put a meeple after ``placement`` (canonical names)."""
        tile = self.current_tile
        if tile is None or not self.board.is_legal(placement.square, tile, placement.rotation):
            return []
        return self._meeple_locations(placement.square, tile, placement.rotation)

    def is_legal(self, action: object) -> bool:
        return isinstance(action, Action) and self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        """``None`` if ``action`` is legal now, else a sentence saying why not."""
        phase = self.phase
        if phase is _OVER:
            return "the game is over"
        if isinstance(action, Move):
            if phase is not _PLACE:
                return f"no tile to place now (the game waits for a {phase.value} action)"
            tile = self.current_tile
            assert tile is not None
            sq = action.square
            if not isinstance(sq, tuple) or len(sq) != 2 or not all(isinstance(c, int) for c in sq):
                return f"square {sq!r} is not an (x, y) pair of integers"
            why = self.board.why_illegal(sq, tile, action.rotation)
            if why is not None:
                return why
            loc = action.meeple
            if loc is None:
                return None
            o = self.board.compiled.oriented[tile][action.rotation // 90]
            seg = o.segment_at(loc)
            where = f"tile {tile} at rotation {action.rotation} on ({sq[0]}, {sq[1]})"
            if seg is None:
                names = ", ".join(n for n, _ in o.locations)
                return f"{where} has no feature at {loc!r} (its locations: {names})"
            if self.supply[self.to_move] <= 0:
                return f"{self.players[self.to_move]} has no meeple left in supply"
            if not self.options.farmers and loc in _FIELD_LOCATIONS:
                return "farmers are off in this game: no meeple on a field"
            canonical = o.names[seg]
            if canonical not in self.board.meeple_options(sq, tile, action.rotation):
                kind = KIND_NAMES[o.kinds[seg]]
                return f"the {kind} at {loc} of {where} joins a {kind} that already has a meeple"
            return None
        if isinstance(action, Pass):
            if phase is _ACTION or phase is _AFTER:
                if not self._pass_allowed():
                    return "cannot pass now: a rule action must be taken first"
                return None
            return f"cannot pass now (the game waits for a {phase.value} action)"
        if isinstance(action, Draw):
            if phase is _DRAW:
                return None
            return "cannot draw now"
        for r in self._offering():
            offered = (
                r.draw_actions(self._rule_ctx)
                if phase is _DRAW
                else r.actions(self._rule_ctx, phase.value)
                if phase in (_ACTION, _AFTER)
                else []
            )
            if action in offered:
                return None
        return f"{action} is not allowed now (phase {phase.value})"

    # -- playing ----------------------------------------------------------------------------------

    def play(self, action: Action) -> list[ScoreEvent]:
        """Check and carry out ``action``; returns the scoring events it caused.

        :raises IllegalMoveError: naming the turn and the reason; the state is unchanged.
        """
        why = (
            self.why_illegal(action)
            if isinstance(action, Action)
            else f"{action!r} is not an action"
        )
        if why is not None:
            raise IllegalMoveError(f"turn {self.turn + 1} ({self.players[self.to_move]}): {why}")
        before = len(self.events)
        self._apply(action)
        return self.events[before:]

    def play_str(self, text: str) -> list[ScoreEvent]:
        """Play a move written like ``"3,4 R90 +N"`` (or ``"pass"`` / ``"draw"``)."""
        t = text.strip().lower()
        if t == "pass":
            return self.play(Pass())
        if t == "draw":
            return self.play(Draw())
        try:
            move = Move.parse(text)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        return self.play(move)

    def _apply(self, action: Action, offered: bool = False) -> None:
        """Carry out ``action``; ``offered``: the caller knows it is one of :meth:`legal_moves`
        here (a rule action then goes to the only module offering any without a search)."""
        self.history.append(action)
        if isinstance(action, Move):
            self._apply_move(action)
        elif isinstance(action, Pass):
            deciding = self._deciding() if self._hooks.decider else None
            if deciding is not None:
                deciding.decline(self._rule_ctx, self.phase.value)
                self._phase_goes_on()
            elif self.phase is _ACTION:
                self._score_and_continue()
            else:
                self._end_turn()
        elif isinstance(action, Draw):
            self._draw()
        else:
            phase = self.phase
            offering = self._offering()
            if offered and len(offering) == 1:
                offering[0].apply(self._rule_ctx, action)
                self._phase_goes_on()
                return
            # an action no module offers now is skipped: a Monte-Carlo search replays its
            # tree's actions on other deals, where one may not be offered
            for r in offering:
                offers = (
                    r.draw_actions(self._rule_ctx)
                    if phase is _DRAW
                    else r.actions(self._rule_ctx, phase.value)
                )
                if action in offers:
                    r.apply(self._rule_ctx, action)
                    break
            self._phase_goes_on()

    def _phase_goes_on(self) -> None:
        """After a rule action or another player's pass: the phase ends when nothing more is
        offered in it (a forced choice made, the last offer taken)."""
        if self.phase is _ACTION and not any(
            r.has_actions(self._rule_ctx, "action") for r in self.rules
        ):
            self._score_and_continue()
        elif self.phase is _AFTER and not any(
            r.has_actions(self._rule_ctx, "after") for r in self.rules
        ):
            self._end_turn()

    def apply(self, action: Action) -> None:
        """Carry out ``action`` WITHOUT checking it and without an undo snapshot: the fastest
        path, for playouts on a copy. An illegal action corrupts the game."""
        self._apply(action)

    def push(self, action: Action) -> None:
        """Carry out ``action`` WITHOUT checking it; :meth:`pop` undoes it. For bots."""
        self._stack.append(self._snapshot()._fields())
        self._apply(action)

    def push_placement(self, move: Action, *, offered: bool = False) -> None:
        """Carry out the placing ``move`` (unchecked) and then only as much of the turn as a
        bot needs to judge it: the rule hooks, and, unless a rule action is offered first, the
        scoring of what it completed; the game stops in phase ``TURN_END`` instead of ending
        the turn (no next tile is drawn, no end-of-turn hook runs). A :class:`Pass` in phase
        ``ACTION`` or a rule action goes on to the scoring and stops there too (see
        :meth:`next_to_move`); ``offered``: ``move`` is one of :meth:`legal_moves` here (a rule
        action is then not looked for among the offers). :meth:`pop` undoes it all.

        Much cheaper than :meth:`push`: the board records its changes instead of being
        copied. The position differs from :meth:`push`'s only in what the end of the turn and
        the start of the next would change (the final scoring, when this was the last tile).
        """
        trial = _Trial(
            self._fields(), self.board.begin_trial(), len(self.events), len(self.history)
        )
        self._stack.append(trial)
        # fresh containers for what the turn may change; the originals wait in the trial
        self.scores = self.scores[:]
        self.breakdown = [b.copy() for b in self.breakdown]
        self.supply = self.supply[:]
        self.meeples = self.meeples.copy()
        self.monks = self.monks.copy()
        self.pile = self.pile[:]
        self.set_aside = self.set_aside[:]
        if self.rule_state:
            self.rule_state = self._copied_rule_state()
        self._hold_turn_end = True
        self._apply(move, offered)

    def push_redeal(self, shuffle: random.Random) -> None:
        """Re-deal the hidden information in place, as :meth:`copy` with ``shuffle`` does on
        its copy (the same draws from ``shuffle``, the same position; the game's own generator
        stands in for a copy of it); :meth:`pop` undoes it. A bot judges its moves on the
        re-dealt position without copying the board."""
        self._stack.append(self._fields())
        self.pile = pile = self.pile[:]
        self.rule_state = self._copied_rule_state()
        # the copy's generator continues the game's: rather than copying it (a costly state),
        # its state is kept at a rule's first draw (RuleContext.rng) and put back by pop()
        self._rng_saved = []
        draws.shuffle(shuffle, pile)
        ctx = self._rule_ctx
        for r in self.rules:
            r.redeal_hidden(ctx, shuffle)

    def next_to_move(self) -> int | None:
        """In phase ``TURN_END`` (a turn held by :meth:`push_placement`): the player whose turn
        comes next when it is simply the next seat (no extra turn owed, no turn skipped, more
        than one player), else ``None``."""
        n = len(self.players)
        if self._extra_turns or self._skips or n < 2:
            return None
        return (self.to_move + 1) % n

    def pop(self) -> None:
        """Undo the last :meth:`push`, :meth:`push_placement` or :meth:`push_redeal`."""
        snap = self._stack.pop()
        stack = self._stack
        trial = snap if type(snap) is _Trial else None
        state = snap if trial is None else trial.state
        saved = self._rng_saved
        # a rule drew inside push_redeal: put the generator back at its own pop (the saved
        # fields end with _rng_saved)
        if saved and state[-1] is not saved:
            self.rng.setstate(saved[0])
        self._set_fields(state)
        if trial is not None:
            self.board.end_trial(trial.board)
            del self.events[trial.events :]  # the same lists: a turn only appends to them
            del self.history[trial.history :]
        self._stack = stack

    # -- copying -----------------------------------------------------------------------------------

    def _fields(self) -> tuple[Any, ...]:
        """Every field of the game that may change after its set-up (not its undo stack), as
        :meth:`_set_fields` takes them back: what :meth:`pop` puts back (an explicit list, not
        ``__dict__``: the compiled build's ``Game`` has none). The last is ``_rng_saved``
        (:meth:`pop` reads it). The others are set once, in :meth:`__init__`."""
        return (
            self.rng,
            self.board,
            self.scores,
            self.breakdown,
            self.supply,
            self.meeples,
            self.monks,
            self._next_meeple,
            self.events,
            self.history,
            self.turn,
            self.to_move,
            self.round,
            self.current_tile,
            self.set_aside,
            self.phase,
            self.start_tiles,
            self.last_placement,
            self.rule_state,
            self._extra_turns,
            self._extra_turn_by,
            self._skips,
            self._pending,
            self._hold_turn_end,
            self.pile,
            self._rng_saved,
        )

    def _set_fields(self, fields: tuple[Any, ...]) -> None:
        """Set the fields of :meth:`_fields` from its tuple."""
        (
            self.rng,
            self.board,
            self.scores,
            self.breakdown,
            self.supply,
            self.meeples,
            self.monks,
            self._next_meeple,
            self.events,
            self.history,
            self.turn,
            self.to_move,
            self.round,
            self.current_tile,
            self.set_aside,
            self.phase,
            self.start_tiles,
            self.last_placement,
            self.rule_state,
            self._extra_turns,
            self._extra_turn_by,
            self._skips,
            self._pending,
            self._hold_turn_end,
            self.pile,
            self._rng_saved,
        ) = fields

    def _snapshot(self) -> Game:
        g = Game.__new__(Game)
        g._set_fields(self._fields())
        (
            g.map,
            g.map_path,
            g.options,
            g.seed,
            g.tileset,
            g.players,
            g.meeples_per_player,
            g.rules,
            g._hooks,
            g._rule_ctx,
        ) = (
            self.map,
            self.map_path,
            self.options,
            self.seed,
            self.tileset,
            self.players,
            self.meeples_per_player,
            self.rules,
            self._hooks,
            self._rule_ctx,
        )
        g.board = self.board.copy()
        g.scores = self.scores[:]
        g.breakdown = [b.copy() for b in self.breakdown]
        g.supply = self.supply[:]
        g.meeples = self.meeples.copy()
        g.monks = self.monks.copy()
        g.events = self.events[:]
        g.history = self.history[:]
        g.set_aside = self.set_aside[:]
        g.pile = self.pile[:]
        g.start_tiles = self.start_tiles[:]
        g.rule_state = self._copied_rule_state()
        g._pending = (self._pending[0][:], self._pending[1][:])
        g._stack = []
        return g

    def _copied_rule_state(self) -> dict[str, Any]:
        """The rule modules' states, each copied by its module (others shared as they are)."""
        state = self.rule_state
        out = {r.name: r.copy_state(state.get(r.name)) for r in self.rules if r.name in state}
        for k, v in state.items():
            out.setdefault(k, v)
        return out

    def copy(self, *, shuffle: random.Random | None = None, share_rng: bool = False) -> Game:
        """An independent copy. With ``shuffle``, the remaining draw pile is reshuffled with it
        and rule sets re-deal what is hidden (``Rules.redeal_hidden``: face-down chips, island
        stacks), so bots do not see the real order of the hidden tiles or values.

        With ``share_rng``, the copy draws from this game's generator instead of a copy of it
        (copying its state is a sizeable part of a copy): for a copy that is played and dropped
        before this game is played on again, and then :meth:`release_rng` puts the generator
        back where the copy found it. The copy draws what a copy of it would draw."""
        g = self._snapshot()
        g._rule_ctx = RuleContext(g)
        if share_rng:
            # as inside push_redeal: a rule's first draw (RuleContext.rng) keeps the state
            g._rng_saved = []
        else:
            g._rng_saved = None
            g.rng = random.Random.__new__(random.Random)  # no seeding from the OS: it is set
            g.rng.setstate(self.rng.getstate())
        if shuffle is not None:
            draws.shuffle(shuffle, g.pile)  # shuffle.shuffle's permutation, faster
            for r in g.rules:
                r.redeal_hidden(g._rule_ctx, shuffle)
        return g

    def release_rng(self) -> None:
        """Put the generator of a ``copy(share_rng=True)`` back where the copy found it (a
        no-op when nothing drew from it); the copy must not be played on afterwards."""
        saved = self._rng_saved
        if saved:
            self.rng.setstate(saved[0])
            del saved[:]

    # -- results ----------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase is _OVER

    def outcome(self) -> Outcome | None:
        """Scores and winners once the game is over, else ``None``."""
        if self.phase is not _OVER:
            return None
        best = max(self.scores)
        return Outcome(tuple(self.scores), tuple(i for i, s in enumerate(self.scores) if s == best))

    def projected_scores(self) -> list[int]:
        """Scores if the game ended now: current scores plus what the final scoring would add
        for every occupied feature (no state change; rule hooks are not consulted)."""
        out = self.scores[:]
        meeples = self.meeples
        if self.phase is _OVER or not meeples:
            return out
        # hot path of the bots (thousands of calls a game): roots found without helper calls,
        # and a feature with one meeple needs no majority
        board = self.board
        f = board.features
        parent = f.parent
        fmeeples = f.meeples
        fkind = f.kind
        farmers = self.options.farmers
        seen: set[int] = set()
        for player, sq, _loc, node, _s in meeples.values():
            if node < 0:
                out[player] += 1 + board.monk_neighbour_count(sq)
                continue
            root = node
            while parent[root] != root:
                root = parent[root]
            if root in seen:
                continue
            seen.add(root)
            if not farmers and fkind[root] == FIELD:
                continue
            pts = final_points(f, root, farmers)
            mids = fmeeples.get(root, ())
            if len(mids) == 1:
                out[meeples[mids[0]].player] += pts
                continue
            for p in self.majority_of(mids):
                out[p] += pts
        return out

    def placed_tiles(self) -> list[tuple[Square, str, int]]:
        """``(square, tile id, rotation)`` of every tile on the board, in the order placed."""
        tiles = self.board.tiles
        return [(sq, tiles[sq].tile_id, tiles[sq].rotation) for sq in self.board.order]

    def meeples_on_board(self, player: int) -> int:
        return sum(1 for m in self.meeples.values() if m[0] == player)

    def tiles_left(self) -> int:
        return len(self.pile)

    def state_summary(self) -> dict[str, Any]:
        """A JSON-able view of the whole state, equal for equal states (replay checks)."""
        return {
            "turn": self.turn,
            "round": self.round,
            "to_move": self.to_move,
            "phase": self.phase.value,
            "current_tile": self.current_tile,
            "pile": list(self.pile),
            "set_aside": list(self.set_aside),
            "tiles": [
                [sq[0], sq[1], o.tile_id, o.rotation] for sq, o in sorted(self.board.tiles.items())
            ],
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "supply": list(self.supply),
            "meeples": [
                [mid, p, [sq[0], sq[1]], loc, s]
                for mid, (p, sq, loc, _node, s) in sorted(self.meeples.items())
            ],
            "events": [e.text for e in self.events],
            "rules": {r.name: r.state_summary(self._rule_ctx) for r in self.rules},
        }

    def record(self) -> GameRecord:
        """The game record of everything played so far (see :mod:`engine.record`)."""
        return record_of(self)

    def __repr__(self) -> str:
        where = self.map.id if self.map is not None else "classic"
        return (
            f"<Game {where} turn {self.turn} {self.phase.value} "
            f"to_move={self.players[self.to_move]} tile={self.current_tile} scores={self.scores}>"
        )


__all__ = [
    "MONASTERY",
    "MONASTERY_LOCATION",
    "Game",
    "GameOptions",
    "LegalMoveGenerator",
    "LegalPlacementGenerator",
    "Meeple",
    "Outcome",
    "Phase",
    "PLAYER_NAMES",
]
