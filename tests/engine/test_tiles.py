"""The 114 land tiles as data, rotations, pools and tile set files (engine.tiles)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.data.build_tiles import parse_reference
from engine.errors import TileSetError
from engine.resources import data_dir
from engine.tiles import (
    HALVES,
    OPPOSITE_HALF,
    ROTATIONS,
    SIDES,
    Segment,
    TileSet,
    TileType,
    default_tileset,
    load_tileset,
    rotate_half,
    rotate_side,
    tileset_from_dict,
)

TS = default_tileset()
ALL = list(TS)


def _of(expansion: str) -> list[TileType]:
    return [t for t in ALL if t.expansion == expansion]


# --------------------------------------------------------------------------- totals (tiles.md §2)


def test_tile_totals_per_set() -> None:
    assert sum(t.count for t in _of("base")) == 72
    assert sum(t.count for t in _of("ic")) == 18
    assert sum(t.count for t in _of("tb")) == 24
    assert (len(_of("base")), len(_of("ic")), len(_of("tb"))) == (24, 17, 24)


def test_ids_are_the_stable_letters() -> None:
    letters = [chr(c) for c in range(ord("A"), ord("X") + 1)]
    assert [t.id for t in _of("base")] == letters
    assert [t.id for t in _of("ic")] == [f"IC-{c}" for c in "ABCDEFGHIJKLMNOPQ"]
    assert [t.id for t in _of("tb")] == [f"TB-{c}" for c in letters]


def test_base_counts_per_letter() -> None:
    expected = "A2 B4 C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1"
    assert {t.id: t.count for t in _of("base")} == {w[0]: int(w[1:]) for w in expected.split()}
    assert TS["IC-K"].count == 2
    assert all(t.count == 1 for t in _of("ic") if t.id != "IC-K")
    assert all(t.count == 1 for t in _of("tb"))


@pytest.mark.parametrize(
    ("expansion", "totals"),
    [("base", (115, 94, 79)), ("ic", (17, 24, 31)), ("tb", (19, 25, 52))],
)
def test_edge_totals_per_set(expansion: str, totals: tuple[int, int, int]) -> None:
    letters = Counter()
    for t in _of(expansion):
        for ch in t.edges:
            letters[ch] += t.count
    assert (letters["F"], letters["R"], letters["C"]) == totals


def test_base_clockwise_edge_pairs_match_russcon() -> None:
    pairs = Counter()
    for t in _of("base"):
        for i in range(4):
            pairs[t.edges[i] + t.edges[(i + 1) % 4]] += t.count
    expected = "FF46 FR38 RF38 RR38 FC31 CF31 CC30 CR18 RC18"
    assert pairs == {w[:2]: int(w[2:]) for w in expected.split()}


def test_coats_of_arms() -> None:
    base = {t.id: t.coats_of_arms * t.count for t in _of("base") if t.coats_of_arms}
    assert base == {"C": 1, "F": 2, "M": 2, "O": 2, "Q": 1, "S": 2}
    assert sum(base.values()) == 10
    assert [t.id for t in _of("ic") if t.coats_of_arms] == ["IC-L", "IC-P", "IC-Q"]
    assert not any(t.coats_of_arms for t in _of("tb"))
    # coats of arms sit on cities only; on IC-P it is the N+W city, not the S cap
    assert all(s.kind == "city" for t in ALL for s in t.segments if s.coats_of_arms)
    assert [s.edges for s in TS["IC-P"].segments if s.coats_of_arms] == [("N", "W")]


def test_monasteries() -> None:
    assert {t.id: t.count for t in ALL if t.has_monastery} == {"A": 2, "B": 4, "IC-D": 1, "TB-J": 1}
    assert all(sum(s.kind == "monastery" for s in t.segments) <= 1 for t in ALL)


def test_expansion_markers() -> None:
    inns = [t.id for t in ALL for s in t.segments if s.inn]
    assert inns == ["IC-A", "IC-B", "IC-C", "IC-L", "IC-M", "IC-N"]
    # the T-junction inn is on the E road only
    assert [s.edges for s in TS["IC-C"].segments if s.inn] == [("E",)]
    assert [(t.id, t.count) for t in ALL for s in t.segments if s.cathedral] == [("IC-K", 2)]
    goods = Counter(s.goods for t in ALL for s in t.segments if s.goods)
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}
    without = [t.id for t in _of("tb") if not any(s.goods for s in t.segments)]
    assert without == ["TB-A", "TB-B", "TB-C", "TB-J"]
    assert all(s.kind == "city" for t in ALL for s in t.segments if s.goods or s.cathedral)
    assert all(s.kind == "road" for t in ALL for s in t.segments if s.inn)


# --------------------------------------------------------------------------- segment geometry


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_fields_cover_exactly_the_halves_of_field_and_road_edges(tile: TileType) -> None:
    halves = [h for s in tile.segments if s.kind == "field" for h in s.edges]
    expected = {
        side + lr for side, ch in zip(SIDES, tile.edges, strict=True) if ch in "FR" for lr in "LR"
    }
    assert len(halves) == len(set(halves))
    assert set(halves) == expected


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_city_and_road_segments_cover_their_edges_once(tile: TileType) -> None:
    for kind, letter in (("city", "C"), ("road", "R")):
        sides = [e for s in tile.segments if s.kind == kind for e in s.edges]
        assert len(sides) == len(set(sides))
        assert set(sides) == {
            side for side, ch in zip(SIDES, tile.edges, strict=True) if ch == letter
        }
    for s in tile.segments:
        if s.kind == "road":
            assert 1 <= len(s.edges) <= 2
            assert (s.ends is not None) == (len(s.edges) == 1)
        if s.kind == "monastery":
            assert s.edges == ()


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_field_cities_reference_city_segments(tile: TileType) -> None:
    for s in tile.segments:
        if s.kind == "field":
            assert all(tile.segments[i].kind == "city" for i in s.cities)
        else:
            assert s.cities == ()


def test_special_geometry_from_the_reference() -> None:
    def kinds(tid: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(s.kind, s.edges) for s in TS[tid].segments]

    # start tile D: city N, road through W–E, field above the road touches the city
    assert kinds("D")[:2] == [("city", ("N",)), ("road", ("E", "W"))]
    assert TS["D"].segments[2] == Segment("field", ("EL", "WR"), cities=(0,))
    # H: two separate caps, one field touching both
    assert TS["H"].segments[2].cities == (0, 1)
    # inner fields (no half-edges)
    inner = sorted(t.id for t in ALL for s in t.segments if s.kind == "field" and not s.edges)
    assert inner == ["IC-H", "TB-M", "TB-N", "TB-P", "TB-X"]
    assert TS["IC-H"].segments[-1].cities == (0, 1, 2, 3)
    # bridge TB-B: two roads that never meet, four fields
    assert [s.edges for s in TS["TB-B"].segments if s.kind == "road"] == [("N", "S"), ("E", "W")]
    # road endings
    assert TS["A"].segments[0].ends == "monastery"
    assert [s.ends for s in TS["TB-C"].segments if s.kind == "road"] == ["house", "city"]
    assert {s.ends for s in TS["X"].segments} == {"junction", None}


# --------------------------------------------------------------------------- rotations


def test_rotate_half_follows_the_reference() -> None:
    table = "NL>EL NR>ER EL>SL ER>SR SL>WL SR>WR WL>NL WR>NR"
    for pair in table.split():
        a, b = pair.split(">")
        assert rotate_half(a, 90) == b
    for h in HALVES:
        assert rotate_half(h, 360) == h == rotate_half(h, 0)
        assert rotate_half(rotate_half(h, 90), 270) == h
        assert rotate_half(h, 180) == rotate_half(rotate_half(h, 90), 90)
        # rotating commutes with looking across the border
        assert OPPOSITE_HALF[rotate_half(h, 90)] == rotate_half(OPPOSITE_HALF[h], 90)
    assert OPPOSITE_HALF["NL"] == "SR" and OPPOSITE_HALF["EL"] == "WR"


def test_rotate_side() -> None:
    assert [rotate_side("N", r) for r in ROTATIONS] == ["N", "E", "S", "W"]
    assert rotate_side("W", 90) == "N"
    assert rotate_side("E", -90) == "N"
    with pytest.raises(ValueError, match="multiple of 90"):
        rotate_side("N", 45)


def test_edges_at() -> None:
    d = TS["D"]
    assert [d.edges_at(r) for r in ROTATIONS] == ["CRFR", "RCRF", "FRCR", "RFRC"]
    # the Wikicarpedia pictures of M, N and U are the JCZ definition turned 90° clockwise
    assert TS["M"].edges_at(90) == "CCFF"
    assert TS["U"].edges_at(90) == "RFRF"
    assert TS["C"].distinct_rotations() == (0,)
    assert TS["U"].distinct_rotations() == (0, 90)
    assert TS["D"].distinct_rotations() == (0, 90, 180, 270)


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_rotated_segments_agree_with_rotated_edges(tile: TileType) -> None:
    for r in ROTATIONS:
        edges = tile.edges_at(r)
        segs = tile.segments_at(r)
        assert len(segs) == len(tile.segments)
        for s, s0 in zip(segs, tile.segments, strict=True):
            assert (s.kind, s.cities, s.coats_of_arms) == (s0.kind, s0.cities, s0.coats_of_arms)
            for e in s.edges:
                letter = edges[SIDES.index(e[0])]
                assert letter == {"city": "C", "road": "R"}.get(s.kind, letter)
                assert s.kind != "field" or letter in "FR"


def test_rotated_start_tile_segments() -> None:
    segs = TS["D"].segments_at(90)
    assert segs[0].edges == ("E",)
    assert set(segs[1].edges) == {"N", "S"}
    assert set(segs[2].edges) == {"SL", "NR"}


# --------------------------------------------------------------------------- pools


def test_standard_pool_sizes() -> None:
    assert len(TS.pool("base")) == 72
    assert len(TS.pool("base+ic")) == 90
    assert len(TS.pool()) == 114
    assert Counter(TS.pool("base"))["D"] == 4
    assert Counter(TS.pool())["IC-K"] == 2
    assert TS.pool_names() == ["base", "base+ic", "base+ic+tb"]


def test_a_pool_is_a_fresh_list_each_time() -> None:
    """Pools are listed once per name and kept; the game removes and shuffles what it gets, which
    must not change the next game's pool; an unknown name is never kept."""
    first = TS.full_pool("base")
    first.clear()
    game_pool = TS.pool("base")
    game_pool.remove("D")
    assert len(TS.full_pool("base")) == 72 and len(TS.pool("base")) == 72
    with pytest.raises(TileSetError):
        TS.full_pool("base+river")
    with pytest.raises(TileSetError):
        TS.full_pool("base+river")


