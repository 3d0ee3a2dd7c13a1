"""The tuner (engine.analysis.tune): parsing, judging, the search and the command line."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from engine.analysis.simulate import SimConfig, SimResult
from engine.analysis.tune import (
    Target,
    TuneParam,
    figure_values,
    judge,
    parse_target,
    parse_tune,
    tune,
)
from engine.cli import main
from engine.errors import EngineError


def test_parameters_and_targets_are_read_or_refused_by_name() -> None:
    assert parse_tune(["tile_count=60..90", "rule.ones_per_colour=0..10", "rule.x=0.5..2"]) == [
        TuneParam("tile_count", 60, 90),
        TuneParam("rule.ones_per_colour", 0, 10),
        TuneParam("rule.x", 0.5, 2),
    ]
    assert not TuneParam("rule.x", 0.5, 2).integer
    assert parse_target(["seat1=0.5±0.03", "turns=90+-5", "share.chip=0.1+/-0.02"]) == [
        Target("seat1", 0.5, 0.03),
        Target("turns", 90.0, 5.0),
        Target("share.chip", 0.1, 0.02),
    ]
    for bad, why in (
        (["tile_count=60"], "write NAME=LOW..HIGH"),
        (["speed=1..2"], "unknown parameter 'speed'"),
        (["tile_count=90..60"], "LOW must be below HIGH"),
        (["tile_count=6.5..9"], "tile_count takes whole numbers"),
        (["tile_count=a..9"], "'a' is not a number"),
        (["tile_count=1..9", "tile_count=2..3"], "given twice"),
    ):
        with pytest.raises(EngineError, match=why):
            parse_tune(bad)
    for bad, why in (
        (["seat1=0.5"], "write FIGURE=VALUE±TOL"),
        (["fun=1±1"], "unknown figure 'fun'"),
        (["turns=90±0"], "tolerance must be positive"),
        ([], "at least one --target"),
    ):
        with pytest.raises(EngineError, match=why):
            parse_target(bad)


def test_a_target_is_met_inside_its_band_and_cannot_be_wholly_outside() -> None:
    t = Target("turns", 90, 5)
    assert t.status((86, 94)) == "met"
    assert t.status((84, 94)) == "open"
    assert t.status((96, 99)) == "cannot"
    assert t.status((math.nan, math.nan)) == "open"


def _game(seat0_won: bool, turns: int, chip: int) -> dict[str, Any]:
    return {
        "players": 2,
        "winners": [0] if seat0_won else [1],
        "scores": [10, 5] if seat0_won else [5, 10],
        "turns": turns,
        "points": {"chip": chip, "city": 100 - chip},
    }


def test_figures_are_taken_per_game() -> None:
    games = [_game(True, 80, 10), _game(False, 90, 30)]
    assert figure_values("seat1", games) == [1.0, 0.0]
    assert figure_values("share.chip", games) == [0.1, 0.3]
    assert figure_values("share.wine", games) == [0.0, 0.0]
    verdict = judge([Target("turns", 85, 20)], games)
    assert verdict["figures"][0]["mean"] == 85 and verdict["games"] == 2


def _fake_run(calls: list[SimConfig]):
    """Games whose length is the tile count less 2, give or take one, and whose chip share
    grows with ``rule.bonus`` (seeded by the config's seed: reproducible, no engine)."""

    def run(config: SimConfig) -> SimResult:
        calls.append(config)
        rng = random.Random(config.seed)
        bonus = dict(config.rule_options).get("bonus", 0)
        games = [
            _game(
                rng.random() < 0.5,
                (config.tile_count or 72) - 2 + rng.choice((-1, 0, 1)),
                5 * bonus + rng.randint(0, 4),
            )
            for _ in range(config.games)
        ]
        return SimResult(config, "fake", "none", games=games)

    return run


def test_the_tuner_finds_values_meeting_two_targets_and_stops() -> None:
    calls: list[SimConfig] = []
    params = parse_tune(["tile_count=40..120", "rule.bonus=0..10"])
    targets = parse_target(["turns=70±2", "share.chip=0.3±0.04"])
    got = tune(
        _fake_run(calls), SimConfig(seed=4), params, targets, trials=60, min_games=20, max_games=180
    )
    assert got["met"] is True
    best = got["best"]["values"]
    assert 69 <= best["tile_count"] <= 75 and 5 <= best["rule.bonus"] <= 6
    assert got["trials"] < 60  # stopped at the first candidate meeting both
    # every candidate's rung k plays the same deals
    seeds = {(c.games, c.seed) for c in calls}
    assert len({s for _g, s in seeds}) <= 3
    again = tune(
        _fake_run([]), SimConfig(seed=4), params, targets, trials=60, min_games=20, max_games=180
    )
    assert again["best"] == got["best"] and again["tried"] == got["tried"]


def test_the_tuner_says_when_the_range_cannot_meet_a_target() -> None:
    got = tune(
        _fake_run([]),
        SimConfig(seed=1),
        parse_tune(["tile_count=40..50"]),
        parse_target(["turns=90±2"]),
        trials=5,
        min_games=20,
        max_games=60,
    )
    assert got["met"] is False and got["best"]["status"] == "cannot"
    assert all(e["rungs"][-1]["games"] == 20 for e in got["tried"])  # dropped at once


def test_the_command_line_tunes_a_shipped_map(tmp_path, capsys) -> None:
    out = tmp_path / "tune"
    args = ["simulate", "example-small", "--tune", "tile_count=30..50", "--target", "turns=36±4"]
    more = ["--tune-games", "6..18", "--tune-trials", "6", "--tune-check", "6", "--workers", "1"]
    assert main([*args, *more, "--quiet", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("tuning: met: tile_count=")
    result = json.loads((out / "tuning.json").read_text())
    assert result["met"] and result["check"]["games"] == 6
    assert "## Every candidate" in (out / "tuning.md").read_text()
    assert main(["simulate", "example-small", "--target", "turns=3±1", "--quiet"]) == 2
    assert "--target goes with --tune" in capsys.readouterr().err
    bad = ["simulate", "deutschland", "--tune", "rule.chip_count=10..45", "--target", "turns=90±2"]
    assert main([*bad, "--quiet", "--out", str(tmp_path / "no")]) == 2
    err = capsys.readouterr().err
    assert (
        "--tune rule.chip_count=45: rule_options.chip_count: 45 is not an integer in 0..30" in err
    )
    assert not (tmp_path / "no").exists()  # refused before any game
