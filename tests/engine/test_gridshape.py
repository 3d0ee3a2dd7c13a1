"""Grid shaping: crop, resize and shift move every element with its squares and list what falls
off first; size guidance from the tile pool."""

from __future__ import annotations

import pytest

from engine.geometry import Edge, Side
from engine.gridshape import (
    GridShapeError,
    content_bounds,
    crop_to_content,
    default_tile_pool,
    reshape,
    reshape_losses,
    resize,
    shift,
    size_advice,
    target_squares,
)
from engine.mapdef import (
    BorderFeature,
    Colour,
    EdgeKind,
    Ferry,
    Island,
    IslandSquare,
    LargeCity,
    MapDef,
    StartSquare,
    Town,
    Track,
)
from engine.mapio import dumps_map, loads_map
from engine.resources import bundled_map
from engine.validation import validate_map


def _sample() -> MapDef:
    m = MapDef(id="s", name="S", width=12, height=10)
    m.land = {(x, y) for x in range(3, 8) for y in range(2, 6)} | {(10, 4)}
    m.start_squares[(3, 2)] = StartSquare("A")
    m.towns[(4, 3)] = Town("T")
    m.large_cities["c"] = LargeCity(
        "c", "C", {(5, 3), (6, 3)}, 1, {Edge(5, 3, Side.N): EdgeKind.CITY}
    )
    m.border_features[Edge(7, 5, Side.E)] = BorderFeature(EdgeKind.ROAD, 1, "X")
    m.land_borders = {Edge(7, 5, Side.E), Edge(7, 4, Side.E)}
    m.ferries["f"] = Ferry("f", Edge(7, 4, Side.E), Edge(10, 4, Side.W))
    m.islands["i"] = Island("i", "I", Colour.ORANGE, {(10, 4): IslandSquare()})
    m.waves = {(4, 5)}
    m.chip_squares = {(3, 5): Colour.PURPLE}
    m.tracks = {1: Track(1, (0, 1, 2)), 2: Track(2, (8, 9))}
    m.editor["neighbours"] = [{"x": 7, "y": 5, "side": "E", "name": "X"}]
    m.editor["underlay"] = {"path": "a.png", "transform": [1.0, 0.0, 0.0, 1.0, 0.5, 0.25]}
    return m


def test_crop_keeps_everything_and_moves_it_by_the_same_offset() -> None:
    m = _sample()
    c = crop_to_content(m, margin=1)
    assert (c.width, c.height) == (10, 6)  # x 3..10, y 2..5 plus one square all round
    assert content_bounds(c) == (1, 1, 8, 4)
    dx, dy = -2, -1
    assert c.land == {(x + dx, y + dy) for x, y in m.land}
    assert set(c.start_squares) == {(1, 1)} and set(c.towns) == {(2, 2)}
    assert c.large_cities["c"].squares == {(3, 2), (4, 2)}
    assert c.large_cities["c"].edges == {Edge(3, 2, Side.N): EdgeKind.CITY}
    assert set(c.border_features) == {Edge(5, 4, Side.E)}
    assert c.land_borders == {Edge(5, 4, Side.E), Edge(5, 3, Side.E)}
    assert (c.ferries["f"].a, c.ferries["f"].b) == (Edge(5, 3, Side.E), Edge(8, 3, Side.W))
    assert set(c.islands["i"].squares) == {(8, 3)}
    assert c.waves == {(2, 4)} and set(c.chip_squares) == {(1, 4)}
    assert c.tracks[1].rows == (0, 1) and 2 not in c.tracks  # rows 8, 9 -> 7, 8: off the grid
    assert c.editor["neighbours"] == [{"x": 5, "y": 4, "side": "E", "name": "X"}]
    assert c.editor["underlay"]["transform"] == [1.0, 0.0, 0.0, 1.0, -1.5, -0.75]
    assert reshape_losses(m, 10, 6, dx, dy) == ["row(s) of track 1", "row(s) of track 2"]
    # The original is untouched, and the result survives a save.
    assert m.width == 12 and (3, 2) in m.start_squares
    assert loads_map(dumps_map(c)) == c


def test_losses_are_listed_before_they_go() -> None:
    m = _sample()
    lost = reshape_losses(m, 6, 10)  # cut at x = 6
    assert lost[0] == (
        "9 map square(s): (6, 2), (7, 2), (6, 3), (7, 3), (6, 4), (7, 4), (10, 4), (6, 5), (7, 5)"
    )
    assert "large city C (c)" in lost and "ferry f" in lost
    assert "border road at (7, 5) E" in lost and "1 square(s) of island I" in lost
    r = resize(m, 6, 10)
    assert "c" not in r.large_cities and "f" not in r.ferries and "i" not in r.islands
    assert not r.border_features and max(x for x, _ in r.land) == 5


def test_shift_and_resize_anchors() -> None:
    m = _sample()
    s = shift(m, 1, 2)
    assert (s.width, s.height) == (12, 10) and (4, 4) in s.start_squares
    grown = resize(m, 16, 14, anchor="c")
    assert set(grown.start_squares) == {(5, 4)}
    assert resize(m, 16, 14, anchor="se").start_squares.keys() == {(7, 6)}
    with pytest.raises(GridShapeError, match="anchor"):
        resize(m, 5, 5, anchor="middle")
    with pytest.raises(GridShapeError, match="outside"):
        reshape(m, 0, 5)


def test_crop_of_a_shipped_map_is_a_no_op_and_it_still_validates() -> None:
    from engine.mapio import load_map

    m = load_map(bundled_map("deutschland"))
    c = crop_to_content(m)
    assert (c.width, c.height) == (m.width, m.height) and c == m
    moved = shift(resize(m, m.width + 2, m.height + 2), 1, 1)
    assert [i for i in validate_map(moved) if i.severity.value == "error"] == []


def test_size_guidance() -> None:
    assert target_squares((110, 120)) == 184  # 1.6 x 115, as the shipped maps
    assert default_tile_pool(184) == (110, 120)
    assert default_tile_pool(60)[1] < 60
    assert default_tile_pool(80) == (45, 55)  # a 10 x 8 map, filled
    assert default_tile_pool(10_000) == (110, 120)  # never more than the whole pool
    assert size_advice(10_450).too_many and "far more" in size_advice(10_450).message
    assert not size_advice(190).too_many and not size_advice(190).too_few


def test_cli_verbs_list_losses_and_write_only_when_accepted(tmp_path, capsys) -> None:
    from engine.cli import main
    from engine.mapio import load_map, save_map

    src = tmp_path / "s.json"
    save_map(_sample(), src)
    before = src.read_bytes()
    assert main(["resize", str(src), "6", "10"]) == 1
    out = capsys.readouterr()
    assert "large city C (c)" in out.out and "--yes" in out.err
    assert src.read_bytes() == before  # nothing written
    assert main(["crop", str(src), "-o", str(tmp_path / "c.json")]) == 1  # track 1 row 0..2
    assert main(["crop", str(src), "--yes", "-o", str(tmp_path / "c.json")]) == 0
    assert (load_map(tmp_path / "c.json").width, load_map(tmp_path / "c.json").height) == (10, 6)
    assert main(["shift", str(src), "1", "0", "--yes"]) == 0
    assert (4, 2) in load_map(src).start_squares
    assert main(["resize", str(src), "0", "3"]) == 2
    assert main(["ferries", str(src), "--apply"]) == 0
    assert "land part(s)" in capsys.readouterr().out