def test_subset_pool_keeps_a_start_tile_and_is_a_sub_multiset() -> None:
    full = Counter(TS.pool())
    for seed in range(40):
        sub = TS.pool("base+ic+tb", 90 + seed % 11, random.Random(seed))
        assert len(sub) == 90 + seed % 11
        assert "D" in sub
        assert not Counter(sub) - full
    assert TS.pool("base", 1, random.Random(3)) == ["D"]
    assert Counter(TS.pool("base", 72, random.Random(3))) == Counter(TS.pool("base"))


def test_subset_pool_is_deterministic_with_a_seeded_rng() -> None:
    a = TS.pool("base+ic+tb", 95, random.Random(7))
    b = TS.pool("base+ic+tb", 95, random.Random(7))
    c = TS.pool("base+ic+tb", 95, random.Random(8))
    assert a == b
    assert a != c


@pytest.mark.parametrize("size", [0, 115, -3])
def test_subset_pool_size_out_of_range(size: int) -> None:
    with pytest.raises(TileSetError, match=r"size .* out of range.*1\.\.114"):
        TS.pool("base+ic+tb", size, random.Random(0))


def test_unknown_pool_name() -> None:
    with pytest.raises(TileSetError, match=r"'base\+river'.*river.*valid pools: base, base\+ic"):
        TS.pool("base+river")


