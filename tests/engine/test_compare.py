"""Comparisons, sweeps and mixed tables (engine.analysis.compare, engine.analysis.sweep, SimConfig.seats)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.analysis.compare import compare_runs, fisher_p, mann_whitney_p, verdicts
from engine.analysis.simulate import SimConfig, SimResult, simulate
from engine.analysis.sweep import config_at, parse_sweep, sweep
from engine.cli import main
from engine.errors import EngineError
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


def _facts(i: int, winner: int, score: int, *, start: int = 0) -> dict[str, Any]:
    scores = [score, score - 5] if winner == 0 else [score - 5, score]
    return {
        "index": i,
        "players": 2,
        "scores": scores,
        "winners": [winner],
        "turns": 50,
        "start": [[3, 2], [1 + start, 4]],
        "placed": [[0, 0, 0]] * 40,
        "set_aside": [],
        "points": {"city": score},
        "rule_events": {},
        "actions": {},
        "cities": {},
    }


def _result(m, games: list[dict[str, Any]]) -> SimResult:
    return SimResult(SimConfig(games=len(games)), m.id, "none", games=games)


def test_a_seat_advantage_that_goes_away_is_a_verdict_for_b(small) -> None:
    # A: seat 1 wins 80 of 100 games; B: 50 of 100 (fair: 50 %)
    a = [_facts(i, 0 if i < 80 else 1, 100) for i in range(100)]
    b = [_facts(i, 0 if i < 50 else 1, 100) for i in range(100)]
    cmp = compare_runs(small, _result(small, a), small, _result(small, b))
    seat = cmp["seats"][0]["seats"][0]
    assert (seat["a_wins"], seat["b_wins"]) == (80, 50)
    assert seat["p_value"] == pytest.approx(fisher_p(80, 100, 50, 100), abs=1e-6)
    assert seat["p_value"] < 0.001
    assert cmp["headline"].startswith("B is fairer to seat 1 (p < 0.001)")
    assert "80 % of 2-player games in A, 50 % in B (fair: 50 %)" in cmp["headline"]
    # scores did not change: no verdict about them
    assert not any("score" in v["text"] for v in cmp["verdicts"])


def test_per_game_numbers_are_tested_and_named(small) -> None:
    a = [_facts(i, i % 2, 100 + i % 7) for i in range(60)]
    b = [_facts(i, i % 2, 120 + i % 7) for i in range(60)]
    cmp = compare_runs(small, _result(small, a), small, _result(small, b))
    texts = [v["text"] for v in cmp["verdicts"]]
    assert any(t.startswith("Winning score: higher in B (p < 0.001)") for t in texts)
    assert not any("fairer" in t for t in texts)  # seats are the same in both
    ps = [v["p_value"] for v in cmp["verdicts"]]
    assert ps == sorted(ps)
    assert mann_whitney_p([1, 2, 3], [1, 2, 3]) == 1.0


def test_no_difference_says_so(small) -> None:
    games = [_facts(i, i % 2, 90) for i in range(40)]
    cmp = compare_runs(small, _result(small, games), small, _result(small, games))
    assert verdicts(cmp) == []
    assert cmp["headline"].startswith("No difference between A and B at p < 0.05 in 40 games")


def test_cli_compare_writes_one_report(tmp_path: Path, small, capsys) -> None:
    # B: the example map without its third start square (the choice of two is fixed)
    data = json.loads(bundled_map("example-small").read_text())
    data["start_squares"] = data["start_squares"][:2]
    b_path = tmp_path / "two-starts.json"
    b_path.write_text(json.dumps(data))
    out = tmp_path / "cmp"
    args = [
        "simulate",
        "--compare",
        "example-small",
        str(b_path),
        "--games",
        "12",
        "--bot",
        "random",
        "--workers",
        "1",
        "--quiet",
        "--no-charts",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    said = capsys.readouterr().out
    assert said.startswith("verdict: ")
    cmp = json.loads((out / "comparison.json").read_text())
    assert cmp["a"]["label"] == "example-small" and cmp["b"]["label"] == "two-starts"
    assert cmp["start_spread"]["a"]["choices"] > 1 and cmp["start_spread"]["b"]["choices"] == 1
    md = (out / "comparison.md").read_text()
    # both files named as they were given; what differs between them listed
    assert md.startswith(f"# Balance comparison: example-small (A) and {b_path} (B)")
    assert cmp["a"]["file"] == "example-small" and cmp["b"]["file"] == str(b_path)
    assert "- start square Southtown removed" in md
    assert "## Seat fairness" in md and "## Rule figures" in md
    assert "<table>" in (out / "comparison.html").read_text()


def test_cli_compare_needs_two_maps_and_no_map(capsys) -> None:
    assert main(["simulate", "example-small", "--compare", "a.json", "b.json"]) == 2
    assert "--compare A B takes no MAP" in capsys.readouterr().err
    assert main(["simulate", "--compare", "example-small", "nowhere.json", "--quiet"]) == 2
    assert "nowhere.json" in capsys.readouterr().err


def test_mixed_tables_rotate_the_bots(small) -> None:
    config = SimConfig(games=8, players=(3,), seats=("mcts", "random"), seed=2)
    assert [config.bots_of(i, 3) for i in range(4)] == [  # the third seat: config.bot
        ["mcts", "random", "greedy"],
        ["greedy", "mcts", "random"],
        ["random", "greedy", "mcts"],
        ["mcts", "random", "greedy"],
    ]
    config = SimConfig(games=8, players=(2,), seats=("greedy", "random"), bot="random", seed=2)
    result = simulate(small, config, workers=1)
    assert [g["bots"] for g in result.games[:2]] == [["greedy", "random"], ["random", "greedy"]]
    from engine.analysis.balance import bot_figures

    figs = {f["bot"]: f for f in bot_figures(result.games)}
    assert figs["greedy"]["seats_played"] == figs["random"]["seats_played"] == 8
    assert figs["greedy"]["wins"] > figs["random"]["wins"]
    with pytest.raises(EngineError, match="seats: bot 'clever': 'clever' is not one of"):
        SimConfig(seats=("clever",))


def test_sweep_grid_and_errors(small) -> None:
    axes = parse_sweep(["players=2,3", "rule.wine_limit=round,turn", "seats=greedy/random"])
    assert axes == {
        "players": [2, 3],
        "rule.wine_limit": ["round", "turn"],
        "seats": [("greedy", "random")],
    }
    c = config_at(SimConfig(), {"players": 3, "rule.wine_limit": "turn", "start_squares": 3})
    assert c.players == (3,) and c.rule_options == (("wine_limit", "turn"),)
    assert c.start_squares_used == 3
    for bad, msg in (
        (["colour=red"], "unknown parameter 'colour'"),
        (["players"], "write NAME=V1,V2"),
        (["players=two"], "not a whole number"),
        (["players=2", "players=3"], "given twice"),
        (
            [f"tile_count={','.join(map(str, range(2, 30)))}", "players=2,3,4,5,6,7,8,9"],
            "at most 200",
        ),
    ):
        with pytest.raises(EngineError, match=msg):
            parse_sweep(bad)


def test_sweep_takes_rule_set_numbers_and_start_squares() -> None:
    """``ruleset/PATH`` and ``start.NAME`` sweep as the tuner searches them: each point plays
    the candidate's map (``map_edits``)."""
    axes = parse_sweep(["ruleset/mechanics/vino/pay/value=1,3", "start.Bari=21,17| 19,15"])
    assert axes == {
        "ruleset/mechanics/vino/pay/value": [1, 3],
        "start.Bari": ["21,17", "19,15"],
    }
    italia = load_map(bundled_map("italia"))
    base = SimConfig(games=2, bot="random", seed=3, rules=True, start_squares_used=3)
    played: list[SimConfig] = []

    def run(c: SimConfig) -> SimResult:
        played.append(c)
        return simulate(italia, c, workers=1)

    rep = sweep(italia, base, axes, run=run)
    assert [c.map_edits for c in played][1:3] == [
        (("ruleset/mechanics/vino/pay/value", 1), ("start.Bari", "19,15")),
        (("ruleset/mechanics/vino/pay/value", 3), ("start.Bari", "21,17")),
    ]
    # every start square is used: the games of a moved Bari start from its new square
    starts = [{tuple(sq) for g in run(c).games for sq in g["start"]} for c in played[:2]]
    assert (21, 17) in starts[0] and (19, 15) in starts[1] and (21, 17) not in starts[1]
    assert len(rep["rows"]) == 4
    for bad, msg in (
        (["start.Bari=21,17|19"], r"--sweep 'start.Bari=21,17\|19': '19' is not a square x,y"),
        (["ruleset/supply/per_colour=four"], "'four' is not a number"),
        (["ruleset/=1"], "unknown parameter 'ruleset/'"),
    ):
        with pytest.raises(EngineError, match=msg):
            parse_sweep(bad)


