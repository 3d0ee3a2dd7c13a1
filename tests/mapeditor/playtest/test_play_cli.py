"""``python -m mapeditor play``: arguments, bad input (one line, no traceback), the window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.mapio import load_map, save_map
from engine.resources import bundled_map
from mapeditor import play_cli
from mapeditor.play_cli import UsageError, parse_players, prepare
from mapeditor.playtest import PlaytestWindow

ROOT = Path(__file__).resolve().parents[3]


def test_players_are_parsed_with_names_kinds_and_strength() -> None:
    seats = parse_players("Ann=human, Bob=greedy ,mcts:6,random")
    assert [(s.name, s.kind, s.strength) for s in seats] == [
        ("Ann", "human", 3),
        ("Bob", "greedy", 3),
        ("Green", "mcts", 6),
        ("Yellow", "random", 3),
    ]
    assert len({s.colour for s in seats}) == 4


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("human", "1 players given"),
        ("human,robot", "item 2 'robot': unknown kind 'robot'"),
        ("human,greedy:3", "strength 1..10 goes with mcts only"),
        ("human,mcts:11", "strength 1..10"),
        ("A=human,A=greedy", "the name 'A' is used twice"),
        ("h,h,h,h,h,h,h", "7 players given"),
    ],
)
def test_bad_players_are_named(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_players(text)


def test_prepare_builds_the_setup_from_the_options() -> None:
    m, setup, args = prepare(
        ["france", "--seed", "9", "--players", "Ann=human,greedy,mcts:2", "--towns", "a,c",
         "--meeples", "7", "--no-setup"]
    )  # fmt: skip
    assert m.id == "france"
    assert setup.seed == 9 and [s.name for s in setup.seats] == ["Ann", "Blue", "Green"]
    o = setup.options
    assert (o.town_extra_tile, o.town_cost, o.town_road_bonus) == (True, False, True)
    assert o.meeples == 7 and o.rule_set == "france" and args.no_setup


def test_no_chips_plays_plain_maps_rules() -> None:
    _m, setup, _ = prepare(["benelux", "--no-chips"])
    assert setup.options.rule_set == "none"


def test_the_window_starts_from_the_command_line_setup(qtbot) -> None:
    m, setup, _ = prepare(["iberica", "--seed", "3", "--players", "human,random"])
    w = PlaytestWindow(m, setup, pace_ms=0)
    qtbot.addWidget(w)
    assert w.game.seed == 3 and [r.name for r in w.game.rules] == ["iberica"]
    assert w.human_to_move()


def test_bad_input_exits_2_with_one_line(capsys) -> None:
    assert play_cli.main(["no-such-map"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no-such-map: no such map file, nor a shipped map (")
    assert play_cli.main(["france", "--towns", "d"]) == 2
    assert "--towns: unknown variant(s) d" in capsys.readouterr().err
    assert play_cli.main(["france", "--load", "/nonexistent/game.json"]) == 2
    assert "/nonexistent/game.json: no such file" in capsys.readouterr().err


def test_a_map_with_errors_is_refused_with_its_errors(tmp_path, capsys) -> None:
    m = load_map(bundled_map("example-small"))
    m.start_squares.clear()
    path = tmp_path / "broken.json"
    save_map(m, path)
    assert play_cli.main([str(path), "--no-setup"]) == 1
    err = capsys.readouterr().err
    assert "the map has errors" in err and "too-few-start-squares" in err


def test_no_traceback_from_the_module(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "mapeditor.play_cli", str(bad)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and str(bad) in r.stderr


def test_usage_errors_are_one_line(capsys) -> None:
    assert play_cli.main(["france", "--seed", "many"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed: invalid int value: 'many'" in err
    assert play_cli.main([]) == 2
    assert "the following arguments are required: map" in capsys.readouterr().err


def test_no_display_is_an_error_not_a_crash(tmp_path) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    r = subprocess.run(
        [sys.executable, "-m", "mapeditor.play_cli", "france", "--no-setup"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, env=env,
    )  # fmt: skip
    assert r.returncode == 2
    assert "no display" in r.stderr and "Traceback" not in r.stderr


def test_python_m_mapeditor_play_dispatches_here() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "mapeditor", "play", "no-such-map"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2
    assert r.stderr.startswith("error: no-such-map: no such map file, nor a shipped map")
