"""The greedy bot's fast placement values equal the plain "push every move, evaluate, pop" ones."""

from __future__ import annotations

import pytest

import engine.bots.greedy_bot as greedy
from engine.game import Phase
from engine.mapio import load_map
from engine.moves import Pass
from engine.resources import bundled_map
from engine.simulate import SimConfig, play_one, rule_set_for


def _naive(view, moves, me, meeple_value):
    out = []
    for move in moves:
        view.push(move)
        pushed = 1
        if view.phase is Phase.ACTION and Pass() in view.legal_moves():
            view.push(Pass())
            pushed += 1
        out.append(greedy.evaluate(view, me, meeple_value))
        for _ in range(pushed):
            view.pop()
    return out


@pytest.mark.parametrize(
    ("name", "rules_on"), [("example-small", False), ("deutschland", True), ("france", True)]
)
def test_fast_values_match_the_plain_evaluation(monkeypatch, name: str, rules_on: bool) -> None:
    fast = greedy.placement_values
    decisions: list[int] = []
    mismatches: list[str] = []

    def checked(view, moves, me, meeple_value):
        expected = _naive(view.copy(), moves, me, meeple_value)
        got = fast(view, moves, me, meeple_value)
        decisions.append(len(moves))
        mismatches.extend(
            f"{m}: fast {a} plain {b}"
            for m, a, b in zip(moves, got, expected, strict=True)
            if abs(a - b) > 1e-9
        )
        return got

    monkeypatch.setattr(greedy, "placement_values", checked)
    m = load_map(bundled_map(name))
    rule_set, _ = rule_set_for(m, rules_on)
    play_one(m, SimConfig(games=1, bot="greedy"), 0, rule_set)
    assert len(decisions) > 20
    assert mismatches == []
