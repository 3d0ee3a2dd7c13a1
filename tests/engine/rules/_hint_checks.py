"""Check a rule set's declared ``BotHints`` against what its hooks do in real games.

Every hook of every rule object is wrapped to know which hook is running, and every
``RuleContext`` mutator is wrapped to record ``(hook, mutator, optional)``: ``optional`` is
whether the player could have passed (or drawn) instead of the rule action being applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.game import Game, Phase
from engine.moves import Draw, Pass
from engine.rules.base import Rules
from engine.rules.context import RuleContext

HOOKS = (
    "setup",
    "start_of_turn",
    "draw_actions",
    "tile_drawn",
    "tile_placed",
    "placement_points",
    "meeple_placed",
    "actions",
    "pass_allowed",
    "apply",
    "meeple_strength",
    "on_score",
    "feature_scored",
    "end_of_turn",
    "end_of_game",
)
MOVES_SCORES = ("award", "return_meeple", "take_meeple_from_supply", "give_meeple_to_supply")
"""Mutators that change scores, meeples on the board or supply."""
AFTER_MEEPLE_STEP = ("meeple_placed", "feature_scored", "end_of_turn", "end_of_game", "apply")
QUERIES = ("draw_actions", "placement_points", "actions", "pass_allowed", "meeple_strength")


@dataclass
class Trace:
    calls: list[tuple[str, str, bool]] = field(default_factory=list)
    """``(hook, mutator, optional)`` for every mutator call."""
    on_score_changed: int = 0
    """Scorings an ``on_score`` hook returned changed."""
    hooks_seen: set[str] = field(default_factory=set)


def _instrument(game: Game, trace: Trace, state: dict[str, Any]) -> None:
    for r in game.rules:
        for hook in HOOKS:
            if getattr(type(r), hook) is getattr(Rules, hook) and hook != "apply":
                continue
            inner = getattr(r, hook)

            def wrapped(*args: Any, _inner: Callable = inner, _hook: str = hook) -> Any:
                outer = state.get("hook")
                state["hook"] = _hook
                trace.hooks_seen.add(_hook)
                try:
                    result = _inner(*args)
                finally:
                    state["hook"] = outer
                if _hook == "on_score" and result is not args[1]:
                    trace.on_score_changed += 1
                return result

            setattr(r, hook, wrapped)


def traced_games(
    monkeypatch: pytest.MonkeyPatch, make_game: Callable[[int], Game], seeds: range
) -> Trace:
    """Play random games ``make_game(seed)`` to the end with every hook and mutator traced
    (``setup`` has run before tracing starts)."""
    trace = Trace()
    state: dict[str, Any] = {"optional": False}
    for name in (*MOVES_SCORES, "set_meeple_strength", "grant_extra_turn", "set_current_tile"):
        original = getattr(RuleContext, name)

        def recorder(self: RuleContext, *args: Any, _o: Callable = original, _n: str = name) -> Any:
            trace.calls.append((state.get("hook") or "?", _n, state["optional"]))
            return _o(self, *args)

        monkeypatch.setattr(RuleContext, name, recorder)
    for seed in seeds:
        game = make_game(seed)
        _instrument(game, trace, state)
        rng = random.Random(seed)
        while not game.is_over():
            moves = game.legal_moves().list()
            state["optional"] = Pass() in moves or (game.phase is Phase.DRAW and Draw() in moves)
            game.apply(rng.choice(moves))
        state["optional"] = False
    return trace


def hint_violations(cls: type[Rules], trace: Trace) -> list[str]:
    """What the traced behaviour contradicts in ``cls.bot_hints`` (empty: all hold). Query
    hooks never act, whatever the hints."""
    hints = cls.bot_hints
    out: list[str] = []
    for hook, mutator, optional in sorted(set(trace.calls)):
        moves = mutator in MOVES_SCORES
        if hook in QUERIES:
            out.append(f"{cls.name}: the query hook {hook} called {mutator}")
        after = hook in AFTER_MEEPLE_STEP and (hook != "apply" or not optional)
        if hints.meeple_blind and moves and after:
            out.append(f"{cls.name}: meeple_blind, but {hook} called {mutator}")
        late = hook in ("end_of_turn", "end_of_game", "feature_scored")
        if hints.plain_scoring and late and (moves or mutator == "set_meeple_strength"):
            out.append(f"{cls.name}: plain_scoring, but {hook} called {mutator}")
    if hints.plain_scoring and trace.on_score_changed:
        out.append(f"{cls.name}: plain_scoring, but on_score changed scorings")
    if hints.plain_scoring and cls.on_score is not Rules.on_score:
        out.append(f"{cls.name}: plain_scoring, but it overrides on_score")
    return out
