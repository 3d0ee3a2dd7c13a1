"""``python -m engine validate`` and ``python -m engine info``: reports, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.geometry import Edge, Side
from engine.mapdef import Ferry, MapDef, Setup, StartSquare
from engine.mapio import dumps_map, map_to_dict
from engine.resources import bundled_map

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = str(bundled_map("example-small"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def plain_map(**changes: object) -> MapDef:
    m = MapDef(
        id="plain",
        name="Plain",
        width=6,
        height=4,
        setup=Setup(2, 0, 5, 10),
        land={(x, y) for x in range(6) for y in range(4)},
        start_squares={(0, 0): StartSquare("A"), (5, 3): StartSquare("B")},
    )
    for key, value in changes.items():
        setattr(m, key, value)
    return m


def write_map(tmp_path: Path, m: MapDef, name: str) -> str:
    p = tmp_path / name
    p.write_text(dumps_map(m), encoding="utf-8")
    return str(p)


def warning_only_map(tmp_path: Path) -> str:
    m = plain_map()
    m.land -= {(2, 1), (4, 1)}  # two ponds; the ferry line crosses (3, 1): a warning
    m.ferries["f"] = Ferry("f", Edge(1, 1, Side.E), Edge(5, 1, Side.W))
    return write_map(tmp_path, m, "warn.json")


def invalid_map(tmp_path: Path) -> str:
    m = plain_map()
    del m.start_squares[(5, 3)]
    return write_map(tmp_path, m, "bad.json")


# -- validate --------------------------------------------------------------------------------


def test_validate_valid_map(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", EXAMPLE)
    assert code == 0
    assert out == f"{EXAMPLE}: valid (0 error(s), 0 warning(s))\n"
    assert err == ""


def test_validate_invalid_map_lists_issues(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = invalid_map(tmp_path)
    code, out, _ = run(capsys, "validate", path)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{path}: INVALID (1 error(s), 0 warning(s))"
    assert lines[1].startswith(
        "  error too-few-start-squares at (0, 0): the map has 1 start square"
    )


def test_strict_fails_on_warnings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = warning_only_map(tmp_path)
    code, out, _ = run(capsys, "validate", path)
    assert code == 0
    assert "warning ferry-crosses-land at ferry 'f'" in out
    code, out, _ = run(capsys, "validate", "--strict", path)
    assert code == 1
    assert f"{path}: INVALID (0 error(s), 1 warning(s))" in out


def test_json_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = invalid_map(tmp_path)
    warn = warning_only_map(tmp_path)
    code, out, err = run(capsys, "validate", "--json", EXAMPLE, bad, warn)
    assert code == 1
    assert err == ""
    data = json.loads(out)
    assert data["valid"] is False and data["strict"] is False
    files = {f["file"]: f for f in data["files"]}
    assert files[EXAMPLE]["valid"] is True and files[EXAMPLE]["issues"] == []
    issue = files[bad]["issues"][0]
    assert issue["code"] == "too-few-start-squares" and issue["severity"] == "error"
    assert issue["where"]["squares"] == [[0, 0]]
    assert files[warn]["valid"] is True and files[warn]["warnings"] == 1
    assert files[warn]["issues"][0]["where"]["ferry"] == "f"
    code, out, _ = run(capsys, "validate", "--json", "--strict", warn)
    assert code == 1 and json.loads(out)["files"][0]["valid"] is False


def test_validate_includes_load_time_issues(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = map_to_dict(plain_map())
    data["start_squares"].append(dict(data["start_squares"][0]))
    p = tmp_path / "dup.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(p))
    assert code == 0
    assert "warning duplicate-square at (0, 0)" in out
    assert run(capsys, "validate", "--strict", str(p))[0] == 1


def test_tile_pool_and_chip_reading_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "validate", "--tile-pool", "base", EXAMPLE)[0] == 0
    code, out, err = run(capsys, "validate", "--tile-pool", "nope", EXAMPLE)
    assert code == 2 and out == ""
    assert err.startswith("--tile-pool: unknown tile pool 'nope'") and err.count("\n") == 1
    assert run(capsys, "validate", "--chip-reading", "any_city_square", EXAMPLE)[0] == 0


BAD_INPUTS: list[tuple[str, bytes | None, str]] = [
    ("empty.json", b"", "the file is empty"),
    ("text.json", b"hello there", "not valid JSON"),
    ("binary.json", bytes(range(256)), "not a text file (binary data)"),
    ("array.json", b"[1, 2]", "not a map: the file holds an array"),
    ("other.json", b'{"name": "x"}', "not a Carcassonne map"),
    ("deep.json", None, "$.large_cities[0].coats_of_arms: 'two' is not of type 'integer'"),
    ("newer.json", None, "format_version 99 is newer than this program supports"),
    ("huge.json", None, "file is too large (50.0 MB"),
    ("folder", None, "is a directory, not a map file"),
    ("missing.json", None, "no such file"),
]


def make_bad(tmp_path: Path, name: str, content: bytes | None) -> str:
    p = tmp_path / name
    if content is not None:
        p.write_bytes(content)
    elif name == "deep.json":
        data = json.loads(bundled_map("example-small").read_text(encoding="utf-8"))
        data["large_cities"][0]["coats_of_arms"] = "two"
        p.write_text(json.dumps(data), encoding="utf-8")
    elif name == "newer.json":
        data = json.loads(bundled_map("example-small").read_text(encoding="utf-8"))
        data["format_version"] = 99
        p.write_text(json.dumps(data), encoding="utf-8")
    elif name == "huge.json":
        with open(p, "wb") as fh:
            fh.truncate(50 * 1024 * 1024)
    elif name == "folder":
        p.mkdir()
    return str(p)


@pytest.mark.parametrize(("name", "content", "message"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
@pytest.mark.parametrize("command", ["validate", "info"])
def test_bad_input_is_one_line_naming_the_file(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: str,
    name: str,
    content: bytes | None,
    message: str,
) -> None:
    path = make_bad(tmp_path, name, content)
    code, out, err = run(capsys, command, path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"{path}: ")
    assert message in err
    assert "Traceback" not in err


def test_unreadable_file_wins_over_invalid_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = invalid_map(tmp_path)
    code, out, err = run(capsys, "validate", bad, str(tmp_path / "missing.json"), EXAMPLE)
    assert code == 2
    assert f"{bad}: INVALID" in out and f"{EXAMPLE}: valid" in out
    assert err == f"{tmp_path / 'missing.json'}: no such file\n"


def test_json_output_with_an_unreadable_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = make_bad(tmp_path, "array.json", b"[]")
    code, out, err = run(capsys, "validate", "--json", path)
    assert code == 2
    entry = json.loads(out)["files"][0]
    assert entry["readable"] is False and "not a map" in entry["error"]
    assert err.startswith(f"{path}: not a map")


def test_validate_as_a_subprocess_never_shows_a_traceback(tmp_path: Path) -> None:
    path = make_bad(tmp_path, "binary.json", b"\x00\x01\x02")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "validate", path, EXAMPLE],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # bundled files are found through engine.resources, not the cwd
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2
    assert proc.stderr == f"{path}: not a text file (binary data)\n"
    assert f"{EXAMPLE}: valid" in proc.stdout


# -- info --------------------------------------------------------------------------------------


def test_info_prints_summary_and_drawing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "info", EXAMPLE)
    assert code == 0 and err == ""
    assert "Map:                  Example (small) (example-small)" in out
    for line in [
        "Map squares:          72",
        "Placeable squares:    67",
        "Large-city squares:   2",
        "Towns:                3",
        "Start squares:        3 (Westford, Northtown, Southtown), 2 used",
        "Border features:      2",
        "Ferries:              1",
        "Islands:              2",
        "Gated island squares: 4",
        "Stack squares:        2",
        "Wave squares:         1",
        "Land parts:           3",
    ]:
        assert line in out
    assert "Ferry ferry-east: (8, 6) E <-> (10, 7) W, 1 coat(s) of arms" in out
    assert "Border road at (4, 0) N to Northland, 1 coat(s) of arms" in out
    assert "open sides (6, 3) W, (7, 3) N, roads (7, 3) E" in out
    assert "3 # # # # # # C C # # # ." in out
    assert "7 = = . . . . . . . . g g" in out
    assert "Legend: # map square, S start square" in out


def test_ascii_drawing_with_a_chip_overlay() -> None:
    from engine.ascii import draw_map
    from engine.mapio import load_map

    m = load_map(EXAMPLE)
    text = draw_map(m, chips=[(4, 4)], rulers=False, legend=False)
    assert text.splitlines()[4] == "# S # # * # # # # ~ . ."
    assert text.splitlines()[0] == "M . # # # # # # # # . ."


def test_the_readmes_validate_command_checks_maps_and_rule_sets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = sorted(str(p) for p in bundled_map().parent.glob("*.json"))
    assert any(f.endswith(".ruleset.json") for f in files)
    code, out, err = run(capsys, "validate", *files)
    assert (code, err) == (0, "")
    assert "italia.ruleset.json: valid (0 error(s), 0 warning(s))" in out


def test_a_rule_set_file_with_mistakes_is_invalid_naming_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.ruleset.json"
    path.write_text(json.dumps({"format": "carcassonne-maps-ruleset", "version": 1, "name": "x"}))
    code, out, _ = run(capsys, "validate", "--json", str(path))
    report = json.loads(out)["files"][0]
    assert code == 1 and report["kind"] == "ruleset" and not report["valid"]
    assert {i["code"] for i in report["issues"]} == {"ruleset-invalid"}
    assert "'supply' is a required property" in report["issues"][0]["message"]


def test_a_file_that_is_neither_a_map_nor_a_rule_set_is_unreadable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"format": "other"}')
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "not a Carcassonne map" in err
