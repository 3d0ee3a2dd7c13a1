"""Game-quality figures (engine.analysis.quality) in facts, reports and comparisons."""

from __future__ import annotations

from typing import Any

import pytest

from engine.analysis.balance import balance_report
from engine.analysis.compare import compare_runs
from engine.analysis.quality import game_quality, score_trace, trace_figures
from engine.analysis.simulate import SimConfig, SimResult, simulate
from engine.bots import make_bot, play_game
from engine.game import Game
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


def test_a_tie_keeps_the_lead_where_it_was() -> None:
    trace = [[0, 0], [3, 0], [3, 3], [5, 3], [5, 9]]
    got = trace_figures(trace, winners=[1])
    assert got["lead_changes"] == 1  # seat 1 led, the tie kept it, seat 2 took it at the end
    assert got["drama"] == 3
    assert (got["decisive_turn"], got["decisive_share"]) == (5, 0.8)
    assert got["final_flip"] is False


def test_a_winner_who_led_throughout_is_decided_at_once() -> None:
    got = trace_figures([[2, 0], [4, 1], [9, 5]], winners=[0])
    assert got == {
        "lead_changes": 0,
        "drama": 0,
        "decisive_turn": 1,
        "decisive_share": 0.0,
        "final_flip": False,
    }


def test_the_final_scoring_changing_the_leader_is_a_flip() -> None:
    got = trace_figures([[0, 0, 0], [5, 1, 2], [12, 4, 8]], winners=[2])
    assert got["final_flip"] is True
    assert got["drama"] == 4
    assert (got["decisive_turn"], got["decisive_share"]) == (4, 1.0)
    shared = trace_figures([[0, 0], [3, 3]], winners=[0, 1])  # tied leaders both win
    assert shared["final_flip"] is False and shared["decisive_turn"] == 1


def test_the_trace_adds_up_to_the_score_before_the_final_scoring() -> None:
    game = play_game(Game(None, players=3, seed=11), [make_bot("greedy", seed=i) for i in range(3)])
    trace = score_trace(game)
    assert len(trace) == game.turn
    final = [0, 0, 0]
    for e in game.events:
        if e.final or e.turn >= game.turn:
            for p in e.players:
                final[p] += e.points
    assert [t + f for t, f in zip(trace[-1], final, strict=True)] == game.scores
    assert any(final)  # the classic game ends with farms and open features
    # classic scores only grow
    assert all(
        a <= b
        for row0, row1 in zip(trace, trace[1:], strict=False)
        for a, b in zip(row0, row1, strict=True)
    )
    q = game_quality(game)
    assert q == trace_figures(trace, winners=list(game.outcome().winners))


def test_reports_describe_the_games_quality(small) -> None:
    result = simulate(small, SimConfig(games=6, seed=3), workers=1)
    report = balance_report(small, result)
    q = report["quality"]
    flips = sum(g["quality"]["final_flip"] for g in result.games)
    assert q["final_flip"]["count"] == flips and q["final_flip"]["games"] == 6
    mean = sum(g["quality"]["lead_changes"] for g in result.games) / 6
    assert q["lead_changes"]["mean"] == pytest.approx(mean, abs=1e-4)


def _facts(i: int, flip: bool) -> dict[str, Any]:
    return {
        "index": i,
        "seed": i,
        "players": 2,
        "scores": [80, 70],
        "winners": [0],
        "turns": 50,
        "start": [[3, 2]],
        "placed": [],
        "set_aside": [],
        "points": {},
        "rule_events": {},
        "actions": {},
        "quality": {
            "lead_changes": 2 + i % 3,
            "drama": 5,
            "decisive_turn": 51 if flip else 30,
            "decisive_share": 1.0 if flip else 0.58,
            "final_flip": flip,
        },
    }


def test_comparisons_test_the_quality_figures(small) -> None:
    a = [_facts(i, flip=i % 5 == 0) for i in range(60)]  # 12 of 60 flipped
    b = [_facts(i, flip=i % 5 != 4) for i in range(60)]  # 48 of 60
    run_a = SimResult(SimConfig(games=60), small.id, "none", games=a)
    run_b = SimResult(SimConfig(games=60), small.id, "none", games=b)
    cmp = compare_runs(small, run_a, small, run_b)
    assert cmp["paired"] is True
    figs = {f["figure"]: f for f in cmp["quality"]}
    flip = figs["share of games whose leader the final scoring changed"]
    assert (flip["a_mean"], flip["b_mean"]) == (0.2, 0.8) and flip["p_value"] < 0.001
    assert figs["lead changes per game"]["p_value"] == 1.0  # the same in both
    assert any(v["text"].startswith("Share of games whose leader") for v in cmp["verdicts"])
