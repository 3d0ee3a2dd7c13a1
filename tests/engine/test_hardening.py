"""Hardening of every input: bounded reading, paths in data files, limits and strict integers."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from engine import boundedio
from engine.boundedio import InputFileError, inside_folder, read_bytes
from engine.cli import main
from engine.errors import EngineError, MapFormatError, RecordError
from engine.game import Game, GameOptions
from engine.mapio import (
    MAX_EDITOR_BYTES,
    dumps_map,
    load_map,
    loads_map,
    map_to_dict,
    read_map,
    remove_stale_temporaries,
    save_map,
)
from engine.record import load_record, loads_record, record_of, save_record
from engine.replaying import replay
from engine.resources import bundled_map

EXAMPLE = bundled_map()


def _map_dict() -> dict:
    return map_to_dict(load_map(EXAMPLE))


def _record(**changes: object) -> dict:
    rec = {
        "format": "carcassonne-game-record",
        "format_version": 1,
        "map": None,
        "options": {},
        "seed": 1,
        "players": ["Red", "Blue"],
        "actions": [],
    }
    rec.update(changes)
    return rec


# -- the bounded reader -------------------------------------------------------------------------


def test_special_files_are_refused_without_reading(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="not a regular file .a character device"):
        read_bytes("/dev/zero", limit=100)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError, match="not a regular file .a named pipe"):
        read_bytes(fifo, limit=100)  # opened without blocking: no writer needed
    with pytest.raises(InputFileError, match="is a directory"):
        read_bytes(tmp_path, limit=100)


def test_size_limit_and_bad_paths(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 101)
    with pytest.raises(InputFileError, match="too large"):
        read_bytes(big, limit=100)
    assert read_bytes(big, limit=101) == b" " * 101
    with pytest.raises(InputFileError, match="NUL byte"):
        read_bytes("a\x00b", limit=10)
    with pytest.raises(InputFileError, match="too long .5000 characters") as info:
        read_bytes("a" * 5000, limit=10)
    assert len(str(info.value)) < 300


def test_inside_folder_refuses_paths_leaving_it(tmp_path: Path) -> None:
    naming = tmp_path / "sub" / "record.json"
    naming.parent.mkdir()
    assert inside_folder("map.json", naming) == (naming.parent / "map.json").resolve()
    assert inside_folder("a/../map.json", naming) == (naming.parent / "map.json").resolve()
    for bad in ("../x.json", "/etc/passwd", "../../etc/passwd"):
        with pytest.raises(InputFileError, match="leads outside the folder"):
            inside_folder(bad, naming)
    (naming.parent / "link.json").symlink_to(tmp_path / "outside.json")
    with pytest.raises(InputFileError, match="leads outside the folder"):
        inside_folder("link.json", naming)


def test_every_json_failure_is_one_clear_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(InputFileError, match="nested too deeply"):
        boundedio.read_json(deep, limit=10**6)
    huge = tmp_path / "huge.json"
    huge.write_text("1" * 5000)
    with pytest.raises(InputFileError, match="not valid JSON"):
        boundedio.read_json(huge, limit=10**6)


# -- maps --------------------------------------------------------------------------------------


def test_map_special_files(tmp_path: Path) -> None:
    with pytest.raises(MapFormatError, match="/dev/zero: not a regular file"):
        load_map("/dev/zero")
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)
    with pytest.raises(MapFormatError, match="not a regular file"):
        load_map(fifo)


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("start_squares", 0, "x"), 3.0, "$.start_squares[0].x"),
        (("setup", "chip_count"), -0.0, "$.setup.chip_count"),
        (("grid", "width"), 12.0, "$.grid.width"),
    ],
)
def test_non_integer_numbers_in_integer_fields_are_refused(where, value, path) -> None:
    d = _map_dict()
    node = d
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(MapFormatError, match="is not an integer") as info:
        loads_map(json.dumps(d))
    assert info.value.path == path
    assert path in str(info.value)


def test_number_fields_still_take_decimals() -> None:
    d = _map_dict()
    d["square_size_mm"] = 45.0
    d["editor"] = {"zoom": 2.0}
    assert loads_map(json.dumps(d)).square_size_mm == 45.0


def test_long_value_messages_keep_the_reason() -> None:
    d = _map_dict()
    d["id"] = "x" * 5000
    with pytest.raises(MapFormatError) as info:
        loads_map(json.dumps(d))
    assert "is too long" in str(info.value)
    assert len(str(info.value)) < 300


def test_element_lists_are_bounded_by_the_grid_before_the_schema_check() -> None:
    d = _map_dict()
    w, h = d["grid"]["width"], d["grid"]["height"]
    # invalid entries: refused for their number, before the schema would look at one of them
    squares = w * h + 2 * (w + h) + 64  # a ring around the grid and some slack
    d["towns"] = [{"x": 0, "y": 0, "name": "t", "bad": True}] * (squares + 1)
    with pytest.raises(MapFormatError, match="more than a 12x9 grid can hold .at most 214") as info:
        loads_map(json.dumps(d))
    assert info.value.path == "$.towns"
    d = _map_dict()
    edges = 2 * squares + w + h
    d["border_features"] = [{"x": 0, "y": 0, "side": "N", "kind": "road"}] * (edges + 1)
    with pytest.raises(MapFormatError, match=f"at most {edges}"):
        loads_map(json.dumps(d))
    d = _map_dict()
    d["large_cities"] = [
        {"id": f"c{i}", "name": "", "squares": [{"x": 0, "y": 0}] * 20} for i in range(11)
    ]
    with pytest.raises(MapFormatError, match="220 squares in all large_cities together"):
        loads_map(json.dumps(d))


def test_a_full_element_list_within_the_bound_still_reads() -> None:
    d = _map_dict()
    w, h = d["grid"]["width"], d["grid"]["height"]
    d["waves"] = [{"x": x, "y": y} for y in range(h) for x in range(w)]
    m, _issues = read_map_text(json.dumps(d))
    assert len(m.waves) == w * h
    # repeats are noted one by one up to a cap, then counted in one issue
    d["waves"] = [{"x": 0, "y": 0}] * (w * h)
    m, issues = read_map_text(json.dumps(d))
    assert m.waves == {(0, 0)}
    repeats = [i for i in issues if i.code == "duplicate-square"]
    assert len(repeats) == 51 and f"and {w * h - 1 - 50} more" in repeats[-1].message


def read_map_text(text: str):  # noqa: ANN201 - test helper
    from engine.mapio import _loads

    return _loads(text, "<test>")


def test_fast_and_full_schema_checks_agree_on_shipped_maps() -> None:
    from engine.mapio import _fast_validator, _validator
    from engine.resources import shipped_maps

    fast = _fast_validator()
    assert fast is not None
    for path in shipped_maps():
        data = json.loads(path.read_text(encoding="utf-8"))
        fast(data)
        assert not list(_validator().iter_errors(data))


def test_oversized_editor_block_is_dropped_on_load_and_refused_on_save(tmp_path: Path) -> None:
    d = _map_dict()
    d["editor"] = {"junk": "x" * (MAX_EDITOR_BYTES + 10)}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(d))
    m, issues = read_map(path)
    assert m.editor == {}
    assert [i.code for i in issues] == ["editor-settings-dropped"]
    m.editor = {"junk": "x" * (MAX_EDITOR_BYTES + 10)}
    with pytest.raises(MapFormatError, match=r"\$.editor: editor settings hold"):
        dumps_map(m)


def test_stale_temporaries_are_cleaned_on_save_and_open(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    save_map(load_map(EXAMPLE), target)
    old = time.time() - 3600
    stale = [tmp_path / f".m.json.{k}.tmp" for k in ("abc", "def")]
    fresh = tmp_path / ".m.json.new.tmp"  # a save in progress right now
    other = tmp_path / ".other.json.abc.tmp"
    for p in (*stale, fresh, other):
        p.write_text("partial")
        if p is not fresh:
            os.utime(p, (old, old))
    load_map(target)
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and other.exists()
    for p in stale:
        p.write_text("partial")
        os.utime(p, (old, old))
    save_map(load_map(target), target)
    assert not any(p.exists() for p in stale)
    assert remove_stale_temporaries(target) == 0


# -- records -----------------------------------------------------------------------------------


def test_record_map_paths_stay_in_the_record_folder(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (tmp_path / "secret.json").write_text(EXAMPLE.read_text())
    for written in ("../secret.json", str(tmp_path / "secret.json"), "../../etc/passwd"):
        path = folder / "r.json"
        path.write_text(json.dumps(_record(map={"path": written})))
        with pytest.raises(RecordError, match="leads outside the folder"):
            load_record(path)
    (folder / "mine.json").write_text(EXAMPLE.read_text())
    path.write_text(json.dumps(_record(map={"path": "mine.json"})))
    assert Path(load_record(path).map_path or "") == (folder / "mine.json").resolve()
    # a shipped map is named by its file name, wherever the record is
    path.write_text(json.dumps(_record(map={"path": "maps/france.json"})))
    assert Path(load_record(path).map_path or "").name == "france.json"


def test_record_map_path_to_a_fifo_or_device_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record(map={"path": "pipe.json"})))
    with pytest.raises(RecordError, match="not a regular file"):
        replay(load_record(path))


def test_saved_record_names_its_map_portably(tmp_path: Path) -> None:
    elsewhere = tmp_path / "maps-of-mine"
    elsewhere.mkdir()
    save_map(load_map(EXAMPLE), elsewhere / "m.json")
    g = Game(load_map(elsewhere / "m.json"), seed=3, map_path=str(elsewhere / "m.json"))
    games = tmp_path / "games"
    games.mkdir()
    save_record(record_of(g), games / "r.json")
    saved = json.loads((games / "r.json").read_text())
    assert "embedded" in saved["map"]  # the map lies outside the record's folder
    save_record(record_of(g), elsewhere / "r.json")
    assert json.loads((elsewhere / "r.json").read_text())["map"] == {"path": "m.json"}
    assert replay(load_record(elsewhere / "r.json")).state_summary() == g.state_summary()


def test_rule_set_names_are_looked_up_never_imported() -> None:
    for name in ("..", "os", "base", "../../x"):
        with pytest.raises(EngineError, match="unknown rule set"):
            replay(loads_record(json.dumps(_record(options={"rule_set": name}))))


def test_record_integers_and_action_count() -> None:
    with pytest.raises(RecordError, match="seed: 3.0 is not of type 'integer'"):
        loads_record(json.dumps(_record(seed=3.0)))
    with pytest.raises(RecordError, match="more than a game can have"):
        loads_record(json.dumps(_record(actions=[{"type": "pass"}] * 20_001)))


@pytest.mark.parametrize(
    "make",
    [
        lambda d: str(_write(d / "deep.json", "[" * 100_000)),
        lambda d: str(d / "a\x00b.json"),
        lambda d: "a" * 5000,
        lambda d: str(_write(d / "big.json", " " * (20 * 1024 * 1024 + 1))),
        lambda d: "/dev/zero",
    ],
    ids=["deep-json", "nul-in-path", "5000-char-path", "oversized", "dev-zero"],
)
def test_replay_cli_bad_input_is_one_line_exit_2(tmp_path: Path, capsys, make) -> None:
    arg = make(tmp_path)
    assert main(["replay", arg]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 400


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_validate_cli_special_files(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for arg in ("/dev/zero", str(fifo), "a\x00b.json", "a" * 5000):
        assert main(["validate", arg]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) < 400
        assert "not a regular file" in err or "NUL byte" in err or "too long" in err


def test_options_integers_in_records(tmp_path: Path) -> None:
    rec = _record(options={"meeples": 7.0})
    with pytest.raises(RecordError, match="options/meeples"):
        loads_record(json.dumps(rec))
    assert GameOptions.from_dict({}) is not None