def test_sweep_plays_every_point(small) -> None:
    base = SimConfig(games=4, bot="random", seed=1)
    played: list[SimConfig] = []

    def run(c: SimConfig) -> SimResult:
        played.append(c)
        return simulate(small, c, workers=1)

    rep = sweep(small, base, parse_sweep(["players=2,3", "start_squares=2,3"]), run=run)
    assert [(c.players, c.start_squares_used) for c in played] == [
        ((2,), 2),
        ((2,), 3),
        ((3,), 2),
        ((3,), 3),
    ]
    assert [list(r["seats"]) for r in rep["rows"]] == [["2"], ["2"], ["3"], ["3"]]
    assert [
        len(r["seats"][str(c.players[0])]["seats"])
        for r, c in zip(rep["rows"], played, strict=True)
    ] == [2, 2, 3, 3]
    # three start squares used: every game starts from all three
    three = simulate(small, played[1], workers=1)
    assert all(len(g["start"]) == 3 for g in three.games)
    assert all(len(g["start"]) == 2 for g in simulate(small, played[0], workers=1).games)


def test_cli_sweep_writes_a_table_and_a_chart_per_parameter(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "sw"
    args = [
        "simulate",
        "example-small",
        "--sweep",
        "players=2,3",
        "--sweep",
        "tile_count=30,40",
        "--games",
        "3",
        "--bot",
        "random",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    rep = json.loads((out / "sweep.json").read_text())
    assert len(rep["rows"]) == 4
    assert {p.name for p in out.glob("*.png")} == {"sweep-players.png", "sweep-tile_count.png"}
    md = (out / "sweep.md").read_text()
    assert "## By players" in md and "## By tile_count" in md
