"""Contracts of the three evaluators, per rule set (see docs/rule-sets.md "Evaluators").

``Board.place`` is the truth. ``Board.preview`` (tests/engine/test_board_preview.py) and the
greedy bot's projection judge a placement without it, for speed; what they may assume of a rule
set is what it declares: ``Rules.placement_points`` and ``BotHints``. These property tests check,
for every rule set in play on random positions of real games:

* ``placement_points``: when every rule set answers a number for a square, placing the current
  tile there (without a meeple) awards exactly that to the current player through rule events,
  and nothing else a rule does moves scores, supply or meeples, and no compulsory action follows;
* the incremental projection (``_Projection.scores``) equals ``Game.projected_scores`` after a
  placement, whenever the bot uses it (``meeple_blind`` rule sets);
* the greedy fast values equal pushing every move (``tests/engine/test_greedy_fast_path.py`` for
  the shipped maps; here for the town variants too).
"""

from __future__ import annotations

import random

import pytest
from _greedy_checks import check_greedy_values

import engine.bots.greedy_bot as greedy
from engine.features import KIND_NAMES
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.resources import bundled_map
from engine.rules.context import RuleContext

FEATURE_KINDS = set(KIND_NAMES)
CASES = {
    "france": ("france", {}),
    "benelux": ("benelux", {}),
    "great_britain": ("great-britain", {}),
    "iberica": ("iberica", {}),
    "deutschland": ("deutschland", {}),
    **{
        f"data:{name}": (m, {"rule_set": f"data:{name}"})
        for name, m in (
            ("france", "france"),
            ("benelux", "benelux"),
            ("great_britain", "great-britain"),
            ("iberica", "iberica"),
            ("deutschland", "deutschland"),
        )
    },
    "italia": ("italia", {}),  # a data rule set from a file: Olio e Vino
    "towns": ("france", {"rule_set": "none", "town_cost": True, "town_road_bonus": True}),
    "none": ("example-small", {}),
}


def _positions(case: str, games: int = 2, every: int = 3):
    name, options = CASES[case]
    m = load_map(bundled_map(name))
    for seed in range(games):
        g = Game(m, seed=seed, options=GameOptions(end_after_turns=90, **options))
        rng = random.Random(seed)
        while not g.is_over():
            if g.phase is Phase.PLACE and g.turn % every == 0:
                yield g
            g.apply(rng.choice(g.legal_moves().list()))


@pytest.mark.parametrize("case", sorted(CASES))
def test_placement_points_are_what_placing_awards(case: str) -> None:
    checked = 0
    problems: list[str] = []
    for g in _positions(case):
        ctx = RuleContext.of(g)
        me = g.to_move
        for sq, rot in {(mv[0], mv[1]) for mv in g.legal_moves() if isinstance(mv, Move)}:
            answers = [r.placement_points(ctx, sq) for r in g.rules]
            if any(a is None for a in answers):
                continue
            supply, scores, n_events = g.supply[:], g.scores[:], len(g.events)
            g.push_placement(Move(sq, rot, None))
            rule_events = [e for e in g.events[n_events:] if e.kind not in FEATURE_KINDS]
            got = sum(e.points for e in rule_events if e.players == (me,))
            if got != sum(answers) or any(e.players != (me,) for e in rule_events):
                problems.append(f"{sq} r{rot}: said {sum(answers)}, awarded {rule_events}")
            if g.phase is Phase.ACTION and Pass() not in g.legal_moves():
                problems.append(f"{sq} r{rot}: a compulsory action follows")
            feature_points = [0] * len(scores)
            for e in g.events[n_events:]:
                if e.kind in FEATURE_KINDS:
                    for p in e.players:
                        feature_points[p] += e.points
            expect = [
                s + f + (got if p == me else 0)
                for p, (s, f) in enumerate(zip(scores, feature_points, strict=True))
            ]
            if g.scores != expect:
                problems.append(f"{sq} r{rot}: scores {g.scores} != {expect}")
            returned = sum(len(e.meeples) for e in g.events[n_events:] if e.kind in FEATURE_KINDS)
            if sum(g.supply) != sum(supply) + returned:
                problems.append(f"{sq} r{rot}: supply moved by a rule")
            g.pop()
            checked += 1
    # the town variants never answer (their cost and extra tile are played out)
    assert checked == 0 if case == "towns" else checked > 100, checked
    assert problems == []


@pytest.mark.parametrize("case", sorted(CASES))
def test_placement_points_bound_once_hold_through_the_trials_of_a_decision(case: str) -> None:
    """``Rules.placement_points_for`` looked up once per decision (as the greedy judge does)
    answers for every square, after every placement of the decision tried and undone, what
    ``placement_points`` answers asked afresh."""
    answered = chips = 0
    for g in _positions(case):
        ctx = RuleContext.of(g)
        bound = [r.placement_points_for(ctx) for r in g.rules]
        placements = sorted({(mv[0], mv[1]) for mv in g.legal_moves() if isinstance(mv, Move)})
        for sq, rot in placements:
            g.push_placement(Move(sq, rot, None))
            g.pop()
            got = [points(sq) for points in bound]
            assert got == [r.placement_points(ctx, sq) for r in g.rules], (case, g.turn, sq)
            answered += None not in got
            chips += any(p for p in got if p is not None)
    # the town variants never answer (their cost and extra tile are played out)
    assert answered == 0 if case == "towns" else answered > 100, answered
    if case != "towns" and CASES[case][0] in ("france", "benelux", "deutschland"):
        assert chips > 0, case  # chips scored at once (elsewhere a chip's square is played out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_incremental_projection_equals_projected_scores(case: str) -> None:
    checked = 0
    for g in _positions(case):
        if not all(r.bot_hints.meeple_blind for r in g.rules):
            continue
        projection = greedy._Projection(g)
        for sq, rot in sorted({(mv[0], mv[1]) for mv in g.legal_moves() if isinstance(mv, Move)})[
            :12
        ]:
            g.push(Move(sq, rot, None))
            if g.phase is Phase.ACTION and Pass() in g.legal_moves():
                g.apply(Pass())
            assert projection.scores(g, sq) == g.projected_scores(), (case, sq, rot)
            g.pop()
            checked += 1
    assert checked > 50


def test_greedy_fast_values_with_the_town_variants(monkeypatch) -> None:
    decisions, mismatches = check_greedy_values(monkeypatch)
    name, options = CASES["towns"]
    g = Game(
        load_map(bundled_map(name)),
        seed=4,
        options=GameOptions(end_after_turns=60, town_extra_tile=True, **options),
    )
    bots = [greedy.GreedyBot(seed=1), greedy.GreedyBot(seed=2)]
    while not g.is_over():
        g.apply(bots[g.to_move].choose(g))
    assert len(decisions) > 20 and mismatches == []
