"""Batch playtests (engine.analysis.simulate) and the simulate command: the facts and figures of a run
match an independent replay of its games through the public Game API, and a run is reproducible
from its seed whatever the number of workers."""

from __future__ import annotations

import json
import multiprocessing
import statistics
from pathlib import Path

import pytest

from engine.analysis.balance import balance_report
from engine.analysis.report import report_json, write_report
from engine.analysis.simulate import (
    Cancelled,
    SimConfig,
    chunks,
    game_seed,
    make_bots,
    simulate,
)
from engine.bots import make_bot
from engine.cli import main
from engine.errors import EngineError
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


def _replay(m, config: SimConfig, index: int) -> Game:
    """Game ``index`` of a run, played again here with checked ``play()`` (independent of the
    harness: only the seed derivation and the bots' seeds are shared)."""
    seed = game_seed(config.seed, index)
    players = config.players[index % len(config.players)]
    game = Game(m, players=players, seed=seed, options=GameOptions(rule_set="none"))
    bots = make_bots(config, players, seed)
    while not game.is_over():
        game.play(bots[game.to_move].choose(game))
    return game


def test_figures_match_a_hand_computed_run_of_three_games(small) -> None:
    config = SimConfig(games=3, players=(2,), bot="random", seed=11)
    result = simulate(small, config, workers=1)
    games = [_replay(small, config, i) for i in range(3)]
    report = balance_report(small, result)

    # per-game facts
    for facts, g in zip(result.games, games, strict=True):
        assert facts["scores"] == g.scores
        assert facts["turns"] == g.turn
        best = max(g.scores)
        assert facts["winners"] == [i for i, s in enumerate(g.scores) if s == best]
        assert {(x, y) for x, y, _ in facts["placed"]} == set(g.board.tiles)
        assert facts["set_aside"] == g.set_aside
        assert facts["ferries"] == sorted(g.board.opened_ferries)
        for kind in ("city", "road", "monastery", "field"):
            expected = sum(e.points * len(e.players) for e in g.events if e.kind == kind)
            assert facts["points"].get(kind, 0) == expected

    # aggregates, computed by hand from the replayed games
    seats = report["scores"]["2"]["seats"]
    for s in range(2):
        assert seats[s]["mean"] == pytest.approx(
            statistics.fmean(g.scores[s] for g in games), abs=1e-3
        )
        assert seats[s]["max"] == max(g.scores[s] for g in games)
    wins = report["wins"]["2"]["seats"]
    for s in range(2):
        won = sum(1 for g in games if g.scores[s] == max(g.scores))
        assert wins[s]["count"] == won
        assert wins[s]["rate"] == pytest.approx(won / 3, abs=1e-4)
    placeable = small.placeable_squares()
    share = statistics.fmean(len(g.board.tiles) / len(placeable) for g in games)
    assert report["fill"]["share"]["mean"] == pytest.approx(share, abs=1e-3)
    assert report["length"]["all"]["mean"] == pytest.approx(
        statistics.fmean(g.turn for g in games), abs=1e-3
    )
    built = {sq: sum(1 for g in games if sq in g.board.tiles) for sq in placeable}
    grid = report["fill"]["built_rate"]
    for (x, y), n in built.items():
        assert grid[y][x] == pytest.approx(n / 3, abs=1e-4)
    never = sorted([x, y] for (x, y), n in built.items() if n == 0)
    assert report["fill"]["never_reached"] == never
    per_game_set_aside = statistics.fmean(len(g.set_aside) for g in games)
    assert report["fill"]["set_aside"]["per_game"]["mean"] == pytest.approx(
        per_game_set_aside, abs=1e-3
    )
    # how early: mean placement number of a square (start tiles 0) over the games that built it
    sq = next(iter(sorted(s for s, n in built.items() if n == 3)))
    order = [g.board.order.index(sq) - len(g.start_tiles) + 1 for g in games]
    expected_early = statistics.fmean(max(0, k) for k in order)
    assert report["fill"]["mean_placement"][sq[1]][sq[0]] == pytest.approx(expected_early, abs=0.01)
    # ferry use and large city completion rates
    ferry = report["features"]["ferries"][0]
    assert ferry["used"]["count"] == sum(1 for g in games if "ferry-east" in g.board.opened_ferries)
    city = report["features"]["large_cities"][0]
    f_done = sum(
        1
        for g in games
        if g.board.features.find(g.board.city_node["grandville"]) in g.board.features.done
    )
    assert city["completed"]["count"] == f_done
    # start-square choices: every game counted once, under the set of its start squares
    assert sum(c["games"] for c in report["start_choices"]) == 3
    for c in report["start_choices"]:
        key = sorted(tuple(s) for s in c["squares"])
        n = sum(1 for g in games if sorted(sq for sq, _t, _r in g.start_tiles) == key)
        assert c["games"] == n