def test_edge_signatures() -> None:
    base = TS.edge_signatures("base")
    assert {"CRFR", "RCRF", "FRCR", "RFRC", "CCCC", "FFFF", "RRRR"} <= base
    assert "CRCR" not in base  # only I&C I has two city caps with roads between
    assert "CRCR" in TS.edge_signatures("base+ic")
    assert TS.edge_signatures(["U"]) == {"FRFR", "RFRF"}
    assert TS.edge_signatures(TS.pool("base")) == base


def test_unknown_tile_id_names_it_and_lists_valid_ids() -> None:
    with pytest.raises(TileSetError, match=r"unknown tile id 'Z'.*valid ids: A, B, C") as info:
        TS["Z"]
    assert "TB-X" in str(info.value)


def test_default_tileset_is_cached() -> None:
    assert default_tileset() is default_tileset()
    assert isinstance(default_tileset(), TileSet)


# --------------------------------------------------------------------------- files and schema


def _bundled() -> dict[str, Any]:
    return json.loads((data_dir() / "tiles.json").read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: Any, name: str = "set.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _tile_index(data: dict[str, Any], tid: str) -> int:
    return next(i for i, t in enumerate(data["tiles"]) if t["id"] == tid)


def test_bundled_file_loads_explicitly(tmp_path: Path) -> None:
    ts = load_tileset(_write(tmp_path, _bundled()))
    assert ts.types == TS.types
    assert ts.start_tile == "D"


def _break_edges(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "D")]["edges"] = "CRXR"


