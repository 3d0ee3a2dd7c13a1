"""``Rules.has_actions`` (asked after every placement) against ``bool(Rules.actions)``.

The data rule sets answer without building the offers where they can (an upgrade: a payment
and a meeple not yet upgraded); the answer must be the offers' at every point of whole games of
every shipped rule set, with random players taking the offered actions. The ways to pay, kept
per hand, must be the ones worked out afresh at every point too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data.rules import DataRules

MAPS = ["benelux", "deutschland", "france", "great-britain", "iberica", "italia"]


@pytest.mark.parametrize("map_name", MAPS)
def test_has_actions_is_whether_actions_offers_anything(map_name: str) -> None:
    m = load_map(bundled_map(map_name))
    seen = {True: 0, False: 0}
    for seed in range(5 if map_name == "deutschland" else 3):
        g = Game(m, players=2 + seed, seed=seed, options=GameOptions(meeples=4 + 2 * seed))
        rng = random.Random(seed)
        ctx = g._rule_ctx
        while not g.is_over():
            for r in g.rules:
                for phase in ("action", "after"):
                    offered = bool(r.actions(ctx, phase))
                    assert r.has_actions(ctx, phase) == offered, (seed, g.turn, phase)
                    seen[offered] += 1
                if isinstance(r, DataRules):
                    _check_pays(r, ctx)
            g.apply(rng.choice(g.legal_moves().list()))
    assert seen[False]
    # Benelux offers its island tiles in the draw phase only
    assert seen[True] if map_name != "benelux" else not seen[True]


def _check_pays(r: DataRules, ctx: object) -> None:
    state = ctx.rule_state[r.name]  # type: ignore[attr-defined]
    for mech in r.mechanics:
        if mech.pay.kind == "none":
            continue
        for p, held in enumerate(state.held):
            if not held:
                continue
            colours = {state.chips[c].colour for c in held}
            for wanted in (None, *([c] for c in sorted(colours, key=lambda c: c.value))):
                assert r._pays(state, mech, p, wanted) == r._pay_ways(state, mech, p, wanted)


def test_quiet_hooks_are_those_a_rule_set_never_acts_on() -> None:
    # a data rule set without draw-phase mechanics offers nothing at the draw, without points
    # or island-tile rewards its end of turn resets nothing, and without after-phase mechanics
    # or treats it offers nothing after the scoring: the game skips those calls
    from engine.game import Game
    from engine.mapio import load_map
    from engine.resources import bundled_map

    quiet = {}
    for name in ("deutschland", "france", "benelux"):
        g = Game(load_map(bundled_map(name)), players=3, seed=1)
        (rule,) = g.rules
        quiet[name] = rule.quiet_hooks()
        assert all(rule not in getattr(g._hooks, h) for h in quiet[name])
    # Deutschland offers nothing after the scoring either: no mechanic, no treat to place
    # start_of_turn and meeple_placed serve only the rule language (rules, marks, a supply),
    # decider only its rules that ask other players than the one to move
    lang = {"start_of_turn", "meeple_placed", "decider"}
    assert quiet["deutschland"] == {"draw_actions", "end_of_turn", "offers_after", *lang}
    assert quiet["france"] == {"draw_actions", *lang}  # wine markets reset at each turn's end
    assert quiet["benelux"] == {"offers_after", *lang}  # island tiles are drawn, not the pile's


def test_a_subclass_that_redefines_a_hook_is_not_silenced() -> None:
    # DataRules names its own hooks quiet; a subclass with an end of turn of its own is called
    from engine.game import Game, _Hooks
    from engine.mapio import load_map
    from engine.resources import bundled_map
    from engine.rules.deutschland import DeutschlandRules

    ends: list[int] = []

    class Counting(DeutschlandRules):
        def end_of_turn(self, ctx: Any) -> None:
            ends.append(ctx.turn)
            super().end_of_turn(ctx)

    rule = Counting()
    assert "end_of_turn" not in rule.quiet_hooks() and "draw_actions" in rule.quiet_hooks()
    assert _Hooks.of([rule]).end_of_turn == (rule,)
    assert _Hooks.of([DeutschlandRules()]).end_of_turn == ()
    # the same rule set (and state) as the game's, with the end of turn counted
    g = Game(load_map(bundled_map("deutschland")), players=2, seed=4)
    g.rules[:] = [rule]
    g._hooks = _Hooks.of(g.rules)
    rng = random.Random(4)
    while g.turn < 6:
        g.apply(rng.choice(g.legal_moves()))
    assert ends == [0, 1, 2, 3, 4, 5]