def test_same_seed_same_report_whatever_the_workers(small) -> None:
    config = SimConfig(games=6, players=(2, 3), bot="random", seed=5)
    one = simulate(small, config, workers=1)
    two = simulate(small, config, workers=2)
    assert one.games == two.games
    assert report_json(balance_report(small, one)) == report_json(balance_report(small, two))
    other = simulate(small, SimConfig(games=6, players=(2, 3), bot="random", seed=6), workers=1)
    assert other.games != one.games
    assert [g["players"] for g in one.games] == [2, 3, 2, 3, 2, 3]


def test_greedy_run_is_reproducible_and_records_rules(small) -> None:
    config = SimConfig(games=2, bot="greedy", seed=3)
    a = simulate(small, config, workers=1)
    b = simulate(small, config, workers=1)
    assert a.games == b.games
    assert a.rule_set == "none"


def test_map_chips_rule_figures_are_collected() -> None:
    m = load_map(bundled_map("deutschland"))
    result = simulate(m, SimConfig(games=1, bot="random", seed=2), workers=1)
    facts = result.games[0]
    assert result.rule_set == "deutschland"
    chip_events = facts["rule_events"]["chip"][0]
    # every chip taken from the board is a "chip" scoring event, and counted per colour and seat
    assert sum(facts["chips"].values()) == chip_events == sum(facts["seat_chips"])
    assert facts["actions"].get("upgrade_meeple", 0) == sum(
        1 for a in facts["rule_actions"] if a["type"] == "upgrade_meeple"
    )
    report = balance_report(m, result)
    assert report["chips"]["available"]
    assert report["rules"]["figures"]["meeples_upgraded"]["mean"] == facts["actions"].get(
        "upgrade_meeple", 0
    )


def test_rules_off_plays_plain_maps_and_says_so(small) -> None:
    m = load_map(bundled_map("deutschland"))
    result = simulate(m, SimConfig(games=1, bot="random", rules=False), workers=1)
    assert result.rule_set == "none"
    report = balance_report(m, result)
    assert not report["chips"]["available"]
    assert "without Map-Chips" in report["chips"]["why"]
    assert report["rules"]["played"] is False


def test_progress_and_cancel(small) -> None:
    seen: list[tuple[int, int]] = []
    simulate(
        small,
        SimConfig(games=3, bot="random"),
        workers=1,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]
    calls = iter([False, False, True])
    with pytest.raises(Cancelled) as info:
        simulate(small, SimConfig(games=5, bot="random"), workers=1, cancel=lambda: next(calls))
    assert len(info.value.games) == 2
    # in parallel: cancelling once the first games are in stops the run and its worker processes
    started: list[int] = []
    others = set(multiprocessing.active_children())  # e.g. a playtest's bot process
    with pytest.raises(Cancelled) as info:
        simulate(
            small,
            SimConfig(games=40, bot="greedy"),
            workers=2,
            progress=lambda d, t: started.append(d),
            cancel=lambda: bool(started),
        )
    assert 0 < len(info.value.games) < 40
    assert set(multiprocessing.active_children()) - others == set()


def test_chunks_cover_every_game_once() -> None:
    for games, workers in ((1, 2), (7, 2), (100, 2), (1000, 4)):
        flat = [i for c in chunks(games, workers) for i in c]
        assert flat == list(range(games))