def _break_kind(d: dict[str, Any]) -> None:
    d["tiles"][0]["segments"][0]["kind"] = "river"


def _break_half(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "E")]["segments"][1]["edges"].append("NL")


def _break_city_ref(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "D")]["segments"][2]["cities"] = [1]


def _break_road_edge(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "U")]["segments"][0]["edges"] = ["E", "S"]


def _break_missing_field(d: dict[str, Any]) -> None:
    del d["tiles"][_tile_index(d, "V")]["segments"][2]


def _break_duplicate(d: dict[str, Any]) -> None:
    d["tiles"][1]["id"] = "A"


def _break_count(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "U")]["count"] = 0


def _break_extra_key(d: dict[str, Any]) -> None:
    d["tiles"][_tile_index(d, "S")]["segments"][1]["coats_of_arms"] = 1


def _break_start(d: dict[str, Any]) -> None:
    d["start_tile"] = "Z"


@pytest.mark.parametrize(
    ("breaker", "expected"),
    [
        (_break_edges, r"\$\.tiles\[3\]\.edges: 'CRXR' does not match"),
        (_break_kind, r"\$\.tiles\[0\]\.segments\[0\]\.kind: 'river' is not one of"),
        (_break_half, r"\$\.tiles\[4\]\.segments\[1\]\.edges: tile E: field half NL lies on city"),
        (_break_city_ref, r"\$\.tiles\[3\]\.segments\[2\]\.cities\[0\]: tile D: .*not a city"),
        (_break_road_edge, r"\$\.tiles\[20\]\.segments\[0\]\.edges: tile U: road on edge S, but"),
        (_break_missing_field, r"\$\.tiles\[21\]\.edges: tile V: half-edge SR of edge S is in no"),
        (_break_duplicate, r"\$\.tiles\[1\]\.id: duplicate tile id 'A'"),
        (_break_count, r"\$\.tiles\[20\]\.count: 0 is less than the minimum of 1"),
        (
            _break_extra_key,
            r"\$\.tiles\[18\]\.segments\[1\]: Additional properties .*coats_of_arms",
        ),
        (_break_start, r"\$\.start_tile: start tile 'Z' is not a tile of the set"),
    ],
    ids=lambda v: getattr(v, "__name__", "msg"),
)
def test_broken_files_are_rejected_precisely(tmp_path: Path, breaker: Any, expected: str) -> None:
    data = _bundled()
    breaker(data)
    path = _write(tmp_path, data, "broken.json")
    with pytest.raises(TileSetError) as info:
        load_tileset(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert re.search(expected, message), message


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(TileSetError, match=r"missing\.json: no such file"):
        load_tileset(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(TileSetError, match=r"bad\.json: not valid JSON: .* line 1"):
        load_tileset(bad)
    with pytest.raises(TileSetError, match=r"<data>: \$: 'format' is a required property"):
        tileset_from_dict({"name": "x", "tiles": []})


CUSTOM = {
    "format": "carcassonne-tileset",
    "format_version": 1,
    "name": "Designer's lakes",
    "start_tile": "LAKE-1",
    "tiles": [
        {
            "id": "LAKE-1",
            "name": "Road along a lake",
            "expansion": "lakes",
            "count": 3,
            "edges": "FRFR",
            "segments": [
                {"kind": "road", "edges": ["E", "W"]},
                {"kind": "field", "edges": ["WR", "NL", "NR", "EL"]},
                {"kind": "field", "edges": ["ER", "SL", "SR", "WL"]},
            ],
        },
        {
            "id": "LAKE-2",
            "name": "Keep with a moat",
            "expansion": "lakes",
            "count": 2,
            "edges": "FFFC",
            "segments": [
                {"kind": "city", "edges": ["W"], "coats_of_arms": 2},
                {"kind": "field", "edges": ["NL", "NR", "EL", "ER", "SL", "SR"], "cities": [0]},
            ],
        },
    ],
}


def test_designer_tile_set_loads_on_its_own(tmp_path: Path) -> None:
    ts = load_tileset(_write(tmp_path, CUSTOM))
    assert list(ts.types) == ["LAKE-1", "LAKE-2"]
    assert ts.pool("lakes") == ["LAKE-1"] * 3 + ["LAKE-2"] * 2
    assert ts.pool("lakes", 2, random.Random(1)).count("LAKE-1") >= 1
    assert ts["LAKE-2"].coats_of_arms == 2
    assert ts["LAKE-2"].edges_at(90) == "CFFF"
    with pytest.raises(TileSetError, match="valid pools: lakes"):
        ts.pool("base")


def test_designer_tile_set_can_extend_the_default(tmp_path: Path) -> None:
    data = dict(CUSTOM, extends="default", start_tile="D")
    ts = load_tileset(_write(tmp_path, data))
    assert len(ts.pool("base+ic+tb")) == 114
    assert len(ts.pool("base+ic+tb+lakes")) == 119
    assert ts.pool_names()[-1] == "base+ic+tb+lakes"
    assert len(TS.types) == 65  # the cached default set is untouched
    clash = dict(CUSTOM, extends="default", start_tile="D")
    clash["tiles"] = [dict(CUSTOM["tiles"][0], id="U")]
    with pytest.raises(TileSetError, match=r"\$\.tiles\[0\]\.id: duplicate tile id 'U'"):
        load_tileset(_write(tmp_path, clash, "clash.json"))


# --------------------------------------------------------------------------- the generator


REFERENCE_SNIPPET = """
## 3. Base game (72 tiles)

| Letter | JCZ id(s) | Count | Edges N,E,S,W (JCZ orientation) | Wikicarpedia C3 picture, if different | City segments (edges joined by +; separate segments by ;) | Road segments | Field segments (half-edges) → adjacent city | Coats of arms | Monastery | Notes |
|---|---|---|---|---|---|---|---|---|---|---|
| L | `BA/CRRR` | 3 | `CRRR` | — | N | E (ends at junction); S (ends at junction); W (ends at junction) | {WR EL} → city N<br>{WL SR} → no city<br>{ER SL} → no city | 0 | — | City cap N. |

## 5. Traders & Builders (24 land tiles)

| Wikicarpedia letter (secondary, see notes) | JCZ id(s) | Count | Edges N,E,S,W (JCZ orientation) | City segments (goods) | Road segments | Field segments → adjacent city | Coats of arms | Monastery | Notes |
|---|---|---|---|---|---|---|---|---|---|
| X | `TB/CcCc.w` | 1 | `CCCC` | N+W [goods: wine]; E+S | — | {I (inner, no edge)} → city N+W, E+S | 0 | — | Two **cities**. |
"""  # noqa: E501


def test_generator_reads_reference_rows() -> None:
    tiles = parse_reference(REFERENCE_SNIPPET)
    assert [t["id"] for t in tiles] == ["L", "TB-X"]
    assert tiles[0]["segments"][1] == {"kind": "road", "edges": ["E"], "ends": "junction"}
    assert tiles[0]["segments"][4] == {"kind": "field", "edges": ["WR", "EL"], "cities": [0]}
    assert tiles[1]["segments"] == [
        {"kind": "city", "edges": ["N", "W"], "goods": "wine"},
        {"kind": "city", "edges": ["E", "S"]},
        {"kind": "field", "edges": [], "cities": [0, 1]},
    ]
    assert tiles[1]["description"] == "Two cities."
    assert tiles[1]["expansion"] == "tb" and tiles[1]["count"] == 1
