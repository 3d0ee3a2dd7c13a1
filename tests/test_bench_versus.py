"""benchmarks/bench_versus.py: two checkouts' bots play each other, their engines kept in step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_versus import OutOfStep, Side, play, summary  # noqa: E402


def test_two_sides_play_a_paired_deal_in_step() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_versus.py"),
            "--base",
            ".",
            "--deals",
            "1",
        ]
        + [
            "--new-set",
            "iterations=2",
            "--base-set",
            "iterations=2",
            "--new-set",
            "evaluation=learned",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "deal 0 new in seat 1" in out.stdout and "deal 0 new in seat 2" in out.stdout
    assert "classic: new won " in out.stdout and "/2 = " in out.stdout
    assert "ERROR" not in out.stdout


def test_a_side_runs_under_the_interpreter_it_is_given() -> None:
    # bench_cross's --peer-python: a worker under another interpreter (here this one, named)
    side = Side.start("named", REPO, REPO, python=sys.executable)
    try:
        args = side.proc.args
        assert isinstance(args, list) and args[0] == sys.executable and "-P" not in args
        answer = side.ask({"new": {"table": "classic", "deal": 3, "bot": {}, "seed": 7}})
        assert answer["state"][0] == 0  # the first turn of a new game
    finally:
        side.kill()


class _Scripted:
    """A side that plays one placement and then reports the state it is told to."""

    def __init__(self, name: str, after_move: list[Any]) -> None:
        self.name = name
        self.after_move = after_move

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        start = [0, "PLACE", 0, "A", [0, 0], [7, 7], 0, False]
        if "choose" in request:
            return {"action": {"type": "pass"}, "cpu": 0.1, "searched": 1, "state": self.after_move}
        if "apply" in request:
            return {"state": self.after_move}
        return {"state": start}


def test_engines_out_of_step_stop_the_game_naming_the_deal_and_both_states() -> None:
    mine = [1, "PLACE", 1, "B", [0, 0], [7, 7], 1, False]
    theirs = [1, "PLACE", 1, "C", [0, 0], [7, 7], 1, False]
    sides = (_Scripted("new", mine), _Scripted("base", theirs))
    with pytest.raises(
        OutOfStep, match=r"deal 4: after .* the new engine has .*'B'.* the base engine .*'C'"
    ):
        play(sides, "classic", 4, 0, ({}, {}))  # type: ignore[arg-type]


def _game(deal: int, seat: int, result: float, margin: int) -> dict[str, object]:
    return {
        "deal": deal,
        "seat": seat,
        "result": result,
        "margin": margin,
        "cpu": [1.0, 2.0],
        "searched": [10, 10],
    }


def test_summary_of_one_deal_says_it_has_no_margin_interval() -> None:
    one = summary([_game(0, 0, 1.0, 12), _game(0, 1, 0.0, -4)], "classic")
    assert "margin +4.0 (one deal: no interval)" in one
    assert "nan" not in one
    two = summary(
        [_game(0, 0, 1.0, 12), _game(0, 1, 0.0, -4), _game(1, 0, 1.0, 6), _game(1, 1, 1.0, 2)],
        "classic",
    )
    assert "margin +4.0 (" in two and "over deals" in two and "nan" not in two
    assert "won 3/4" in two and "CPU per searched move: new 0.100 s, base 0.200 s" in two
