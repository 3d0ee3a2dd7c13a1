"""``python -m engine chips``: layout output, options and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.chips import ChipReading, check_layout
from engine.cli import main
from engine.geometry import Edge, Side
from engine.mapdef import (
    Colour,
    EdgeKind,
    LargeCity,
    MapDef,
    NamedRuleSet,
    StartSquare,
    Town,
)
from engine.mapio import load_map, save_map

STARTS = {(2, 2): "Rostock", (13, 2): "Erfurt", (7, 10): "Stuttgart"}


def make_map() -> MapDef:
    m = MapDef(id="cli", name="CLI map", width=16, height=12, rule_set=NamedRuleSet("deutschland"))
    m.land = {(x, y) for x in range(16) for y in range(12)} - {(0, 0), (15, 11)}
    m.start_squares = {sq: StartSquare(name) for sq, name in STARTS.items()}
    m.towns = {(10, 6): Town("Ulm")}
    city = LargeCity("berlin", "Berlin", {(6, 5), (7, 5)})
    city.edges = {Edge(6, 5, Side.N): EdgeKind.CITY}
    m.large_cities = {"berlin": city}
    m.setup.chip_count = 12
    return m


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    path = tmp_path / "cli.json"
    save_map(make_map(), path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["chips", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_ascii_and_json_list(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    code, out, err = run(capsys, str(map_file), "--starts", "Rostock,Erfurt", "--seed", "4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    grid = lines[:12]
    assert all(len(row) == 16 for row in grid)
    assert grid[0][0] == "." and grid[2][2] == "S" and grid[10][7] == "s" and grid[6][10] == "T"
    assert grid[5][6] == "C" and grid[4][6] == ":"  # across Berlin's open side: no chip
    chips = [tuple(sq) for sq in json.loads(lines[-1])]
    assert len(chips) == 12
    assert all(grid[y][x] == "o" for x, y in chips)
    assert sum(row.count("o") for row in grid) == 12
    assert check_layout(load_map(map_file), chips, [(2, 2), (13, 2)], expected=12) == []
    assert "evenness" in out and "Rostock, Erfurt" in out


def test_json_object_is_deterministic_by_seed(
    capsys: pytest.CaptureFixture[str], map_file: Path
) -> None:
    _, a, _ = run(capsys, str(map_file), "--seed", "7", "--json")
    _, b, _ = run(capsys, str(map_file), "--seed", "7", "--json")
    _, c, _ = run(capsys, str(map_file), "--seed", "8", "--json")
    data = json.loads(a)
    assert a == b and json.loads(c)["chips"] != data["chips"]
    assert data["starts"] == ["Rostock", "Stuttgart"]  # default: the first choice, by square
    assert data["count"] == 12 and len(data["chips"]) == 12
    assert data["max_chips"] >= 12 and data["evenness"] > 0


def test_count_and_reading_options(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    code, out, _ = run(
        capsys, str(map_file), "--count", "5", "--reading", "any_city_square", "--json"
    )
    data = json.loads(out)
    assert code == 0 and len(data["chips"]) == 5 and data["reading"] == "any_city_square"
    chips = [tuple(sq) for sq in data["chips"]]
    used = [(2, 2), (7, 10)]
    assert check_layout(make_map(), chips, used, ChipReading.ANY_CITY_SQUARE) == []


def test_start_names_are_case_insensitive(
    capsys: pytest.CaptureFixture[str], map_file: Path
) -> None:
    code, out, _ = run(capsys, str(map_file), "--starts", "erfurt, STUTTGART", "--json")
    assert code == 0 and json.loads(out)["starts"] == ["Erfurt", "Stuttgart"]


def test_unknown_start_name_lists_valid_names(
    capsys: pytest.CaptureFixture[str], map_file: Path
) -> None:
    code, out, err = run(capsys, str(map_file), "--starts", "Rostock,Hamburg")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "'Hamburg'" in err and "Erfurt, Rostock, Stuttgart" in err


def test_too_many_chips_names_the_maximum(
    capsys: pytest.CaptureFixture[str], map_file: Path
) -> None:
    code, out, err = run(capsys, str(map_file), "--count", "1000")
    assert code == 1 and out == ""
    assert "cannot lay out 1000 chips" in err and "at most" in err


@pytest.mark.parametrize(
    "content", [b"", b"not json", b"[1, 2]", b"\x00\x01\xff", b'{"format": "carcassonne-map"}']
)
def test_bad_map_file_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "bad.json" in err
    assert "Traceback" not in err


def test_missing_file_and_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in err and err.count("\n") == 1
    code, _, err = run(capsys, str(tmp_path))
    assert code == 2 and err.count("\n") == 1


def test_great_britain_uses_its_fixed_chip_squares(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    m = make_map()
    m.rule_set = NamedRuleSet("great_britain")
    m.chip_squares = {(4, 4): Colour.PURPLE, (9, 9): Colour.ORANGE}
    path = tmp_path / "gb.json"
    save_map(m, path)
    code, out, _ = run(capsys, str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["fixed_chip_squares"] is True
    assert data["chips"] == [[4, 4], [9, 9]]


def test_runs_as_a_module(map_file: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "chips", str(map_file), "--json", "--seed", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["chips"]) == 12
