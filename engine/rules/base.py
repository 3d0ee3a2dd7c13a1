"""The hook protocol every rule module implements (the registry that finds modules by name is
:mod:`engine.rules.registry`).

A *rule module* adds rules to the core game without the core knowing about it: the Map-Chips
mini-expansions (``france``, ``benelux``, ``great_britain``, ``iberica``, ``deutschland``) and the
town variants (``towns``). A sixth rule set is a new module in this package that subclasses
:class:`Rules`, sets ``name`` and decorates the class with :func:`register`; nothing in the core
changes: the registry imports every module of this package on first use, a map file may name it
and the editor lists it (docs/rule-sets.md, "Writing a rule set").

Every hook receives a :class:`~engine.rules.context.RuleContext` (``ctx``), a narrow view of
the game: it reads the map, board, pile, whose turn, ``ctx.round`` / ``ctx.turn`` and the rule
state, and acts only through the context's mutators (``ctx.award``, ``ctx.set_current_tile``,
``ctx.grant_extra_turn``, ``ctx.return_meeple``, ``ctx.set_meeple_strength``,
``ctx.take_meeple_from_supply``, ``ctx.give_meeple_to_supply``, ``ctx.skip_turn``). The game
itself offers
players only the player API.

Per-game state lives in ``ctx.rule_state[rules.name]`` (never on the module object, which may be
shared): make it an object with a ``copy()`` method (or any value :func:`copy.deepcopy` handles
quickly); :meth:`Rules.copy_state` copies it when the game is copied for a bot.

Order of a turn, and the hooks called:

1. ``start_of_turn(ctx)``; then, if any module offers ``draw_actions(ctx)``, the game waits in
   phase ``DRAW`` for one of them or a :class:`~engine.moves.Draw`; otherwise it draws at once.
   Every tile that becomes the current tile (drawn, or taken some other way by a rule via
   ``ctx.set_current_tile``) passes ``tile_drawn(ctx, tile_id)``.
2. The player places the tile (:class:`~engine.moves.Move`, optional meeple):
   ``tile_placed(ctx, square, tile_id, rotation)`` then, if a meeple was placed,
   ``meeple_placed(ctx, meeple_id)``.
3. Phase ``ACTION`` while any module offers ``actions(ctx, "action")``: the player takes those
   actions (``apply(ctx, action)``) or a :class:`~engine.moves.Pass` (not while a module's
   ``pass_allowed(ctx, phase)`` is ``False``: an action is compulsory, e.g. placing a treat).
   While a module's ``decider(ctx, phase)`` names another player (a choice a rule gives them
   inside the turn), only that module's actions are offered, to them (``Game.decider``), and
   their pass goes to its ``decline(ctx, phase)``.
4. Completed features are scored. Majorities use ``meeple_strength(ctx, meeple_id)`` (the first
   module that answers an int wins; default 1). Every event goes through
   ``on_score(ctx, event) -> event`` (a module may return an adjusted copy), is added, then
   ``feature_scored(ctx, event)`` runs (before the meeples return; ``event.meeples`` lists them).
5. Phase ``AFTER`` while any module offers ``actions(ctx, "after")`` (e.g. buy an extra turn).
6. ``end_of_turn(ctx)``; a module may call ``ctx.grant_extra_turn(by)`` to let the same player go
   again (``by`` names the granting rule; ``ctx.extra_turn_by`` reads it back in that turn).
7. At the end (draw pile empty, or forced end): final scoring through the same ``on_score`` /
   ``feature_scored`` hooks, then ``end_of_game(ctx)``.

``setup(ctx)`` runs once after the start tiles are down and before the first draw (a module may
take tiles from ``ctx.pile``, e.g. Benelux island stacks; ``pile[-1]`` is drawn next).
Actions are frozen dataclasses subclassing :class:`engine.moves.Action` with a ``type`` class
attribute and ``to_dict()``; ``action_from_dict`` reads them back for records. Only offer a tile
source whose tile can be placed (``ctx.board.has_placement(tile_id)``).
Randomness: use ``ctx.rng`` (seeded by the game's seed; copied with the game), never the global
``random``, so that replaying a record rebuilds the same chips and stacks. Points go through
``ctx.award(player, points, kind, detail)``: ``kind`` (e.g. ``"chip"``, ``"wine"``, ``"treat"``)
becomes a column of the score breakdown that ``python -m engine replay`` prints.

Besides hooks, a rule set class declares what the rest of the engine needs (see
``docs/rule-sets.md`` and :mod:`engine.rules.spec`): the map's requirements (:meth:`Rules.check_map`),
its chip layout, report figures, bot hints and what the playtest shows (:meth:`Rules.view`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError
from engine.issues import Issue, IssueList
from engine.rules.spec import BotHints, ChipLayout, Figure, IssueCode, IssueSink, SheetSetup
from engine.rules.view import RuleView

if TYPE_CHECKING:
    import random

    from engine.game import Game
    from engine.geometry import Square
    from engine.mapdef import MapDef
    from engine.moves import Action
    from engine.rules.context import RuleContext
    from engine.scoring import ScoreEvent


class Rules:
    """A rule set: its hooks (every one has a do-nothing default; override what you need) and
    its declarations (class attributes the validator, chip layout, report, bot and playtest
    read; the defaults declare nothing)."""

    name: ClassVar[str] = ""
    """The registry name (a map's ``rule_set`` value for Map-Chips modules)."""
    title: ClassVar[str] = ""
    """The name players know it by (``"Península Ibérica"``); messages use it."""

    # -- declarations ------------------------------------------------------------------------

    chip_layout: ClassVar[ChipLayout] = ChipLayout()
    """How chips reach the map at setup, and the squares kept free of chips."""
    blocking_prints: ClassVar[tuple[str, ...]] = ()
    """Prints of the map that take no tile while this rule set is played (``"waves"``,
    ``"island_stacks"``, :data:`engine.rules.spec.PRINTS`); without it they are ignored."""
    blocking_marks: ClassVar[tuple[str, ...]] = ()
    """Ids of the map's marks (``MapDef.marks``) whose squares take no tile while this rule set
    is played: they close the features facing them, as waves do (docs/rule-language.md)."""
    sheet_setup: ClassVar[SheetSetup | None] = None
    """The rule sheet's setup (start squares, used, chips): a map that differs gets a warning."""
    issue_codes: ClassVar[Mapping[str, IssueCode]] = {}
    """The validator issue codes :meth:`check_map` reports, with meaning and fix."""
    report_figures: ClassVar[Mapping[str, Figure]] = {}
    """The rule set's own figures in the balance report, by their report key."""
    bot_hints: ClassVar[BotHints] = BotHints()
    """What the greedy bot may rely on about the hooks (checked by a test for every rule set)."""

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        """Report what ``m`` lacks for this rule set, as located issues (codes from
        :attr:`issue_codes`). The general checks (grid, cities, reachability...) run anyway."""

    @classmethod
    def map_issues(cls, m: MapDef) -> list[Issue]:
        """:meth:`check_map`'s findings for ``m`` as located :class:`~engine.issues.Issue`
        objects (``validate_map`` reports them among all the others)."""
        found = IssueList()
        cls.check_map(m, found)
        return found.issues

    def view(self, ctx: RuleContext) -> RuleView:
        """What the playtest shows of this rule set now, as plain data."""
        return RuleView()

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = dict(options or {})

    # -- lifecycle ---------------------------------------------------------------------------

    def setup(self, ctx: RuleContext) -> None:
        """Once, after the start tiles are placed and before the first draw."""

    def start_of_turn(self, ctx: RuleContext) -> None:
        """At the start of every turn, before the draw."""

    def draw_actions(self, ctx: RuleContext) -> list[Action]:
        """Alternatives to drawing face down offered now (phase ``DRAW``)."""
        return []

    def tile_drawn(self, ctx: RuleContext, tile_id: str) -> None:
        """A tile became the current tile."""

    def tile_placed(self, ctx: RuleContext, square: Square, tile_id: str, rotation: int) -> None:
        """The current player placed a tile (before meeple and scoring)."""

    def placement_points(self, ctx: RuleContext, square: Square) -> int | None:
        """For bots judging a placement without playing it: the points this module would award
        the current player at once for placing the current tile on ``square``, when that is
        all it would do that moves scores, meeples or supply and the turn's scoring would
        follow (no compulsory action). ``None`` (the default): it may do more, or cannot
        tell; the bot then plays the placement out. The contract is checked for every rule
        set by ``tests/engine/test_evaluator_contracts.py`` (docs/rule-sets.md "Evaluators")."""
        return None

    def placement_points_for(self, ctx: RuleContext) -> Callable[[Square], int | None]:
        """:meth:`placement_points` in the position ``ctx`` stands at now, as a function of the
        square: for a bot asking it of many squares of one position (the greedy judge asks it
        of every square a tile fits), valid while that position stands (a trial pushed and
        popped leaves it standing). The default asks :meth:`placement_points`; a rule set
        may look up once what every square shares (its state, its options) and then have
        :meth:`placement_points` ask this (one home for what a square awards)."""
        return partial(self.placement_points, ctx)

    def meeple_placed(self, ctx: RuleContext, meeple_id: int) -> None:
        """The current player placed a meeple on the tile just placed."""

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        """Extra actions offered now in ``phase`` (``"action"``: before scoring; ``"after"``)."""
        return []

    def has_actions(self, ctx: RuleContext, phase: str) -> bool:
        """Whether :meth:`actions` offers anything now (asked after every placement: a rule
        set may answer without building the actions)."""
        return bool(self.actions(ctx, phase))

    def quiet_hooks(self) -> frozenset[str]:
        """Notification hooks this rule set defines but never acts on with its options (a rule
        set made from data that has no draw-phase mechanic, say): the game does not call them
        every turn. ``offers_action`` / ``offers_after`` name the phases in which
        :meth:`has_actions` never says yes. Default: none."""
        return frozenset()

    def pass_allowed(self, ctx: RuleContext, phase: str) -> bool:
        """Whether the player may :class:`~engine.moves.Pass` now (``False`` makes this module's
        offered actions mandatory, e.g. placing a collected treat)."""
        return True

    def decider(self, ctx: RuleContext, phase: str) -> int | None:
        """A player other than the player to move who must choose now in ``phase``
        (``"action"`` / ``"after"``): a rule gave them a decision inside the turn. While one
        does, only this module's :meth:`actions` are offered, to them, and a
        :class:`~engine.moves.Pass` is theirs (:meth:`decline`). ``None``: the player to move
        acts."""
        return None

    def decline(self, ctx: RuleContext, phase: str) -> None:
        """The deciding player (:meth:`decider`) passes: their pending choices are declined."""

    def apply(self, ctx: RuleContext, action: Action) -> None:
        """Carry out one of this module's actions (already known to be legal)."""
        raise EngineError(f"rule set {self.name!r} cannot apply {action!r}")

    def redeal_hidden(self, ctx: RuleContext, rng: random.Random) -> None:
        """Re-deal this module's hidden information in ``game``, a bot's copy made with
        ``Game.copy(shuffle=rng)`` (e.g. values of face-down chips); the pile is already
        reshuffled."""

    def meeple_strength(self, ctx: RuleContext, meeple_id: int) -> int | None:
        """How many meeples this one counts as for majorities; ``None`` = no opinion."""
        return None

    def on_score(self, ctx: RuleContext, event: ScoreEvent) -> ScoreEvent:
        """Adjust a scoring before it is added (return the event itself to leave it)."""
        return event

    def feature_scored(self, ctx: RuleContext, event: ScoreEvent) -> None:
        """A feature scoring was added (its meeples return right after this)."""

    def end_of_turn(self, ctx: RuleContext) -> None:
        """After scoring and the ``AFTER`` phase, before the next player."""

    def end_of_game(self, ctx: RuleContext) -> None:
        """After the final scoring."""

    # -- state and records -------------------------------------------------------------------

    def copy_state(self, state: Any) -> Any:
        """Copy this module's ``game.rule_state`` entry for ``Game.copy``."""
        if state is None:
            return None
        copier = getattr(state, "copy", None)
        if copier is not None:
            return copier()

        return copy.deepcopy(state)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action | None:
        """Read one of this module's actions from a record, or ``None`` if not ours."""
        return None

    def state_summary(self, ctx: RuleContext | Game) -> Any:
        """A JSON-able, comparable view of this module's state (records, replay checks); reads
        only ``rule_state``, so a game serves as well as its context."""
        state = ctx.rule_state.get(self.name)
        summary = getattr(state, "summary", None)
        return summary() if callable(summary) else None


_REGISTERED: dict[str, type[Rules]] = {}


def register(cls: type[Rules]) -> type[Rules]:
    """Class decorator: make a rule module findable by its ``name``
    (:func:`engine.rules.registry.get_rules`)."""
    if not cls.name:
        raise EngineError(f"rule module {cls.__name__} has no name")
    _REGISTERED[cls.name] = cls
    return cls


def registered() -> Mapping[str, type[Rules]]:
    """The rule set classes registered so far, by name (read only; the registry loads the
    package's modules first: :func:`engine.rules.registry.rule_set_classes`)."""
    return MappingProxyType(_REGISTERED)