def test_bad_config_is_a_precise_error() -> None:
    with pytest.raises(EngineError, match="games"):
        SimConfig(games=0)
    with pytest.raises(EngineError, match="players"):
        SimConfig(players=(7,))
    with pytest.raises(EngineError, match="bot"):
        SimConfig(bot="clever")


def test_bots_differ_per_seat() -> None:
    bots = make_bots(SimConfig(bot="random"), 3, 42)
    assert len({b.rng.random() for b in bots}) == 3
    assert make_bot("random").name == "random"


# -- command line ---------------------------------------------------------------------------------


def test_cli_writes_the_report(tmp_path: Path, capsys) -> None:
    out = tmp_path / "rep"
    code = main(
        [
            "simulate",
            str(bundled_map("example-small")),
            "--games",
            "3",
            "--bot",
            "random",
            "--workers",
            "1",
            "--seed",
            "4",
            "--no-charts",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "3 games" in captured.out
    assert "3/3" in captured.err and "game/s" in captured.err  # the tqdm progress bar
    data = json.loads((out / "report.json").read_text())
    assert data["run"]["games_played"] == 3
    assert data["run"]["seed"] == 4
    assert (out / "report.md").read_text().startswith("# Balance report: Example (small)")
    assert "<table>" in (out / "report.html").read_text()
    # a shipped map by name, same seed: the same JSON
    out2 = tmp_path / "rep2"
    args = ["simulate", "example-small", "--games", "3", "--bot", "random", "--workers", "1"]
    assert main([*args, "--seed", "4", "--no-charts", "--quiet", "--out", str(out2)]) == 0
    assert (out2 / "report.json").read_bytes() == (out / "report.json").read_bytes()


def test_cli_bad_input_is_an_error_not_a_traceback(tmp_path: Path, capsys) -> None:
    assert main(["simulate", str(tmp_path / "nope.json"), "--out", str(tmp_path)]) == 2
    assert "error:" in capsys.readouterr().err
    small = str(bundled_map("example-small"))
    assert main(["simulate", small, "--players", "two", "--out", str(tmp_path)]) == 2
    assert "--players" in capsys.readouterr().err
    assert main(["simulate", small, "--players", "9", "--out", str(tmp_path)]) == 2
    assert main(["simulate", small, "--games", "0", "--out", str(tmp_path)]) == 2
    assert main(["simulate", small, "--workers", "0", "--out", str(tmp_path)]) == 2


def test_report_without_matplotlib_has_tables_and_says_so(small, tmp_path, monkeypatch) -> None:
    import engine.analysis.report as rep

    result = simulate(small, SimConfig(games=2, bot="random"), workers=1)
    report = balance_report(small, result)
    monkeypatch.setattr(rep, "has_matplotlib", lambda: False)
    files = write_report(report, tmp_path, small)
    assert not list(tmp_path.glob("*.png"))
    md = files["markdown"].read_text()
    assert "Charts need matplotlib" in md and "[report]" in md
    assert "| seat |" in md


def test_report_charts_when_matplotlib_is_there(small, tmp_path) -> None:
    import engine.analysis.report as rep

    result = simulate(small, SimConfig(games=4, bot="random"), workers=1)
    files = write_report(balance_report(small, result), tmp_path, small)
    if rep.has_matplotlib():
        charts = sorted(p.name for p in tmp_path.glob("*.png"))
        assert charts == ["features.png", "heatmap.png", "overview.png"]
        assert "![" in files["markdown"].read_text()
        assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in tmp_path.glob("*.png"))
    else:
        assert not list(tmp_path.glob("*.png"))


def test_a_map_that_cannot_be_played_is_a_clear_error(small, tmp_path: Path, capsys) -> None:
    from engine.mapio import save_map

    broken = small.copy()
    broken.start_squares = {}
    with pytest.raises(EngineError, match="no start squares"):
        simulate(broken, SimConfig(games=2, bot="random"), workers=1)
    path = tmp_path / "nostart.json"
    save_map(broken, path)
    assert main(["simulate", str(path), "--games", "2", "--out", str(tmp_path / "r")]) == 2
    assert "no start squares" in capsys.readouterr().err
